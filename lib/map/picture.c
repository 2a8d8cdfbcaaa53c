/* picture.c: the access map and an array's grid drawn with their axes
 * and keys (MTV's access map; MapVisual's 2-D reconstruction, by count
 * or by recency). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "map.h"

static const unsigned char black[3] = { 0, 0, 0 }, grey[3] = { 120, 120, 120 },
    band[3] = { 225, 225, 225 };
static const unsigned char opcol[4][3] = {
	{ 33, 102, 172 }, { 214, 39, 40 }, { 148, 103, 189 }, { 90, 90, 90 }
};
static const char *opname[4] = { "read", "write", "modify", "fetch" };
static const char *keyname[] = { "set", "region", "source line", "function" };

#define LEVELS 16
#define CLEVELS 8	/* a class's shades: 19 classes fit the palette */

static void freelines(char **v, size_t n);

static const char *
keyhead(const struct rt_mapcats *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s (most in a pixel)", keyname[rt_mapcats_keykind(c) & 3]);
	return buf;
}

/* The classes' legend: a name and its accesses a line. */
static char **
catlines(const struct rt_mapcats *c, size_t *n)
{
	size_t k, nother, nk = rt_mapcats_count(c, &nother);
	char **v = calloc(nk + 2, sizeof *v), num[32], buf[300];

	for (k = 0; v != NULL && k < nk + (nother > 0); k++) {
		rt_axis_label((double)rt_mapcats_accesses(c, k), RT_AX_NUM, num, sizeof num);
		if (k < nk)
			snprintf(buf, sizeof buf, "%s (%s)", rt_mapcats_name(c, k), num);
		else
			snprintf(buf, sizeof buf, "%zu others (%s)", nother, num);
		if ((v[k] = strdup(buf)) == NULL) {
			freelines(v, k);
			return NULL;
		}
	}
	*n = k;
	return v;
}

static void
freelines(char **v, size_t n)
{
	size_t k;

	for (k = 0; v != NULL && k < n; k++)
		free(v[k]);
	free(v);
}

/* Room on the right for the key: the legend of the classes when the
 * map is coloured by them. */
void
rt_map_layout(struct rt_plot *p, double W, double H, const struct rt_mapcats *c)
{
	double keyw = 110, w;
	char **v, head[64];
	size_t n;

	if (c != NULL && (v = catlines(c, &n)) != NULL) {
		if ((w = rt_legend_width(keyhead(c, head, sizeof head),
		    (const char *const *)v, n)) > keyw)
			keyw = w < W / 3 ? w : W / 3;
		freelines(v, n);
	}
	rt_plot_layout(p, W, H, keyw, 1);
	p->x += 54;		/* addresses in hex, names of 15 letters, on the left */
	p->w -= 54;
}

/* A colour paler for fewer accesses: level 1 to levels. */
static void
shade(const unsigned char base[3], int level, int levels, unsigned char rgb[3])
{
	double a = 0.25 + 0.75 * level / levels;
	int c;

	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)(255 - a * (255 - base[c]));
}

/* Class k's colour: by its rank in accesses, the categories without
 * their greys, which are other's. */
static void
catcolour(const struct rt_mapcats *c, size_t k, size_t n, unsigned char rgb[3])
{
	static const unsigned char other[3] = { 150, 150, 150 };
	size_t r = rt_mapcats_rank(c, k);

	if (k >= n)
		memcpy(rgb, other, 3);
	else
		rt_colour_category(r + (r >= 7) + (r >= 16), rgb);
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
		if (names != NULL && names[k] != NULL && ylo - yhi < 22)	/* the name tells more */
			rt_fig_text(fig, p->x - 6, ylo, RT_RIGHT, RT_BOLD, black, names[k]);
		else
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

/* The palette: white, then shades of each category (and the rest), or
 * of each op and a ramp of counts.  The colours it has. */
int
rt_map_palette(unsigned char *pal, const struct rt_mapcats *cats, size_t ncat)
{
	unsigned char base[3];
	size_t i;
	int op, k;

	memset(pal, 255, 3);
	if (cats != NULL) {
		for (i = 0; i <= ncat; i++) {
			catcolour(cats, i, ncat, base);
			for (k = 1; k <= CLEVELS; k++)
				shade(base, k + CLEVELS / 2, CLEVELS + CLEVELS / 2,
				    pal + 3 * (1 + i * CLEVELS + k - 1));
		}
		return 1 + (int)(ncat + 1) * CLEVELS;
	}
	for (op = 0; op < 4; op++)
		for (k = 1; k <= LEVELS; k++)
			shade(opcol[op], k, LEVELS, pal + 3 * (1 + op * LEVELS + k - 1));
	for (k = 0; k < 64; k++)
		logramp(k / 63.0, pal + 3 * (1 + 4 * LEVELS + k));
	return 1 + 4 * LEVELS + 64;
}

/* A cell's colour: by category, by count, or by its most frequent op,
 * paler for fewer accesses (on a log scale up to max). */
static unsigned char
cellcolour(const struct rt_density *d, size_t i, uint32_t max, const struct rt_mapcats *cats,
    size_t ncat, int bycount)
{
	const uint32_t *v = d->n[i];
	uint32_t best = 0, c = 0;
	double t;
	int op;

	for (op = 0; op < 4; op++) {
		c += v[op];
		if (v[op] > v[best])
			best = (uint32_t)op;
	}
	if (c == 0)
		return 0;
	t = max > 1 ? log((double)c) / log((double)max) : 1;
	if (t > 1)
		t = 1;
	if (cats != NULL)
		return (unsigned char)(1 + (d->cls[i] < ncat ? d->cls[i] : ncat) * CLEVELS +
		    (int)((CLEVELS - 1) * t));
	if (bycount)
		return (unsigned char)(1 + 4 * LEVELS + (int)(63 * t));
	return (unsigned char)(1 + (int)best * LEVELS + (int)((LEVELS - 1) * t));
}

/* The key right of the plot: the categories, the ramp of counts, or the
 * ops.  0, or -1 out of memory. */
static int
mapkey(struct rt_fig *fig, const struct rt_plot *p, const struct rt_mapcats *cats, size_t ncat,
    int bycount, uint32_t max)
{
	const char *np[4];
	unsigned char key[4][3], (*crgb)[3];
	char head[64], **lines;
	size_t i, nlines = 0;
	double h;
	int op;

	if (cats == NULL && bycount) {
		rt_key_ramp(fig, p->keyx, p->y, p->h < 260 ? p->h : 260, 0,
		    max > 1 ? log2((double)max) : 1, RT_AX_NUM, "log2 accesses", logramp);
		return 0;
	}
	if (cats == NULL) {
		for (op = 0; op < 4; op++) {
			np[op] = opname[op];
			memcpy(key[op], opcol[op], 3);
		}
		rt_legend(fig, p->keyx, p->y, p->h, "op (most in a pixel)", np,
		    (const unsigned char (*)[3])key, 4);
		rt_fig_text(fig, p->keyx, p->y + 78, RT_LEFT, 0, grey, "paler: fewer");
		return 0;
	}
	lines = catlines(cats, &nlines);
	crgb = calloc(nlines + 1, sizeof *crgb);
	for (i = 0; crgb != NULL && i < nlines; i++)
		catcolour(cats, i, ncat, crgb[i]);
	keyhead(cats, head, sizeof head);
	if (lines != NULL && crgb != NULL) {
		h = rt_legend(fig, p->keyx, p->y, p->h - 16, head, (const char *const *)lines,
		    (const unsigned char (*)[3])crgb, nlines);
		rt_fig_text(fig, p->keyx, p->y + h + 10, RT_LEFT, 0, grey, "paler: fewer");
	}
	freelines(lines, nlines);
	free(crgb);
	return lines != NULL && crgb != NULL ? 0 : -1;
}

struct rt_fig *
rt_map_figure(const struct rt_density *d, const struct rt_fold *f, const struct rt_plot *p,
    double W, double H, int bycount, const struct rt_mapcats *cats, uint64_t n,
    const char *title, const char *const *names)
{
	unsigned char pal[3 * 256], *img;
	const char *subp[1];
	char sub[200];
	uint32_t x, y, max = 0;
	struct rt_axis ax;
	struct rt_fig *fig;
	size_t ncat = 0, nother = 0;
	int op, npal;

	for (x = 0; x < d->cols * d->rows; x++)
		for (op = 0; op < 4; op++)
			if (d->n[x][op] > max)
				max = d->n[x][op];
	if (cats != NULL && ((ncat = rt_mapcats_count(cats, &nother)) + 1 > 255 / CLEVELS ||
	    d->cls == NULL))
		return NULL;
	npal = rt_map_palette(pal, cats, ncat);
	if ((img = malloc((size_t)d->cols * d->rows + 1)) == NULL ||
	    (fig = rt_fig_new(W, H)) == NULL) {
		free(img);
		return NULL;
	}
	for (y = 0; y < d->rows; y++)
		for (x = 0; x < d->cols; x++)
			img[(size_t)y * d->cols + x] = cellcolour(d,
			    (size_t)(d->rows - 1 - y) * d->cols + x, max, cats, ncat, bycount);
	snprintf(sub, sizeof sub, "%llu accesses; a pixel: about %.3g accesses' time",
	    (unsigned long long)n, (double)n / d->cols);
	subp[0] = sub;
	rt_plot_title(fig, W, title ? title : "access map: addresses touched over time", subp, 1);
	rt_fig_image(fig, p->x, p->y, d->cols, d->rows, p->w, p->h, img, pal, npal);
	axis(fig, f, p, names);
	ax = (struct rt_axis){ 0, (double)n, RT_AX_NUM, "time (accesses)" };
	rt_plot_axes(fig, p, &ax, NULL);
	rt_fig_text(fig, 14, p->y + p->h / 2, RT_CENTRE, RT_UP, black,
	    "address (folded: untouched gaps cut out)");
	if (mapkey(fig, p, cats, ncat, bycount, max)) {
		free(img);
		rt_fig_free(fig);
		return NULL;
	}
	/* the image is the figure's until it is written: kept with it */
	rt_fig_own(fig, img);
	return fig;
}
