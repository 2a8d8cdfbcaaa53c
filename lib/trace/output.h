/* output.h: the output layer under every trace writer: a buffer before a
 * file, standard output or gzip, and number formatting.  The trace
 * formats (fmt_*.c) encode into it. */
#ifndef RT_OUTPUT_H
#define RT_OUTPUT_H

#include <string.h>
#include <zlib.h>

#include "reftrace.h"

#define RT_OUT_BUFSZ (256u << 10)
#define RT_OUT_SLACK 64		/* past RT_OUT_BUFSZ, for rt_out_dec's copy */

struct rt_format;

struct rt_writer {
	/* the format's encoder, and its first error, where rt_write finds
	 * them with one load each */
	int (*write)(struct rt_writer *w, const struct rt_rec *rec);
	int err;		/* first errno, sticky */
	int fd;
	struct rt_ofile *of;	/* the file made, NULL for standard output */
	gzFile gz;		/* when compressing */
	char *buf;
	size_t len;
	const struct rt_format *f;
	void *st;		/* the format's encoder state */
	int started;		/* the format's header is written */
	int discard;		/* rt_wdiscard: the stream is not to end as complete */
	struct rt_part part;	/* for the header: rt_wpart */
};

/* An error: the first one sticks in w->err; errno says it; -1. */
int rt_out_fail(struct rt_writer *w, int e);

/* Write out the buffer and, where p is not NULL, n bytes at p after it;
 * 0 or -1 (rt_out_fail). */
int rt_out_flush(struct rt_writer *w, const void *p, size_t n);

static inline int
rt_out(struct rt_writer *w, const void *p, size_t n)
{
	if (w->len + n > RT_OUT_BUFSZ)
		return rt_out_flush(w, p, n);
	memcpy(w->buf + w->len, p, n);
	w->len += n;
	return 0;
}

/* Room for n bytes (up to 128) at w->buf + w->len, NULL on an error; the
 * caller moves w->len past what it put there. */
static inline char *
rt_out_room(struct rt_writer *w, size_t n)
{
	if (w->len + n > RT_OUT_BUFSZ && rt_out_flush(w, NULL, 0))
		return NULL;
	return w->buf + w->len;
}

/* Numbers into p, which has 24 bytes of room past the digits: the end. */
static inline char *
rt_out_dec(char *p, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
	char t[48], *e = t + 24, *q = e;
	size_t n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, pairs + 2 * v, 2);
	} else
		*--q = (char)('0' + v);
	n = (size_t)(e - q);
	memcpy(p, q, 24);	/* a constant copy */
	return p + n;
}

static inline char *
rt_out_hex(char *p, uint64_t v)
{
	static const char dig[] = "0123456789abcdef";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1, i;

	for (i = n - 1; i >= 0; i--) {
		p[i] = dig[v & 15];
		v >>= 4;
	}
	return p + n;
}

#endif
