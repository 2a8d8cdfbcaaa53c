/* spiralcol.c: the spiral's colours (plotspiral --colour): each point's
 * layer and each layer's colour, by category or along a ramp. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "fig.h"
#include "topo.h"

#define NRAMP 64		/* continuous maps are cut into this many colours */

static void *
alloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

/* Categories by file and line (or name): colours and legend in that
 * order, names folded to base names unless two files share one. */
static int
sortcats(struct rt_spcolour *c, size_t n)
{
	const char **names = alloc(c->ncat + 1, sizeof *names);
	size_t i, *order = alloc(c->ncat + 1, sizeof *order);
	size_t *rank = alloc(c->ncat + 1, sizeof *rank);
	uint32_t *sorted = alloc(c->ncat + 1, sizeof *sorted);
	int rc = -1;

	if (names == NULL || order == NULL || rank == NULL || sorted == NULL)
		goto out;
	for (i = 0; i < c->ncat; i++)
		names[i] = rt_str(c->name[i]);
	if (rt_label_sort(names, c->ncat, order) ||
	    (c->label = alloc(c->ncat + 1, sizeof *c->label)) == NULL)
		goto out;
	for (i = 0; i < c->ncat; i++) {
		rank[order[i]] = i;
		sorted[i] = c->name[order[i]];
		c->label[i] = rt_label_short(names, c->ncat, order[i]);
	}
	for (i = 0; i < n; i++)
		c->layer[i] = rank[c->layer[i]];
	memcpy(c->name, sorted, c->ncat * sizeof *c->name);
	rc = 0;
out:
	free(names);
	free(order);
	free(rank);
	free(sorted);
	return rc;
}

/* More categories than colours tell apart: the RT_NCATEGORY - 1 with the
 * most points keep theirs, in their order; the rest are one, last,
 * "N others", in a colour of its own. */
static int
fold(struct rt_spcolour *c, size_t n)
{
	size_t keep = RT_NCATEGORY - 1, i, j, *to, best, others = 0;
	char buf[64];
	uint32_t id;

	if (c->ncat <= RT_NCATEGORY)
		return 0;
	if ((to = alloc(c->ncat, sizeof *to)) == NULL)
		return RT_ENOMEM;
	for (i = 0; i < c->ncat; i++)
		to[i] = SIZE_MAX;
	for (j = 0; j < keep; j++) {	/* the most points, the first of equals */
		for (best = SIZE_MAX, i = 0; i < c->ncat; i++)
			if (to[i] == SIZE_MAX && (best == SIZE_MAX || c->count[i] > c->count[best]))
				best = i;
		to[best] = 0;
	}
	for (j = 0, i = 0; i < c->ncat; i++)
		if (to[i] == 0) {
			to[i] = j;
			c->name[j] = c->name[i];
			c->label[j] = c->label[i];
			c->count[j++] = c->count[i];
		} else
			others += c->count[i], to[i] = keep;
	for (i = 0; i < n; i++)
		c->layer[i] = to[c->layer[i]];
	c->nother = c->ncat - keep;
	snprintf(buf, sizeof buf, "%zu others", c->nother);
	if ((id = rt_str_intern(buf, strlen(buf))) == RT_NOMEM) {
		free(to);
		return RT_ENOMEM;
	}
	c->name[keep] = id;
	c->label[keep] = rt_str(id);
	c->count[keep] = others;
	c->ncat = keep + 1;
	free(to);
	return 0;
}

/* Categories in order of appearance: a string id maps to its category. */
static int
categories(struct rt_spcolour *c, const uint32_t *col, size_t n)
{
	size_t i, *of = alloc(rt_str_count() + 1, sizeof *of);

	c->name = alloc(n + 1, sizeof *c->name);
	c->count = alloc(n + 1, sizeof *c->count);
	if (of == NULL || c->name == NULL || c->count == NULL) {
		free(of);
		return RT_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (of[col[i]] == 0) {
			c->name[c->ncat] = col[i];
			of[col[i]] = ++c->ncat;
		}
		c->layer[i] = of[col[i]] - 1;
	}
	free(of);
	if (sortcats(c, n))
		return RT_ENOMEM;
	for (i = 0; i < n; i++)
		c->count[c->layer[i]]++;
	return fold(c, n);
}

int
rt_spcolour_of(struct rt_spcolour *c, const struct rt_coords *co, int by, int theta)
{
	const struct rt_pointmap *pm = &co->pm;
	size_t i, k;
	double t;

	memset(c, 0, sizeof *c);
	if ((c->layer = alloc(pm->n + 1, sizeof *c->layer)) == NULL)
		return RT_ENOMEM;
	if (by == RT_SPC_LINE || by == RT_SPC_FUNC || by == RT_SPC_REGION) {
		if (categories(c, by == RT_SPC_FUNC ? pm->func : by == RT_SPC_REGION ? pm->region :
		    pm->loc, pm->n))
			return RT_ENOMEM;
	}
	for (i = 0; i < pm->n; i++)
		if (by == RT_SPC_TIME)
			c->layer[i] = (size_t)((double)i / (double)(pm->n > 1 ? pm->n - 1 : 1) *
			    (NRAMP - 1));
		else if (by == RT_SPC_THETA) {
			t = co->theta[i * co->ncirc + theta - 1];
			c->layer[i] = isnan(t) ? 0 : (size_t)((t - floor(t)) * NRAMP) % NRAMP;
		}
	c->nlay = by == RT_SPC_TIME || by == RT_SPC_THETA ? NRAMP : c->ncat;
	if ((c->lay = alloc(c->nlay, sizeof *c->lay)) == NULL)
		return RT_ENOMEM;
	for (k = 0; k < c->nlay; k++)
		if (by == RT_SPC_TIME)
			rt_colour_ramp((double)k / (NRAMP - 1), c->lay[k].rgb);
		else if (by == RT_SPC_THETA)
			rt_colour_cyclic((double)k / NRAMP, c->lay[k].rgb);
		else if (c->nother && k == c->ncat - 1)
			memcpy(c->lay[k].rgb, "\100\100\100", 3);	/* dark grey */
		else
			rt_colour_category(k, c->lay[k].rgb);
	return 0;
}

void
rt_spcolour_free(struct rt_spcolour *c)
{
	rt_layers_free(c->lay, c->nlay);
	free(c->layer);
	free(c->name);
	free(c->count);
	free(c->label);
	memset(c, 0, sizeof *c);
}
