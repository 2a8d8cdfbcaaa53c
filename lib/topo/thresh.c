/* thresh.c: the threshold of a Rips complex, chosen from its distances. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* Ripser's default threshold: the enclosing radius, the least over
 * vertices of their largest distance; beyond it the complex is a cone. */
static float
enclosing(const float *tri, size_t n)
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
 * largest distance at which the vertices have at most degree neighbours
 * on average: the work grows with the edges times their common
 * neighbours, and every window has some window at distance w, so the
 * radius alone bounds nothing.  For windows of symbols, cap = 7/10 of
 * the window: windows that differ in more are not alike, and chance
 * matches of random windows there make huge complexes that say nothing. */
float
rt_threshold_auto(const float *tri, size_t n, float cap, uint64_t degree, char *why,
    size_t whylen)
{
	size_t m = n * (n - 1) / 2, budget = (size_t)degree * n / 2, k;
	float *v, radius = enclosing(tri, n), t = radius, x;

	if (isnan(radius))
		return NAN;
	if (m > budget) {
		/* the largest d with #{distances <= d} <= budget: the largest
		 * value below the (budget + 1)-th smallest */
		if ((v = malloc(m * sizeof *v)) == NULL)
			return NAN;
		memcpy(v, tri, m * sizeof *v);
		x = select_k(v, m, budget);
		for (t = 0, k = 0; k < m; k++)
			if (v[k] < x && v[k] > t)
				t = v[k];
		free(v);
	}
	if (cap < t && cap < radius) {
		snprintf(why, whylen, "7/10 of the window: windows that differ "
		    "in more symbols are not near (the enclosing radius is %g)",
		    (double)radius);
		return cap;
	}
	if (t < radius) {
		snprintf(why, whylen, "the largest distance with at most %" PRIu64
		    " neighbours a vertex on average (--degree); the enclosing radius is %g",
		    degree, (double)radius);
		return t;
	}
	snprintf(why, whylen, "the enclosing radius: the degree budget --degree %"
	    PRIu64 " allows more", degree);
	return radius;
}
