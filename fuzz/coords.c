/* coords.c: the coordinates stream (circcoord writes it, plotspiral
 * reads it) read, written and read again to the same text, and drawn as
 * plotspiral draws it: a spiral by seq and a circle, morphed between the
 * first and the last column, as SVG and PNG. */
#include <math.h>

#include "fuzz.h"
#include "topo.h"
#include "draw.h"

#define SIDE 120	/* pixels */

/* c written to file 1: the text */
static char *
text(const struct rt_coords *c, size_t *n)
{
	FILE *f = fopen(fuzz_path(1), "w");

	fuzz_assert(f != NULL && rt_coords_write(f, c) == 0 && fclose(f) == 0, "not written");
	return fuzz_slurp(1, n);
}

/* What is written reads back, and writes the same again. */
static void
again(const struct rt_coords *c)
{
	struct rt_coords d;
	struct rt_reader *r;
	char err[512], *a, *b;
	size_t na, nb;

	a = text(c, &na);
	r = rt_lopen(fuzz_path(1), err, sizeof err);
	fuzz_assert(r != NULL && rt_coords_read(&d, r, err, sizeof err) == 0,
	    "written, read back: %s", err);
	rt_rclose(r);
	b = text(&d, &nb);
	fuzz_assert(na == nb && memcmp(a, b, na) == 0, "written again otherwise");
	rt_coords_free(&d);
	free(a);
	free(b);
}

static void
draw(const struct rt_coords *c, int circle)
{
	struct rt_layer lay[2] = { 0 };
	struct rt_spiral sp;
	struct rt_canvas cv;
	double *time = NULL;
	size_t *layer, i;
	int ink[2];
	FILE *f;

	if ((layer = calloc(c->pm.n, sizeof *layer)) == NULL)
		abort();
	for (i = 0; i < c->pm.n; i++)
		layer[i] = i & 1;
	if (!circle) {
		if ((time = malloc(c->pm.n * sizeof *time)) == NULL)
			abort();
		for (i = 0; i < c->pm.n; i++)
			time[i] = (double)c->pm.seq[i];
	}
	sp = (struct rt_spiral){ .n = c->pm.n, .stride = c->ncirc, .from = 0,
	    .to = c->ncirc > 1 ? (long)c->ncirc - 1 : -1, .theta = c->theta, .time = time,
	    .layer = layer, .x = 4, .y = 4, .w = SIDE - 8, .h = SIDE - 8,
	    .circle = circle, .amble = 0.05 };
	if (rt_spiral_build(&sp, lay, 2, 0.5))
		abort();
	fuzz_assert(sp.npre + sp.npost <= c->pm.n, "%zu + %zu of %zu points in the ambles",
	    sp.npre, sp.npost, c->pm.n);
	if ((f = fopen("/dev/null", "w")) == NULL || rt_canvas_init(&cv, SIDE, SIDE))
		abort();
	rt_colour_category(0, lay[0].rgb);
	rt_colour_ramp(0.5, lay[1].rgb);
	ink[0] = rt_canvas_ink(&cv, lay[0].rgb);
	ink[1] = rt_canvas_ink(&cv, lay[1].rgb);
	rt_canvas_layers(&cv, lay, 2, ink);
	rt_canvas_png(&cv, f);
	rt_canvas_free(&cv);
	rt_svg_head(f, SIDE, SIDE, NULL);
	rt_svg_layers(f, lay, 2, "");
	rt_svg_end(f);
	fclose(f);
	free(lay[0].line.xy);
	free(lay[0].dots.xy);
	free(lay[1].line.xy);
	free(lay[1].dots.xy);
	free(layer);
	free(time);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r = fuzz_lines(0, data, size);
	struct rt_coords c;
	char err[512];
	size_t i;

	if (rt_coords_read(&c, r, err, sizeof err) == 0) {
		fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
		fuzz_assert(c.ncirc >= 1 && c.ncirc <= 64 && c.pm.n >= 1, "%zu circles, %zu points",
		    c.ncirc, c.pm.n);
		for (i = 0; i < c.pm.n * c.ncirc; i++)
			fuzz_assert(!isinf(c.theta[i]), "theta %g", c.theta[i]);
		again(&c);
		draw(&c, 0);
		draw(&c, 1);
		rt_coords_free(&c);
	} else
		fuzz_err(err, rt_rpath(r));
	rt_rclose(r);
	return 0;
}
