/* matrix.c: distance matrices and point clouds as persist -I reads them
 * (Ripser's lower-distance, upper-distance, distance, sparse and
 * point-cloud), each kind. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "fuzz.h"
#include "topo.h"

/* A cloud of n points has n(n-1)/2 distances, as in Ripser: past this
 * many lines the input is not read as one (the work is not a finding). */
#define MAXCLOUD 2048
/* A sparse matrix holds a vertex table as long as its largest vertex:
 * past this one the memory asked is not a finding either (persist
 * refuses what exceeds the machine's memory, more than the fuzzer's
 * limit). */
#define MAXVERTEX 4096

/* The largest number in the input, read as the reader reads numbers
 * (strtod: "1.E5" is 100000, which a run of digits alone misses), capped. */
static double
largest(const uint8_t *data, size_t size)
{
	char buf[64];
	double v, max = 0;
	size_t i = 0, n;

	while (i < size) {
		for (n = 0; i + n < size && n < sizeof buf - 1 && (isalnum(data[i + n]) ||
		    data[i + n] == '.' || data[i + n] == '+' || data[i + n] == '-'); n++)
			buf[n] = (char)data[i + n];
		if (n == 0) {
			i++;
			continue;
		}
		buf[n] = 0;
		v = strtod(buf, NULL);
		if (v > max)
			max = v > 1e9 ? 1e9 : v;
		i += n;
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
			/* sparse: the pairs given, no triangle (memory follows
			 * the pairs); the others: the whole lower triangle */
			if (kind == RT_MATRIX_SPARSE) {
				fuzz_assert(tri == NULL, "a triangle for a sparse matrix");
				for (i = 0; i < c.nedge; i++)
					fuzz_assert(c.edge[i].i < c.edge[i].j && c.edge[i].j < c.n &&
					    c.edge[i].d >= 0, "edge %u %u %g of %zu vertices",
					    c.edge[i].i, c.edge[i].j, (double)c.edge[i].d, c.n);
			} else
				for (i = 0; i < c.n * (c.n - 1) / 2; i++)
					fuzz_assert(tri[i] >= 0, "distance %g", (double)tri[i]);
			free(tri);
			rt_cloud_free(&c);
		} else
			fuzz_err(err, rt_rpath(r));
		rt_rclose(r);
	}
	return 0;
}
