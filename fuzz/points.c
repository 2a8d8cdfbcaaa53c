/* points.c: the points stream (tswindow writes it, persist reads it),
 * read as persist reads it, with -k and without, every view; a small cloud's
 * distances, the bit-parallel edit distance against the plain one. */
#include <math.h>

#include "fuzz.h"
#include "topo.h"

#define SMALL 64	/* vertices whose distances are taken */

static const char *path;
static size_t nwarn;

static void
diag(const char *msg, int fatal)
{
	(void)fatal;
	fuzz_err(msg, path);
	nwarn++;
}

static void
check(const struct rt_cloud *c)
{
	float *d;
	size_t i, j;
	int *row, m, a, b;
	struct rt_lev *lev;

	fuzz_assert(c->n == c->pm.n && c->nv >= 1 && c->nv <= c->n, "%zu points, %zu vertices",
	    c->n, c->nv);
	fuzz_assert(c->dim >= 1 && c->dim <= 1024, "dimension %d", c->dim);
	for (i = 0; i < c->n; i++)
		fuzz_assert(c->pm.vert[i] < c->nv, "point %zu: vertex %u of %zu", i,
		    c->pm.vert[i], c->nv);
	if (c->nv > SMALL)
		return;
	for (m = 0; m < 3; m++) {
		if ((m == RT_EUCLIDEAN) != c->numeric)
			continue;
		if ((d = rt_cloud_distances(c, m, INFINITY)) == NULL)
			abort();
		for (j = 1; j < c->nv; j++)
			for (i = 0; i < j; i++)
				fuzz_assert(c->numeric ? d[RT_TRI(i, j)] >= 0 :
				    d[RT_TRI(i, j)] >= 1 && d[RT_TRI(i, j)] <= c->dim,
				    "%s distance %g between vertices %zu and %zu",
				    rt_metric_name(m), (double)d[RT_TRI(i, j)], i, j);
		free(d);
	}
	if (c->numeric)
		return;
	if ((row = malloc(2 * (c->dim + 1) * sizeof *row)) == NULL ||
	    (lev = rt_lev_new(c->dim)) == NULL)
		abort();
	for (j = 1; j < c->nv; j++)
		for (i = 0; i < j; i++) {
			a = rt_edit(c->sym + i * c->dim, c->sym + j * c->dim, c->dim, lev);
			b = rt_levenshtein_long(c->sym + i * c->dim, c->sym + j * c->dim, c->dim, row);
			fuzz_assert(a == b, "edit distance %d bit-parallel, %d plain", a, b);
		}
	rt_lev_free(lev);
	free(row);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_reader *r;
	struct rt_cloud c, *v;
	char err[512];
	int k;

	for (k = 0; k < 2; k++) {
		r = fuzz_lines(0, data, size);
		path = rt_rpath(r);
		nwarn = 0;
		if (rt_cloud_read(&c, r, k, diag, err, sizeof err) == 0) {
			fuzz_assert(nwarn > 0 || !fuzz_nul(data, size),
			    "a NUL byte read without an error");
			for (v = &c; v != NULL; v = v->next) {	/* each view of the windows */
				fuzz_assert(v->n == c.n, "a view of %zu points, the first %zu",
				    v->n, c.n);
				check(v);
			}
			rt_cloud_free(&c);
		} else
			fuzz_err(err, rt_rpath(r));
		rt_rclose(r);
	}
	return 0;
}
