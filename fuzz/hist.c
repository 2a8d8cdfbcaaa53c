/* hist.c: the reuse-distance histogram (reusedist -H) read as reusedist
 * -M reads it, summed up for people, written with a bin per distance and
 * read back to the same bins, and its miss-ratio curve written and read. */
#include <math.h>

#include "fuzz.h"
#include "cache.h"

static FILE *
out(void)
{
	FILE *f = fopen(fuzz_path(1), "w");

	fuzz_assert(f != NULL, "%s", fuzz_path(1));
	return f;
}

/* The bins of the histogram r reads, sorted; NULL if it is refused. */
static struct rt_bin *
bins(struct rt_reader *r, int flags, struct rt_histinfo *in, size_t *n)
{
	struct rt_hist *h = rt_hist_new();
	struct rt_bin *v = NULL;
	char err[512];
	int k;

	if (h == NULL)
		abort();
	if ((k = rt_hist_read(r, h, flags, in, err, sizeof err)) != 0) {
		fuzz_assert(k == RT_EBAD || k == RT_ENOMEM || (k == RT_EUSAGE && (flags & RT_HIST_EXACT)),
		    "%d", k);
		fuzz_err(err, rt_rpath(r));
	} else if ((v = rt_hist_sorted(h, n)) == NULL)
		abort();
	rt_hist_free(h);
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r = fuzz_lines(0, data, size);
	struct rt_histinfo in, in2;
	struct rt_mrc_point *p;
	struct rt_bin *v, *u;
	size_t n, m, i;
	char err[512];
	FILE *f;

	v = bins(r, 0, &in, &n);
	rt_rclose(r);
	/* the flags change the weights, not what is read */
	r = fuzz_lines(0, data, size);
	free(bins(r, RT_HIST_RATE | RT_HIST_EXACT, &in2, &m));
	rt_rclose(r);
	if (v == NULL)
		return 0;
	fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
	for (i = 1; i < n; i++)
		fuzz_assert(v[i - 1].key < v[i].key, "bins out of order");
	/* reusedist -M sums up only what has its -B (no #block: 0) */
	if (in.block > 0) {
		f = out();
		rt_hist_summary(f, v, n, &in, 0);
		rt_hist_summary(f, v, n, &in, 1);
		fclose(f);
	}

	f = out();
	fuzz_assert(rt_hist_write(f, v, n, &in, 1) == 0, "not written");
	fclose(f);
	r = rt_lopen(fuzz_path(1), err, sizeof err);
	u = bins(r, RT_HIST_EXACT, &in2, &m);
	rt_rclose(r);
	fuzz_assert(u != NULL, "written, not read back");
	fuzz_assert(m == n && in2.block == in.block && in2.rate == in.rate,
	    "%zu bins read back of %zu", m, n);
	for (i = 0; i < n; i++)
		fuzz_assert(u[i].key == v[i].key && (u[i].w == v[i].w ||	/* to 3 decimals */
		    (fabs(v[i].w) < 1e12 && fabs(u[i].w - v[i].w) <= 0.0005 + 1e-9 * fabs(v[i].w))),
		    "bin %zu read back otherwise", i);
	free(u);

	f = out();
	fuzz_assert(rt_mrc_write(f, v, n, &in) == 0, "the curve not written");
	fclose(f);
	r = rt_lopen(fuzz_path(1), err, sizeof err);
	fuzz_assert(rt_mrc_read(r, &p, &m, &in2, err, sizeof err) == 0, "the curve: %s", err);
	rt_rclose(r);
	free(p);
	free(v);
	return 0;
}
