/* gz.c: a loop model written gzipped (pli -z): a FILE whose text goes
 * into a gzip member (lib/base/zout) as it comes, no text kept and no
 * second pass; or only counted (pli --stats).  A model's text is most
 * of its size, and a whole trace's tables of run-once code compress
 * where they do not fold into loops (bench/RESULTS.plistreams). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "reftrace.h"
#include "loop.h"
#include "base/zout.h"

/* 0, or an errno value */
static int
fileput(void *out, const void *p, size_t n)
{
	return fwrite(p, 1, n, out) == n ? 0 : errno ? errno : EIO;
}

static ssize_t
cookiewrite(void *c, const char *buf, size_t n)
{
	return rt_zout_write(c, buf, n) < 0 ? -1 : (ssize_t)n;
}

static int
cookieclose(void *c)
{
	int rc = rt_zout_end(c);

	free(c);
	return rc;
}

FILE *
rt_loop_gzopen(FILE *out, int level)
{
	struct rt_zout *z;
	FILE *f;

	if ((z = malloc(sizeof *z)) == NULL)
		return NULL;
	if (rt_zout_init(z, level | RT_ZGZIP, 16384, fileput, out) < 0) {
		free(z);
		return NULL;
	}
	if ((f = fopencookie(z, "w", (cookie_io_functions_t){ NULL, cookiewrite, NULL,
	    cookieclose })) == NULL) {
		rt_zout_free(z);
		free(z);
		errno = ENOMEM;
	}
	return f;
}

static ssize_t
countwrite(void *c, const char *buf, size_t n)
{
	(void)buf;
	*(uint64_t *)c += n;
	return (ssize_t)n;
}

FILE *
rt_loop_countopen(uint64_t *bytes)
{
	FILE *f;

	*bytes = 0;
	if ((f = fopencookie(bytes, "w", (cookie_io_functions_t){ NULL, countwrite, NULL,
	    NULL })) == NULL)
		errno = ENOMEM;
	return f;
}
