/* cachestate.c: a time slice's caches' state (cachesim --slice) read into
 * the caches of one of three configurations (the first byte says which),
 * written and read back: the state written again is the same bytes. */
#include "fuzz.h"
#include "cache.h"

static const char *const specs[][3] = {	/* L1, L2, I-cache */
	{ "1K:2:64", "8K:4:64", "1K:2:64" },
	{ "1K:4:64:plru", "4K:full:64:fifo", NULL },
	{ "2K:2:64:mru:wt:nwa", "16K:4:64:srrip", NULL },
};

static struct rt_hier *
caches(int j)
{
	struct rt_cache_cfg c[2], ic;
	char why[256];
	int i;

	for (i = 0; i < 2; i++)
		fuzz_assert(rt_cache_parse(specs[j][i], &c[i], why, sizeof why) == 0, "%s", why);
	if (specs[j][2] != NULL)
		fuzz_assert(rt_cache_parse(specs[j][2], &ic, why, sizeof why) == 0, "%s", why);
	return rt_hier_new(c, 2, specs[j][2] != NULL ? &ic : NULL, RT_NINE, 1);
}

/* h's state written to file k: its bytes (malloc'd) and their number. */
static char *
written(struct rt_hier *h, int k, uint64_t s, uint64_t n, uint64_t bytes, size_t *len)
{
	FILE *f = fopen(fuzz_path(k), "w");

	fuzz_assert(f != NULL, "%s", fuzz_path(k));
	fuzz_assert(rt_hier_statewrite(f, h, s, n, bytes) == 0, "the state not written");
	fuzz_assert(fclose(f) == 0, "the state not written");
	return fuzz_slurp(k, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_hier *h, *g;
	uint64_t k, n, bytes, k2, n2, bytes2;
	char why[512], *a, *b;
	const char *path;
	size_t la, lb;
	int j;

	if (size < 1)
		return 0;
	j = data[0] % 3;
	h = caches(j);
	g = caches(j);
	fuzz_assert(h != NULL && g != NULL, "no caches");
	path = fuzz_file(0, data + 1, size - 1);
	if (rt_hier_stateread(h, path, &k, &n, &bytes, why, sizeof why) == 0) {
		a = written(h, 1, k, n, bytes, &la);
		fuzz_assert(rt_hier_stateread(g, fuzz_path(1), &k2, &n2, &bytes2, why,
		    sizeof why) == 0, "written, read back: %s", why);
		b = written(g, 0, k2, n2, bytes2, &lb);
		fuzz_assert(la == lb && memcmp(a, b, la) == 0, "the state read back is another");
		free(a);
		free(b);
	} else
		fuzz_err(why, path);
	rt_hier_free(h);
	rt_hier_free(g);
	return 0;
}
