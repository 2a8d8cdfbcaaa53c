/* digits.h: unsigned numbers as decimal or hex digits: the trace
 * writers' and rt_fmt_u64's one way of writing them. */
#ifndef RT_DIGITS_H
#define RT_DIGITS_H

#include <stdint.h>
#include <string.h>

/* v's decimal digits at p: the end.  The length first, then the digits
 * where they go, two at a time from a table: staged and copied, they
 * were read back wide from narrow stores the core could not forward. */
static inline char *
rt_out_dec(char *p, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
	static const uint64_t pow10[20] = { 1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL,
	    100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
	    10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL };
	int n = 1;
	char *e, *q;
	unsigned k;

	while (n < 20 && v >= pow10[n])
		n++;
	e = q = p + n;
	while (v >= 100) {
		k = (unsigned)(v % 100) * 2;
		v /= 100;
		q -= 2;
		q[0] = pairs[k];
		q[1] = pairs[k + 1];
	}
	if (v >= 10) {
		q[-2] = pairs[2 * v];
		q[-1] = pairs[2 * v + 1];
	} else
		q[-1] = (char)('0' + v);
	return e;
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
