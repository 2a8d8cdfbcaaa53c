/* reusestate.c: a time slice's reuse state (reusedist --slice) read,
 * written and read back (the same bytes), then merged after itself into
 * the distances of a trace, whatever blocks it names and however often. */
#include "fuzz.h"
#include "cache.h"

static char *
written(const struct rt_rdslice *p, const struct rt_rdslicehead *h, int k, size_t *len)
{
	FILE *f = fopen(fuzz_path(k), "w");

	fuzz_assert(f != NULL, "%s", fuzz_path(k));
	fuzz_assert(rt_rdslice_write(f, p, h) == 0, "the state not written");
	fuzz_assert(fclose(f) == 0, "the state not written");
	return fuzz_slurp(k, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_rdist_cfg c = { .block = 64, .rate = 1, .seed = 1 };
	struct rt_rdslicehead h, h2;
	struct rt_rdslice p, q;
	struct rt_histinfo in;
	struct rt_rdist *d;
	struct rt_bin *v;
	const char *path;
	char why[512], *a, *b;
	size_t la, lb, n;

	path = fuzz_file(0, data, size);
	if (rt_rdslice_read(path, &p, &h, why, sizeof why) != 0) {
		fuzz_err(why, path);
		return 0;
	}
	a = written(&p, &h, 1, &la);
	fuzz_assert(rt_rdslice_read(fuzz_path(1), &q, &h2, why, sizeof why) == 0,
	    "written, read back: %s", why);
	b = written(&q, &h2, 0, &lb);
	fuzz_assert(la == lb && memcmp(a, b, la) == 0, "the state read back is another");
	free(a);
	free(b);
	fuzz_assert((d = rt_rdist_new(&c, NULL, NULL, NULL)) != NULL, "out of memory");
	if (rt_rdist_merge(d, &p) == 0 && rt_rdist_merge(d, &q) == 0 &&
	    (v = rt_rdist_finish(d, &n, &in)) != NULL)
		free(v);
	rt_rdist_free(d);
	rt_rdslice_free(&p);
	rt_rdslice_free(&q);
	return 0;
}
