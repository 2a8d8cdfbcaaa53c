/* level.c: a cache level's arrays, and what they cost. */
#include <stdlib.h>
#include <string.h>

#include "hier.h"

/* What rt_level_init allocates: per way a tag, a policy state and a dirty
 * byte; per set a hint and, for pseudo-LRU, tree bits.  In doubles, as a
 * terabyte cache's count overflows nothing there. */
double
rt_cache_bytes(const struct rt_cache_cfg *c)
{
	double blocks = (double)(c->size / c->block), sets = blocks / (c->assoc ? c->assoc : blocks);

	return blocks * (2 * sizeof(uint64_t) + 1) +
	    sets * (sizeof(uint32_t) + (c->policy == RT_PLRU ? sizeof(uint64_t) : 0));
}

int
rt_level_init(struct level *l, const struct rt_cache_cfg *c)
{
	uint64_t n;

	memset(l, 0, sizeof *l);
	l->c = *c;
	l->ways = c->assoc;
	l->nsets = c->size / c->block / c->assoc;
	l->mask = (l->nsets & (l->nsets - 1)) == 0 ? l->nsets - 1 : 0;
	l->bshift = __builtin_ctz(c->block);	/* blocks are powers of two */
	n = l->nsets * l->ways;
	l->tag = calloc(n, sizeof *l->tag);
	l->st = calloc(n, sizeof *l->st);
	l->dirty = calloc(n, 1);
	l->hint = calloc(l->nsets, sizeof *l->hint);
	if (l->tag == NULL || l->st == NULL || l->dirty == NULL || l->hint == NULL)
		return -1;
	if (c->policy == RT_PLRU) {
		if ((l->tree = calloc(l->nsets, sizeof *l->tree)) == NULL ||
		    (l->plm = malloc(2 * l->ways * sizeof *l->plm)) == NULL)
			return -1;
		rt_plru_masks((uint32_t)l->ways, l->plm, l->plm + l->ways);
	}
	return 0;
}

void
rt_level_free(struct level *l)
{
	rt_reuse_free(l->shadow);
	rt_fa_free(l->fa);
	free(l->tag);
	free(l->st);
	free(l->dirty);
	free(l->tree);
	free(l->plm);
	free(l->hint);
}
