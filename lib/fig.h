/* fig.h: the suite's results as pictures, composed from draw.h's
 * primitives: the layer above both the topology and the drawing code, so
 * that neither knows the other. */
#ifndef RT_FIG_H
#define RT_FIG_H

#include <stddef.h>
#include <stdint.h>

#include "draw.h"
#include "reftrace.h"

/* The spiral's colours (plotspiral --colour, lib/fig/spiralcol.c): each
 * point's layer and the layers' colours.  By category (the point's source
 * line, function or region), the categories in the order rt_label_sort
 * gives their names, labelled by rt_label_short, in rt_colour_category's
 * colours; by time, a ramp of 64 steps (rt_colour_ramp); by theta column
 * theta (from 1), its turn cut into 64 (rt_colour_cyclic).  0, or
 * RT_ENOMEM; rt_spcolour_free frees what it made, either way. */
enum { RT_SPC_LINE, RT_SPC_FUNC, RT_SPC_REGION, RT_SPC_TIME, RT_SPC_THETA };
struct rt_coords;
struct rt_spcolour {
	size_t *layer;			/* each point's */
	struct rt_layer *lay;		/* the layers, with their colours */
	size_t nlay;
	uint32_t *name;			/* by category: category k's text, an rt_str id */
	const char **label;		/* the name its legend shows */
	size_t *count, ncat;		/* its points */
	size_t nother;			/* categories folded into the last, "others" */
};
int rt_spcolour_of(struct rt_spcolour *c, const struct rt_coords *co, int by, int theta);
void rt_spcolour_free(struct rt_spcolour *c);

/* The spiral as one interactive HTML page (lib/fig/spiral.html, built
 * in), everything inline: every point of co packed (theta in 65535ths of
 * a turn, seqs as differences, location, function and region as indices
 * into their strings; deflated, base64), drawn by the page's script as
 * rt_spiral_build draws, in col's colours, on the page pg lays out (the
 * box, class, morph and mode of s); points i0 to i1 - 1 shown at first,
 * the morph at at.  0, RT_ENOMEM or RT_EIO. */
int rt_spiral_html(FILE *f, const struct rt_spiral_page *pg, const struct rt_spiral *s,
    const struct rt_coords *co, const struct rt_spcolour *col, size_t i0, size_t i1,
    double at) RT_WUR;

/* The persistence stream drawn (plotspiral): its barcode, a panel per
 * dimension, bars by rank (the most persistent on top) from birth to
 * death on the scale axis, a bar alive at the threshold running past
 * the threshold line to an arrow, the classes with cocycles in a colour
 * of their own and labelled by rank; or (diagram) birth against death,
 * the bars alive at the threshold on a line above it, coinciding bars
 * one mark sized and labelled by their count.  Each bar or mark has a
 * tooltip saying what it is.  NULL when out of memory. */
struct rt_pers;
struct rt_fig *rt_pers_figure(const struct rt_pers *p, int diagram, double W, double H,
    const char *title, int legend);

#endif
