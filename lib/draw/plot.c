/* plot.c: what makes a picture readable alone: a title, axes with ticks
 * and units, a legend or colour key beside the plot area, never over it
 * (gnuplot's and MTV's conventions). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

static const unsigned char black[3] = { 0, 0, 0 }, grey[3] = { 90, 90, 90 };

/* The plot area of a W x H figure: room on the left for tick labels and
 * the y label, above for the title and nsub lines under it, below for
 * tick labels and the x label, keyw pixels on the right for the key. */
void
rt_plot_layout(struct rt_plot *p, double W, double H, double keyw, int nsub)
{
	p->x = 78;
	p->y = 26 + 12.0 * nsub;
	p->w = W - p->x - (keyw > 0 ? keyw + 24 : 16);
	p->h = H - p->y - 40;
	if (p->w < 10)
		p->w = 10;
	if (p->h < 10)
		p->h = 10;
	p->keyx = p->x + p->w + 16;
}

void
rt_plot_title(struct rt_fig *f, double W, const char *title, const char *const *sub, int nsub)
{
	int i;

	if (title != NULL)
		rt_fig_text(f, W / 2, 16, RT_CENTRE, RT_BOLD, black, title);
	for (i = 0; i < nsub; i++)
		rt_fig_text(f, W / 2, 29 + 12.0 * i, RT_CENTRE, 0, grey, sub[i]);
}

/* Ticks at 1, 2 or 5 times a power of ten (a power of two for bytes),
 * at most max of them within [lo, hi]; their step comes back. */
size_t
rt_ticks(double lo, double hi, int unit, double *t, size_t max, double *stepp)
{
	static const double m[] = { 1, 2, 5 };
	double span = hi - lo, step = 0, p, v;
	size_t n = 0;
	int k;

	if (!(span > 0) || max < 2)
		return 0;
	if (unit == RT_AX_INT && span / (double)(max - 1) < 1)
		step = 1;
	else if (unit == RT_AX_BYTES || unit == RT_AX_HEX) {
		for (step = 1; span / step > (double)(max - 1); step *= 2)
			;
	} else {
		p = pow(10, floor(log10(span / (double)(max - 1))));
		for (k = 0; k < 3 * 4 && step == 0; k++) {
			v = m[k % 3] * p * pow(10, k / 3);
			if (span / v <= (double)(max - 1) && (unit != RT_AX_INT || v >= 1))
				step = v;
		}
	}
	for (v = ceil(lo / step) * step; v <= hi + step * 1e-9 && n < max; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	if (stepp != NULL)
		*stepp = step;
	return n;
}

/* A value as its axis shows it: bytes in B, KiB, MiB, GiB (one blank
 * before the unit), addresses in hex, counts with k, M, G past 10^4. */
void
rt_axis_label(double v, int unit, char *buf, size_t len)
{
	static const char *bu[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const char *nu[] = { "", "k", "M", "G", "T" };
	int k = 0;

	if (unit == RT_AX_HEX) {
		snprintf(buf, len, "0x%llx", (unsigned long long)v);
		return;
	}
	if (unit == RT_AX_BYTES) {
		while (fabs(v) >= 1024 && k < 4)
			v /= 1024, k++;
		snprintf(buf, len, "%.4g %s", v, bu[k]);
		return;
	}
	if (fabs(v) >= 1e4)
		while (fabs(v) >= 1000 && k < 4)
			v /= 1000, k++;
	snprintf(buf, len, "%.4g%s", v, nu[k]);
}

static void
xaxis(struct rt_fig *f, const struct rt_plot *p, const struct rt_axis *a)
{
	double t[16], x;
	char buf[64];
	size_t i, n = rt_ticks(a->lo, a->hi, a->unit, t,
	    p->w > 600 ? 11 : p->w > 250 ? 6 : 3, NULL);

	for (i = 0; i < n; i++) {
		x = p->x + (t[i] - a->lo) / (a->hi - a->lo) * p->w;
		rt_fig_line(f, x, p->y + p->h, x, p->y + p->h + 4, black);
		rt_axis_label(t[i], a->unit, buf, sizeof buf);
		rt_fig_text(f, x, p->y + p->h + 14, RT_CENTRE, 0, black, buf);
	}
	if (a->label != NULL)
		rt_fig_text(f, p->x + p->w / 2, p->y + p->h + 30, RT_CENTRE, 0, black, a->label);
}

static void
yaxis(struct rt_fig *f, const struct rt_plot *p, const struct rt_axis *a)
{
	double t[16], y;
	char buf[64];
	size_t i, n = rt_ticks(a->lo, a->hi, a->unit, t, p->h > 300 ? 9 : p->h > 120 ? 5 : 3, NULL);

	for (i = 0; i < n; i++) {
		y = p->y + p->h - (t[i] - a->lo) / (a->hi - a->lo) * p->h;
		rt_fig_line(f, p->x - 4, y, p->x, y, black);
		rt_axis_label(t[i], a->unit, buf, sizeof buf);
		rt_fig_text(f, p->x - 6, y + 4, RT_RIGHT, 0, black, buf);
	}
	if (a->label != NULL)
		rt_fig_text(f, 14, p->y + p->h / 2, RT_CENTRE, RT_UP, black, a->label);
}

/* The frame of the plot area, and the axes given (NULL: none). */
void
rt_plot_axes(struct rt_fig *f, const struct rt_plot *p, const struct rt_axis *x,
    const struct rt_axis *y)
{
	/* just outside the area, which stays whole for what is drawn in it */
	rt_fig_rect(f, p->x - 1, p->y - 1, p->w + 1, p->h + 1, NULL, black);
	if (x != NULL)
		xaxis(f, p, x);
	if (y != NULL)
		yaxis(f, p, y);
}

#define ROW 13		/* a legend's line */

double
rt_legend_width(const char *head, const char *const *names, size_t n)
{
	double w = head ? rt_text_width(head) : 0, v;
	size_t i;

	for (i = 0; i < n; i++)
		if ((v = 16 + rt_text_width(names[i])) > w)
			w = v;
	return w;
}

/* A legend from (x, y) down: a swatch and a name a line, as many as fit
 * in maxh, then how many more there are.  Its height comes back. */
double
rt_legend(struct rt_fig *f, double x, double y, double maxh, const char *head,
    const char *const *names, const unsigned char (*rgb)[3], size_t n)
{
	double at = y;
	size_t i, fit;
	char buf[64];

	if (head != NULL) {
		rt_fig_text(f, x, at + 9, RT_LEFT, RT_BOLD, black, head);
		at += ROW + 2;
	}
	fit = maxh > at - y ? (size_t)((maxh - (at - y)) / ROW) : 0;
	if (fit < n && fit > 0)
		fit--;		/* the line that says how many more */
	for (i = 0; i < n && i < fit; i++, at += ROW) {
		rt_fig_rect(f, x, at, 10, 10, rgb[i], NULL);
		rt_fig_text(f, x + 16, at + 9, RT_LEFT, 0, black, names[i]);
	}
	if (i < n) {
		snprintf(buf, sizeof buf, "and %zu more", n - i);
		rt_fig_text(f, x, at + 9, RT_LEFT, 0, grey, buf);
		at += ROW;
	}
	return at - y;
}

/* A colour key: a bar h high from (x, y), lo at the bottom, hi at the
 * top, coloured by ramp over [0, 1], with ticks in unit and a label. */
void
rt_key_ramp(struct rt_fig *f, double x, double y, double h, double lo, double hi,
    int unit, const char *label, void (*ramp)(double, unsigned char *))
{
	unsigned char rgb[3];
	double t[16], ty;
	char buf[64];
	size_t i, n;
	int k, steps = (int)h;

	if (label != NULL) {
		rt_fig_text(f, x, y + 9, RT_LEFT, RT_BOLD, black, label);
		y += ROW + 4;
		h -= ROW + 4;
		steps = (int)h;
	}
	for (k = 0; k < steps; k++) {
		ramp(steps > 1 ? (double)k / (steps - 1) : 0, rgb);
		rt_fig_rect(f, x, y + h - k - 1, 14, 1, rgb, NULL);
	}
	rt_fig_rect(f, x, y, 14, h, NULL, black);
	n = rt_ticks(lo, hi, unit, t, h > 150 ? 6 : 3, NULL);
	if (n == 0 && lo == hi)
		t[n++] = lo;
	for (i = 0; i < n; i++) {
		ty = hi > lo ? y + h - (t[i] - lo) / (hi - lo) * h : y + h;
		rt_fig_line(f, x + 14, ty, x + 18, ty, black);
		rt_axis_label(t[i], unit, buf, sizeof buf);
		rt_fig_text(f, x + 21, ty + 4, RT_LEFT, 0, black, buf);
	}
}
