/* matrix.c: distance matrices and point clouds as persist -I reads them
 * (Ripser's lower-distance, upper-distance, distance, sparse and
 * point-cloud), each kind. */
#include <ctype.h>
#include <math.h>

#include "fuzz.h"
#include "topo.h"

/* A cloud of n points has n(n-1)/2 distances, as in Ripser: past this
 * many lines the input is not read as one (the work is not a finding). */
#define MAXCLOUD 2048
/* A sparse matrix is held as a triangle of its largest vertex: past this
 * one the memory asked is not a finding either (persist refuses what
 * exceeds the machine's memory, more than the fuzzer's limit). */
#define MAXVERTEX 4096

/* The largest run of digits in the input, as a number (capped). */
static unsigned long
largest(const uint8_t *data, size_t size)
{
	unsigned long v = 0, max = 0;
	size_t i;

	for (i = 0; i < size; i++) {
		if (isdigit(data[i])) {
			v = v < 100000000 ? v * 10 + (data[i] - '0') : v;
			if (v > max)
				max = v;
		} else
			v = 0;
	}
	return max;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r;
	struct rt_cloud c;
	float *tri;
	char err[512];
	size_t i, lines = 0;
	int kind;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (kind = RT_MATRIX_LOWER; kind <= RT_MATRIX_SPARSE; kind++) {
		if (kind == RT_MATRIX_CLOUD && lines > MAXCLOUD)
			continue;
		if (kind == RT_MATRIX_SPARSE && largest(data, size) > MAXVERTEX)
			continue;
		r = fuzz_lines(0, data, size);
		if (rt_matrix_read(r, kind, &c, &tri, err, sizeof err) == 0) {
			fuzz_assert(!fuzz_nul(data, size), "a NUL byte read without an error");
			fuzz_assert(c.nv == c.n && c.n >= 1, "%zu points, %zu vertices", c.n, c.nv);
			for (i = 0; i < c.n * (c.n - 1) / 2; i++)	/* inf: sparse's absent */
				fuzz_assert(tri[i] >= 0, "distance %g", (double)tri[i]);
			free(tri);
			rt_cloud_free(&c);
		} else
			fuzz_err(err, rt_rpath(r));
		rt_rclose(r);
	}
	return 0;
}
