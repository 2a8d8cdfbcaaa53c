/* zout.c: a deflate stream that hands its output on or counts it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/zout.h"

int
rt_zout_init(struct rt_zout *s, int level, size_t cap, rt_zput *put, void *arg)
{
	int bits = 15 + (level & RT_ZGZIP);

	memset(s, 0, sizeof *s);
	s->put = put;
	s->arg = arg;
	s->cap = cap ? cap : 65536;
	if ((s->buf = malloc(s->cap)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	if (deflateInit2(&s->z, level & 15, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(s->buf);
		s->buf = NULL;
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

static int
run(struct rt_zout *s, const void *p, size_t n, int flush)
{
	const unsigned char *c = p;
	size_t k, out;

	if (s->err) {
		errno = s->err;
		return -1;
	}
	do {
		/* avail_in is an unsigned int */
		k = n > (1u << 30) ? 1u << 30 : n;
		s->z.next_in = (Bytef *)c;
		s->z.avail_in = (uInt)k;
		if (k > 0)	/* the end's c is NULL: no offset, even 0 */
			c += k;
		n -= k;
		do {
			s->z.next_out = s->buf;
			s->z.avail_out = (uInt)s->cap;
			if (deflate(&s->z, n ? Z_NO_FLUSH : flush) == Z_STREAM_ERROR) {
				s->err = EINVAL;
				break;
			}
			out = s->cap - s->z.avail_out;
			s->bytes += out;
			if (out && s->put != NULL && (s->err = s->put(s->arg, s->buf, out)) != 0)
				break;
		} while (s->z.avail_out == 0);
	} while (n > 0 && !s->err);
	if (s->err) {
		errno = s->err;
		return -1;
	}
	return 0;
}

int
rt_zout_write(struct rt_zout *s, const void *p, size_t n)
{
	return n ? run(s, p, n, Z_NO_FLUSH) : 0;
}

int
rt_zout_end(struct rt_zout *s)
{
	int rc = run(s, NULL, 0, Z_FINISH), e = errno;

	rt_zout_free(s);
	errno = e;
	return rc;
}

void
rt_zout_free(struct rt_zout *s)
{
	if (s->buf != NULL)
		deflateEnd(&s->z);
	free(s->buf);
	s->buf = NULL;
}
