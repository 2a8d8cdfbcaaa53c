/* draw.h: pictures: colours, primitives, SVG, a palette raster, PNG, and
 * the spiral plots of circular coordinates, knowing nothing of what the
 * suite computes (fig.h draws that). */
#ifndef RT_DRAW_H
#define RT_DRAW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* cachesim's event map, a W x H picture: time across, a column per pixel
 * (merged in pairs as time outgrows them), the first level's nsets sets
 * up; a cell shows the worst access in it: served at a level of
 * nlevels (nlevels: memory), with threec an L1 miss's kind (1
 * compulsory, 2 capacity, 3 conflict), darker if it evicted a block.
 * Written with its title, axes and key, as SVG or PNG. */
#define RT_EVMAX 8
struct rt_evmap;
struct rt_evmap *rt_evmap_new(double W, double H, uint64_t nsets, int nlevels, int threec);
void rt_evmap_add(struct rt_evmap *m, uint64_t set, int level, int kind, int evicted);
int rt_evmap_write(const struct rt_evmap *m, FILE *f, int svg, const char *title);
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
int rt_poly_put(struct rt_poly *p, double x, double y);	/* or RT_ENOMEM */
void rt_layers_clear(struct rt_layer *lay, size_t n);
void rt_layers_free(struct rt_layer *lay, size_t n);

/* SVG: the document (style: CSS, or NULL), text escaped for XML, and the
 * layers as one path of lines and one of dots (class "d") each. */
void rt_svg_head(FILE *f, double w, double h, const char *style);
void rt_svg_escape(FILE *f, const char *s);
void rt_svg_layers(FILE *f, const struct rt_layer *lay, size_t n, const char *indent);
void rt_svg_end(FILE *f);
void rt_json_str(FILE *f, const char *s);	/* quoted, safe in a <script> */
int rt_page_data(FILE *f, const unsigned char *raw, size_t len, const char *rest);	/* 0, RT_ENOMEM, RT_EIO */

/* Text: the X11 misc-fixed 6x10 font (ASCII 32-126; font.c), on its
 * baseline, anchored by its start, centre or end; RT_UP reads upwards. */
#define RT_CHARW 6
#define RT_CHARH 10
enum { RT_LEFT, RT_CENTRE, RT_RIGHT };
#define RT_BOLD 1
#define RT_UP 2
extern const unsigned char rt_font6x10[95][10];
double rt_text_width(const char *s);

/* A raster with a palette of up to 256 colours: 0 white (the background),
 * 1 black, then the inks added (rt_canvas_colour: found, added, or when
 * the palette is full the nearest). */
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
void rt_canvas_box(struct rt_canvas *c, double x, double y, int w, int h, int ink);
void rt_canvas_text(struct rt_canvas *c, double x, double y, int anchor, int flags,
    const char *s, int ink);
int rt_canvas_colour(struct rt_canvas *c, const unsigned char rgb[3]);
void rt_canvas_layers(struct rt_canvas *c, const struct rt_layer *lay, size_t n, const int *ink);
int rt_canvas_png(const struct rt_canvas *c, FILE *f);
void rt_canvas_free(struct rt_canvas *c);

/* A figure: text, boxes (fill or stroke NULL: none), lines, layers and
 * palette images, written alike
 * as SVG (vector text, images as embedded PNG) and as a PNG.  Out of
 * memory is remembered (rt_fig_failed) and the writers return RT_ENOMEM
 * (RT_EIO, -1, after a write error).  An
 * image's palette is copied; its pixels are borrowed, or the figure's
 * to free (rt_fig_own). */
struct rt_fig;
struct rt_fig *rt_fig_new(double w, double h);
void rt_fig_text(struct rt_fig *f, double x, double y, int anchor, int flags,
    const unsigned char rgb[3], const char *s);
void rt_fig_rect(struct rt_fig *f, double x, double y, double w, double h,
    const unsigned char *fill, const unsigned char *stroke);
void rt_fig_line(struct rt_fig *f, double x0, double y0, double x1, double y1,
    const unsigned char rgb[3]);
void rt_fig_layers(struct rt_fig *f, const struct rt_layer *lay, size_t n);
/* an image of iw x ih palette pixels (rows top down) drawn w x h */
void rt_fig_image(struct rt_fig *f, double x, double y, uint32_t iw, uint32_t ih, double w,
    double h, const unsigned char *px, const unsigned char *pal, int npal);
void rt_fig_own(struct rt_fig *f, void *p);	/* freed with the figure */
void rt_fig_tip(struct rt_fig *f, const char *s);	/* SVG: the last item's <title> */
int rt_fig_failed(const struct rt_fig *f);
int rt_fig_svg(const struct rt_fig *fig, FILE *f, const char *style, const char *desc);
int rt_fig_svg_body(const struct rt_fig *fig, FILE *f);	/* no head, no end */
int rt_fig_png(const struct rt_fig *fig, FILE *f);
void rt_fig_free(struct rt_fig *f);

/* Plots: the plot area of a W x H figure with room around it for the
 * title (and nsub lines under it), the axes, and keyw pixels of key on
 * the right (keyx); axes with ticks (1-2-5, or powers of two for bytes
 * and addresses) labelled in units: bytes as B, KiB, MiB. */
enum { RT_AX_NUM, RT_AX_INT, RT_AX_BYTES, RT_AX_HEX };	/* INT: whole steps */
struct rt_axis { double lo, hi; int unit; const char *label; };
struct rt_plot { double x, y, w, h, keyx; };
void rt_plot_layout(struct rt_plot *p, double W, double H, double keyw, int nsub);
void rt_plot_title(struct rt_fig *f, double W, const char *title, const char *const *sub, int nsub);
void rt_plot_axes(struct rt_fig *f, const struct rt_plot *p, const struct rt_axis *x,
    const struct rt_axis *y);
size_t rt_ticks(double lo, double hi, int unit, double *t, size_t max, double *step);
void rt_axis_label(double v, int unit, char *buf, size_t len);
/* A legend (swatch and name a line; "and N more" past maxh) and a colour
 * key (a bar of ramp over [0, 1] from lo up to hi), from x, y down. */
double rt_legend_width(const char *head, const char *const *names, size_t n);
double rt_legend(struct rt_fig *f, double x, double y, double maxh, const char *head,
    const char *const *names, const unsigned char (*rgb)[3], size_t n);
void rt_key_ramp(struct rt_fig *f, double x, double y, double h, double lo, double hi,
    int unit, const char *label, void (*ramp)(double, unsigned char *));

/* Legend labels: "file:line" ordered by file, then line as a number;
 * the sorted order of n names; name k from its file's base name on, or
 * from as many directories up as tell it from other files of that name. */
int rt_label_sort(const char *const *names, size_t n, size_t *order);	/* or RT_ENOMEM */
const char *rt_label_short(const char *const *names, size_t n, size_t k);

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
/* How many of n points (theta column col of stride) a spiral can show
 * before their turns, either way, pass most; n when all; the turns of all
 * in *turns. */
size_t rt_spiral_readable(const double *theta, size_t stride, size_t col, size_t n,
    double most, double *turns);

/* The spiral's page, a w x h figure: the title and under it what is
 * drawn how (the points, theta's column, pre- and post-amble, "colour:
 * what"), the spiral's square in the plot area, to its right a key: a
 * legend of ncat categories (names[k] and counts[k] in layer k's colour,
 * under the head what), a ramp from lo to hi labelled label
 * (rt_colour_ramp), turns (rt_colour_cyclic), or none.  rt_spiral_place
 * lays the page out and puts the spiral's box in it: 0, 1 when the
 * square would be under 20 pixels, RT_ENOMEM; what it made,
 * rt_spiral_page_free frees.  rt_spiral_figure draws the page, with
 * the spiral's layers unless lay is NULL: NULL out of memory. */
enum { RT_SPKEY_NONE, RT_SPKEY_LEGEND, RT_SPKEY_RAMP, RT_SPKEY_TURNS };
struct rt_spiral_page {
	double w, h, margin;
	const char *title, *what;
	int key;
	const char *const *names;	/* RT_SPKEY_LEGEND */
	const size_t *counts;
	size_t ncat;
	double lo, hi;			/* RT_SPKEY_RAMP */
	const char *label;
	const char *note;		/* a line on what part is drawn, or NULL */
	/* rt_spiral_place's */
	struct rt_plot area;
	char **legend;
	unsigned char (*legendrgb)[3];
	size_t rows;
};
int rt_spiral_place(struct rt_spiral_page *pg, struct rt_spiral *s, const struct rt_layer *lay);
struct rt_fig *rt_spiral_figure(const struct rt_spiral_page *pg, const struct rt_spiral *s,
    const struct rt_layer *lay, size_t nlay);
void rt_spiral_page_free(struct rt_spiral_page *pg);
/* The morph as an animated SVG page in style: nfr + 1 frames built into
 * lay (t from 0 to 1), shown in turn, 0.15 s each, looping; a renderer
 * without animation shows the first.  0, RT_ENOMEM, or RT_EIO after a
 * write error. */
int rt_spiral_anim(FILE *f, const struct rt_spiral_page *pg, struct rt_spiral *s,
    struct rt_layer *lay, size_t nlay, int nfr, const char *style);

#endif
