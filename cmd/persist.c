/* persist: Vietoris-Rips persistent cohomology of points or a distance matrix. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "topo.h"
#include "util.h"

#define IN_AUTO (-1)
#define IN_POINTS 100	/* the other inputs are RT_MATRIX_* */

static uint64_t cflag = 3, pflag = 47, lflag = 1000, jflag = 2;
static double rflag = -1;	/* --cover */
static uint64_t Eflag = 1000000;
static double eflag = -1, qflag;
static int dflag = 1, kflag, Iflag = IN_AUTO, mflag = -1, Aflag, Lflag, nflag, landasked;
static const char *oflag;


enum { O_CLASSES = U_LONG, O_COVER, O_EDGES, O_LANDMARKS, O_THREADS, O_DIM, O_METRIC, O_MODULUS, O_NOCOLLAPSE,
    O_STATS, O_THRESHOLD };
static const struct u_opt opts[] = {
	{ 'I', "format", "format", "points, lower-distance, upper-distance, distance, sparse or point-cloud" },
	U_OPT_KEEP,
	{ 'O', "output-format", "format", "persistence, or lower-distance: the matrix for ripser" },
	U_OPT_OUTPUT,
	{ 'q', "min-persistence", "p", "cocycles only of classes this persistent" },
	{ O_CLASSES, "classes", "n", "cocycles of the n most persistent classes (3)" },
	{ O_COVER, "cover", "r", "landmarks only if every point is within r of one (w/3)" },
	{ O_EDGES, "edges", "n", "many points: a level with more edges is too dense (1M)" },
	{ O_LANDMARKS, "landmarks", "n", "all pairs of up to n distinct points (1000; 0: any)" },
	{ O_THREADS, "threads", "n", "threads for the distances and the reduction (2)" },
	{ O_DIM, "dim", "d", "the largest dimension: 0, 1 or 2 (1)" },
	{ O_METRIC, "metric", "name", "levenshtein, hamming or euclidean" },
	{ O_MODULUS, "modulus", "p", "coefficients in Z/p, p a prime (47)" },
	{ O_NOCOLLAPSE, "no-collapse", NULL, "reduce the whole complex, no edge collapse" },
	{ O_STATS, "stats", NULL, "the size of the work, on standard error" },
	{ O_THRESHOLD, "threshold", "t", "the largest distance in the complex" },
	{ 0 }
};
static const struct u_prog prog = { "persist", "[file]", opts, NULL };

/* The k-th kind of symbol of "tswindow symbol=opaddr,step ...", or "". */
static void
viewname(const char *about, int k, char *buf, size_t len)
{
	const char *s = about ? strstr(about, "symbol=") : NULL;
	size_t n;

	*buf = '\0';
	if (s == NULL)
		return;
	for (s += 7; k > 0 && (s = strchr(s, ',')) != NULL; k--)
		s++;
	if (s == NULL)
		return;
	n = strcspn(s, ", ");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), s);
}

/* A complex of more edges than --edges: said once a view, before its
 * collapse and reduction, with what they take an edge as measured (see
 * bench/RESULTS.persist): 60 bytes where all but a tree collapses, 3300
 * where nothing does, EDGEBYTES on a loop nest's windows. */
#define EDGEBYTES 320
struct sized { const char *view; int said; };

static void
sized(void *ctx, size_t nv, size_t ne, float t)
{
	struct sized *d = ctx;

	if (ne <= Eflag || d->said)
		return;
	d->said = 1;
	u_warn("%s%s%zu edges within %g among %zu vertices%s, more than --edges (%" PRIu64
	    "): the collapse and the reduction ahead take 60 to 3300 bytes an edge, %d on "
	    "a loop nest's windows (%.0f MiB), and longer an edge the more edges; fewer "
	    "with %sa lower --threshold", d->view, *d->view ? ": " : "", ne, (double)t, nv,
	    eflag < 0 ? " (a distance tried on the way to the threshold)" : "", Eflag,
	    EDGEBYTES, ceil((double)ne * EDGEBYTES / (1 << 20)),
	    mflag < 0 ? "" : "--landmarks N or ");
}

/* One view of the points: its complex, its barcode, and the classes that
 * may rank (the cocycles of eight times as many as asked for, at least
 * 64, walked along time). */
static void
view(struct rt_cloud *c, int k, float **tri, struct rt_rips *x, struct rt_pers *p)
{
	struct sized big = { p->view, 0 };
	struct rt_plan pl = { .exact = lflag, .asked = landasked, .coverasked = rflag >= 0,
	    .maxedges = Eflag, .classes = cflag,
	    .cover = rflag >= 0 ? rflag : c->dim / 3.0, .thresh = eflag,
	    .metric = mflag < 0 ? RT_EUCLIDEAN : mflag, .maxdim = dflag,
	    .collapse = !nflag, .p = (unsigned)pflag, .threads = (unsigned)jflag,
	    .hook = { sized, &big } };
	struct rt_planned got;
	size_t nv = c->nv, ncand = cflag == 0 ? 0 : cflag < 4 ? 16 : 4 * cflag;

	if (dflag == 2 && c->nv > 100000)
		u_die(1, "--dim 2: at most 100000 distinct points");
	viewname(c->about, k, p->view, sizeof p->view);
	u_progress("%s%s%zu points, %zu distinct: the complex and its barcode", p->view,
	    *p->view ? ": " : "", c->n, c->nv);
	if (rt_rips_auto(x, c, tri, &pl, &got))
		u_die(1, "out of memory");
	free(*tri);
	*tri = NULL;
	snprintf(p->why, sizeof p->why, "%s", got.why);
	if (got.landmarks)
		u_warn("%s%s%zu landmarks stand for the %zu distinct points, each within "
		    "%g of one%s", p->view, *p->view ? ": " : "", c->nv, nv, (double)got.cover,
		    eflag >= 0 && !landasked ? " (the pairs within --threshold are too "
		    "many; --landmarks 0 takes them all)" : got.cover > pl.cover ?
		    " (farther than --cover: the pairs passed --edges before any class "
		    "persisted)" : "");
	if (!got.known && !got.landmarks && got.cover > 0)
		u_warn("%s%sthe %zu most persistent classes of dimension 1 are not known at "
		    "the threshold %g, where the pairs pass --edges: classes alive there may "
		    "outlast them; --cover %g lets landmarks stand for the points, each "
		    "within that of one", p->view, *p->view ? ": " : "", (size_t)cflag,
		    (double)got.thresh, ceil(got.cover));
	else if (!got.known)
		u_warn("%s%sthe %zu most persistent classes of dimension 1 are not known at "
		    "the threshold %g: classes alive there may outlast them (see the "
		    "barcode; a larger --threshold or --edges goes further)", p->view,
		    *p->view ? ": " : "", (size_t)cflag, (double)got.thresh);
	u_progress("%s%sthe cocycles of %zu classes, along time", p->view, *p->view ? ": " : "",
	    ncand);
	if (rt_pers_build(p, &x->ph, &x->g, nflag ? NULL : &x->col, (unsigned)pflag, ncand,
	    qflag, &c->pm))
		u_die(1, "out of memory, or a cocycle that does not extend over the "
		    "collapsed edges (a bug: please report it)");
	p->npoints = c->n;
	p->nvert = c->nv;
	snprintf(p->metric, sizeof p->metric, "%s", mflag < 0 ? "matrix" : rt_metric_name(mflag));
	p->dim = dflag;
	p->threshold = got.thresh;
	p->distinct = nv > c->nv ? nv : 0;
	p->cover = got.landmarks ? got.cover : 0;
	if (c->about)
		snprintf(p->about, sizeof p->about, "%s", c->about);
	p->pm = c->pm;
	if (Aflag)
		fprintf(stderr, "persist: %s%s%zu points, %zu distinct, %zu vertices%s, %zu "
		    "edges <= %g%s, %zu after the collapse (%zu tried); %" PRIu64 " columns, %"
		    PRIu64 " emergent, %" PRIu64 " apparent pairs, %" PRIu64 " additions\n",
		    p->view, *p->view ? ": " : "", c->n, nv, c->nv, nv > c->nv ?
		    " (landmarks)" : "", x->g.off[x->g.n] / 2,
		    (double)(x->cone > 0 ? x->cone : got.thresh),
		    x->cone > 0 ? " (the enclosing radius)" : "",
		    nflag ? x->g.off[x->g.n] / 2 : x->lg.off[x->lg.n] / 2,
		    nflag ? 0 : x->col.tried, x->ph.columns, x->ph.emergent, x->ph.apparent,
		    x->ph.reduced);
}

static void
option(int ch)
{
	switch (ch) {
	case O_STATS: Aflag = 1; break;
	case O_CLASSES:
		cflag = u_count("--classes", optarg, 0, UINT64_MAX, "bad count");
		break;
	case O_COVER:
		rflag = u_real("--cover", optarg, 0, DBL_MAX, "bad distance");
		break;
	case O_EDGES:
		Eflag = u_size("--edges", optarg, 1000, UINT64_MAX, "1000 or more");
		break;
	case O_LANDMARKS:
		if (rt_parse_size(optarg, &lflag) || (lflag > 0 && lflag < 10) ||
		    lflag > 100000)
			u_bad("--landmarks %s: 0 (all), or 10 to 100000", optarg);
		landasked = 1;
		break;
	case O_THREADS:
		jflag = u_count("--threads", optarg, 1, 8, "1 to 8");
		break;
	case O_DIM:
		if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2')
			u_bad("--dim %s: dimension 0, 1 or 2", optarg);
		dflag = optarg[0] - '0';
		break;
	case O_THRESHOLD:
		eflag = u_real("--threshold", optarg, 0, DBL_MAX, "bad threshold");
		break;
	case 'I':
		if (strcmp(optarg, "points") == 0)
			Iflag = IN_POINTS;
		else if ((Iflag = rt_matrix_parse(optarg)) < 0)
			u_bad("-I %s: want points, lower-distance, distance or "
			    "point-cloud", optarg);
		break;
	case 'k': kflag = 1; break;
	case 'O':
		Lflag = u_word("-O", optarg, (const char *const[]){ "persistence",
		    "lower-distance", "lower", NULL }) != 0;
		break;
	case O_METRIC:
		if ((mflag = rt_metric_parse(optarg)) < 0)
			u_bad("--metric %s: want levenshtein, hamming or euclidean", optarg);
		break;
	case O_NOCOLLAPSE: nflag = 1; break;
	case 'o': oflag = optarg; break;
	case O_MODULUS:
		if (rt_parse_u64(optarg, &pflag) || !rt_prime(pflag) || pflag > 65521)
			u_bad("--modulus %s: want a prime below 65536", optarg);
		break;
	case 'q':
		qflag = u_real("-q", optarg, 0, DBL_MAX, "bad persistence");
		break;
	default: u_usage(&prog);
	}
}

/* The input: points into c (*tri NULL: their distances are computed
 * later), or a matrix (its triangle in *tri, but for sparse pairs). */
static void
readin(const char *in, struct rt_cloud *c, float **tri)
{
	struct rt_reader *r;
	char ebuf[1024];
	int k;

	if ((r = rt_lopen(in, ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	if (Iflag == IN_AUTO) {
		/* a points stream, or else a distance matrix (Ripser's
		 * default); another kind of stream is neither */
		k = rt_rkind(r);
		Iflag = k == RT_STREAM_POINTS ? IN_POINTS : RT_MATRIX_LOWER;
		if (k != RT_STREAM_POINTS && k != RT_STREAM_NONE) {
			rt_rexpect(r, RT_STREAM_POINTS);
			u_die(1, "%s", rt_rerror(r));
		}
	}
	if (Iflag == IN_POINTS) {
		if (rt_cloud_read(c, r, kflag, u_diag, ebuf, sizeof ebuf))
			u_die(1, "%s", ebuf);
		if (mflag < 0)
			mflag = c->numeric ? RT_EUCLIDEAN : RT_LEVENSHTEIN;
		if (mflag == RT_LEVENSHTEIN && c->numeric)
			u_bad("--metric levenshtein: the points are numbers");
		if (mflag == RT_EUCLIDEAN && !c->numeric)
			u_bad("--metric euclidean: the points are symbols");
		*tri = NULL;
	} else {
		if (rt_matrix_read(r, Iflag, c, tri, ebuf, sizeof ebuf))
			u_die(1, "%s", ebuf);
		mflag = Iflag == RT_MATRIX_CLOUD ? RT_EUCLIDEAN : -1;
	}
	rt_rclose(r);
}

int
main(int argc, char *argv[])
{
	struct rt_cloud c, *cv;
	struct rt_rips x[RT_MAXVIEW];
	struct rt_pers p[RT_MAXVIEW] = { { 0 } };
	float *tri;
	int ch, k, nview;
	FILE *fo;

	while ((ch = u_getopt(argc, argv, &prog)) != -1)
		option(ch);
	argc -= optind;
	argv += optind;
	if (argc > 1)
		u_usage(&prog);
	readin(argc ? argv[0] : "-", &c, &tri);
	if (Lflag) {
		if (tri == NULL && (tri = rt_cloud_distances(&c, mflag, INFINITY)) == NULL)
			u_die(1, "out of memory");
		fo = u_open(oflag);
		rt_matrix_write_lower(fo, tri, c.nv);
		u_close(fo, oflag);
		free(tri);
		rt_cloud_free(&c);
		return u_status;
	}
	for (nview = 0, cv = &c; cv != NULL; cv = cv->next, nview++)
		view(cv, nview, &tri, &x[nview], &p[nview]);
	if (rt_pers_rank(p, nview, cflag))
		u_die(1, "out of memory");
	u_progress(NULL);
	fo = u_open(oflag);
	for (k = 0; k < nview; k++)
		rt_pers_write(fo, &p[k]);
	u_close(fo, oflag);
	for (k = 0; k < nview; k++) {
		rt_pers_free(&p[k]);
		rt_rips_free(&x[k]);
	}
	rt_cloud_free(&c);
	return u_status;
}
