/* cachetab.c: the cache table (cachesim's summary stream) read, written
 * and read back. */
#include "table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r = fuzz_lines(0, data, size);
	struct rt_cache_table t;
	char err[512];

	if (rt_cachetab_read(r, &t, err, sizeof err) == 0) {
		fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
		fuzz_assert(t.n >= 0 && t.n <= (int)(sizeof t.row / sizeof t.row[0]), "%d rows", t.n);
		fuzz_table_again(&t);
	} else
		fuzz_err(err, rt_rpath(r));
	rt_rclose(r);
	return 0;
}
