/* digits.h: unsigned numbers as decimal (two digits at a time from a
 * table, then one copy of a constant size) or hex digits: the trace
 * writers' and rt_fmt_u64's one way of writing them. */
#ifndef RT_DIGITS_H
#define RT_DIGITS_H

#include <stdint.h>
#include <string.h>

/* v's decimal digits at p, which has room for 24 bytes: the end. */
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

/* v's hex digits (lower case) at p: the end. */
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
