/* picture.c: the access map and an array's grid drawn with their axes
 * and keys (MTV's access map; MapVisual's 2-D reconstruction, by count
 * or by recency). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"
#include "map.h"

static const unsigned char black[3] = { 0, 0, 0 }, grey[3] = { 120, 120, 120 },
    band[3] = { 225, 225, 225 };
static const unsigned char opcol[4][3] = {
	{ 33, 102, 172 }, { 214, 39, 40 }, { 148, 103, 189 }, { 90, 90, 90 }
};
static const char *opname[4] = { "read", "write", "modify", "fetch" };

#define LEVELS 16

void
rt_map_layout(struct rt_plot *p, double W, double H)
{
	rt_plot_layout(p, W, H, 110, 1);
	p->x += 40;		/* addresses in hex on the left */
	p->w -= 40;
}

static void
opcolour(int op, int level, unsigned char rgb[3])
{
	double a = 0.25 + 0.75 * level / LEVELS;
	int c;

	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)(255 - a * (255 - opcol[op][c]));
}

static void
logramp(double t, unsigned char rgb[3])
{
	rt_colour_ramp(t, rgb);
}

static void
axis(struct rt_fig *fig, const struct rt_fold *f, const struct rt_plot *p,
    const char *const *names)
{
	char buf[64];
	size_t k;
	double ylo, yhi;

	for (k = 0; k < rt_fold_count(f); k++) {
		const struct rt_seg *s = rt_fold_seg(f, k);

		ylo = p->y + p->h - s->y0;
		yhi = p->y + p->h - s->y1 - 1;
		snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)s->lo);
		rt_fig_line(fig, p->x - 4, ylo - 0.5, p->x, ylo - 0.5, black);
		rt_fig_text(fig, p->x - 6, ylo, RT_RIGHT, 0, black, buf);
		if (ylo - yhi >= 34) {
			snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)s->hi);
			rt_fig_line(fig, p->x - 4, yhi + 0.5, p->x, yhi + 0.5, black);
			rt_fig_text(fig, p->x - 6, yhi + 9, RT_RIGHT, 0, black, buf);
		}
		if (names != NULL && names[k] != NULL && ylo - yhi >= 22)
			rt_fig_text(fig, p->x - 6, (ylo + yhi) / 2 + 4, RT_RIGHT, RT_BOLD, black,
			    names[k]);
		if (k + 1 < rt_fold_count(f)) {	/* the cut: a band and a mark */
			const struct rt_seg *t = rt_fold_seg(f, k + 1);
			double g0 = yhi, g1 = p->y + p->h - t->y0;

			rt_fig_rect(fig, p->x, g1, p->w, g0 - g1, band, NULL);
			rt_fig_line(fig, p->x - 5, (g0 + g1) / 2 + 3, p->x + 5, (g0 + g1) / 2 - 1, grey);
			rt_fig_line(fig, p->x - 5, (g0 + g1) / 2 + 1, p->x + 5, (g0 + g1) / 2 - 3, grey);
		}
	}
}

struct rt_fig *
rt_map_figure(const struct rt_density *d, const struct rt_fold *f, const struct rt_plot *p,
    double W, double H, int bycount, uint64_t n, const char *title, const char *const *names)
{
	unsigned char pal[3 * 256], *img;
	const char *np[5], *subp[1];
	unsigned char key[5][3];
	char sub[200];
	uint32_t x, y, best, max = 0, c;
	const uint32_t *v;
	struct rt_axis ax;
	struct rt_fig *fig;
	double t;
	int op, k, lv;

	for (x = 0; x < d->cols * d->rows; x++)
		for (op = 0, v = d->n[x]; op < 4; op++)
			if (v[op] > max)
				max = v[op];
	memset(pal, 255, 3);
	for (op = 0; op < 4; op++)
		for (k = 1; k <= LEVELS; k++)
			opcolour(op, k, pal + 3 * (1 + op * LEVELS + k - 1));
	for (k = 0; k < 64; k++)
		logramp(k / 63.0, pal + 3 * (1 + 4 * LEVELS + k));
	if ((img = malloc((size_t)d->cols * d->rows + 1)) == NULL ||
	    (fig = rt_fig_new(W, H)) == NULL) {
		free(img);
		return NULL;
	}
	for (y = 0; y < d->rows; y++)
		for (x = 0; x < d->cols; x++) {
			v = d->n[(size_t)(d->rows - 1 - y) * d->cols + x];
			for (best = 0, c = 0, op = 0; op < 4; op++) {
				c += v[op];
				if (v[op] > v[best])
					best = (uint32_t)op;
			}
			t = c == 0 ? 0 : max > 1 ? log((double)c) / log((double)max) : 1;
			if (t > 1)
				t = 1;
			lv = 1 + (int)((LEVELS - 1) * t);
			img[(size_t)y * d->cols + x] = (unsigned char)(c == 0 ? 0 : bycount ?
			    1 + 4 * LEVELS + (int)(63 * t) : 1 + (int)best * LEVELS + lv - 1);
		}
	snprintf(sub, sizeof sub, "%llu accesses; a pixel: about %.3g accesses' time",
	    (unsigned long long)n, (double)n / d->cols);
	subp[0] = sub;
	rt_plot_title(fig, W, title ? title : "access map: addresses touched over time", subp, 1);
	rt_fig_image(fig, p->x, p->y, d->cols, d->rows, p->w, p->h, img, pal, 1 + 4 * LEVELS + 64);
	axis(fig, f, p, names);
	ax = (struct rt_axis){ 0, (double)n, RT_AX_NUM, "time (accesses)" };
	rt_plot_axes(fig, p, &ax, NULL);
	rt_fig_text(fig, 14, p->y + p->h / 2, RT_CENTRE, RT_UP, black,
	    "address (folded: untouched gaps cut out)");
	if (bycount)
		rt_key_ramp(fig, p->keyx, p->y, p->h < 260 ? p->h : 260, 0,
		    max > 1 ? log2((double)max) : 1, RT_AX_NUM, "log2 accesses", logramp);
	else {
		for (op = 0; op < 4; op++) {
			np[op] = opname[op];
			memcpy(key[op], opcol[op], 3);
		}
		rt_legend(fig, p->keyx, p->y, p->h, "op (most in a pixel)", np,
		    (const unsigned char (*)[3])key, 4);
		rt_fig_text(fig, p->keyx, p->y + 78, RT_LEFT, 0, grey, "paler: fewer");
	}
	/* the image is the figure's until it is written: kept with it */
	rt_fig_own(fig, img);
	return fig;
}
