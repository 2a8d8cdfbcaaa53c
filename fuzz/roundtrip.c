/* roundtrip.c: what a reader gives, written as text and as binary and
 * read back, is what it gave (reftrace(5): text and binary are lossless,
 * binary in each of its versions and deflated),
 * the items a kind carries field by field. */
#include "trace.h"

static void
again(const struct fuzz_trace *t, int fmt)
{
	struct fuzz_trace b;
	struct rt_writer *w;
	const char *path = fuzz_path(1);
	size_t i, k;

	if ((w = rt_wopen(path, fmt, 0)) == NULL)
		abort();
	for (i = 0; i < t->n; i++)
		if (t->v[i].rc == 1)
			fuzz_assert(rt_write(w, &t->v[i].rec) == 0, "%s: item %zu not written",
			    rt_fmt_name(fmt), i);
	fuzz_assert(rt_wclose(w) == 0, "%s: not written", rt_fmt_name(fmt));
	/* binary2 and binary-flat are ways of writing; "binary" reads them */
	fuzz_read_trace(&b, path, fmt == RT_FMT_TEXT ? fmt : RT_FMT_BINARY, SIZE_MAX);
	for (i = k = 0; i < t->n; i++) {
		if (t->v[i].rc != 1)
			continue;
		fuzz_assert(k < b.n && b.v[k].rc == 1, "%s: item %zu not read back%s%s",
		    rt_fmt_name(fmt), i, k < b.n ? ": " : "", k < b.n ? b.v[k].why : "");
		fuzz_assert(fuzz_same_rec(&t->v[i].rec, &b.v[k].rec, 0),
		    "%s: item %zu read back otherwise", rt_fmt_name(fmt), i);
		k++;
	}
	fuzz_assert(k == b.n, "%s: %zu items read back, %zu written", rt_fmt_name(fmt), b.n, k);
	free(b.v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_trace t;

	fuzz_read_trace(&t, fuzz_file(0, data, size), RT_FMT_AUTO,
	    fuzz_gzipped(data, size) ? SIZE_MAX : size + 1);
	if (t.fmt >= 0) {
		again(&t, RT_FMT_TEXT);
		again(&t, RT_FMT_BINARY);
		again(&t, RT_FMT_BINARY2);
		again(&t, RT_FMT_BINFLAT);
	}
	free(t.v);
	return 0;
}
