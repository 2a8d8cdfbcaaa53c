/* output.h: the output layer under every trace writer: a buffer before a
 * file, standard output or gzip, and number formatting.  The trace
 * formats (fmt_*.c) encode into it. */
#ifndef RT_OUTPUT_H
#define RT_OUTPUT_H

#include <string.h>
#include <zlib.h>

#include "reftrace.h"
#include "base/digits.h"
#include "base/zout.h"

#define RT_OUT_BUFSZ (256u << 10)
#define RT_OUT_SLACK 64		/* past RT_OUT_BUFSZ */

struct rt_format;

struct rt_writer {
	/* the format's encoder, and its first error, where rt_write finds
	 * them with one load each */
	int (*write)(struct rt_writer *w, const struct rt_rec *rec);
	int err;		/* first errno, sticky */
	int fd;
	struct rt_ofile *of;	/* the file made, NULL for standard output */
	struct rt_zout *z;	/* when compressing: deflated into fd */
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

#endif
