/* gz.c: the loop models' one deflate stream: a gzip member whose bytes
 * go to a FILE (pli -z) or are only counted (pli --stats, its gzip_bytes). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "reftrace.h"
#include "loopint.h"

int
rt_gz_init(struct rt_gz *g, int level, FILE *out)
{
	memset(g, 0, sizeof *g);
	g->out = out;
	if (deflateInit2(&g->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		return RT_ENOMEM;
	}
	return 0;
}

int
rt_gz_put(struct rt_gz *g, const void *p, size_t n, int flush)
{
	unsigned char o[16384];
	size_t k;

	g->z.next_in = (Bytef *)p;
	g->z.avail_in = (uInt)n;
	do {
		g->z.next_out = o;
		g->z.avail_out = sizeof o;
		deflate(&g->z, flush);
		k = sizeof o - g->z.avail_out;
		g->bytes += k;
		if (g->out != NULL && k > 0 && fwrite(o, 1, k, g->out) != k)
			return RT_EIO;
	} while (g->z.avail_out == 0);
	return 0;
}

void
rt_gz_end(struct rt_gz *g)
{
	deflateEnd(&g->z);
}
