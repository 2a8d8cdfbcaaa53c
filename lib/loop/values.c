/* values.c: a loop model's values as lines of text (pli -x), formatted
 * by hand, eight digits at a time: expansion is bound by formatting, and
 * snprintf pays for generality it does not need here. */
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

#if !defined(__BYTE_ORDER__)
#error "values.c needs the byte order (__BYTE_ORDER__)"
#endif

/* The 8 hex digits of v as a word whose bytes are the digits in order
 * in memory, all 8 at once: its nibbles spread to bytes, 9 or less made
 * '0'-'9' and the others 'a'-'f' by a mask, not a digit at a time. */
static uint64_t
hex8(uint32_t v)
{
	uint64_t x = v, big;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;	/* nibble i in byte i */
	big = (x + 0x0606060606060606ULL) >> 4 & 0x0101010101010101ULL;
	x += 0x3030303030303030ULL + big * ('a' - '0' - 10);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* The 8 decimal digits of v < 10^8, leading zeros and all, as hex8's
 * word, at once: the first 4 and the last 4 in the two halves of a word,
 * 2 and 2 in each half, then a digit a byte (quotients by multiplying:
 * n / 100 is n * 10486 >> 20 below 10^4, n / 10 is n * 103 >> 10 below
 * 100), not a division by 100 a pair of digits. */
static uint64_t
dec8(uint32_t v)
{
	uint64_t x, q;

	q = v / 10000;
	x = q | (uint64_t)(v - 10000 * q) << 32;
	q = (x * 10486 >> 20) & 0x0000007f0000007fULL;
	x = q | (x - 100 * q) << 16;
	q = (x * 103 >> 10) & 0x000f000f000f000fULL;
	x = (q | (x - 10 * q) << 8) + 0x3030303030303030ULL;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* The last d (1 to 8) digits of word w at o, 8 bytes stored (those past
 * them are written over next); past them.  Written straight to the
 * output: digits put together in a buffer and copied out are read back
 * from stores of another size, a store-forwarding stall each line. */
static char *
put(char *o, uint64_t w, unsigned d)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	w >>= 8 * (8 - d);
#else
	w <<= 8 * (8 - d);
#endif
	memcpy(o, &w, 8);
	return o + d;
}

/* The decimal digits of v < 10^8. */
static unsigned
ndec(uint32_t v)
{
	static const uint32_t p10[] = { 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
	unsigned d = 1;

	while (d < 8 && v >= p10[d - 1])
		d++;
	return d;
}

size_t
rt_values_format(char *buf, const uint64_t *v, size_t n, int hex)
{
	char *o = buf;
	uint64_t a, x;
	uint32_t h;
	unsigned d;
	size_t i;

	if (hex) {
		for (i = 0; i < n; i++) {
			a = v[i];
			d = a ? (unsigned)(67 - __builtin_clzll(a)) / 4 : 1;	/* digits */
			*o++ = '0';
			*o++ = 'x';
			if (d > 8)
				o = put(o, hex8((uint32_t)(a >> 32)), d - 8);
			o = put(o, hex8((uint32_t)a), d > 8 ? 8 : d);
			*o++ = '\n';
		}
		return (size_t)(o - buf);
	}
	for (i = 0; i < n; i++) {
		x = v[i];
		a = (int64_t)x < 0 ? -x : x;
		if ((int64_t)x < 0)
			*o++ = '-';
		if (a < 100000000)
			o = put(o, dec8((uint32_t)a), ndec((uint32_t)a));
		else {
			if (a < 10000000000000000ULL) {
				h = (uint32_t)(a / 100000000);
				o = put(o, dec8(h), ndec(h));
			} else {
				h = (uint32_t)(a / 10000000000000000ULL);
				o = put(o, dec8(h), ndec(h));
				o = put(o, dec8((uint32_t)(a / 100000000 % 100000000)), 8);
			}
			o = put(o, dec8((uint32_t)(a % 100000000)), 8);
		}
		*o++ = '\n';
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
	return n && fwrite(w->buf, 1, n, w->f) != n ? RT_EIO : 0;
}

int
rt_valw_put(struct rt_valw *w, const uint64_t *v, size_t n, int hex)
{
	size_t most = NBUF / RT_VALUE_LINEMAX;

	for (; n > most; v += most, n -= most)
		if (rt_valw_put(w, v, most, hex))
			return RT_EIO;
	/* n values fit: no test a value */
	if (n > (NBUF - w->n) / RT_VALUE_LINEMAX && rt_valw_flush(w))
		return RT_EIO;
	w->n += rt_values_format(w->buf + w->n, v, n, hex);
	return 0;
}

void
rt_valw_free(struct rt_valw *w)
{
	free(w);
}
