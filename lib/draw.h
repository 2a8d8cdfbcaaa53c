/* draw.h: pictures: colours, primitives, SVG, a palette raster, PNG, and
 * the spiral plots of circular coordinates. */
#ifndef RT_DRAW_H
#define RT_DRAW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* cachesim's event map: a pixel per access coloured by the level of
 * nlevels that served it (nlevels: memory), width pixels a row. */
struct rt_evmap;
struct rt_evmap *rt_evmap_new(uint32_t width, int nlevels);
int rt_evmap_add(struct rt_evmap *m, int level);	/* -1 out of memory */
size_t rt_evmap_count(const struct rt_evmap *m);
int rt_evmap_write(const struct rt_evmap *m, FILE *f);	/* a PNG */
void rt_evmap_free(struct rt_evmap *m);

/* PNG pictures: 8-bit palette (npal RGB triples) or RGB when palette is
 * NULL; rows of w pixels given top to bottom, h of them. */
struct rt_png;
struct rt_png *rt_png_open(FILE *f, uint32_t w, uint32_t h, const unsigned char *palette, int npal);
int rt_png_row(struct rt_png *p, const unsigned char *pixels);
int rt_png_close(struct rt_png *p);

/* Colours: categories (Tableau 20, repeating), a viridis-like ramp over
 * [0, 1] and a hue wheel over turns. */
#define RT_NCATEGORY 20
void rt_colour_category(size_t k, unsigned char rgb[3]);
void rt_colour_ramp(double t, unsigned char rgb[3]);
void rt_colour_cyclic(double t, unsigned char rgb[3]);

/* Primitives, a layer a colour: polylines (a point at RT_PENUP lifts the
 * pen) and dots. */
#define RT_PENUP NAN
struct rt_poly { double *xy; size_t n, cap; };
struct rt_layer {
	struct rt_poly line, dots;
	unsigned char rgb[3];
};
int rt_poly_put(struct rt_poly *p, double x, double y);	/* -1 out of memory */
void rt_layers_clear(struct rt_layer *lay, size_t n);
void rt_layers_free(struct rt_layer *lay, size_t n);

/* SVG: the document (style: CSS, or NULL), text escaped for XML, and the
 * layers as one path of lines and one of dots (class "d") each. */
void rt_svg_head(FILE *f, double w, double h, const char *style);
void rt_svg_escape(FILE *f, const char *s);
void rt_svg_layers(FILE *f, const struct rt_layer *lay, size_t n, const char *indent);
void rt_svg_end(FILE *f);

/* A raster with a palette of up to 256 colours: 0 white (the background),
 * 1 black, then the inks added.  Text: 8 pixels a character, 10 high. */
#define RT_CHARW 8
struct rt_canvas {
	uint32_t w, h;
	unsigned char *px;
	unsigned char pal[3 * 256];
	int npal;
};
int rt_canvas_init(struct rt_canvas *c, uint32_t w, uint32_t h);
int rt_canvas_ink(struct rt_canvas *c, const unsigned char rgb[3]);	/* -1: full */
void rt_canvas_point(struct rt_canvas *c, double x, double y, int ink);
void rt_canvas_segment(struct rt_canvas *c, double x0, double y0, double x1, double y1, int ink);
void rt_canvas_dot(struct rt_canvas *c, double x, double y, int r, int ink);
void rt_canvas_box(struct rt_canvas *c, double x, double y, int w, int h, int ink);
void rt_canvas_text(struct rt_canvas *c, double x, double y, const char *s, int ink);
void rt_canvas_layers(struct rt_canvas *c, const struct rt_layer *lay, size_t n, const int *ink);
int rt_canvas_png(const struct rt_canvas *c, FILE *f);
void rt_canvas_free(struct rt_canvas *c);

/* The spiral of n points in the box x, y, w, h: theta (in turns, n rows
 * of stride columns, NAN unknown) of column from, morphed toward column
 * to (-1: none) at fraction t; radius by time (NULL: by index) or, for a
 * circle, pre- and post-amble where theta stays within amble turns of its
 * ends (their lengths come back in npre, npost).  Point i goes to layer
 * layer[i]; the arc from a point to the next takes the first's layer. */
struct rt_spiral {
	size_t n, stride, from;
	long to;
	const double *theta;
	const double *time;
	const size_t *layer;
	double x, y, w, h;
	int circle;
	double amble;
	size_t npre, npost;
};
int rt_spiral_build(struct rt_spiral *s, struct rt_layer *lay, size_t nlay, double t);

#endif
