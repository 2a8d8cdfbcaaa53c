/* series.c: a series, a number a line (tswindow -I series, pli -f):
 * the kind asked, then fields 1 to 3 of each line as numbers, a
 * malformed line skipped as -k skips it.  A NUL byte makes a line
 * malformed (reftrace(5)), comment or not. */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r;
	unsigned field;
	size_t nbad;
	uint64_t u;
	double v;
	char *s;
	int k;

	for (field = 1; field <= 3; field++) {
		r = fuzz_lines(0, data, size);
		k = rt_rkind(r);
		fuzz_assert(k >= RT_STREAM_NONE && k <= RT_STREAM_PLI_STATS, "kind %d", k);
		nbad = 0;
		for (;;) {
			if ((s = rt_rfield(r, field)) == NULL) {
				if (!rt_rmalformed(r))
					break;
				fuzz_err(rt_rerror(r), rt_rpath(r));
				fuzz_assert(++nbad <= size, "%zu malformed lines of %zu bytes",
				    nbad, size);
				continue;
			}
			fuzz_assert(strpbrk(s, " \t,") == NULL, "field '%s'", s);
			if (rt_parse_double(s, &v) && rt_parse_u64(s, &u))
				fuzz_err(rt_rbad(r, "not a number"), rt_rpath(r));
		}
		if (rt_rfailed(r))
			fuzz_err(rt_rerror(r), rt_rpath(r));
		else
			fuzz_assert(nbad > 0 || !fuzz_nul(data, size),
			    "a NUL byte read without an error");
		rt_rclose(r);
	}
	return 0;
}
