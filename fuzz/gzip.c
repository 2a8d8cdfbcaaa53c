/* gzip.c: gzip is transparent: the input read as it is and deflated into
 * gzip members (cut where its first two bytes say, at a level the third
 * says) give the same items and the same errors, line for line. */
#include <zlib.h>

#include "trace.h"

/* deflate in into out as one gzip member: the bytes written */
static size_t
member(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int level)
{
	z_stream z;
	size_t len;

	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

static void
same(const struct fuzz_trace *a, const struct fuzz_trace *b)
{
	size_t i;

	fuzz_assert(a->fmt == b->fmt, "format %d as it is, %d deflated", a->fmt, b->fmt);
	fuzz_assert(a->n == b->n, "%zu items as it is, %zu deflated", a->n, b->n);
	for (i = 0; i < a->n; i++) {
		fuzz_assert(a->v[i].rc == b->v[i].rc, "item %zu: %d as it is, %d deflated", i,
		    a->v[i].rc, b->v[i].rc);
		fuzz_assert(fuzz_same_rec(&a->v[i].rec, &b->v[i].rec, 1), "item %zu differs", i);
		fuzz_assert(strcmp(a->v[i].why, b->v[i].why) == 0,
		    "item %zu: '%s' as it is, '%s' deflated", i, a->v[i].why, b->v[i].why);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_trace plain, gz;
	const uint8_t *in = data + 3;
	size_t n, cut[2], cap, len = 0;
	uint8_t *out;
	int level;

	if (size < 3)
		return 0;
	n = size - 3;
	if (fuzz_gzipped(in, n))
		return 0;	/* gzip in gzip is read once: not the same */
	cut[0] = data[0] * n / 255;
	cut[1] = cut[0] + data[1] * (n - cut[0]) / 255;
	level = data[2] % 10;
	cap = 3 * compressBound((uLong)n) + 3 * 64;
	if ((out = malloc(cap)) == NULL)
		abort();
	len += member(in, cut[0], out + len, cap - len, level);
	len += member(in + cut[0], cut[1] - cut[0], out + len, cap - len, level);
	len += member(in + cut[1], n - cut[1], out + len, cap - len, level);

	fuzz_read_trace(&plain, fuzz_file(0, in, n), RT_FMT_AUTO, n + 1);
	fuzz_read_trace(&gz, fuzz_file(1, out, len), RT_FMT_AUTO, SIZE_MAX);
	same(&plain, &gz);
	free(plain.v);
	free(gz.v);
	free(out);
	return 0;
}
