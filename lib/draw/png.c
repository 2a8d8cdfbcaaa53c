/* png.c: PNG images with zlib alone: 8-bit palette or RGB, one IDAT
 * stream deflated as rows are given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reftrace.h"
#include "draw.h"
#include "base/zout.h"

struct rt_png {
	FILE *f;
	uint32_t w, h, row, bpp;
	struct rt_zout z;	/* its output an IDAT chunk at a time */
	int err;
};

#define ZCHUNK (64u << 10)

static void
be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void
chunk(struct rt_png *p, const char *type, const unsigned char *data, uint32_t n)
{
	unsigned char b[8];
	uLong crc = crc32(0, (const Bytef *)type, 4);

	be32(b, n);
	memcpy(b + 4, type, 4);
	if (n)
		crc = crc32(crc, data, n);
	if (fwrite(b, 1, 8, p->f) != 8 || (n && fwrite(data, 1, n, p->f) != n))
		p->err = 1;
	be32(b, (uint32_t)crc);
	if (fwrite(b, 1, 4, p->f) != 4)
		p->err = 1;
}

static int
idat(void *arg, const void *data, size_t n)
{
	struct rt_png *p = arg;

	chunk(p, "IDAT", data, (uint32_t)n);
	return 0;
}

/* palette: npal RGB triples (color type 3), or NULL for RGB rows. */
struct rt_png *
rt_png_open(FILE *f, uint32_t w, uint32_t h, const unsigned char *palette, int npal)
{
	struct rt_png *p = calloc(1, sizeof *p);
	unsigned char ihdr[13];

	if (p == NULL || w == 0 || h == 0 || rt_zout_init(&p->z, 6, ZCHUNK, idat, p) < 0) {
		free(p);
		return NULL;
	}
	p->f = f;
	p->w = w;
	p->h = h;
	p->bpp = palette ? 1 : 3;
	fwrite("\211PNG\r\n\032\n", 1, 8, f);
	be32(ihdr, w);
	be32(ihdr + 4, h);
	ihdr[8] = 8;
	ihdr[9] = palette ? 3 : 2;
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	chunk(p, "IHDR", ihdr, 13);
	if (palette)
		chunk(p, "PLTE", palette, (uint32_t)npal * 3);
	return p;
}

/* One row of w pixels (palette indices or RGB triples). */
int
rt_png_row(struct rt_png *p, const unsigned char *pix)
{
	static const unsigned char none = 0;	/* filter type: none */

	if (p->row >= p->h)
		return RT_EUSAGE;
	rt_zout_write(&p->z, &none, 1);
	rt_zout_write(&p->z, pix, p->w * p->bpp);
	p->row++;
	return p->err ? RT_EIO : 0;
}

int
rt_png_close(struct rt_png *p)
{
	int e;

	if (rt_zout_end(&p->z) < 0)
		p->err = 1;
	chunk(p, "IEND", NULL, 0);
	e = p->err || p->row != p->h || ferror(p->f);
	free(p);
	return e ? RT_EIO : 0;
}
