/* grid.c: a registered array reconstructed as a grid of its elements
 * (MapVisual §III-D): each coloured by its accesses or by when it was
 * last touched, the recency heat map. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"
#include "map.h"

int
rt_grid_init(struct rt_grid *g, uint64_t base, uint64_t size, uint64_t elem, uint64_t cols)
{
	memset(g, 0, sizeof *g);
	if (elem == 0 || cols == 0 || size / elem == 0 || size / elem > (1u << 26))
		return RT_EUSAGE;
	g->base = base, g->size = size, g->elem = elem, g->cols = cols;
	g->nel = size / elem;
	g->rows = (g->nel + cols - 1) / cols;
	g->count = calloc(g->nel, sizeof *g->count);
	g->last = calloc(g->nel, sizeof *g->last);
	if (g->count == NULL || g->last == NULL) {
		rt_grid_free(g);
		return RT_ENOMEM;
	}
	return 0;
}

/* The access addr .. last at time when: every element it touches. */
void
rt_grid_add(struct rt_grid *g, uint64_t addr, uint64_t last, uint64_t when)
{
	struct rt_span s;

	if (last < g->base || addr >= g->base + g->nel * g->elem)
		return;
	if (addr < g->base)
		addr = g->base;
	if (last >= g->base + g->nel * g->elem)
		last = g->base + g->nel * g->elem - 1;
	rt_span_start(&s, addr - g->base, last - g->base, g->elem);
	while (rt_span_next(&s)) {
		g->count[s.block]++;
		g->last[s.block] = when + 1;
	}
}

void
rt_grid_free(struct rt_grid *g)
{
	free(g->count);
	free(g->last);
	g->count = g->last = NULL;
}

static void
ramp(double t, unsigned char rgb[3])
{
	rt_colour_ramp(t, rgb);
}

struct rt_fig *
rt_grid_figure(const struct rt_grid *g, double W, double H, int recency, const char *name,
    const char *title)
{
	static const unsigned char never[3] = { 235, 235, 235 }, black[3] = { 0, 0, 0 };
	unsigned char pal[3 * 256], *img;
	char head[200], sub[200];
	const char *subp[1] = { sub };
	uint64_t i, lo = UINT64_MAX, hi = 0, v;
	struct rt_axis ax;
	struct rt_plot p;
	struct rt_fig *fig;
	int k;

	for (i = 0; i < g->nel; i++) {
		v = recency ? g->last[i] : g->count[i];
		if (v == 0)
			continue;
		if (v < lo)
			lo = v;
		if (v > hi)
			hi = v;
	}
	if (lo > hi)
		lo = hi = 0;
	memcpy(pal, never, 3);
	for (k = 0; k < 255; k++)
		ramp(k / 254.0, pal + 3 * (k + 1));
	if ((img = malloc(g->nel + 1)) == NULL || (fig = rt_fig_new(W, H)) == NULL) {
		free(img);
		return NULL;
	}
	rt_fig_own(fig, img);
	for (i = 0; i < g->nel; i++) {
		v = recency ? g->last[i] : g->count[i];
		img[i] = (unsigned char)(v == 0 ? 0 : hi > lo ? 1 + (int)(254.0 * (double)(v - lo) /
		    (double)(hi - lo)) : 255);
	}
	snprintf(head, sizeof head, "%s: %llu x %llu elements of %llu bytes", name,
	    (unsigned long long)g->rows, (unsigned long long)g->cols, (unsigned long long)g->elem);
	snprintf(sub, sizeof sub, "colour: %s; grey: never touched",
	    recency ? "time of the last access (access number)" : "accesses to the element");
	rt_plot_layout(&p, W, H, 110, 1);
	/* square cells, as large as fit */
	{
		double cell = p.w / (double)g->cols < p.h / (double)g->rows ?
		    p.w / (double)g->cols : p.h / (double)g->rows;

		p.w = cell * (double)g->cols;
		p.h = cell * (double)g->rows;
	}
	rt_plot_title(fig, W, title ? title : head, subp, 1);
	/* the last row may be partial: the image is whole rows */
	if (g->nel % g->cols) {
		unsigned char *full = calloc(g->rows * g->cols, 1);

		if (full == NULL) {
			rt_fig_free(fig);
			return NULL;
		}
		memcpy(full, img, g->nel);
		rt_fig_own(fig, full);
		img = full;
	}
	rt_fig_image(fig, p.x, p.y, (uint32_t)g->cols, (uint32_t)g->rows, p.w, p.h, img, pal, 256);
	ax = (struct rt_axis){ 0, (double)g->cols, RT_AX_INT, "column" };
	rt_plot_axes(fig, &p, &ax, NULL);
	{
		double t[16], y;
		char buf[32];
		size_t n = rt_ticks(0, (double)g->rows, RT_AX_INT, t, p.h > 200 ? 9 : 4, NULL), j;

		for (j = 0; j < n; j++) {	/* row 0 on top, as the array is written */
			y = p.y + t[j] / (double)g->rows * p.h;
			rt_fig_line(fig, p.x - 4, y, p.x, y, black);
			snprintf(buf, sizeof buf, "%.0f", t[j]);
			rt_fig_text(fig, p.x - 6, y + 4, RT_RIGHT, 0, black, buf);
		}
		rt_fig_text(fig, 14, p.y + p.h / 2, RT_CENTRE, RT_UP, black, "row");
	}
	rt_key_ramp(fig, p.x + p.w + 16, p.y, p.h < 260 ? (p.h > 80 ? p.h : 80) : 260, (double)lo - recency,
	    (double)hi - recency, RT_AX_NUM, recency ? "last access" : "accesses", ramp);
	return fig;
}
