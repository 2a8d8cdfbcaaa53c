/* draw.h: pictures: PNG. */
#ifndef RT_DRAW_H
#define RT_DRAW_H

#include <stdint.h>
#include <stdio.h>

/* cachesim's event map: a pixel per access coloured by the level of
 * nlevels that served it (nlevels: memory), width pixels a row. */
struct rt_evmap;
struct rt_evmap *rt_evmap_new(uint32_t width, int nlevels);
int rt_evmap_add(struct rt_evmap *m, int level);	/* -1 out of memory */
size_t rt_evmap_count(const struct rt_evmap *m);
int rt_evmap_write(const struct rt_evmap *m, FILE *f);	/* a PNG */
void rt_evmap_free(struct rt_evmap *m);

/* PNG pictures: 8-bit palette (npal RGB triples) or RGB when palette is
 * NULL; rows of w pixels given top to bottom, h of them. */
struct rt_png;
struct rt_png *rt_png_open(FILE *f, uint32_t w, uint32_t h, const unsigned char *palette, int npal);
int rt_png_row(struct rt_png *p, const unsigned char *pixels);
int rt_png_close(struct rt_png *p);

#endif
