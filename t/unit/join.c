/* join.c: the similarity join against all pairs, as TAP. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reftrace.h"
#include "tap.h"
#include "topo.h"


/* A cloud of nv windows of w symbols from an alphabet of a letters, some
 * windows copied from earlier ones with a few edits, as loops make them. */
static void
cloud(struct rt_cloud *c, size_t nv, int w, int a, struct rt_rng *g)
{
	size_t v;
	int k;

	c->nv = c->n = nv;
	c->dim = w;
	c->numeric = 0;
	c->sym = malloc(nv * w * sizeof *c->sym);
	for (v = 0; v < nv; v++)
		for (k = 0; k < w; k++) {
			if (v > 0 && rt_rng_unit(g) < 0.7) {
				size_t from = rt_rng_below(g, v);

				c->sym[v * w + k] = c->sym[from * w + (k + rt_rng_below(g, 2)) % w];
			} else
				c->sym[v * w + k] = 1 + (uint32_t)rt_rng_below(g, a);
		}
}

/* The edges of the join against every pair measured. */
static int
same(const struct rt_cloud *c, int metric, int tau, unsigned threads)
{
	struct rt_edge *e;
	size_t m, i, j, want = 0;
	uint64_t cand;
	float *tri = rt_cloud_distances(c, metric, INFINITY);
	int bad = 0;

	if (tri == NULL || rt_join(c, metric, tau, threads, (size_t)1 << 40, &e, &m, &cand))
		return 0;
	for (j = 1; j < c->nv; j++)
		for (i = 0; i < j; i++)
			want += tri[RT_TRI(i, j)] <= tau;
	for (i = 0; i < m; i++)
		if (e[i].i >= e[i].j || e[i].j >= c->nv || tri[RT_TRI(e[i].i, e[i].j)] != e[i].d ||
		    e[i].d > tau)
			bad = 1;
	/* no pair twice: with the count right and every pair valid, all found */
	for (i = 0; i < m && !bad; i++)
		tri[RT_TRI(e[i].i, e[i].j)] = -1;
	for (j = 1, m = 0; j < c->nv; j++)
		for (i = 0; i < j; i++)
			m += tri[RT_TRI(i, j)] == -1;
	free(tri);
	free(e);
	return !bad && m == want;
}

/* Edit distances of long windows in blocks of 64 against the plain two
 * rows, over pairs of windows that are near (copies with edits) and far. */
static int
blocks(int w, int a, struct rt_rng *g)
{
	struct rt_cloud c = { 0 };
	struct rt_lev *lev = rt_lev_new(w);
	int *row = malloc((w + 1) * sizeof *row), bad = 0;
	size_t i, j;

	cloud(&c, w > 300 ? 16 : 40, w, a, g);
	for (j = 1; j < c.nv && lev && row; j++)
		for (i = 0; i < j; i++)
			bad |= rt_edit(c.sym + i * w, c.sym + j * w, w, lev) !=
			    rt_levenshtein_long(c.sym + i * w, c.sym + j * w, w, row);
	free(c.sym);
	free(row);
	rt_lev_free(lev);
	return lev != NULL && !bad;
}

/* The all-pairs matrix's edit distances (a table of eq masks a row, up
 * to 64 symbols) against the plain two rows: those within cap the same,
 * the others more than cap; and the pairs within cap (rt_cloud_pairs),
 * each once with its distance. */
static int
matrix(int w, int a, float cap, size_t *skipped, struct rt_rng *g)
{
	struct rt_cloud c = { 0 };
	int *row = malloc((w + 1) * sizeof *row), bad = 0;
	float *tri, d;
	size_t i, j, far = 0;

	cloud(&c, 60, w, a, g);
	if ((tri = rt_cloud_distances(&c, RT_LEVENSHTEIN, cap)) == NULL || row == NULL)
		bad = 1;
	for (j = 1; j < c.nv && !bad; j++)
		for (i = 0; i < j; i++) {
			d = (float)rt_levenshtein_long(c.sym + i * w, c.sym + j * w, w, row);
			bad |= d <= cap ? tri[RT_TRI(i, j)] != d : !(tri[RT_TRI(i, j)] > cap);
			far += tri[RT_TRI(i, j)] > cap;
		}
	*skipped += far;
	if (!bad && cap < INFINITY) {	/* the pairs within cap, no triangle: the same */
		struct rt_edge *e;
		size_t m, k, want = 0;

		for (j = 1; j < c.nv; j++)
			for (i = 0; i < j; i++)
				want += tri[RT_TRI(i, j)] <= cap;
		bad = rt_cloud_pairs(&c, cap, &e, &m) != 0 || m != want;
		for (k = 0; !bad && k < m; k++)
			bad = e[k].i >= e[k].j || e[k].j >= c.nv || e[k].d > cap ||
			    e[k].d != tri[RT_TRI(e[k].i, e[k].j)];
		free(e);
	}
	free(c.sym);
	free(row);
	free(tri);
	return !bad;
}

int
main(void)
{
	static const int lw[] = { 1, 2, 63, 64, 65, 100, 127, 128, 129, 300, 1024 };
	struct rt_cloud c = { 0 };
	struct rt_rng g;
	char d[128];
	int tau, w, a;
	size_t k, far = 0;

	rt_rng_seed(&g, 7);
	for (k = 0; k < sizeof lw / sizeof *lw; k++)
		for (a = 2; a <= 2000; a *= 10) {
			snprintf(d, sizeof d, "edit distance, w %d, %d symbols: blocks of 64 = "
			    "the plain rows", lw[k], a);
			ok(blocks(lw[k], a, &g), d);
		}
	for (w = 1; w <= 64; w = w < 4 ? w + 1 : w < 16 ? w + 6 : 2 * w)
		for (a = 2; a <= 2000; a *= 10) {
			snprintf(d, sizeof d, "the matrix's edit distances, w %d, %d symbols = "
			    "the plain rows", w, a);
			ok(matrix(w, a, INFINITY, &far, &g), d);
			snprintf(d, sizeof d, "the same within %d, more than it past it", w / 3);
			ok(matrix(w, a, (float)(w / 3), &far, &g), d);
		}
	ok(far > 10000, "pairs past the cap were met");
	cloud(&c, 200, 150, 5, &g);
	ok(same(&c, RT_LEVENSHTEIN, 40, 2), "levenshtein, w 150, 5 symbols, tau 40: the pairs "
	    "all pairs give");
	free(c.sym);
	for (w = 3; w <= 70; w = w < 10 ? w + 7 : w * 7) {
		for (a = 3; a <= 40; a *= 4) {
			cloud(&c, 300, w, a, &g);
			for (tau = 0; tau <= w; tau += w / 4 + 1) {
				snprintf(d, sizeof d, "levenshtein, w %d, %d symbols, tau %d: "
				    "the pairs all pairs give", w, a, tau);
				ok(same(&c, RT_LEVENSHTEIN, tau, 1 + (tau & 1)), d);
				snprintf(d, sizeof d, "hamming, w %d, %d symbols, tau %d", w, a, tau);
				ok(same(&c, RT_HAMMING, tau, 2), d);
			}
			free(c.sym);
		}
	}
	printf("1..%d\n", n);
	return failed != 0;
}
