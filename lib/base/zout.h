/* zout.h: one deflate stream, its output given to a function as it
 * comes (a file, a descriptor, a PNG's IDAT chunks) or only counted:
 * the trace writers' gzip, pli's model, pli --stats' sizes, PNG rows. */
#ifndef RT_ZOUT_H
#define RT_ZOUT_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* put: 0, or an errno value, which ends the stream's writing. */
typedef int rt_zput(void *arg, const void *p, size_t n);

struct rt_zout {
	z_stream z;
	rt_zput *put;		/* NULL: the bytes out are counted only */
	void *arg;
	unsigned char *buf;
	size_t cap;
	uint64_t bytes;		/* out so far */
	int err;		/* the first put's error */
};

#define RT_ZGZIP 16		/* a gzip member, not a zlib stream */

/* level 0-9, plus RT_ZGZIP; cap: the bytes given to put at most at once.
 * 0, or -1 with errno. */
int rt_zout_init(struct rt_zout *s, int level, size_t cap, rt_zput *put, void *arg);
/* 0, or -1 with errno (put's error; ENOMEM) */
int rt_zout_write(struct rt_zout *s, const void *p, size_t n);
/* The stream ended and its state freed: 0, or -1 with errno. */
int rt_zout_end(struct rt_zout *s);
/* Freed without ending (a failed output). */
void rt_zout_free(struct rt_zout *s);

#endif
