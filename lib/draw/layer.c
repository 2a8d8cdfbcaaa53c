/* layer.c: pictures as primitives: per colour, polylines and dots, so
 * that SVG and raster output draw the same thing. */
#include <math.h>
#include <stdlib.h>

#include "reftrace.h"
#include "draw.h"

int
rt_poly_put(struct rt_poly *p, double x, double y)
{
	if (rt_grow(&p->xy, &p->cap, 2 * p->n + 2, sizeof *p->xy))
		return RT_ENOMEM;
	p->xy[2 * p->n] = x;
	p->xy[2 * p->n++ + 1] = y;
	return 0;
}

void
rt_layers_clear(struct rt_layer *lay, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		lay[i].line.n = lay[i].dots.n = 0;
}

void
rt_layers_free(struct rt_layer *lay, size_t n)
{
	size_t i;

	for (i = 0; lay != NULL && i < n; i++) {
		free(lay[i].line.xy);
		free(lay[i].dots.xy);
	}
	free(lay);
}
