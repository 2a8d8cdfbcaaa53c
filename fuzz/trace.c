/* trace.c: a trace reader, every item read and bad lines skipped as -k
 * does.  Built once per format: FUZZ_FMT is its -I name ("auto":
 * detection chooses, gzip or not). */
#include "fuzz.h"
#include "trace.h"

#ifndef FUZZ_FMT
#define FUZZ_FMT "auto"
#endif

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fmt = rt_fmt_parse(FUZZ_FMT);

	fuzz_assert(fmt >= 0, "FUZZ_FMT %s: no such format", FUZZ_FMT);
	fuzz_trace(data, size, fmt);
	return 0;
}
