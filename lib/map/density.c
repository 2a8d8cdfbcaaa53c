/* density.c: a raster of access counts per pixel and op, fixed in size
 * whatever the length of the trace. */
#include <stdlib.h>

#include "map.h"

int
rt_density_init(struct rt_density *d, uint32_t cols, uint32_t rows)
{
	d->cols = cols;
	d->rows = rows;
	d->n = calloc((size_t)cols * rows + 1, sizeof *d->n);
	return d->n == NULL ? -1 : 0;
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
	d->n = NULL;
}
