/* persist: Vietoris-Rips persistent cohomology of points or a distance matrix. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "topo.h"
#include "util.h"

enum { IN_AUTO, IN_POINTS, IN_LOWER, IN_DISTANCE, IN_CLOUD };
static const char *innames[] = { "auto", "points", "lower", "distance", "cloud" };

static uint64_t cflag = 3, pflag = 47, Dflag = 256;
static double eflag = -1, qflag;
static int dflag = 1, kflag, Iflag = IN_AUTO, mflag = -1, Aflag, Lflag, nflag;
static const char *oflag;

static FILE *fo;
static char why[256];		/* how the threshold was chosen */

enum { O_CLASSES = U_LONG, O_DEGREE, O_DIM, O_METRIC, O_MODULUS, O_NOCOLLAPSE,
    O_STATS, O_THRESHOLD };
static const struct u_opt opts[] = {
	{ 'I', "format", "format", "points, lower, distance or cloud (auto)" },
	U_OPT_KEEP,
	{ 'O', "output-format", "format", "persistence, or lower-distance: the matrix for ripser" },
	U_OPT_OUTPUT,
	{ 'q', "min-persistence", "p", "cocycles only of classes this persistent" },
	{ O_CLASSES, "classes", "n", "cocycles of the n most persistent classes (3)" },
	{ O_DEGREE, "degree", "n", "neighbours a vertex on average, for the threshold (256)" },
	{ O_DIM, "dim", "d", "the largest dimension: 0, 1 or 2 (1)" },
	{ O_METRIC, "metric", "name", "levenshtein, hamming or euclidean" },
	{ O_MODULUS, "modulus", "p", "coefficients in Z/p, p a prime (47)" },
	{ O_NOCOLLAPSE, "no-collapse", NULL, "reduce the whole complex, no edge collapse" },
	{ O_STATS, "stats", NULL, "the size of the work, on standard error" },
	{ O_THRESHOLD, "threshold", "t", "the largest distance in the complex" },
	{ 0 }
};
static const struct u_prog prog = { "persist", "[file]", opts, NULL };

/* Numbers separated by commas or white space, a row a line. */
static int
numbers(struct rt_reader *r, char *s, double **v, size_t *nv, size_t *cap)
{
	char *end;
	double x;

	*nv = 0;
	for (;;) {
		s += strspn(s, " \t,");
		if (*s == '\0')
			return 0;
		errno = 0;
		x = strtod(s, &end);
		if (end == s || errno == ERANGE || !isfinite(x) ||
		    (*end && !strchr(" \t,", *end))) {
			rt_rbad(r, "not a number: %.*s", (int)strcspn(s, " \t,"), s);
			return -1;
		}
		if (*nv == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			if ((*v = realloc(*v, *cap * sizeof **v)) == NULL)
				u_die(1, "out of memory");
		}
		(*v)[(*nv)++] = x;
		s = end;
	}
}

/* A distance matrix (lower triangle, or full and symmetric) or a plain
 * point cloud (rows of coordinates), as Ripser reads them. */
static float *
readmatrix(struct rt_reader *r, int kind, struct rt_cloud *c)
{
	char *s;
	double *row = NULL, *pts = NULL;
	size_t nrow = 0, cap = 0, n = 0, i, capp = 0, len;
	float *tri = NULL;
	int dim = -1;

	while ((s = rt_rgetline(r, &len)) != NULL) {
		if (*s == '#')
			continue;
		if (numbers(r, s, &row, &nrow, &cap))
			goto bad;
		if (kind == IN_CLOUD) {
			if (nrow == 0)
				continue;
			if (dim < 0)
				dim = (int)nrow;
			if (nrow != (size_t)dim) {
				rt_rbad(r, "a point of dimension %zu, the first had %d", nrow, dim);
				goto bad;
			}
			if ((n + 1) * dim > capp) {
				capp = capp ? 2 * capp : 1024;
				while (capp < (n + 1) * dim)
					capp *= 2;
				if ((pts = realloc(pts, capp * sizeof *pts)) == NULL)
					u_die(1, "out of memory");
			}
			memcpy(pts + n * dim, row, dim * sizeof *row);
			n++;
			continue;
		}
		if (kind == IN_LOWER && nrow == 0 && n == 0)
			continue;	/* the first row may be written, empty */
		if (kind == IN_LOWER && n == 0)
			n = 1;		/* ... or left out */
		if (kind == IN_DISTANCE && nrow == 0)
			continue;
		if (kind == IN_LOWER ? nrow != n : nrow != (n ? c->n : nrow)) {
			rt_rbad(r, "row %zu has %zu entries, %s wants %zu", n + 1, nrow,
			    kind == IN_LOWER ? "a lower-triangular matrix" :
			    "a square matrix", kind == IN_LOWER ? n : c->n);
			goto bad;
		}
		if (kind == IN_DISTANCE && n == 0)
			c->n = nrow;	/* the row length fixes the size */
		if ((tri = realloc(tri, ((n + 1) * n / 2 + 1) * sizeof *tri)) == NULL)
			u_die(1, "out of memory");
		for (i = 0; i < n; i++) {
			if (row[i] < 0) {
				rt_rbad(r, "a negative distance");
				goto bad;
			}
			tri[RT_TRI(i, n)] = (float)row[i];
		}
		n++;
	}
	if (*rt_rerror(r))
		u_die(1, "%s", rt_rerror(r));
	if (kind == IN_DISTANCE && n != c->n)
		u_die(1, "%s: %zu rows of %zu entries: not a square matrix",
		    rt_rpath(r), n, c->n);
	free(row);
	c->nv = c->n = n;
	if (n == 0)
		u_die(1, "%s: no points", rt_rpath(r));
	if (kind == IN_CLOUD) {
		c->numeric = 1;
		c->dim = dim;
		c->x = pts;
		if ((tri = rt_cloud_distances(c, RT_EUCLIDEAN)) == NULL)
			u_die(1, "out of memory");
	}
	if (tri == NULL && (tri = malloc(sizeof *tri)) == NULL)
		u_die(1, "out of memory");
	return tri;
bad:
	u_die(1, "%s", rt_rerror(r));
}

/* Ripser's default threshold: the enclosing radius, the least over
 * vertices of their largest distance; beyond it the complex is a cone. */
static float
enclosing(const float *tri, size_t n)
{
	float *far, best = INFINITY;
	size_t i, j;

	if ((far = calloc(n, sizeof *far)) == NULL)
		u_die(1, "out of memory");
	for (j = 1; j < n; j++)
		for (i = 0; i < j; i++) {
			float d = tri[RT_TRI(i, j)];

			if (d > far[i])
				far[i] = d;
			if (d > far[j])
				far[j] = d;
		}
	for (i = 0; i < n; i++)
		if (far[i] < best)
			best = far[i];
	free(far);
	return n > 1 ? best : 0;
}

/* The k-th smallest of v[0..m) (0-based), v reordered: Hoare's select. */
static float
select_k(float *v, size_t m, size_t k)
{
	size_t lo = 0, hi = m - 1, i, j;
	float pivot, x;

	while (lo < hi) {
		pivot = v[lo + (hi - lo) / 2];
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				x = v[i];
				v[i] = v[j];
				v[j] = x;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* The default threshold: the smallest of three bounds, and the reason.
 * The enclosing radius (Ripser's): beyond it the complex is a cone.  The
 * largest distance at which the vertices have at most Dflag neighbours
 * on average: the work grows with the edges times their common
 * neighbours, and every window has some window at distance w, so the
 * radius alone bounds nothing.  For windows of symbols, cap = 7/10 of
 * the window: windows that differ in more are not alike, and chance
 * matches of random windows there make huge complexes that say nothing. */
static float
autothresh(const float *tri, size_t n, float cap)
{
	size_t m = n * (n - 1) / 2, budget = (size_t)Dflag * n / 2, k;
	float *v, radius = enclosing(tri, n), t = radius, x;

	if (m > budget) {
		/* the largest d with #{distances <= d} <= budget: the largest
		 * value below the (budget + 1)-th smallest */
		if ((v = malloc(m * sizeof *v)) == NULL)
			u_die(1, "out of memory");
		memcpy(v, tri, m * sizeof *v);
		x = select_k(v, m, budget);
		for (t = 0, k = 0; k < m; k++)
			if (v[k] < x && v[k] > t)
				t = v[k];
		free(v);
	}
	if (cap < t && cap < radius) {
		snprintf(why, sizeof why, "7/10 of the window: windows that differ "
		    "in more symbols are not near (the enclosing radius is %g)",
		    (double)radius);
		return cap;
	}
	if (t < radius) {
		snprintf(why, sizeof why, "the largest distance with at most %" PRIu64
		    " neighbours a vertex on average (--degree); the enclosing radius is %g",
		    Dflag, (double)radius);
		return t;
	}
	snprintf(why, sizeof why, "the enclosing radius: the degree budget --degree %"
	    PRIu64 " allows more", Dflag);
	return radius;
}

static const struct rt_bar *bars;

static double
persistence(const struct rt_bar *b)
{
	return isinf(b->death) ? INFINITY : (double)b->death - b->birth;
}

/* Dimension, then persistence (alive at the threshold first), then birth,
 * then the vertices that gave birth: ties are the rule with integer
 * distances, and the order must not depend on the sort. */
static int
byrank(const void *a, const void *b)
{
	const struct rt_bar *p = &bars[*(const size_t *)a], *q = &bars[*(const size_t *)b];
	double x = persistence(p), y = persistence(q);
	int i;

	if (p->dim != q->dim)
		return p->dim - q->dim;
	if (x != y)
		return x > y ? -1 : 1;
	if (p->birth != q->birth)
		return p->birth < q->birth ? -1 : 1;
	for (i = 0; i < 3; i++)
		if (p->v[i] != q->v[i])
			return p->v[i] < q->v[i] ? -1 : 1;
	return 0;
}

static void
value(double v)
{
	if (isinf(v))
		fprintf(fo, " inf");
	else
		fprintf(fo, " %.9g", v);
}

/* The largest scale at which a class is alive: the largest edge value
 * below its death, or the threshold. */
static float
scale(const struct rt_graph *g, const struct rt_bar *b)
{
	float best = b->birth;
	size_t k;

	if (isinf(b->death))
		return g->thresh;
	for (k = 0; k < g->off[g->n]; k++)
		if (g->d[k] < b->death && g->d[k] > best)
			best = g->d[k];
	return best;
}

static void
output(const struct rt_cloud *c, const struct rt_graph *g, const struct rt_collapse *col,
    const struct rt_ph *ph, float thresh, int metric)
{
	size_t *ord, i, j, k, rank = 0, nsel = 0, *sel;
	double upto = -1;
	const struct rt_bar *b;
	struct rt_cocycle_entry **z;
	size_t *zn;
	float *eps;

	if ((ord = malloc((ph->nbar + 1) * sizeof *ord)) == NULL ||
	    (sel = malloc((ph->nbar + 1) * sizeof *sel)) == NULL)
		u_die(1, "out of memory");
	for (i = 0; i < ph->nbar; i++)
		ord[i] = i;
	bars = ph->bar;
	qsort(ord, ph->nbar, sizeof *ord, byrank);
	fprintf(fo, "#reftrace persistence 1\n");
	fprintf(fo, "# persist points=%zu vertices=%zu metric=%s modulus=%" PRIu64
	    " dim=%d threshold=%.9g\n", c->n, c->nv, metric < 0 ? "matrix" :
	    rt_metric_name(metric), pflag, dflag, (double)thresh);
	fprintf(fo, "# threshold %.9g: %s\n", (double)thresh, why);
	if (c->about)
		fprintf(fo, "# %s\n", c->about);
	fprintf(fo, "#reftrace bars 1 dim rank birth death persistence\n");
	for (i = 0; i < ph->nbar; i++) {
		b = &ph->bar[ord[i]];
		rank = i == 0 || ph->bar[ord[i - 1]].dim != b->dim ? 1 : rank + 1;
		fprintf(fo, "%d %zu", b->dim, rank);
		value(b->birth);
		value(b->death);
		value(persistence(b));
		fputc('\n', fo);
		if (b->dim == 1 && rank <= cflag && persistence(b) >= qflag &&
		    persistence(b) > 0)
			sel[nsel++] = ord[i];
	}
	/* cocycles of the collapsed complex go back to the whole one */
	if ((z = calloc(nsel + 1, sizeof *z)) == NULL ||
	    (zn = calloc(nsel + 1, sizeof *zn)) == NULL ||
	    (eps = calloc(nsel + 1, sizeof *eps)) == NULL)
		u_die(1, "out of memory");
	for (i = 0; i < nsel; i++) {
		b = &ph->bar[sel[i]];
		eps[i] = scale(g, b);
		if (eps[i] > upto)
			upto = eps[i];
		if (col == NULL) {
			z[i] = ph->cocycle + b->cocycle;
			zn[i] = b->ncocycle;
		} else if (rt_cocycle_extend(g, col, eps[i], (unsigned)pflag,
		    ph->cocycle + b->cocycle, b->ncocycle, &z[i], &zn[i]))
			u_die(1, "class %zu: the cocycle does not extend over the "
			    "collapsed edges (a bug: please report it)", i + 1);
	}
	/* what circcoord needs: the classes, their cocycles, which vertex
	 * every point is, and the edges up to the scales the classes need */
	fprintf(fo, "#reftrace classes 1 rank birth death scale edges\n");
	for (i = 0; i < nsel; i++) {
		b = &ph->bar[sel[i]];
		fprintf(fo, "%zu", i + 1);
		value(b->birth);
		value(b->death);
		value(eps[i]);
		fprintf(fo, " %zu\n", zn[i]);
	}
	fprintf(fo, "#reftrace cocycles 1 rank i j coef\n");
	for (i = 0; i < nsel; i++)
		for (j = 0; j < zn[i]; j++)
			fprintf(fo, "%zu %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", i + 1,
			    z[i][j].i, z[i][j].j, z[i][j].coef);
	fprintf(fo, "#reftrace pointmap 1 vertex seq loc func region\n");
	for (i = 0; i < c->n; i++) {
		if (c->vert == NULL) {
			fprintf(fo, "%zu %zu - - -\n", i, i);
			continue;
		}
		fprintf(fo, "%" PRIu32 " %" PRIu64 " %s %s %s\n", c->vert[i], c->seq[i],
		    rt_str(c->loc[i]), rt_str(c->func[i]), rt_str(c->region[i]));
	}
	fprintf(fo, "#reftrace edges 1 i j distance\n");
	for (i = 0; nsel && i < g->n; i++)
		for (k = g->off[i]; k < g->off[i + 1]; k++)
			if (g->nb[k] > i && g->d[k] <= upto)
				fprintf(fo, "%zu %" PRIu32 " %.9g\n", i, g->nb[k], (double)g->d[k]);
	for (i = 0; col != NULL && i < nsel; i++)
		free(z[i]);
	free(z);
	free(zn);
	free(eps);
	free(ord);
	free(sel);
}

/* The distances between the vertices as Ripser's lower-distance format. */
static void
writematrix(const float *tri, size_t n)
{
	size_t i, j;

	FILE *f = u_open(oflag);

	for (j = 0; j < n; j++) {
		for (i = 0; i < j; i++)
			fprintf(f, i ? ",%.9g" : "%.9g", (double)tri[RT_TRI(i, j)]);
		putc('\n', f);
	}
	u_close(f, oflag);
}

int
main(int argc, char *argv[])
{
	struct rt_cloud c;
	struct rt_graph g, lg = { 0 };
	struct rt_collapse col = { 0 };
	struct rt_ph ph;
	struct rt_reader *r;
	char ebuf[1024];
	const char *in;
	float *tri, thresh;
	int ch;

	while ((ch = u_getopt(argc, argv, &prog)) != -1) {
		switch (ch) {
		case O_STATS: Aflag = 1; break;
		case O_CLASSES:
			if (rt_parse_u64(optarg, &cflag))
				u_bad("--classes %s: bad count", optarg);
			break;
		case O_DEGREE:
			if (rt_parse_size(optarg, &Dflag) || Dflag == 0)
				u_bad("--degree %s: bad degree", optarg);
			break;
		case O_DIM:
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2')
				u_bad("--dim %s: dimension 0, 1 or 2", optarg);
			dflag = optarg[0] - '0';
			break;
		case O_THRESHOLD:
			if (rt_parse_double(optarg, &eflag) || eflag < 0)
				u_bad("--threshold %s: bad threshold", optarg);
			break;
		case 'I':
			for (Iflag = 1; Iflag < 5; Iflag++)
				if (strcmp(optarg, innames[Iflag]) == 0)
					break;
			if (Iflag == 5 && strcmp(optarg, "lower-distance") == 0)
				Iflag = IN_LOWER;
			if (Iflag == 5)
				u_bad("-I %s: want points, lower, distance or cloud", optarg);
			break;
		case 'k': kflag = 1; break;
		case 'O':
			if (strcmp(optarg, "lower-distance") == 0 || strcmp(optarg, "lower") == 0)
				Lflag = 1;
			else if (strcmp(optarg, "persistence") == 0)
				Lflag = 0;
			else
				u_bad("-O %s: want persistence or lower-distance", optarg);
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
			if (rt_parse_double(optarg, &qflag) || qflag < 0)
				u_bad("-q %s: bad persistence", optarg);
			break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		u_usage(&prog);
	in = argc ? argv[0] : "-";
	memset(&c, 0, sizeof c);
	if ((r = rt_ropen(in, RT_FMT_LINES, ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	if (Iflag == IN_AUTO)	/* else a distance matrix, Ripser's default */
		Iflag = rt_rpeek(r, RT_POINTS_MAGIC) ? IN_POINTS : IN_LOWER;
	if (Iflag == IN_POINTS) {
		if (rt_cloud_read(&c, r, kflag, u_diag, ebuf, sizeof ebuf))
			u_die(1, "%s", ebuf);
		if (mflag < 0)
			mflag = c.numeric ? RT_EUCLIDEAN : RT_LEVENSHTEIN;
		if (mflag == RT_LEVENSHTEIN && c.numeric)
			u_bad("--metric levenshtein: the points are numbers");
		if (mflag == RT_EUCLIDEAN && !c.numeric)
			u_bad("--metric euclidean: the points are symbols");
		if ((tri = rt_cloud_distances(&c, mflag)) == NULL)
			u_die(1, "out of memory");
	} else {
		tri = readmatrix(r, Iflag, &c);
		mflag = Iflag == IN_CLOUD ? RT_EUCLIDEAN : -1;
	}
	rt_rclose(r);
	if (Lflag) {
		writematrix(tri, c.nv);
		free(tri);
		rt_cloud_free(&c);
		return u_status;
	}
	if (eflag >= 0) {
		thresh = (float)eflag;
		snprintf(why, sizeof why, "given (--threshold)");
	} else
		thresh = autothresh(tri, c.nv, Iflag == IN_POINTS && !c.numeric ?
		    (float)floor(0.7 * c.dim) : INFINITY);
	if (rt_graph_build(&g, tri, c.nv, thresh))
		u_die(1, "out of memory");
	free(tri);
	if (dflag == 2 && c.nv > 100000)
		u_die(1, "--dim 2: at most 100000 distinct points");
	/* the collapse keeps persistence in dimensions 0 and 1; in dimension
	 * 2 as well, but the cocycles of -d 2 are not asked for */
	if (!nflag && rt_collapse(&g, &lg, &col))
		u_die(1, "out of memory");
	if (rt_ph_compute(&ph, nflag ? &g : &lg, dflag, (unsigned)pflag))
		u_die(1, "out of memory");
	fo = u_open(oflag);
	output(&c, &g, nflag ? NULL : &col, &ph, thresh, mflag);
	if (Aflag)
		fprintf(stderr, "persist: %zu points, %zu vertices, %zu edges <= %g, "
		    "%zu after the collapse; %" PRIu64 " columns, %" PRIu64
		    " emergent, %" PRIu64 " additions\n", c.n, c.nv, g.off[g.n] / 2,
		    (double)thresh, nflag ? g.off[g.n] / 2 : lg.off[lg.n] / 2,
		    ph.columns, ph.emergent, ph.reduced);
	u_close(fo, oflag);
	rt_ph_free(&ph);
	rt_graph_free(&g);
	rt_graph_free(&lg);
	rt_collapse_free(&col);
	rt_cloud_free(&c);
	return u_status;
}
