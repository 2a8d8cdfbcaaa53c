/* scan.c: the number scanners every stream reader shares: the trace
 * formats use them inline (input.h), other readers through rt_scan_*. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "input.h"

const signed char rt_hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The scanners do not write: the casts only let them serve both. */
int
rt_scan_u64(const char **pp, uint64_t *v)
{
	return rt_in_dec((char **)pp, v);
}

int
rt_scan_hex(const char **pp, uint64_t *v)
{
	return rt_in_hex((char **)pp, v);
}

int
rt_scan_addr(const char **pp, uint64_t *v)
{
	return rt_in_addr((char **)pp, v);
}

int
rt_scan_double(const char **pp, double *v)
{
	const char *p = *pp;
	char *end;
	double x;

	if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\0')
		return RT_EBAD;	/* strtod would skip blanks */
	errno = 0;
	x = strtod(p, &end);
	if (end == p || errno != 0 || !isfinite(x))
		return RT_EBAD;
	*v = x;
	*pp = end;
	return 0;
}
