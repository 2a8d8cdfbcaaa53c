/* gz.c: the loop models' one deflate stream: a gzip member whose bytes
 * go to a FILE (pli -z, the model written into it as a FILE of its own)
 * or are only counted (pli --stats, its gzip_bytes). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The FILE of rt_loop_gzopen: what the writer writes is deflated as it
 * comes, and closing it ends the member (no text kept, no second pass).
 * A model's text is most of its size, and a whole trace's tables of
 * run-once code compress where they do not fold into loops
 * (bench/RESULTS.plistreams). */
static ssize_t
gzwrite_cookie(void *c, const char *buf, size_t n)
{
	return rt_gz_put(c, buf, n, Z_NO_FLUSH) ? -1 : (ssize_t)n;
}

static int
gzclose_cookie(void *c)
{
	int rc = rt_gz_put(c, NULL, 0, Z_FINISH);

	rt_gz_end(c);
	free(c);
	return rc ? -1 : 0;
}

FILE *
rt_loop_gzopen(FILE *out, int level)
{
	struct rt_gz *g;
	FILE *f;

	if ((g = malloc(sizeof *g)) == NULL)
		return NULL;
	if (rt_gz_init(g, level, out)) {
		free(g);
		return NULL;
	}
	if ((f = fopencookie(g, "w", (cookie_io_functions_t){ NULL, gzwrite_cookie, NULL,
	    gzclose_cookie })) == NULL) {
		rt_gz_end(g);
		free(g);
		errno = ENOMEM;
	}
	return f;
}
