/* plru.c: tree pseudo-LRU, its masks (cache.c's too), and the one-level
 * PLRU caches of an ensemble, batch by batch: cache.c's simulation of
 * them (the same ways, victims and tree bits) with only what an
 * ensemble's row shows, accesses and misses. */
#include <stdlib.h>
#include <string.h>

#include "ens.h"

struct rt_pl {
	uint64_t mask;		/* sets - 1 */
	uint32_t ways;
	int bshift, nwa;
	uint64_t *tag, *tree;
	uint64_t last;		/* TAG of the block accessed last, if it is in */
	uint64_t clr[64], set[64];	/* touching way w: tree & ~clr[w] | set[w] */
	uint64_t acc[3], miss[3];
};

int
rt_pl_fits(const struct rt_cache_cfg *c)
{
	uint64_t sets = c->size / c->block / c->assoc;

	return c->policy == RT_PLRU && (sets & (sets - 1)) == 0;	/* ways <= 64 */
}

void
rt_plru_masks(uint32_t ways, uint64_t *clr, uint64_t *set)
{
	uint64_t node, lo, hi, mid, w;

	for (w = 0; w < ways; w++)
		for (clr[w] = set[w] = 0, node = 1, lo = 0, hi = ways; hi - lo > 1; ) {
			mid = (lo + hi) / 2;
			clr[w] |= 1ULL << node;
			if (w < mid) {
				set[w] |= 1ULL << node;	/* the right half is older */
				node = 2 * node;
				hi = mid;
			} else {
				node = 2 * node + 1;
				lo = mid;
			}
		}
}

struct rt_pl *
rt_pl_new(const struct rt_cache_cfg *c)
{
	struct rt_pl *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	p->ways = c->assoc;
	p->mask = c->size / c->block / c->assoc - 1;
	p->bshift = __builtin_ctz(c->block);
	p->nwa = c->nwa;
	p->tag = calloc((p->mask + 1) * p->ways, sizeof *p->tag);
	p->tree = calloc(p->mask + 1, sizeof *p->tree);
	if (p->tag == NULL || p->tree == NULL) {
		rt_pl_free(p);
		return NULL;
	}
	rt_plru_masks(p->ways, p->clr, p->set);
	return p;
}

void
rt_pl_free(struct rt_pl *p)
{
	if (p == NULL)
		return;
	free(p->tag);
	free(p->tree);
	free(p);
}

/* The block accessed last is in, and touching its way again leaves the
 * tree as it is: a repeat is a hit and nothing else (half of the accesses
 * of a trace that sweeps 8 bytes at a time through 64-byte blocks).
 * Otherwise the ways are compared all, each to the tag and to empty, into
 * masks, without a branch a way (where the search stops is as random as
 * the trace). */
static void
access1(struct rt_pl *p, uint64_t block, int op)
{
	uint64_t s = block & p->mask, *t = p->tag + s * p->ways, x = TAG(block);
	uint64_t hit = 0, empty = 0;
	uint32_t i;
	int kind = op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0;

	p->acc[kind]++;
	if (x == p->last)
		return;
	for (i = 0; i < p->ways; i++) {
		hit |= (uint64_t)(t[i] == x) << i;
		empty |= (uint64_t)(t[i] == 0) << i;
	}
	if (hit)
		i = (uint32_t)__builtin_ctzll(hit);
	else {
		p->miss[kind]++;
		if (op == RT_WRITE && p->nwa)
			return;
		i = empty ? (uint32_t)__builtin_ctzll(empty) :	/* else the tree's */
		    rt_plru_victim(p->tree[s], p->ways);
		t[i] = x;
	}
	p->tree[s] = (p->tree[s] & ~p->clr[i]) | p->set[i];
	p->last = x;
}

/* An access within one block, as rt_hier_access takes it. */
void
rt_pl_access(struct rt_pl *p, uint64_t addr, int op)
{
	if (op == RT_MODIFY) {	/* a read, then a write */
		access1(p, addr >> p->bshift, RT_READ);
		op = RT_WRITE;
	}
	access1(p, addr >> p->bshift, op);
}

void
rt_pl_run(struct rt_pl *p, const struct rt_ensacc *b, int n, int hasi)
{
	int j;

	for (j = 0; j < n; j++)
		if (!(hasi && b[j].op == RT_IFETCH))	/* the I-cache's */
			rt_pl_access(p, b[j].addr, b[j].op);
}

/* An invalidation empties the ways of its blocks and leaves the tree, as
 * cache.c's flushway; a flush changes no way. */
void
rt_pl_event(struct rt_pl *p, const struct rt_rec *ev)
{
	struct rt_span s;
	uint64_t *t;
	uint32_t i;

	if (ev->kind != RT_INVAL)
		return;
	p->last = 0;
	if (ev->size == 0) {
		memset(p->tag, 0, (p->mask + 1) * p->ways * sizeof *p->tag);
		return;
	}
	for (rt_span_start(&s, ev->addr, rt_last(ev), 1ULL << p->bshift); rt_span_next(&s);)
		for (t = p->tag + (s.block & p->mask) * p->ways, i = 0; i < p->ways; i++)
			if (t[i] == TAG(s.block))
				t[i] = 0;
}

void
rt_pl_stats(const struct rt_pl *p, struct rt_cache_stats *s)
{
	memset(s, 0, sizeof *s);
	memcpy(s->acc, p->acc, sizeof s->acc);
	memcpy(s->miss, p->miss, sizeof s->miss);
}
