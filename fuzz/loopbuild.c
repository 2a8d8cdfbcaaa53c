/* loopbuild.c: pli's search (rt_loopb) on a series made from the input,
 * its model written, read back and expanded: the values must come back
 * exactly.  The series is a small program so that loops, runs and nests
 * are common: a byte below 0xc0 adds a value, the last one plus a step of
 * -32 to 31; a byte from 0xc0 copies the last 1 to 32 values once more,
 * each shifted by the step the next byte gives (a loop's next iteration).
 * The first byte picks the period (1 to 16), the depth (1 to 4) and
 * (0x40) a model of addresses, whose literals are written in hex and as
 * differences on their line where shorter. */
#include "fuzz.h"
#include "loop.h"

#define MAXVALUES (1u << 16)

static uint64_t vals[MAXVALUES];
static size_t nvals, got;
static int bad;

static int
phase(void *ctx, const struct rt_term *t)
{
	return rt_loopw_term(ctx, t);
}

static int
take(void *ctx, const uint64_t *v, size_t n)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < n; i++, got++)
		if (got >= nvals || v[i] != vals[got]) {
			bad = 1;
			return 1;
		}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_loopb *b;
	struct rt_loopw *w;
	struct rt_reader *r;
	struct rt_expander *x;
	struct rt_loopr *lr;
	struct rt_stmt *st;
	char *buf = NULL, err[512];
	size_t len = 0, i, j, n;
	uint64_t step;
	FILE *f;
	int k;

	if (size < 1)
		return 0;
	nvals = got = 0;
	bad = 0;
	for (i = 1; i < size && nvals < MAXVALUES; i++) {
		if (data[i] < 0xc0) {
			vals[nvals] = (nvals ? vals[nvals - 1] : 0) + (uint64_t)((int)(data[i] & 63) - 32);
			nvals++;
			continue;
		}
		n = (size_t)(data[i] & 31) + 1;
		step = i + 1 < size ? (uint64_t)((int)(data[++i] & 63) - 32) : 0;
		if (n > nvals)
			n = nvals;
		for (j = nvals - n, len = nvals; j < len && nvals < MAXVALUES; j++)
			vals[nvals++] = vals[j] + step;
		len = 0;
	}
	if ((f = open_memstream(&buf, &len)) == NULL || (w = rt_loopw_open(f, data[0] >> 6 & 1)) == NULL ||
	    (b = rt_loopb_new((unsigned)(data[0] & 15) + 1, (unsigned)(data[0] >> 4 & 3) + 1, 0,
	    phase, w)) == NULL)
		abort();
	for (i = 0; i < nvals; i++)
		fuzz_assert(rt_loopb_add(b, vals[i]) == 0, "rt_loopb_add failed");
	fuzz_assert(rt_loopb_end(b) == 0, "rt_loopb_end failed");
	rt_loopb_free(b);
	fuzz_assert(rt_loopw_close(w) == 0 && fclose(f) == 0, "the model not written");
	r = fuzz_lines(1, buf, len);
	if ((x = rt_expander_new(take, NULL)) == NULL)
		abort();
	fuzz_assert((lr = rt_loopr_open(r, err, sizeof err)) != NULL, "%s", err);
	while ((k = rt_loopr_next(lr, &st)) > 0 && rt_expand(x, st) == 0)
		;
	rt_expand_flush(x);
	fuzz_assert(k == 0, "the model does not read back: %s", k < 0 ? rt_loopr_error(lr) :
	    rt_expand_error(x));
	fuzz_assert(!bad && got == nvals, "the model expands to other values (%zu of %zu "
	    "right):\n%s", got, nvals, buf);
	rt_loopr_close(lr);
	rt_expander_free(x);
	rt_rclose(r);
	free(buf);
	return 0;
}
