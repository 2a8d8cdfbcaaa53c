/* evmap.c: cachesim's event map: the level that served each access, a
 * pixel each, rows of a fixed width, L1 blue ... memory red. */
#include <stdlib.h>
#include <string.h>

#include "draw.h"

struct rt_evmap {
	unsigned char *v;
	size_t n, cap;
	uint32_t width;
	int nlevels;
};

struct rt_evmap *
rt_evmap_new(uint32_t width, int nlevels)
{
	struct rt_evmap *m = calloc(1, sizeof *m);

	if (m != NULL) {
		m->width = width;
		m->nlevels = nlevels;
	}
	return m;
}

int
rt_evmap_add(struct rt_evmap *m, int level)
{
	unsigned char *v;

	if (m->n == m->cap) {
		if ((v = realloc(m->v, m->cap ? m->cap * 2 : 1 << 20)) == NULL)
			return -1;
		m->v = v;
		m->cap = m->cap ? m->cap * 2 : 1 << 20;
	}
	m->v[m->n++] = (unsigned char)level;
	return 0;
}

size_t
rt_evmap_count(const struct rt_evmap *m)
{
	return m->n;
}

int
rt_evmap_write(const struct rt_evmap *m, FILE *f)
{
	static const unsigned char pal[][3] = {
		{ 44, 123, 182 }, { 171, 217, 233 }, { 255, 255, 191 }, { 253, 174, 97 },
		{ 244, 109, 67 }, { 215, 48, 39 }, { 165, 0, 38 }, { 120, 0, 30 }, { 80, 0, 20 },
	};
	unsigned char palette[3 * 10], *row;
	int n = m->nlevels, k, rc = 0;
	size_t i, y, w = m->width, h = m->n ? (m->n + w - 1) / w : 1;
	struct rt_png *p;

	for (k = 0; k < n; k++)
		memcpy(palette + 3 * k, pal[k], 3);
	memcpy(palette + 3 * n, pal[5 + (n > 3)], 3);	/* memory: red */
	palette[3 * (n + 1)] = palette[3 * (n + 1) + 1] = palette[3 * (n + 1) + 2] = 255;
	if ((row = malloc(w)) == NULL)
		return -1;
	if ((p = rt_png_open(f, (uint32_t)w, (uint32_t)h, palette, n + 2)) == NULL) {
		free(row);
		return -1;
	}
	for (y = 0; y < h; y++) {
		for (i = 0; i < w; i++)
			row[i] = y * w + i < m->n ? m->v[y * w + i] : (unsigned char)(n + 1);
		rc |= rt_png_row(p, row);
	}
	free(row);
	return rt_png_close(p) || rc ? -1 : 0;
}

void
rt_evmap_free(struct rt_evmap *m)
{
	if (m == NULL)
		return;
	free(m->v);
	free(m);
}
