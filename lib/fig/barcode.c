/* barcode.c: the persistence stream as pictures: the barcode (a panel
 * per dimension) and the persistence diagram, with the classes whose
 * cocycles the stream carries marked by rank and the bars alive at the
 * threshold marked as such (the conventions of Ghrist's barcodes and of
 * Edelsbrunner and Harer's diagrams). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"
#include "fig.h"

static const unsigned char black[3] = { 0, 0, 0 }, grey[3] = { 150, 150, 150 },
    chosen[3] = { 255, 127, 14 };
static const unsigned char dimrgb[3][3] = { { 31, 119, 180 }, { 44, 160, 44 }, { 148, 103, 189 } };

#define HEAD 16		/* a panel's heading above it */
#define GAP 24		/* between panels: the tick labels of the one above */
#define DATA 0.8	/* of a barcode panel's width: 0 to the threshold */
#define PAST 0.04	/* then an infinite bar runs this much further */

/* The scale axis: up to the threshold (or the largest finite value),
 * in whole steps when every value is whole (Levenshtein, Hamming). */
struct scale { double thr; int unit; char label[80]; };

static void
scaleof(const struct rt_pers *p, struct scale *s)
{
	double top = 0, v;
	size_t i;
	int whole = 1, k;

	for (i = 0; i < p->nbar; i++)
		for (k = 0; k < 2; k++) {
			v = k ? p->bar[i].death : p->bar[i].birth;
			if (!isfinite(v))
				continue;
			top = v > top ? v : top;
			whole &= v == floor(v);
		}
	s->thr = isfinite(p->threshold) && p->threshold >= top ? p->threshold : top;
	if (!(s->thr > 0))
		s->thr = 1;
	whole &= s->thr == floor(s->thr);
	s->unit = whole ? RT_AX_INT : RT_AX_NUM;
	snprintf(s->label, sizeof s->label, "scale (%s distance)", p->metric[0] ? p->metric : "");
}

/* Bar b's rank among the classes with cocycles (its rank), or 0. */
static size_t
classof(const struct rt_pers *p, const struct rt_pbar *b)
{
	size_t k;

	for (k = 0; b->dim == 1 && k < p->ncls; k++)
		if (p->cls[k].rank == b->rank)
			return b->rank;
	return 0;
}

static void
tip(struct rt_fig *f, const struct rt_pbar *b, size_t count)
{
	char buf[160];
	int k = count ? snprintf(buf, sizeof buf, "H%d: %zu bar%s born %g, ", b->dim, count,
	    count > 1 ? "s" : "", b->birth) :
	    snprintf(buf, sizeof buf, "H%d bar %zu: born %g, ", b->dim, b->rank, b->birth);

	if (k < 0 || (size_t)k >= sizeof buf)
		return;
	if (isinf(b->death))
		snprintf(buf + k, sizeof buf - (size_t)k, "alive at the threshold");
	else
		snprintf(buf + k, sizeof buf - (size_t)k, "dying %g", b->death);
	rt_fig_tip(f, buf);
}

/* A triangle pointing right from x, in strips a pixel wide: drawn the
 * same in SVG and PNG. */
static double
arrow(struct rt_fig *f, double x, double yc, double half, const unsigned char rgb[3])
{
	int j, a = (int)(half + 1.5);
	double hh;

	for (j = 0; j < a; j++) {
		hh = half * (a - j) / a;
		rt_fig_rect(f, x + j, yc - hh, 1, 2 * hh, rgb, NULL);
	}
	return x + a;
}

/* Panel d: the bars of dimension d by rank, the rank axis on the left,
 * the scale below, the threshold line, labels for the classes. */
static void
panel(struct rt_fig *f, const struct rt_pers *p, const struct scale *s, const struct rt_plot *pl,
    int d, double py, double ph, int last)
{
	struct rt_plot all = { pl->x, py, pl->w, ph, 0 }, data = { pl->x, py, DATA * pl->w, ph, 0 };
	struct rt_axis ax = { 0, s->thr, s->unit, last ? s->label : NULL };
	double pitch, thick, y, yc, x0, x1, end, ly, lasty = -1e9, t[8], *tp;
	double X = pl->x + DATA * pl->w, lx = pl->x + 0.9 * pl->w;
	const unsigned char *rgb;
	const struct rt_pbar *b;
	size_t i, k, n = 0, nshow, cls, nt;
	char buf[120];

	for (i = 0; i < p->nbar; i++)
		n += p->bar[i].dim == d;
	nshow = ph / 2 < n ? (size_t)(ph / 2) : n;	/* two pixels a bar at least */
	nshow = nshow || !n ? nshow : 1;
	if (nshow < n)
		snprintf(buf, sizeof buf, "H%d: the %zu most persistent of %zu bars", d, nshow, n);
	else
		snprintf(buf, sizeof buf, "H%d: %zu bar%s", d, n, n == 1 ? "" : "s");
	rt_fig_text(f, pl->x, py - 5, RT_LEFT, RT_BOLD, black, buf);
	snprintf(buf, sizeof buf, "threshold %.4g", s->thr);
	rt_fig_text(f, X, py - 5, RT_CENTRE, 0, black, buf);
	rt_plot_axes(f, &all, NULL, NULL);
	rt_plot_axes(f, &data, &ax, NULL);	/* its right edge is the threshold */
	snprintf(buf, sizeof buf, "H%d rank", d);
	rt_fig_text(f, 14, py + ph / 2, RT_CENTRE, RT_UP, black, buf);
	if (n == 0) {
		rt_fig_text(f, pl->x + pl->w / 2, py + ph / 2 + 4, RT_CENTRE, 0, grey, "no bars");
		return;
	}
	pitch = ph / (double)nshow;
	thick = pitch >= 3 ? fmin(pitch * 0.7, 14) : 1;
	t[0] = 1;	/* the most persistent, always named */
	nt = rt_ticks(1, (double)nshow, RT_AX_INT, t + 1, ph > 120 ? 6 : 3, NULL);
	tp = nt > 0 && t[1] == 1 ? t + 1 : (nt++, t);
	for (i = 0; i < nt; i++) {
		y = py + (tp[i] - 0.5) * pitch;
		rt_fig_line(f, pl->x - 4, y, pl->x, y, black);
		rt_axis_label(tp[i], RT_AX_INT, buf, sizeof buf);
		rt_fig_text(f, pl->x - 6, y + 4, RT_RIGHT, 0, black, buf);
	}
	for (i = 0, k = 0; i < p->nbar && k < nshow; i++) {
		if ((b = &p->bar[i])->dim != d)
			continue;
		y = py + (double)k++ * pitch + (pitch - thick) / 2;
		yc = y + thick / 2;
		x0 = pl->x + b->birth / s->thr * DATA * pl->w;
		x1 = isinf(b->death) ? X + PAST * pl->w : pl->x + b->death / s->thr * DATA * pl->w;
		rgb = (cls = classof(p, b)) ? chosen : dimrgb[d % 3];
		rt_fig_rect(f, x0, y, x1 - x0 > 1 ? x1 - x0 : 1, thick, rgb, NULL);
		tip(f, b, 0);
		if (cls && thick < 2 && pitch >= 2)	/* a class stands out however dense */
			rt_fig_rect(f, x0, y + 1, x1 - x0 > 1 ? x1 - x0 : 1, 1, rgb, NULL);
		end = isinf(b->death) ? arrow(f, x1, yc, thick / 2 + 3, rgb) : x1;
		if (cls) {
			/* below the last label, joined to its bar by a leader */
			ly = yc + 4 > lasty + 11 ? yc + 4 : lasty + 11;
			rt_fig_line(f, end + 2, yc, lx - 2, ly - 4, grey);
			snprintf(buf, sizeof buf, "class %zu", cls);
			rt_fig_text(f, lx, ly, RT_LEFT, 0, black, buf);
			lasty = ly;
		}
	}
}

struct mark { int dim; double b, d; size_t i; };

/* Labels placed: from x0 to x1 on the baseline y. */
struct box { double x0, x1, y; };
#define MAXPLACED 64

/* A baseline for a label of width w ending at x, at y or as little above
 * it as keeps it off the labels placed: classes born close together. */
static double
freerow(const struct box *b, size_t n, double x, double y, double w)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (x - w < b[i].x1 && x > b[i].x0 && y > b[i].y - 11 && y < b[i].y + 11) {
			y = b[i].y - 11;
			i = (size_t)-1;	/* again, against them all */
		}
	return y;
}

static int
bymark(const void *x, const void *y)
{
	const struct mark *a = x, *b = y;

	if (a->dim != b->dim)
		return a->dim < b->dim ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Birth across, death up, the same scale; a mark per place, sized by
 * the bars there (log2) and labelled with their count; the bars alive at
 * the threshold on a line above it. */
static int
diagram(struct rt_fig *f, const struct rt_pers *p, const struct scale *s, struct rt_plot *pl)
{
	double side = pl->w < pl->h ? pl->w : pl->h, top = s->thr * 1.15, lo = -0.04 * s->thr;
	double ox, oy, cx, cy, sz, yinf, ly;
	struct box placed[MAXPLACED];
	size_t nplaced = 0;
	struct mark *m = malloc((p->nbar + 1) * sizeof *m);
	struct rt_plot data;
	struct rt_axis ax = { lo, s->thr, s->unit, "birth (scale)" },
	    ay = { lo, s->thr, s->unit, "death (scale)" };
	size_t i, j, k, cls;
	char buf[160];
	int n;

	if (m == NULL)
		return RT_ENOMEM;
	/* a little below 0, so that the marks at 0 stand clear of the axes */
	pl->w = pl->h = side;
	ox = pl->x, oy = pl->y + side;
#define DX(v) (ox + ((v) - lo) / (top - lo) * side)
#define DY(v) (oy - ((v) - lo) / (top - lo) * side)
	yinf = DY(s->thr * 1.08);
	data = (struct rt_plot){ ox, DY(s->thr), DX(s->thr) - ox, oy - DY(s->thr), 0 };
	rt_plot_axes(f, pl, NULL, NULL);
	rt_plot_axes(f, &data, &ax, &ay);
	rt_fig_line(f, DX(lo), DY(lo), DX(top), DY(top), grey);
	rt_fig_line(f, ox, yinf, ox + side, yinf, grey);
	/* under the line, clear of the marks on it (7 pixels each way at most) */
	rt_fig_text(f, DX(0) + 12, yinf + 17, RT_LEFT, 0, black, "inf: alive at the threshold");
	for (i = 0; i < p->nbar; i++)
		m[i] = (struct mark){ p->bar[i].dim, p->bar[i].birth, p->bar[i].death, i };
	qsort(m, p->nbar, sizeof *m, bymark);
	for (i = 0; i < p->nbar; i = j) {
		for (j = i + 1; j < p->nbar && bymark(&(struct mark){ m[i].dim, m[i].b, m[i].d, m[j].i },
		    &m[j]) == 0; j++)
			;
		cx = DX(m[i].b);
		cy = isinf(m[i].d) ? yinf : DY(m[i].d);
		sz = fmin(5 + 2 * log2((double)(j - i)), 15);
		rt_fig_rect(f, cx - sz / 2, cy - sz / 2, sz, sz, dimrgb[m[i].dim % 3], NULL);
		tip(f, &p->bar[m[i].i], j - i);
		if (j - i > 1) {
			snprintf(buf, sizeof buf, "%zu", j - i);
			rt_fig_text(f, cx + sz / 2 + 6, cy + 4, RT_LEFT, 0, black, buf);
		}
		/* the classes among them, ringed and named */
		for (n = 0, k = i; k < j; k++)
			if ((cls = classof(p, &p->bar[m[k].i])) != 0 && (size_t)n < sizeof buf - 24)
				n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%zu",
				    n ? ", " : "class ", cls);
		if (n > 0) {
			rt_fig_rect(f, cx - sz / 2 - 3, cy - sz / 2 - 3, sz + 6, sz + 6, NULL, chosen);
			if ((ly = freerow(placed, nplaced, cx - sz / 2 - 6, cy + 4,
			    rt_text_width(buf))) != cy + 4)
				rt_fig_line(f, cx - sz / 2 - 3, cy, cx - sz / 2 - 6, ly - 4, grey);
			rt_fig_text(f, cx - sz / 2 - 6, ly, RT_RIGHT, 0, black, buf);
			if (nplaced < MAXPLACED)
				placed[nplaced++] = (struct box){ cx - sz / 2 - 6 - rt_text_width(buf),
				    cx - sz / 2 - 6, ly };
		}
	}
#undef DX
#undef DY
	free(m);
	return 0;
}

/* The legend: a swatch per dimension and one for the classes, then
 * what the picture's own marks mean. */
static void
legend(struct rt_fig *f, const struct rt_pers *p, int isdiagram, double x, double y,
    double maxh, const char *const *notes, size_t nnotes)
{
	char names[4][32];
	const char *np[4];
	unsigned char rgb[4][3];
	size_t n = 0, i;
	int d;

	for (d = 0; d <= p->dim && d < 3; d++, n++) {
		snprintf(names[n], sizeof names[n], isdiagram ? "H%d" : "H%d bar", d);
		memcpy(rgb[n], dimrgb[d], 3);
	}
	snprintf(names[n], sizeof names[n], "class with cocycle");
	memcpy(rgb[n++], chosen, 3);
	for (i = 0; i < n; i++)
		np[i] = names[i];
	y += rt_legend(f, x, y, maxh, "bars", np, (const unsigned char (*)[3])rgb, n) + 6;
	if (!isdiagram) {
		rt_fig_rect(f, x, y + 3, 4, 4, dimrgb[0], NULL);
		arrow(f, x + 4, y + 5, 4, dimrgb[0]);
		rt_fig_text(f, x + 16, y + 9, RT_LEFT, 0, black, notes[0]);
		y += 13, notes++, nnotes--;	/* the next line continues it */
	}
	for (i = 0; i < nnotes; i++, y += 13)	/* "  more": the line before, continued */
		rt_fig_text(f, notes[i][0] == ' ' ? x + 16 : x, y + 9, RT_LEFT, 0, black,
		    notes[i] + strspn(notes[i], " "));
}

struct rt_fig *
rt_pers_figure(const struct rt_pers *p, int isdiagram, double W, double H, const char *title,
    int withlegend)
{
	static const char *bnotes[] = { "alive at the", "  threshold" },
	    *dnotes[] = { "mark size, number:", "  bars at one place", "top line: alive",
	    "  at the threshold" };
	const char *const *notes = isdiagram ? dnotes : bnotes;
	size_t nnotes = isdiagram ? 4 : 2;
	struct rt_fig *f = rt_fig_new(W, H);
	struct rt_plot pl;
	struct scale s;
	char sub[2][200];
	const char *subp[2] = { sub[0], sub[1] };
	double keyw = 0, ph;
	int d, ndim = p->dim + 1, k;

	if (f == NULL)
		return NULL;
	scaleof(p, &s);
	if (withlegend)
		keyw = fmax(16 + rt_text_width("class with cocycle"),
		    rt_legend_width(NULL, notes, nnotes));
	k = snprintf(sub[0], sizeof sub[0], "%zu points, %zu vertices, %s distance, threshold %.4g",
	    p->npoints, p->nvert, p->metric, s.thr);
	if (p->distinct && k > 0 && (size_t)k < sizeof sub[0])
		snprintf(sub[0] + k, sizeof sub[0] - (size_t)k, " (landmarks for %zu distinct)",
		    p->distinct);
	snprintf(sub[1], sizeof sub[1], isdiagram ?
	    "a mark per bar at (birth, death): the farther above the diagonal, the longer it lived" :
	    "each bar from birth to death, the most persistent on top");
	rt_plot_layout(&pl, W, H, keyw, 2);
	pl.y += 8;
	pl.h -= 8;
	rt_plot_title(f, W, title ? title : isdiagram ? "persistence diagram" : "persistence barcode",
	    subp, 2);
	if (withlegend)
		legend(f, p, isdiagram, pl.keyx, pl.y, pl.h / 2, notes, nnotes);
	if (isdiagram) {
		if (diagram(f, p, &s, &pl)) {
			rt_fig_free(f);
			return NULL;
		}
		return f;
	}
	ph = (pl.h - ndim * HEAD - (ndim - 1) * GAP) / ndim;
	ph = ph < 4 ? 4 : ph;	/* a picture too small overlaps, but draws */
	for (d = 0; d < ndim; d++)
		panel(f, p, &s, &pl, d, pl.y + HEAD + d * (HEAD + ph + GAP), ph, d == ndim - 1);
	return f;
}
