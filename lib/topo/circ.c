/* circ.c: circular coordinates from a persistent cocycle (de Silva,
 * Morozov and Vejdemo-Johansson, 2011, with DREiMac's repair of the lift):
 * lift the cocycle from Z/p to the integers, repair the triangles where
 * the lift fails, find the least-squares f with df nearest the lift on
 * the 1-skeleton at the scale, and theta = f mod 1. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* The scale: this fraction of the way from the birth to the death, down
 * to an edge value, where the cocycle is the class's own loop and the
 * small loops born with it have died.  A class alive at the threshold
 * (top) is alive all the way to it: the fraction of the way there. */
double
rt_circ_scale(const struct rt_graph *g, double birth, double death, double top,
    double fraction)
{
	double want, eps = birth;
	size_t k;

	if (!isinf(death))
		top = death;
	want = birth + fraction * (top - birth);
	for (k = 0; k < g->off[g->n]; k++)
		if (g->d[k] <= want && (g->d[k] < top || isinf(death)) && g->d[k] > eps)
			eps = g->d[k];
	return eps;
}

/* The lift lives on the slot of each edge i < j in the row of i. */
struct lift {
	long *z;
	size_t bad;
	long p;
};

/* z(ij) + z(jk) - z(ik) over the integers */
static void
countbad(void *ctx, uint32_t i, uint32_t j, uint32_t k, size_t ij, size_t jk, size_t ik)
{
	struct lift *l = ctx;

	(void)i, (void)j, (void)k;
	if (l->z[ij] + l->z[jk] - l->z[ik] != 0)
		l->bad++;
}

/* DREiMac's repair, greedily: move an edge of a failing triangle to its
 * other lift (c - p or c + p) when that fixes the triangle. */
static void
repair(void *ctx, uint32_t i, uint32_t j, uint32_t k, size_t ij, size_t jk, size_t ik)
{
	struct lift *l = ctx;
	long s = l->z[ij] + l->z[jk] - l->z[ik];

	(void)i, (void)j, (void)k;
	if (s == 0 || s % l->p)
		return;
	if (labs(l->z[ik] + s) <= l->p)
		l->z[ik] += s;
	else if (labs(l->z[ij] - s) <= l->p)
		l->z[ij] -= s;
	else if (labs(l->z[jk] - s) <= l->p)
		l->z[jk] -= s;
}

/* The value of the lift on slot k of the row of v: z(v -> nb). */
static double
zat(const struct rt_graph *g, const long *z, uint32_t v, size_t k)
{
	uint32_t u = g->nb[k];

	return v < u ? (double)z[k] : -(double)z[rt_graph_slot(g, u, v)];
}

struct sys {
	const struct rt_graph *g;
	double eps;
	const size_t *count;	/* points a vertex stands for, or NULL */
};

static double
weight(const struct sys *s, uint32_t v, size_t k)
{
	if (s->g->d[k] > s->eps)
		return 0;
	return s->count ? (double)s->count[v] * (double)s->count[s->g->nb[k]] : 1;
}

/* Least squares min |z - df|_W: the weighted graph Laplacian L f = b, by
 * conjugate gradients with a Jacobi preconditioner. */
static int
solve(const struct sys *s, const long *z, double *f)
{
	const struct rt_graph *g = s->g;
	size_t n = g->n, v, k, it;
	double *b, *r, *pp, *q, *dg, *zz, rz, rz1, alpha, bn = 0, pq, w;
	int ok = -1;

	b = calloc(n + 1, sizeof *b);
	r = calloc(n + 1, sizeof *r);
	pp = calloc(n + 1, sizeof *pp);
	q = calloc(n + 1, sizeof *q);
	dg = calloc(n + 1, sizeof *dg);
	zz = calloc(n + 1, sizeof *zz);
	if (!b || !r || !pp || !q || !dg || !zz)
		goto out;
	for (v = 0; v < n; v++)
		for (k = g->off[v]; k < g->off[v + 1]; k++)
			if ((w = weight(s, (uint32_t)v, k)) > 0) {
				/* (d^T W z) at v: edges into v count +z, out of v -z */
				b[v] -= w * zat(g, z, (uint32_t)v, k);
				dg[v] += w;
			}
	for (v = 0; v < n; v++) {
		f[v] = 0;
		r[v] = b[v];
		bn += b[v] * b[v];
		zz[v] = dg[v] > 0 ? r[v] / dg[v] : 0;
		pp[v] = zz[v];
	}
	for (rz = 0, v = 0; v < n; v++)
		rz += r[v] * zz[v];
	for (it = 0; it < 10 * n + 100 && rz > 0; it++) {
		double rn = 0;

		for (v = 0; v < n; v++) {
			q[v] = dg[v] * pp[v];
			for (k = g->off[v]; k < g->off[v + 1]; k++)
				if ((w = weight(s, (uint32_t)v, k)) > 0)
					q[v] -= w * pp[g->nb[k]];
		}
		for (pq = 0, v = 0; v < n; v++)
			pq += pp[v] * q[v];
		if (pq <= 0)
			break;
		alpha = rz / pq;
		for (v = 0; v < n; v++) {
			f[v] += alpha * pp[v];
			r[v] -= alpha * q[v];
			rn += r[v] * r[v];
		}
		if (rn <= 1e-24 * bn)
			break;
		for (rz1 = 0, v = 0; v < n; v++) {
			zz[v] = dg[v] > 0 ? r[v] / dg[v] : 0;
			rz1 += r[v] * zz[v];
		}
		for (v = 0; v < n; v++)
			pp[v] = zz[v] + rz1 / rz * pp[v];
		rz = rz1;
	}
	ok = 0;
out:
	free(b);
	free(r);
	free(pp);
	free(q);
	free(dg);
	free(zz);
	return ok;
}

/* The winding number along time: the wrapped increments summed.  How
 * much of its turns, either way, the busiest quarter of the points holds:
 * a fan, a class whose turns all come in a short stretch of time, has
 * most of them there.  And its span: from the first point half a turn
 * from the start to the last half a turn from the end, where a loop of
 * one phase of the trace turns. */
static void
winding(struct rt_circ *res, const uint32_t *vert, size_t npoints)
{
	double *sum, *tv, prev = NAN, d, best = 0;
	size_t v, m = (npoints + 3) / 4;

	sum = calloc(npoints + 1, sizeof *sum);
	tv = calloc(npoints + 1, sizeof *tv);
	if (sum == NULL || tv == NULL) {
		free(sum);
		free(tv);
		return;
	}
	for (v = 0; v < npoints; v++) {
		double t = res->theta[vert ? vert[v] : v];

		sum[v + 1] = sum[v];
		tv[v + 1] = tv[v];
		if (isnan(t))
			continue;
		if (!isnan(prev)) {
			d = t - prev;
			sum[v + 1] += d - floor(d + 0.5);
			tv[v + 1] += fabs(d - floor(d + 0.5));
		}
		prev = t;
	}
	res->winding = sum[npoints];
	for (v = 0; v + m <= npoints; v++)
		if (tv[v + m] - tv[v] > best)
			best = tv[v + m] - tv[v];
	res->packed = fabs(res->winding) >= 1 && tv[npoints] > 0 ? best / tv[npoints] : 0;
	for (res->first = 0; res->first < npoints && fabs(sum[res->first + 1]) < 0.5; res->first++)
		;
	for (res->last = npoints; res->last > 0 && fabs(sum[npoints] - sum[res->last - 1]) < 0.5;
	    res->last--)
		;
	if (res->first == npoints || res->last == 0)	/* less than half a turn */
		res->first = res->last = 0;
	else
		res->last--;
	free(sum);
	free(tv);
}

int
rt_circ_coords(struct rt_circ *res, const struct rt_graph *g, double eps, unsigned p,
    const struct rt_cocycle_entry *z, size_t nz, const uint32_t *vert, size_t npoints,
    int weighted, char *err, size_t errlen)
{
	struct lift l = { .p = p };
	struct sys s = { .g = g, .eps = eps };
	size_t i, v, k, *count = NULL, n = g->n, m = g->off[n];
	double *f = NULL, num = 0, den = 0, d, w;
	uint32_t *up = NULL;
	int pass, rc = RT_EBAD;

	memset(res, 0, sizeof *res);
	res->eps = eps;
	if ((l.z = calloc(m + 1, sizeof *l.z)) == NULL ||
	    (f = calloc(n + 1, sizeof *f)) == NULL ||
	    (res->theta = malloc((n + 1) * sizeof *res->theta)) == NULL ||
	    (count = calloc(n + 1, sizeof *count)) == NULL ||
	    (up = malloc((n + 1) * sizeof *up)) == NULL)
		goto nomem;
	/* the lift: coefficients in (-p/2, p/2] */
	for (i = 0; i < nz; i++) {
		if (z[i].i >= z[i].j || z[i].j >= n ||
		    (k = rt_graph_slot(g, z[i].i, z[i].j)) == SIZE_MAX) {
			snprintf(err, errlen, "cocycle edge %" PRIu32 "-%" PRIu32
			    " is not an edge of the graph", z[i].i, z[i].j);
			goto fail;
		}
		if (g->d[k] <= eps)
			l.z[k] = z[i].coef > p / 2 ? (long)z[i].coef - (long)p : (long)z[i].coef;
	}
	for (pass = 0; pass < 20; pass++) {
		l.bad = 0;
		rt_graph_triangles(g, (float)eps, countbad, &l);
		if (l.bad == 0)
			break;
		rt_graph_triangles(g, (float)eps, repair, &l);
	}
	res->badlift = l.bad;
	for (v = 0; v < npoints; v++)
		count[vert ? vert[v] : v]++;
	s.count = weighted ? count : NULL;
	if (solve(&s, l.z, f))
		goto nomem;
	for (v = 0; v < n; v++)
		up[v] = (uint32_t)v;
	for (v = 0; v < n; v++)
		for (k = g->off[v]; k < g->off[v + 1]; k++)
			if (g->nb[k] > v && (w = weight(&s, (uint32_t)v, k)) > 0) {
				d = (double)l.z[k] - (f[g->nb[k]] - f[v]);
				num += w * d * d;
				den += w * (double)l.z[k] * (double)l.z[k];
				res->edges++;
				rt_uf_join(up, (uint32_t)v, g->nb[k]);
			}
	res->residual = den > 0 ? sqrt(num / den) : 0;
	for (v = 0; v < n; v++) {
		for (k = g->off[v]; k < g->off[v + 1] && g->d[k] > eps; k++)
			;
		if (k == g->off[v + 1]) {	/* no edge at the scale */
			res->theta[v] = NAN;
			if (count[v])
				res->isolated++;
			continue;
		}
		if (rt_uf_find(up, (uint32_t)v) == v)
			res->components++;
		/* in [0, 1): x - floor(x) rounds to 1 for x just below an
		 * integer (-1e-17 gives 1 - 1e-17 = 1.0) */
		if ((res->theta[v] = f[v] - floor(f[v])) >= 1)
			res->theta[v] = 0;
	}
	winding(res, vert, npoints);
	free(l.z);
	free(f);
	free(count);
	free(up);
	return 0;
nomem:
	snprintf(err, errlen, "%s", strerror(ENOMEM));
	rc = RT_ENOMEM;
fail:
	free(l.z);
	free(f);
	free(count);
	free(up);
	rt_circ_free(res);
	return rc;
}

void
rt_circ_free(struct rt_circ *res)
{
	free(res->theta);
	res->theta = NULL;
}
