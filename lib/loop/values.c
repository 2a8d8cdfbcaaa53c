/* values.c: a loop model's values as lines of text (pli -x), formatted
 * by hand, decimal two digits at a time and hex eight: expansion is bound
 * by this, and snprintf a value is several times slower. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

#define NBUF (1 << 16)	/* bytes written at a time */

struct rt_valw {
	FILE *f;
	size_t n;
	char buf[NBUF + RT_VALUE_LINEMAX];
};

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The 8 hex digits of v at p, all 8 at once: its nibbles spread to
 * bytes, 9 or less made '0'-'9' and the others 'a'-'f' by a mask, the
 * first digit at p (the bytes reversed on a little-endian machine):
 * a digit at a time was a quarter of pli -x's time. */
static void
hex8(uint32_t v, char *p)
{
	uint64_t x = v, big;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;	/* nibble i in byte i */
	big = (x + 0x0606060606060606ULL) >> 4 & 0x0101010101010101ULL;
	x += 0x3030303030303030ULL + big * ('a' - '0' - 10);
#if !defined(__BYTE_ORDER__)
#error "hex8 needs the byte order (__BYTE_ORDER__)"
#elif __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(p, &x, 8);
}

size_t
rt_values_format(char *buf, const uint64_t *v, size_t n, int hex)
{
	char b[2 * RT_VALUE_LINEMAX], *e = b + RT_VALUE_LINEMAX, *p, *o = buf;
	uint64_t a, x;
	unsigned d;
	size_t i;

	if (hex) {
		for (i = 0; i < n; i++) {
			a = v[i];
			d = a ? (unsigned)(67 - __builtin_clzll(a)) / 4 : 1;	/* digits */
			hex8((uint32_t)(a >> 32), e - 17);
			hex8((uint32_t)a, e - 9);
			e[-1] = '\n';
			p = e - 1 - d;
			*--p = 'x';
			*--p = '0';
			memcpy(o, p, RT_VALUE_LINEMAX);
			o += e - p;
		}
		return (size_t)(o - buf);
	}
	for (i = 0; i < n; i++) {
		x = v[i];
		a = (int64_t)x < 0 ? -x : x;
		p = e;
		*--p = '\n';
		while (a >= 100) {
			d = (unsigned)(a % 100) * 2;
			a /= 100;
			p -= 2;
			memcpy(p, digits2 + d, 2);
		}
		if (a >= 10) {
			p -= 2;
			memcpy(p, digits2 + a * 2, 2);
		} else
			*--p = (char)('0' + a);
		if ((int64_t)x < 0)
			*--p = '-';
		memcpy(o, p, RT_VALUE_LINEMAX);	/* a fixed-size copy is cheaper */
		o += e - p;
	}
	return (size_t)(o - buf);
}

struct rt_valw *
rt_valw_new(FILE *f)
{
	struct rt_valw *w;

	if ((w = malloc(sizeof *w)) == NULL)
		return NULL;
	w->f = f;
	w->n = 0;
	return w;
}

int
rt_valw_flush(struct rt_valw *w)
{
	size_t n = w->n;

	w->n = 0;
	return n && fwrite(w->buf, 1, n, w->f) != n ? -1 : 0;
}

int
rt_valw_put(struct rt_valw *w, const uint64_t *v, size_t n, int hex)
{
	size_t most = NBUF / RT_VALUE_LINEMAX;

	for (; n > most; v += most, n -= most)
		if (rt_valw_put(w, v, most, hex))
			return -1;
	/* n values fit: no test a value */
	if (n > (NBUF - w->n) / RT_VALUE_LINEMAX && rt_valw_flush(w))
		return -1;
	w->n += rt_values_format(w->buf + w->n, v, n, hex);
	return 0;
}

void
rt_valw_free(struct rt_valw *w)
{
	free(w);
}
