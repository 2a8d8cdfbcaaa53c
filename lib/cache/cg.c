/* cg.c: cachegrind's model (cg_sim.c): LRU, write-allocate, no dirty
 * state; an access spanning two blocks is one reference that misses if
 * either block does; LL is asked only after a first-level miss. */
#include <stdlib.h>

#include "hier.h"

struct rt_cg {
	struct level i1, d1, ll;
	uint64_t now;
	struct rt_cgstats s;
};

static int
cg_miss1(struct rt_cg *g, struct level *l, uint64_t block)
{
	uint64_t set = rt_level_set(l, block), b = set * l->ways, i, j;

	for (i = b; i < b + l->ways; i++)
		if (l->tag[i] == TAG(block))
			break;
	/* move to the front: ways ordered from most to least recent */
	j = i < b + l->ways ? i : b + l->ways - 1;
	for (; j > b; j--)
		l->tag[j] = l->tag[j - 1];
	l->tag[b] = TAG(block);
	(void)g;
	return i == b + l->ways;
}

static int
cg_ismiss(struct rt_cg *g, struct level *l, const struct rt_rec *r)
{
	struct rt_span s;
	int m = 0;

	for (rt_span_start(&s, r->addr, rt_last(r), l->c.block); rt_span_next(&s);)
		m |= cg_miss1(g, l, s.block);
	return m;
}

struct rt_cg *
rt_cg_new(const struct rt_cache_cfg *i1, const struct rt_cache_cfg *d1, const struct rt_cache_cfg *ll)
{
	struct rt_cg *g = calloc(1, sizeof *g);

	if (g == NULL)
		return NULL;
	if (rt_level_init(&g->i1, i1) || rt_level_init(&g->d1, d1) || rt_level_init(&g->ll, ll)) {
		rt_cg_free(g);
		return NULL;
	}
	return g;
}

void
rt_cg_access(struct rt_cg *g, const struct rt_rec *r, struct rt_cgstats *row)
{
	uint64_t *s = &g->s.ir, *t = row ? &row->ir : NULL;
	int k = r->op == RT_IFETCH ? 0 : r->op == RT_WRITE ? 6 : 3;	/* R, M: 3 */

	s[k]++;
	if (t)
		t[k]++;
	if (cg_ismiss(g, r->op == RT_IFETCH ? &g->i1 : &g->d1, r)) {
		s[k + 1]++;
		if (t)
			t[k + 1]++;
		if (cg_ismiss(g, &g->ll, r)) {
			s[k + 2]++;
			if (t)
				t[k + 2]++;
		}
	}
}

const struct rt_cache_cfg *
rt_cg_cfg(const struct rt_cg *g, int k)
{
	return k == 0 ? &g->i1.c : k == 1 ? &g->d1.c : &g->ll.c;
}

const struct rt_cgstats *
rt_cg_stats(const struct rt_cg *g)
{
	return &g->s;
}

void
rt_cg_free(struct rt_cg *g)
{
	if (g == NULL)
		return;
	rt_level_free(&g->i1);
	rt_level_free(&g->d1);
	rt_level_free(&g->ll);
	free(g);
}
