/* draw.h: pictures: PNG. */
#ifndef RT_DRAW_H
#define RT_DRAW_H

#include <stdint.h>
#include <stdio.h>

/* PNG pictures: 8-bit palette (npal RGB triples) or RGB when palette is
 * NULL; rows of w pixels given top to bottom, h of them. */
struct rt_png;
struct rt_png *rt_png_open(FILE *f, uint32_t w, uint32_t h, const unsigned char *palette, int npal);
int rt_png_row(struct rt_png *p, const unsigned char *pixels);
int rt_png_close(struct rt_png *p);

#endif
