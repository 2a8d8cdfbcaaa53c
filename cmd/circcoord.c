/* circcoord: circular coordinates from persistent cocycles (de Silva et al.). */
#include <math.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"
#include "util.h"

static double eflag = -1, fflag = 0.5;
static int rflag, Wflag = 1;
static const char *oflag;

enum { O_CLASS = U_LONG, O_FRACTION, O_RADIANS, O_SCALE, O_UNWEIGHTED };
static const struct u_opt opts[] = {
	U_OPT_OUTPUT,
	{ 'W', "weighted", NULL, "weight edges by the points their vertices stand for (the default)" },
	{ O_CLASS, "class", "ranks", "the classes, by rank: 1,2,... (1)" },
	{ O_FRACTION, "fraction", "f", "the scale, this far from birth to death (0.5)" },
	{ O_RADIANS, "radians", NULL, "angles in radians, not turns" },
	{ O_SCALE, "scale", "eps", "the scale of every class" },
	{ O_UNWEIGHTED, "unweighted", NULL, "every edge alike" },
	{ 0 }
};
static const struct u_prog prog = { "circcoord", "[file]", opts, NULL };

/* One class: its scale, its coordinates, and what to say about them. */
static void
coordinate(const struct rt_pers *p, const struct rt_pclass *c, struct rt_circ *res)
{
	char err[256];
	double eps = eflag >= 0 ? eflag : rt_circ_scale(&p->g, c->birth, c->death,
	    c->scale, fflag);

	if (eps < c->birth || (!isinf(c->death) && eps >= c->death))	/* no class there */
		u_die(1, "class %zu: --scale %g is outside [%g, %g), where the cocycle is a "
		    "nonzero class", c->rank, eps, c->birth, c->death);
	if (eps > c->scale)
		u_warn("class %zu: scale %g is beyond %g, the largest persist gave "
		    "edges for", c->rank, eps, c->scale);
	if (rt_circ_coords(res, &p->g, eps, p->modulus, c->z, c->nz, p->pm.vert,
	    p->npoints, Wflag, err, sizeof err))
		u_die(1, "class %zu: %s", c->rank, err);
	if (res->badlift)
		u_error("class %zu: the cocycle does not lift to an integer cocycle at "
		    "scale %g (%zu triangles fail); try another scale (--scale, "
		    "--fraction) or another prime (persist --modulus)", c->rank, eps,
		    res->badlift);
	if (res->components > 1)
		u_warn("class %zu: the skeleton at scale %g has %zu components: theta "
		    "is fixed only up to a rotation in each", c->rank, eps, res->components);
	if (res->isolated)
		u_warn("class %zu: %zu vertices have no edge at scale %g: their theta "
		    "is nan", c->rank, res->isolated, eps);
	if (res->packed > 0.8)
		u_warn("class %zu: %.0f%% of its turns come in a quarter of the "
		    "points: a fan, local loops more than one behaviour that recurs "
		    "along time (try another scale or class)", c->rank, 100 * res->packed);
}

static const struct rt_pclass *
rankof(const struct rt_pers *p, size_t rank)
{
	size_t i;

	for (i = 0; i < p->ncls; i++)
		if (p->cls[i].rank == rank)
			return &p->cls[i];
	return NULL;
}

/* A class the stream has no cocycle for: why, and what would give one. */
static void
nosuch(const struct rt_pers *p, size_t nview, size_t rank, size_t ncls)
{
	size_t k, i, nbar = 0, nall = 0;

	for (k = 0; k < nview; k++)	/* bars of some persistence: classes to be had */
		for (i = 0; i < p[k].nbar; i++) {
			nall += p[k].bar[i].dim == 1;
			nbar += p[k].bar[i].dim == 1 && (isinf(p[k].bar[i].death) ?
			    p[k].threshold : p[k].bar[i].death) > p[k].bar[i].birth;
		}
	if (nbar == 0 && nall > 0)
		u_die(1, "class %zu: persist's classes of dimension 1 are all born at "
		    "its threshold %g, none yet persistent (persist's warning says what "
		    "goes further)", rank, p[0].threshold);
	if (nbar == 0)
		u_die(1, "class %zu: persist found no class of dimension 1 up to its "
		    "threshold %g: the windows never come back, no recurrence", rank,
		    p[0].threshold);
	if (nbar > ncls)
		u_die(1, "class %zu: persist wrote cocycles for %zu classes (of %zu bars "
		    "of dimension 1); persist --classes %zu gives more", rank, ncls, nbar,
		    rank);
	u_die(1, "class %zu: persist found %zu class%s of dimension 1 (a loop found "
	    "twice counts once)", rank, ncls, ncls == 1 ? "" : "es");
}

static size_t
ranks(char *arg, size_t **want)
{
	char *s, *save = NULL;
	size_t n = 0;
	uint64_t k;

	for (s = strtok_r(arg, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (rt_parse_u64(s, &k) || k < 1 || k > 1000000)
			u_bad("--class %s: want ranks like 1,2", s);
		*want = u_reallocarray(*want, n + 1, sizeof **want);
		(*want)[n++] = (size_t)k;
	}
	return n;
}

int
main(int argc, char *argv[])
{
	struct rt_pers p[RT_MAXVIEW];
	const struct rt_pclass *c;
	struct rt_coords out = { 0 };
	struct rt_circ res;
	struct rt_reader *r;
	size_t *want = NULL, nwant = 0, nview = 0, i, v, k, ncls = 0;
	char ebuf[1024];
	FILE *fo;
	int ch;

	while ((ch = u_getopt(argc, argv, &prog)) != -1) {
		switch (ch) {
		case O_CLASS: nwant = ranks(optarg, &want); break;
		case O_SCALE:
			eflag = u_real("--scale", optarg, nextafter(0, 1), DBL_MAX, "want a distance above 0");
			break;
		case O_FRACTION:
			fflag = u_real("--fraction", optarg, 0, nextafter(1, 0), "want a fraction in [0, 1)");
			break;
		case 'o': oflag = optarg; break;
		case O_RADIANS: rflag = 1; break;
		case 'W': Wflag = 1; break;
		case O_UNWEIGHTED: Wflag = 0; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		u_usage(&prog);
	if ((r = rt_lopen(argc ? argv[0] : "-", ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	/* a stream for each view of the windows, the classes ranked across them */
	if (rt_pers_readall(p, &nview, r, ebuf, sizeof ebuf))
		u_die(1, "%s", ebuf);
	for (k = 0; k < nview; k++)
		ncls += p[k].ncls;
	rt_rclose(r);
	if (nwant == 0) {
		want = u_malloc(sizeof *want);
		want[nwant++] = 1;
	}
	out.radians = rflag;
	out.pm = p[0].pm;
	out.ncirc = nwant;
	out.circ = u_calloc(nwant, sizeof *out.circ);
	out.theta = u_reallocarray(NULL, p[0].npoints, nwant * sizeof *out.theta);
	for (i = 0; i < nwant; i++) {
		for (c = NULL, k = 0; c == NULL && k < nview; k++)
			c = rankof(&p[k], want[i]);
		if (c == NULL)
			nosuch(p, nview, want[i], ncls);
		k--;
		u_progress("class %zu (%zu of %zu)", want[i], i + 1, nwant);
		coordinate(&p[k], c, &res);
		out.circ[i] = (struct rt_circle){ want[i], c->birth, c->death, res.eps,
		    res.edges, res.components, res.isolated, res.winding, res.residual,
		    p[k].pm.seq[res.first], p[k].pm.seq[res.last] };
		for (v = 0; v < p[k].npoints; v++)
			out.theta[v * nwant + i] = res.theta[p[k].pm.vert[v]];
		rt_circ_free(&res);
	}
	u_progress(NULL);
	fo = u_open(oflag);
	rt_coords_write(fo, &out);
	u_close(fo, oflag);
	free(out.circ);
	free(out.theta);
	free(want);
	for (k = 0; k < nview; k++)
		rt_pers_free(&p[k]);
	return u_status;
}
