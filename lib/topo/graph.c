/* graph.c: neighbourhood graphs in compressed rows, their triangles, and
 * union-find: what persistence, collapse and circular coordinates share. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

static int
alloc_rows(struct rt_graph *g, size_t n, float thresh)
{
	memset(g, 0, sizeof *g);
	g->n = n;
	g->thresh = thresh;
	return (g->off = calloc(n + 1, sizeof *g->off)) == NULL ? -1 : 0;
}

/* After the degrees are counted in off[v + 1]: prefix sums, the arrays,
 * and the fill positions. */
static size_t *
alloc_cols(struct rt_graph *g)
{
	size_t i, *fill;

	for (i = 0; i < g->n; i++)
		g->off[i + 1] += g->off[i];
	if ((g->nb = malloc((g->off[g->n] + 1) * sizeof *g->nb)) == NULL ||
	    (g->d = malloc((g->off[g->n] + 1) * sizeof *g->d)) == NULL ||
	    (fill = malloc((g->n + 1) * sizeof *fill)) == NULL) {
		rt_graph_free(g);
		return NULL;
	}
	memcpy(fill, g->off, g->n * sizeof *fill);
	return fill;
}

int
rt_graph_build(struct rt_graph *g, const float *tri, size_t n, float thresh)
{
	size_t i, j, *fill;

	if (alloc_rows(g, n, thresh))
		return RT_ENOMEM;
	for (j = 1; j < n; j++)
		for (i = 0; i < j; i++)
			if (tri[RT_TRI(i, j)] <= thresh) {
				g->off[i + 1]++;
				g->off[j + 1]++;
			}
	if ((fill = alloc_cols(g)) == NULL)
		return RT_ENOMEM;
	/* j ascending, then i ascending: every row comes out sorted */
	for (j = 1; j < n; j++)
		for (i = 0; i < j; i++) {
			float d = tri[RT_TRI(i, j)];

			if (d > thresh)
				continue;
			g->nb[fill[i]] = (uint32_t)j;
			g->d[fill[i]++] = d;
			g->nb[fill[j]] = (uint32_t)i;
			g->d[fill[j]++] = d;
		}
	free(fill);
	return 0;
}

static int
byij(const void *a, const void *b)
{
	const struct rt_edge *p = a, *q = b;

	if (p->i != q->i)
		return p->i < q->i ? -1 : 1;
	return p->j < q->j ? -1 : p->j > q->j;
}

/* From edges i < j < n, each once, in any order (they are sorted here);
 * those above thresh are left out. */
int
rt_graph_from_edges(struct rt_graph *g, size_t n, struct rt_edge *e, size_t m, float thresh)
{
	size_t k, *fill;

	if (alloc_rows(g, n, thresh))
		return RT_ENOMEM;
	if (m > 1)
		qsort(e, m, sizeof *e, byij);
	for (k = 0; k < m; k++)
		if (e[k].d <= thresh) {
			g->off[e[k].i + 1]++;
			g->off[e[k].j + 1]++;
		}
	if ((fill = alloc_cols(g)) == NULL)
		return RT_ENOMEM;
	/* rows of i get their j in order; rows of j get their i in order
	 * only if the smaller neighbours come first: two passes */
	for (k = 0; k < m; k++)
		if (e[k].d <= thresh) {
			g->nb[fill[e[k].j]] = e[k].i;
			g->d[fill[e[k].j]++] = e[k].d;
		}
	for (k = 0; k < m; k++)
		if (e[k].d <= thresh) {
			g->nb[fill[e[k].i]] = e[k].j;
			g->d[fill[e[k].i]++] = e[k].d;
		}
	free(fill);
	return 0;
}

void
rt_graph_free(struct rt_graph *g)
{
	free(g->off);
	free(g->nb);
	free(g->d);
	memset(g, 0, sizeof *g);
}

size_t
rt_graph_slot(const struct rt_graph *g, uint32_t a, uint32_t b)
{
	size_t lo = g->off[a], hi = g->off[a + 1], mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (g->nb[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->off[a + 1] && g->nb[lo] == b ? lo : SIZE_MAX;
}

/* Every triangle i < j < k whose edges are all at most eps, by merging
 * the sorted rows of i and j; fn gets the slots of ij, jk and ik in the
 * rows of i, j and i. */
void
rt_graph_triangles(const struct rt_graph *g, float eps, rt_triangle_fn *fn, void *ctx)
{
	size_t a, b, c, eb, ec;
	uint32_t i, j;

	for (i = 0; i < g->n; i++)
		for (a = g->off[i]; a < g->off[i + 1]; a++) {
			if ((j = g->nb[a]) < i || g->d[a] > eps)
				continue;
			b = g->off[i], eb = g->off[i + 1];
			c = g->off[j], ec = g->off[j + 1];
			while (b < eb && c < ec) {
				if (g->nb[b] < g->nb[c])
					b++;
				else if (g->nb[b] > g->nb[c])
					c++;
				else {
					if (g->nb[b] > j && g->d[b] <= eps && g->d[c] <= eps)
						fn(ctx, i, j, g->nb[b], a, c, b);
					b++, c++;
				}
			}
		}
}

uint32_t
rt_uf_find(uint32_t *up, uint32_t v)
{
	while (up[v] != v) {
		up[v] = up[up[v]];
		v = up[v];
	}
	return v;
}

/* Join the sets of a and b under the smaller root; 1 if they were apart. */
int
rt_uf_join(uint32_t *up, uint32_t a, uint32_t b)
{
	a = rt_uf_find(up, a);
	b = rt_uf_find(up, b);
	if (a == b)
		return 0;
	up[a > b ? a : b] = a < b ? a : b;
	return 1;
}
