/* loops.c: the loop model (pli writes it, pli -x reads it) read
 * statement by statement and expanded as pli -x expands it, up to
 * MAXVALUES values (a model may stand for more than any run can take). */
#include "fuzz.h"
#include "loop.h"

#define MAXVALUES (1u << 16)

static int
take(void *ctx, const uint64_t *v, size_t n)
{
	size_t *got = ctx;

	(void)v;
	*got += n;
	return *got >= MAXVALUES;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r = fuzz_lines(0, data, size);
	struct rt_expander *x;
	struct rt_loopr *lr;
	struct rt_stmt *st;
	char err[512];
	size_t got = 0;
	int k = 0;

	if ((x = rt_expander_new(take, &got)) == NULL)
		abort();
	if ((lr = rt_loopr_open(r, err, sizeof err)) == NULL)
		fuzz_err(err, rt_rpath(r));
	else {
		while ((k = rt_loopr_next(lr, &st)) > 0 &&
		    (rt_loopr_streams(lr) ? rt_expand_streams(x, lr) : rt_expand(x, st)) == 0)
			;
		rt_expand_flush(x);
		if (k < 0)
			fuzz_err(rt_loopr_error(lr), rt_rpath(r));
		else if (k == 0)	/* read to the end */
			fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
		rt_loopr_close(lr);
	}
	rt_expander_free(x);
	rt_rclose(r);
	return 0;
}
