/* util.c: command-line values, hashing and the seeded generator. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reftrace.h"
#include "base/digits.h"

const char rt_opchar[4] = { 'R', 'W', 'M', 'I' };

/* A number at s: decimal (a leading 0 is not octal), or 0x hex where hex
 * is allowed.  No blanks or sign, which strtoull would take. */
static int
scan(const char *s, int hex, char **end, unsigned long long *x)
{
	int base = 10;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -1;
		base = 16;
	}
	errno = 0;
	*x = strtoull(s, end, base);
	return errno ? -1 : 0;
}

static int
parse_u64(const char *s, int hex, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (scan(s, hex, &end, &x) || *end != '\0')
		return -1;
	*v = x;
	return 0;
}

/* A series' value: plain decimal the common case, without strtoull */
int
rt_parse_int(const char *s, uint64_t *v)
{
	const char *e;
	uint64_t u = 0, m;
	int nd = 0;

	for (e = s; *e >= '0' && *e <= '9' && nd < 19; e++, nd++)
		u = u * 10 + (uint64_t)(*e - '0');
	if (nd > 0 && *e == '\0' && (s[0] != '0' || nd == 1)) {
		*v = u;
		return 0;
	}
	if (*s != '-')
		return parse_u64(s, 1, v);
	if (parse_u64(s + 1, 1, &m) || m > (uint64_t)1 << 63)
		return -1;
	*v = (uint64_t)0 - m;	/* two's complement: modulo 2^64 */
	return 0;
}

int
rt_parse_u64(const char *s, uint64_t *v)
{
	return parse_u64(s, 0, v);
}

int
rt_parse_addr(const char *s, uint64_t *v)
{
	return parse_u64(s, 1, v);
}

/* Parse a number with an optional K/M/G/T suffix (powers of 1024). */
static int
parse_scaled(const char *s, int hex, const char **endp, uint64_t *v)
{
	char *end;
	unsigned long long x;
	int shift = 0;

	if (scan(s, hex, &end, &x))
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && (*end == 'B' || *end == 'b'))
		end++;
	if (shift && x > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)x << shift;
	*endp = end;
	return 0;
}

static int
parse_size(const char *s, int hex, uint64_t *v)
{
	const char *end;

	if (parse_scaled(s, hex, &end, v) || *end != '\0')
		return -1;
	return 0;
}

int
rt_parse_size(const char *s, uint64_t *v)
{
	return parse_size(s, 0, v);
}

static int
parse_range(const char *s, int hex, uint64_t *lo, uint64_t *hi)
{
	const char *end;
	uint64_t a, b;

	if (parse_scaled(s, hex, &end, &a))
		return -1;
	if (*end == '\0') {	/* a single value */
		*lo = *hi = a;
		return 0;
	}
	if (*end != '-' && *end != '+')
		return -1;
	if (end[1] == '\0' && *end == '-') {	/* lo- : to the end */
		*lo = a;
		*hi = UINT64_MAX;
		return 0;
	}
	if (parse_size(end + 1, hex, &b))
		return -1;
	if (*end == '+') {
		if (b == 0 || a + (b - 1) < a)
			return -1;
		b = a + (b - 1);
	}
	if (b < a)
		return -1;
	*lo = a;
	*hi = b;
	return 0;
}

int
rt_parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	return parse_range(s, 0, lo, hi);
}

int
rt_parse_arange(const char *s, uint64_t *lo, uint64_t *hi)
{
	return parse_range(s, 1, lo, hi);
}

int
rt_parse_part(const char *s, uint64_t *k, uint64_t *n, uint64_t *bytes)
{
	char *end;
	unsigned long long a = 0, b;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	b = strtoull(s, &end, 10);
	if (k != NULL) {	/* that was k: n follows */
		if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
			return -1;
		a = b;
		b = strtoull(end + 1, &end, 10);
	}
	if (errno || b == 0 || a >= b)
		return -1;
	if (*end == ':') {
		if (bytes == NULL || rt_parse_size(end + 1, bytes) || *bytes == 0)
			return -1;
	} else if (*end != '\0')
		return -1;
	if (k != NULL)
		*k = a;
	*n = b;
	return 0;
}

/* fmt with its one %d (%Nd, %0Nd) replaced by k; -1 if fmt has no such
 * %d, another %, or buf is too short. */
int
rt_partname(char *buf, size_t len, const char *fmt, uint64_t k)
{
	const char *d = strchr(fmt, '%');
	int n, width, r;

	if (d == NULL)
		return RT_EUSAGE;
	for (n = 1, width = 0; d[n] >= '0' && d[n] <= '9' && n < 4; n++)
		width = 10 * width + d[n] - '0';
	if (d[n] != 'd' || strchr(d + n, '%') != NULL)
		return RT_EUSAGE;
	if (d[1] == '0')
		r = snprintf(buf, len, "%.*s%0*llu%s", (int)(d - fmt), fmt, width,
		    (unsigned long long)k, d + n + 1);
	else	/* %Nd pads with blanks */
		r = snprintf(buf, len, "%.*s%*llu%s", (int)(d - fmt), fmt, width,
		    (unsigned long long)k, d + n + 1);
	return r < 0 || (size_t)r >= len ? RT_EUSAGE : 0;
}

int
rt_parse_ops(const char *s, unsigned *mask)
{
	unsigned m = 0;

	if (s == NULL || *s == '\0')
		return -1;
	for (; *s; s++) {
		switch (*s) {
		case 'R': case 'r': case 'L': case 'l': m |= 1u << RT_READ; break;
		case 'W': case 'w': case 'S': case 's': m |= 1u << RT_WRITE; break;
		case 'M': case 'm': m |= 1u << RT_MODIFY; break;
		case 'I': case 'i': m |= 1u << RT_IFETCH; break;
		case ',': break;
		default: return -1;
		}
	}
	*mask = m;
	return 0;
}

int
rt_parse_double(const char *s, double *v)
{
	char *end;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(*v))
		return -1;
	return 0;
}

int
rt_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp, *q;
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return RT_ENOMEM;
		c *= 2;
	}
	if ((q = realloc(*p, c * size)) == NULL)
		return RT_ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* Tables of megabytes on huge pages where the system gives them on
 * request (Linux's transparent huge pages in madvise mode): a probe at a
 * random place then misses the TLB far less. */
void *
rt_bigalloc(size_t n)
{
#ifdef MADV_HUGEPAGE
	size_t a = 2u << 20;
	void *p;

	if (n >= a) {
		if ((p = aligned_alloc(a, (n + a - 1) / a * a)) != NULL)
			madvise(p, n, MADV_HUGEPAGE);
		return p;
	}
#endif
	return malloc(n);
}

int
rt_parse_real(const char *s, double *v, int special)
{
	if (s != NULL && (special & RT_REAL_INF) && strcmp(s, "inf") == 0) {
		*v = INFINITY;
		return 0;
	}
	if (s != NULL && (special & RT_REAL_NAN) && strcmp(s, "nan") == 0) {
		*v = NAN;
		return 0;
	}
	return rt_parse_double(s, v);
}

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
void
rt_rng_seed(struct rt_rng *g, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		g->s[i] = rt_hash64(seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
rt_rng_next(struct rt_rng *g)
{
	uint64_t *s = g->s, r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

double
rt_rng_unit(struct rt_rng *g)
{
	return (rt_rng_next(g) >> 11) * 0x1.0p-53;
}

uint64_t
rt_rng_below(struct rt_rng *g, uint64_t n)
{
	uint64_t x, lim = n ? UINT64_MAX - UINT64_MAX % n : 0;

	if (n == 0)
		return 0;
	do
		x = rt_rng_next(g);
	while (x >= lim);
	return x % n;
}

double
rt_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	double m = pages > 0 && psize > 0 ? (double)pages * psize : 1e300;
	struct rlimit rl;

	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (double)rl.rlim_cur < m)
		m = (double)rl.rlim_cur;
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (double)rl.rlim_cur < m)
		m = (double)rl.rlim_cur;
	return m;
}

int
rt_fmt_u64(char *buf, uint64_t v)
{
	char *e = rt_out_dec(buf, v);

	*e = '\0';
	return (int)(e - buf);
}

int
rt_fmt_x64(char *buf, uint64_t v)
{
	char *e = rt_out_hex(buf, v);

	*e = '\0';
	return (int)(e - buf);
}

/* 10^k in a long double, k 0 to 27: exact (5^27 < 2^64) */
static const long double p10l[] = { 1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L,
    1e23L, 1e24L, 1e25L, 1e26L, 1e27L };

/* 10^k as doubles, k -22 to 5, each the nearest (below 1, not exact) */
static const double p10d[] = { 1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14,
    1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1,
    1e2, 1e3, 1e4, 1e5 };

/* The six digits d (10^5 <= d < 10^6) of a number of decimal exponent e,
 * as %g writes them: fixed from 10^-4 to below 10^6, else d.ddddde-XX;
 * no trailing zeros, no point without a fraction. */
static int
g6digits(char *buf, uint64_t d, int e)
{
	char dig[6], *p = buf;
	int i, n = 6;

	for (i = 5; i >= 0; i--, d /= 10)
		dig[i] = (char)('0' + d % 10);
	while (n > 1 && dig[n - 1] == '0')
		n--;
	if (e < -4 || e >= 6) {
		*p++ = dig[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, dig + 1, n - 1);
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = e < 0 ? '-' : '+';
		if (e > -10 && e < 10)
			*p++ = '0';
		p += rt_fmt_u64(p, (uint64_t)(e < 0 ? -e : e));
	} else if (e >= 0) {
		for (i = 0; i <= e; i++)
			*p++ = i < n ? dig[i] : '0';
		if (n > e + 1) {
			*p++ = '.';
			memcpy(p, dig + e + 1, n - e - 1);
			p += n - e - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (i = -1; i > e; i--)
			*p++ = '0';
		memcpy(p, dig, n);
		p += n;
	}
	*p = '\0';
	return (int)(p - buf);
}

/* Six significant digits in integer arithmetic: x scaled by a power of
 * ten into [10^5, 10^6) and rounded.  The exponent is found among the
 * doubles nearest the powers (a log10 cost more than the rest): one
 * above a power rounded down is taken back below, one below a power
 * rounded up leaves the product at 10^6 or more, for printf.  The long double product's error
 * (below 10^-13) decides nothing unless x lies within 10^-6 of a tie,
 * where printf (rounding the exact binary value) is asked; so it is for
 * values outside 10^-22 to 10^6, negative ones and the not finite. */
int
rt_fmt_g6(char *buf, double x)
{
	long double m, f;
	uint64_t d;
	int e, lo = 0, hi = 27, mid;

	if (x == 0 && !signbit(x)) {
		strcpy(buf, "0");
		return 1;
	}
	if (!(x >= 1e-22 && x < 1e6))
		return snprintf(buf, RT_G6LEN, "%.6g", x);
	while (lo < hi) {	/* the last power at or below x */
		mid = (lo + hi + 1) / 2;
		if (x >= p10d[mid])
			lo = mid;
		else
			hi = mid - 1;
	}
	e = lo - 22;
	m = (long double)x * p10l[5 - e];
	if (m < 100000 && e > -22)	/* a power rounded down */
		m = (long double)x * p10l[5 - --e];
	if (m < 100000 || m >= 1000000)
		return snprintf(buf, RT_G6LEN, "%.6g", x);
	f = m - floorl(m);
	if (fabsl(f - 0.5L) < 1e-6L)
		return snprintf(buf, RT_G6LEN, "%.6g", x);
	d = (uint64_t)m + (f > 0.5L);
	if (d == 1000000) {
		d = 100000;
		e++;
	}
	return g6digits(buf, d, e);
}

int
rt_rereadable(const char *path)
{
	struct stat st;

	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
