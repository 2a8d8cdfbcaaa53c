/* density.c: a raster of access counts per pixel and op, and of the
 * class most accesses had, fixed in size whatever the length of the
 * trace. */
#include <stdlib.h>

#include "reftrace.h"
#include "map.h"

int
rt_density_init(struct rt_density *d, uint32_t cols, uint32_t rows)
{
	d->cols = cols;
	d->rows = rows;
	d->n = calloc((size_t)cols * rows + 1, sizeof *d->n);
	return d->n == NULL ? RT_ENOMEM : 0;
}

int
rt_density_classes(struct rt_density *d)
{
	d->cls = calloc((size_t)d->cols * d->rows + 1, sizeof *d->cls);
	d->votes = calloc((size_t)d->cols * d->rows + 1, sizeof *d->votes);
	return d->cls == NULL || d->votes == NULL ? RT_ENOMEM : 0;
}

/* Boyer and Moore, "MJRTY: a fast majority vote algorithm", 1991: the
 * candidate a vote stays with is the majority, if there is one. */
void
rt_mjrty(uint32_t *cand, uint32_t *votes, uint32_t key)
{
	if (*votes == 0)
		*cand = key, *votes = 1;
	else if (*cand == key)
		++*votes;
	else
		--*votes;
}

void
rt_density_vote(struct rt_density *d, uint32_t col, uint32_t row, uint32_t cls)
{
	size_t i = (size_t)row * d->cols + col;

	if (col < d->cols && row < d->rows)
		rt_mjrty(&d->cls[i], &d->votes[i], cls);
}

void
rt_density_add(struct rt_density *d, uint32_t col, uint32_t row, int op)
{
	if (col < d->cols && row < d->rows)
		d->n[(size_t)row * d->cols + col][op & 3]++;
}

void
rt_density_free(struct rt_density *d)
{
	free(d->n);
	free(d->cls);
	free(d->votes);
	d->n = NULL;
	d->cls = d->votes = NULL;
}
