/* mrc.c: the miss-ratio curve (reusedist -m) read. */
#include "fuzz.h"
#include "cache.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r = fuzz_lines(0, data, size);
	struct rt_histinfo in;
	struct rt_mrc_point *p;
	size_t n;
	char err[512];

	if (rt_mrc_read(r, &p, &n, &in, err, sizeof err))
		fuzz_err(err, rt_rpath(r));
	else
		fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
	rt_rclose(r);
	free(p);
	return 0;
}
