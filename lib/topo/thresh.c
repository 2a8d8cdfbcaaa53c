/* thresh.c: a Rips complex up to a threshold, and the threshold chosen
 * from the filtration: the least at which the most persistent classes of
 * dimension 1 are known. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* Ripser's default threshold: the enclosing radius, the least over
 * vertices of their largest distance; beyond it the complex is a cone,
 * so every class of dimension 1 or more has died by it. */
static float
rt_enclosing(const float *tri, size_t n)
{
	float *far, best = INFINITY;
	size_t i, j;

	if ((far = calloc(n + 1, sizeof *far)) == NULL)
		return NAN;
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

/* From the graph in x->g. */
int
rt_rips_graph(struct rt_rips *x, int maxdim, unsigned p, int collapse, unsigned threads,
    const struct rt_sizehook *hook)
{
	if (hook != NULL && hook->fn != NULL)
		hook->fn(hook->ctx, x->g.n, x->g.off[x->g.n] / 2, x->g.thresh);
	x->collapsed = collapse;
	/* the collapse keeps persistence in dimensions 0 and 1 (and 2, but
	 * the cocycles asked for are of dimension 1) */
	if (collapse && rt_collapse(&x->g, &x->lg, &x->col))
		goto fail;
	if (rt_ph_compute(&x->ph, collapse ? &x->lg : &x->g, maxdim, p, threads))
		goto fail;
	return 0;
fail:
	rt_rips_free(x);
	return RT_ENOMEM;
}

int
rt_rips_compute(struct rt_rips *x, const float *tri, size_t n, float thresh, int maxdim,
    unsigned p, int collapse, unsigned threads, const struct rt_sizehook *hook)
{
	float top = rt_enclosing(tri, n);

	/* the collapse took the pairs past it out one by one, at a cost
	 * (all 733 of Ripser's sphere_3_192 at 2) */
	memset(x, 0, sizeof *x);
	if (top < thresh)
		x->cone = thresh = top;
	if (rt_graph_build(&x->g, tri, n, thresh))
		return RT_ENOMEM;
	return rt_rips_graph(x, maxdim, p, collapse, threads, hook);
}

void
rt_rips_free(struct rt_rips *x)
{
	rt_ph_free(&x->ph);
	rt_graph_free(&x->g);
	rt_graph_free(&x->lg);
	rt_collapse_free(&x->col);
}

struct bound { double lo, hi; };

static int
bylo(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;

	return x->lo > y->lo ? -1 : x->lo < y->lo;
}

/* Are the k most persistent classes of dimension 1 known at threshold t,
 * as a set?  A class that died has its persistence; one alive at t has at
 * least t - birth and, since every class dies by top (the enclosing
 * radius), at most top - birth; one not born yet at most top - t.  The
 * set is known when no class outside the k with the largest lower bounds
 * can get past the least of them. */
static int
known(const struct rt_ph *ph, size_t k, float t, float top)
{
	struct bound *b;
	size_t i, m = 0;
	double least, most = top - t;

	if ((b = malloc((ph->nbar + 1) * sizeof *b)) == NULL)
		return -1;
	for (i = 0; i < ph->nbar; i++) {
		const struct rt_bar *r = &ph->bar[i];

		if (r->dim != 1)
			continue;
		if (isinf(r->death))
			b[m++] = (struct bound){ t - r->birth, top - r->birth };
		else
			b[m].lo = b[m].hi = (double)r->death - r->birth, m++;
	}
	qsort(b, m, sizeof *b, bylo);
	if (m < k) {
		free(b);
		return 0;
	}
	least = b[k - 1].lo;
	for (i = k; i < m; i++)
		if (b[i].hi > most)
			most = b[i].hi;
	free(b);
	return least > 0 && most <= least;
}

static int
byfloat(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* The distinct distances up to top, at most max of them evenly taken
 * (every one of a metric of small integers). */
static size_t
levels(const float *tri, size_t n, float top, float *lv, size_t max)
{
	size_t m = n * (n - 1) / 2, i, k = 0, nd = 0;
	float *v;

	if ((v = malloc((m + 1) * sizeof *v)) == NULL)
		return 0;
	for (i = 0; i < m; i++)
		if (tri[i] > 0 && tri[i] <= top)
			v[k++] = tri[i];
	qsort(v, k, sizeof *v, byfloat);
	for (i = 0; i < k; i++)
		if (nd == 0 || v[nd - 1] != v[i])
			v[nd++] = v[i];
	for (i = 0; i < max && i < nd; i++)
		lv[i] = v[nd <= max ? i : (i + 1) * nd / max - 1];
	free(v);
	return i;
}

float
rt_threshold_resolve(struct rt_rips *x, const float *tri, size_t n, size_t classes,
    int maxdim, unsigned p, int collapse, unsigned threads, const struct rt_sizehook *hook,
    char *why, size_t whylen)
{
	float top = rt_enclosing(tri, n), lv[64];
	size_t nl, i;
	int k;

	if (isnan(top) || (nl = levels(tri, n, top, lv, 64)) == 0) {
		if (isnan(top) || rt_rips_compute(x, tri, n, top, maxdim, p, collapse, threads,
		    hook))
			return NAN;
		snprintf(why, whylen, "the enclosing radius: no distance below it");
		return top;
	}
	for (i = 0; i < nl; i++) {
		if (rt_rips_compute(x, tri, n, lv[i], maxdim, p, collapse, threads, hook))
			return NAN;
		if (i + 1 == nl)
			break;
		if ((k = known(&x->ph, classes ? classes : 1, lv[i], top)) < 0) {
			rt_rips_free(x);
			return NAN;
		}
		if (k) {
			snprintf(why, whylen, "the least distance at which the %zu most "
			    "persistent classes of dimension 1 are known: no other class, "
			    "alive there or born later, can outlast them (every class dies "
			    "by %g, the enclosing radius)", classes, (double)top);
			return lv[i];
		}
		rt_rips_free(x);
	}
	snprintf(why, whylen, "the enclosing radius: every class has died by it");
	return lv[nl - 1];
}

/* The same without all pairs: the edges of each level from the join,
 * levels 1, 2, ... of a metric of small integers up to top (the window:
 * at it every pair is an edge), until the classes are known or a level
 * has more than maxedges edges; then *known says whether they were. */
int
rt_threshold_sparse(struct rt_rips *x, const struct rt_cloud *c, int metric,
    size_t classes, int maxdim, unsigned p, int collapse, unsigned threads,
    size_t maxedges, const struct rt_sizehook *hook, float *thresh, int *isknown, char *why,
    size_t whylen)
{
	struct rt_edge *e;
	size_t m;
	uint64_t cand;
	int t, top = c->dim, k, rc, have = 0;

	*isknown = 0;
	for (t = 1; t < top; t++) {
		if ((rc = rt_join(c, metric, t, threads, maxedges, &e, &m, &cand)) != 0) {
			if (rc == RT_ELIMIT && have)
				break;
			if (rc == RT_ELIMIT)
				snprintf(why, whylen, "more than %zu pairs of points are within "
				    "distance 1", maxedges);
			return rc;
		}
		if (have)
			rt_rips_free(x);
		memset(x, 0, sizeof *x);
		have = 0;
		if (rt_graph_from_edges(&x->g, c->nv, e, m, (float)t)) {
			free(e);
			return RT_ENOMEM;
		}
		free(e);
		if (rt_rips_graph(x, maxdim, p, collapse, threads, hook))
			return RT_ENOMEM;
		have = 1;
		if ((k = known(&x->ph, classes ? classes : 1, (float)t, (float)top)) < 0)
			return RT_ENOMEM;
		if (k) {
			*isknown = 1;
			snprintf(why, whylen, "the least distance at which the %zu most "
			    "persistent classes of dimension 1 are known: no other class, "
			    "alive there or born later, can outlast them (every class dies "
			    "by %d, the window)", classes, top);
			*thresh = (float)t;
			return 0;
		}
	}
	snprintf(why, whylen, "the largest distance with at most %zu pairs of points "
	    "within it; the %zu most persistent classes of dimension 1 are not known "
	    "there", maxedges, classes);
	*thresh = (float)(t - 1);
	return 0;
}
