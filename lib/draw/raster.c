/* raster.c: a palette canvas: points, segments, dots, boxes and text in
 * the 6x10 font, and the canvas as a PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"

int
rt_canvas_init(struct rt_canvas *c, uint32_t w, uint32_t h)
{
	memset(c, 0, sizeof *c);
	if ((c->px = calloc((size_t)w * h + 1, 1)) == NULL)
		return RT_ENOMEM;
	c->w = w;
	c->h = h;
	memset(c->pal, 255, 3);		/* 0: white, the background */
	memset(c->pal + 3, 0, 3);	/* 1: black */
	c->npal = 2;
	return 0;
}

void
rt_canvas_free(struct rt_canvas *c)
{
	free(c->px);
	c->px = NULL;
}

int
rt_canvas_ink(struct rt_canvas *c, const unsigned char rgb[3])
{
	if (c->npal == 256)
		return RT_ELIMIT;
	memcpy(c->pal + 3 * c->npal, rgb, 3);
	return c->npal++;
}

void
rt_canvas_point(struct rt_canvas *c, double x, double y, int ink)
{
	long px = lround(x), py = lround(y);

	if (px >= 0 && py >= 0 && px < (long)c->w && py < (long)c->h)
		c->px[(size_t)py * c->w + (size_t)px] = (unsigned char)ink;
}

/* Clip the segment to the canvas (Liang and Barsky): a segment from far
 * off it would be stepped pixel by pixel through nothing.  0: none of
 * it is on the canvas. */
static int
clip(const struct rt_canvas *c, double *x0, double *y0, double *x1, double *y1)
{
	double dx = *x1 - *x0, dy = *y1 - *y0, lo = 0, hi = 1, p[4], q[4], u;
	int i;

	p[0] = -dx, q[0] = *x0 + 1;
	p[1] = dx, q[1] = c->w - *x0;
	p[2] = -dy, q[2] = *y0 + 1;
	p[3] = dy, q[3] = c->h - *y0;
	for (i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (!(q[i] >= 0))	/* parallel and outside, or NaN */
				return 0;
			continue;
		}
		u = q[i] / p[i];
		if (p[i] < 0 && u > lo)
			lo = u;
		if (p[i] > 0 && u < hi)
			hi = u;
	}
	if (!(lo <= hi))
		return 0;
	*x1 = *x0 + hi * dx, *y1 = *y0 + hi * dy;
	*x0 += lo * dx, *y0 += lo * dy;
	return 1;
}

void
rt_canvas_segment(struct rt_canvas *c, double x0, double y0, double x1, double y1, int ink)
{
	double dx, dy, len;
	long k, steps;

	if (!clip(c, &x0, &y0, &x1, &y1))
		return;
	dx = x1 - x0, dy = y1 - y0;
	len = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
	steps = (long)ceil(len);
	for (k = 0; k <= steps; k++) {
		double v = steps ? (double)k / (double)steps : 0;

		rt_canvas_point(c, x0 + v * dx, y0 + v * dy, ink);
	}
}

/* A pixel the ink covers a part of: its colour and the ink's mixed in
 * quarters, through the palette (the nearest colour once it is full). */
static void
cover(struct rt_canvas *c, long px, long py, double part, int ink)
{
	unsigned char *p, rgb[3];
	long q = lround(part * 4);
	int k;

	if (q <= 0 || px < 0 || py < 0 || px >= (long)c->w || py >= (long)c->h)
		return;
	p = &c->px[(size_t)py * c->w + (size_t)px];
	if (q >= 4 || *p == ink) {
		*p = (unsigned char)ink;
		return;
	}
	for (k = 0; k < 3; k++)
		rgb[k] = (unsigned char)((c->pal[3 * *p + k] * (4 - q) + c->pal[3 * ink + k] * q + 2) / 4);
	*p = (unsigned char)rt_canvas_colour(c, rgb);
}

/* An anti-aliased segment (Wu's): at each step along its longer axis the
 * two pixels across it share the ink by their distance from it. */
static void
rt_canvas_aasegment(struct rt_canvas *c, double x0, double y0, double x1, double y1, int ink)
{
	double t, g, y, f;
	long x, xe;
	int steep;

	if (!clip(c, &x0, &y0, &x1, &y1))
		return;
	if ((steep = fabs(y1 - y0) > fabs(x1 - x0))) {
		t = x0, x0 = y0, y0 = t;
		t = x1, x1 = y1, y1 = t;
	}
	if (x0 > x1) {
		t = x0, x0 = x1, x1 = t;
		t = y0, y0 = y1, y1 = t;
	}
	g = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0;
	for (x = lround(x0), xe = lround(x1); x <= xe; x++) {
		y = y0 + g * ((double)x - x0);
		f = y - floor(y);
		if (steep) {
			cover(c, (long)floor(y), x, 1 - f, ink);
			cover(c, (long)floor(y) + 1, x, f, ink);
		} else {
			cover(c, x, (long)floor(y), 1 - f, ink);
			cover(c, x, (long)floor(y) + 1, f, ink);
		}
	}
}

static void
rt_canvas_dot(struct rt_canvas *c, double x, double y, int r, int ink)
{
	int i, j;

	for (i = -r; i <= r; i++)
		for (j = -r; j <= r; j++)
			if (i * i + j * j <= r * r)
				rt_canvas_point(c, x + i, y + j, ink);
}

void
rt_canvas_box(struct rt_canvas *c, double x, double y, int w, int h, int ink)
{
	int a, b;

	for (a = 0; a < w; a++)
		for (b = 0; b < h; b++)
			rt_canvas_point(c, x + a, y + b, ink);
}

/* Text in the 6x10 font (font.c) on its baseline at y: anchored at x by
 * its start, centre or end; RT_UP turns it to read upwards (the baseline
 * then runs up through x); RT_BOLD draws it twice a pixel apart. */
void
rt_canvas_text(struct rt_canvas *c, double x, double y, int anchor, int flags,
    const char *s, int ink)
{
	double len = RT_CHARW * (double)strlen(s), along;
	size_t k;
	int r, b, pass;

	along = anchor == RT_CENTRE ? -len / 2 : anchor == RT_RIGHT ? -len : 0;
	for (pass = 0; pass < (flags & RT_BOLD ? 2 : 1); pass++)
		for (k = 0; s[k]; k++) {
			unsigned ch = (unsigned char)s[k];
			const unsigned char *g;

			if (ch < 32 || ch > 126)
				ch = '?';
			g = rt_font6x10[ch - 32];
			for (r = 0; r < RT_CHARH; r++)
				for (b = 0; b < RT_CHARW; b++) {
					double dx = along + pass + RT_CHARW * (double)k + b, dy = r - 8;

					if (!(g[r] & (0x80 >> b)))
						continue;
					if (flags & RT_UP)
						rt_canvas_point(c, x + dy, y - dx, ink);
					else
						rt_canvas_point(c, x + dx, y + dy, ink);
				}
		}
}

/* The ink of a colour: the one the palette has, a new one, or when the
 * palette is full the nearest. */
int
rt_canvas_colour(struct rt_canvas *c, const unsigned char rgb[3])
{
	int k, best = 0;
	long d, bestd = -1;

	for (k = 0; k < c->npal; k++)
		if (memcmp(c->pal + 3 * k, rgb, 3) == 0)
			return k;
	if (c->npal < 256)
		return rt_canvas_ink(c, rgb);
	for (k = 0; k < c->npal; k++) {
		const unsigned char *q = c->pal + 3 * k;

		d = (long)(q[0] - rgb[0]) * (q[0] - rgb[0]) + (long)(q[1] - rgb[1]) * (q[1] - rgb[1]) +
		    (long)(q[2] - rgb[2]) * (q[2] - rgb[2]);
		if (bestd < 0 || d < bestd)
			bestd = d, best = k;
	}
	return best;
}

/* Lines first, anti-aliased, then dots over them; ink[k] is layer k's
 * palette index. */
void
rt_canvas_layers(struct rt_canvas *c, const struct rt_layer *lay, size_t n, const int *ink)
{
	const struct rt_poly *q;
	size_t k, i;

	for (k = 0; k < n; k++)
		for (q = &lay[k].line, i = 1; i < q->n; i++)
			if (!isnan(q->xy[2 * i]) && !isnan(q->xy[2 * i - 2]))
				rt_canvas_aasegment(c, q->xy[2 * i - 2], q->xy[2 * i - 1],
				    q->xy[2 * i], q->xy[2 * i + 1], ink[k]);
	for (k = 0; k < n; k++)
		for (q = &lay[k].dots, i = 0; i < q->n; i++)
			rt_canvas_dot(c, q->xy[2 * i], q->xy[2 * i + 1], 2, ink[k]);
}

int
rt_canvas_png(const struct rt_canvas *c, FILE *f)
{
	struct rt_png *p;
	uint32_t y;

	if ((p = rt_png_open(f, c->w, c->h, c->pal, c->npal)) == NULL)
		return RT_ENOMEM;
	for (y = 0; y < c->h; y++)
		if (rt_png_row(p, c->px + (size_t)y * c->w))
			break;
	return rt_png_close(p);
}
