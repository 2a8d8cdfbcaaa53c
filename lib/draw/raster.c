/* raster.c: a palette canvas: points, segments, dots, boxes and text in a
 * 3x5 font drawn doubled, and the canvas as a PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

int
rt_canvas_init(struct rt_canvas *c, uint32_t w, uint32_t h)
{
	memset(c, 0, sizeof *c);
	if ((c->px = calloc((size_t)w * h + 1, 1)) == NULL)
		return -1;
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
		return -1;
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

void
rt_canvas_segment(struct rt_canvas *c, double x0, double y0, double x1, double y1, int ink)
{
	double dx, dy, len, lo = 0, hi = 1, p[4], q[4], u;
	long k, steps;
	int i;

	/* clipped to the canvas first (Liang and Barsky): a segment from far
	 * off it would be stepped pixel by pixel through nothing */
	p[0] = -(x1 - x0), q[0] = x0 + 1;
	p[1] = x1 - x0, q[1] = c->w - x0;
	p[2] = -(y1 - y0), q[2] = y0 + 1;
	p[3] = y1 - y0, q[3] = c->h - y0;
	for (i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (!(q[i] >= 0))	/* parallel and outside, or NaN */
				return;
			continue;
		}
		u = q[i] / p[i];
		if (p[i] < 0 && u > lo)
			lo = u;
		if (p[i] > 0 && u < hi)
			hi = u;
	}
	if (!(lo <= hi))
		return;
	dx = x1 - x0, dy = y1 - y0;
	x1 = x0 + hi * dx, y1 = y0 + hi * dy;
	x0 += lo * dx, y0 += lo * dy;
	dx = x1 - x0, dy = y1 - y0;
	len = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
	steps = (long)ceil(len);
	for (k = 0; k <= steps; k++) {
		double v = steps ? (double)k / (double)steps : 0;

		rt_canvas_point(c, x0 + v * dx, y0 + v * dy, ink);
	}
}

void
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

/* 3x5 glyphs, rows top down, bit 2 the left column */
static const char glyphs[] = "0123456789abcdefghijklmnopqrstuvwxyz.:-_/()+=%#";
static const unsigned char font[][5] = {
	{7,5,5,5,7},{2,6,2,2,7},{7,1,7,4,7},{7,1,7,1,7},{5,5,7,1,1},{7,4,7,1,7},
	{7,4,7,5,7},{7,1,1,2,2},{7,5,7,5,7},{7,5,7,1,7},
	{2,5,7,5,5},{6,5,6,5,6},{3,4,4,4,3},{6,5,5,5,6},{7,4,6,4,7},{7,4,6,4,4},
	{3,4,5,5,3},{5,5,7,5,5},{7,2,2,2,7},{1,1,1,5,2},{5,5,6,5,5},{4,4,4,4,7},
	{5,7,7,5,5},{6,5,5,5,5},{2,5,5,5,2},{6,5,6,4,4},{2,5,5,6,3},{6,5,6,5,5},
	{3,4,2,1,6},{7,2,2,2,2},{5,5,5,5,7},{5,5,5,5,2},{5,5,7,7,5},{5,5,2,5,5},
	{5,5,2,2,2},{7,1,2,4,7},
	{0,0,0,0,2},{0,2,0,2,0},{0,0,7,0,0},{0,0,0,0,7},{1,1,2,4,4},{1,2,2,2,1},
	{4,2,2,2,4},{0,2,7,2,0},{0,7,0,7,0},{5,1,2,4,5},{5,7,5,7,5}
};

/* Characters 8 pixels apart, 10 high; letters without a glyph are left
 * blank. */
void
rt_canvas_text(struct rt_canvas *c, double x, double y, const char *s, int ink)
{
	const char *g;
	int r, b;

	for (; *s; s++, x += RT_CHARW) {
		int ch = *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s;

		if (ch == 0 || (g = strchr(glyphs, ch)) == NULL)
			continue;
		for (r = 0; r < 5; r++)
			for (b = 0; b < 3; b++)
				if (font[g - glyphs][r] & (4 >> b))
					rt_canvas_box(c, x + 2 * b, y + 2 * r, 2, 2, ink);
	}
}

/* Lines first, then dots over them; ink[k] is layer k's palette index. */
void
rt_canvas_layers(struct rt_canvas *c, const struct rt_layer *lay, size_t n, const int *ink)
{
	const struct rt_poly *q;
	size_t k, i;

	for (k = 0; k < n; k++)
		for (q = &lay[k].line, i = 1; i < q->n; i++)
			if (!isnan(q->xy[2 * i]) && !isnan(q->xy[2 * i - 2]))
				rt_canvas_segment(c, q->xy[2 * i - 2], q->xy[2 * i - 1],
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
		return -1;
	for (y = 0; y < c->h; y++)
		if (rt_png_row(p, c->px + (size_t)y * c->w))
			break;
	return rt_png_close(p);
}
