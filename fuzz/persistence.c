/* persistence.c: the persistence stream (persist writes it, circcoord
 * reads it) read, checked against what it declared, and each class's
 * circular coordinates taken as circcoord takes them. */
#include <math.h>

#include "fuzz.h"
#include "topo.h"

#define MAXCLASSES 4	/* the classes whose coordinates are taken */

static void
check(const struct rt_pers *p)
{
	const struct rt_pclass *c;
	size_t i, k;

	fuzz_assert(rt_prime(p->modulus) && p->nvert >= 1 && p->npoints == p->pm.n &&
	    p->npoints >= 1, "modulus %u, %zu vertices, %zu points", p->modulus, p->nvert,
	    p->npoints);
	fuzz_assert(p->g.n == p->nvert, "a graph of %zu vertices for %zu", p->g.n, p->nvert);
	for (i = 0; i < p->pm.n; i++)
		fuzz_assert(p->pm.vert[i] < p->nvert, "point %zu: vertex %u of %zu", i,
		    p->pm.vert[i], p->nvert);
	for (i = 0; i < p->g.n; i++)
		for (k = p->g.off[i]; k < p->g.off[i + 1]; k++)
			fuzz_assert(p->g.nb[k] < p->nvert && p->g.nb[k] != i,
			    "an edge %zu %u", i, p->g.nb[k]);
	for (i = 0; i < p->ncls; i++) {
		c = &p->cls[i];
		fuzz_assert(c->nz > 0 && c->rank > (i ? p->cls[i - 1].rank : 0), "class %zu: rank %zu", i + 1,
		    c->rank);	/* ranks rise, with gaps where another view holds one */
		for (k = 0; k < c->nz; k++)
			fuzz_assert(c->z[k].i < c->z[k].j && c->z[k].j < p->nvert &&
			    c->z[k].coef > 0 && c->z[k].coef < p->modulus,
			    "class %zu: %u %u %u", i + 1, c->z[k].i, c->z[k].j, c->z[k].coef);
	}
}

static void
coordinates(const struct rt_pers *p, const struct rt_pclass *c, int weighted)
{
	struct rt_circ res;
	char err[256] = "";
	double eps = rt_circ_scale(&p->g, c->birth, c->death, c->scale, 0.5);
	size_t v;

	if (rt_circ_coords(&res, &p->g, eps, p->modulus, c->z, c->nz, p->pm.vert, p->npoints,
	    weighted, err, sizeof err)) {
		fuzz_assert(*err, "class %zu refused without a reason", c->rank);
		return;
	}
	for (v = 0; v < p->nvert; v++)
		fuzz_assert(isnan(res.theta[v]) || (res.theta[v] >= 0 && res.theta[v] < 1),
		    "class %zu: vertex %zu at theta %g", c->rank, v, res.theta[v]);
	rt_circ_free(&res);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r = fuzz_lines(0, data, size);
	struct rt_pers p[RT_MAXVIEW];
	char err[1024];
	size_t i, k, nview;

	if (rt_pers_readall(p, &nview, r, err, sizeof err) == 0) {	/* every view */
		fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
		for (k = 0; k < nview; k++) {
			check(&p[k]);
			for (i = 0; i < p[k].ncls && i < MAXCLASSES; i++)
				coordinates(&p[k], &p[k].cls[i], (int)(i & 1));
			rt_pers_free(&p[k]);
		}
	} else
		fuzz_err(err, rt_rpath(r));
	rt_rclose(r);
	return 0;
}
