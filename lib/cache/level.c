/* level.c: a cache level's arrays, and what they cost. */
#include <stdlib.h>
#include <string.h>

#include "hier.h"

/* The hash's slots: a power of two, at least twice the blocks (linear
 * probing stays short at half full). */
static uint64_t
hashslots(uint64_t blocks)
{
	uint64_t n = 16;

	while (n < 2 * blocks)
		n *= 2;
	return n;
}

/* Whether a level of c is indexed (hier.h), and whether it keeps lists. */
static int
hashed(const struct rt_cache_cfg *c)
{
	return (c->assoc ? c->assoc : c->size / c->block) >= RT_HASHWAYS;
}

static int
ordered(const struct rt_cache_cfg *c)
{
	return c->policy == RT_LRU || c->policy == RT_MRU || c->policy == RT_FIFO;
}

/* What rt_level_init allocates: per way a tag, a policy state and a dirty
 * byte; per set a hint and, for pseudo-LRU, tree bits; the index of a
 * level of many ways.  In doubles, as a terabyte cache's count overflows
 * nothing there. */
double
rt_cache_bytes(const struct rt_cache_cfg *c)
{
	double blocks = (double)(c->size / c->block), sets = blocks / (c->assoc ? c->assoc : blocks);
	double b = blocks * (2 * sizeof(uint64_t) + 1) +
	    sets * (sizeof(uint32_t) + (c->policy == RT_PLRU ? sizeof(uint64_t) : 0));

	if (hashed(c)) {
		b += (double)hashslots(c->size / c->block) * sizeof(struct rt_wslot) +
		    sets * sizeof(uint32_t);
		if (ordered(c))
			b += blocks * 2 * sizeof(uint32_t) + sets * 2 * sizeof(uint32_t);
	}
	return b;
}

/* The index of a level of many ways (hier.h), zeroed: every way empty. */
static int
index_init(struct level *l)
{
	uint64_t n = hashslots(l->nsets * l->ways);

	l->hmask = n - 1;
	l->hshift = 64 - __builtin_ctzll(n);
	if ((l->hash = calloc(n, sizeof *l->hash)) == NULL ||
	    (l->lo = calloc(l->nsets, sizeof *l->lo)) == NULL)
		return -1;
	if (ordered(&l->c) &&
	    ((l->prv = calloc(l->nsets * l->ways, sizeof *l->prv)) == NULL ||
	    (l->nxt = calloc(l->nsets * l->ways, sizeof *l->nxt)) == NULL ||
	    (l->ends = calloc(2 * l->nsets, sizeof *l->ends)) == NULL))
		return -1;
	return 0;
}

static uint64_t
slot(const struct level *l, uint64_t block)
{
	uint64_t j = (block * 0x9e3779b97f4a7c15ull) >> l->hshift, t = TAG(block);

	while (l->hash[j].key != INVALID && l->hash[j].key != t)
		j = (j + 1) & l->hmask;
	return j;
}

/* Take block out of the hash (linear probing: the entries after it that
 * hashed at or before its slot move back; Knuth 6.4, algorithm R). */
static void
unhash(struct level *l, uint64_t block)
{
	uint64_t i = slot(l, block), j = i, h;

	l->hash[i].key = INVALID;
	for (;;) {
		j = (j + 1) & l->hmask;
		if (l->hash[j].key == INVALID)
			return;
		h = (TAG(l->hash[j].key) * 0x9e3779b97f4a7c15ull) >> l->hshift;
		if (((j - h) & l->hmask) >= ((j - i) & l->hmask)) {
			l->hash[i] = l->hash[j];
			l->hash[j].key = INVALID;
			i = j;
		}
	}
}

/* Lists: links are ways in the set + 1; ends[2 set] the first, + 1 the
 * last. */
static void
unlink1(struct level *l, uint64_t set, uint64_t i)
{
	uint64_t b = set * l->ways;
	uint32_t p = l->prv[i], n = l->nxt[i];

	if (p)
		l->nxt[b + p - 1] = n;
	else
		l->ends[2 * set] = n;
	if (n)
		l->prv[b + n - 1] = p;
	else
		l->ends[2 * set + 1] = p;
	l->prv[i] = l->nxt[i] = 0;
}

static int
linked(const struct level *l, uint64_t set, uint64_t i)
{
	return l->prv[i] != 0 || l->ends[2 * set] == i - set * l->ways + 1;
}

void
rt_level_order(struct level *l, uint64_t set, uint64_t i)
{
	uint64_t b = set * l->ways, st = l->st[i];
	uint32_t w = (uint32_t)(i - b) + 1, p;

	p = l->prv[i];
	if (l->ends[2 * set + 1] == w && (p == 0 || l->st[b + p - 1] < st ||
	    (l->st[b + p - 1] == st && p < w)))
		return;	/* the last already, and in its place */
	if (linked(l, set, i))
		unlink1(l, set, i);
	/* from the end back: a new state is the greatest, or ties */
	for (p = l->ends[2 * set + 1]; p && (l->st[b + p - 1] > st ||
	    (l->st[b + p - 1] == st && p > w)); p = l->prv[b + p - 1])
		;
	l->prv[i] = p;
	if (p) {
		l->nxt[i] = l->nxt[b + p - 1];
		l->nxt[b + p - 1] = w;
	} else {
		l->nxt[i] = l->ends[2 * set];
		l->ends[2 * set] = w;
	}
	if (l->nxt[i])
		l->prv[b + l->nxt[i] - 1] = w;
	else
		l->ends[2 * set + 1] = w;
}

uint64_t
rt_level_first(const struct level *l, uint64_t set)
{
	return set * l->ways + l->ends[2 * set] - 1;
}

uint64_t
rt_level_last(const struct level *l, uint64_t set)
{
	uint64_t b = set * l->ways, i = b + l->ends[2 * set + 1] - 1;

	while (l->prv[i] && l->st[b + l->prv[i] - 1] == l->st[i])
		i = b + l->prv[i] - 1;
	return i;
}

/* Way i's block out of the hash and its list. */
static void
forget(struct level *l, uint64_t set, uint64_t i)
{
	unhash(l, TAG(l->tag[i]));
	if (l->ends != NULL && linked(l, set, i))
		unlink1(l, set, i);
}

void
rt_index_drop(struct level *l, uint64_t set, uint64_t i)
{
	if (l->tag[i] == INVALID)
		return;
	forget(l, set, i);
	if (i - set * l->ways < l->lo[set])
		l->lo[set] = (uint32_t)(i - set * l->ways);
	l->tag[i] = INVALID;
}

void
rt_index_put(struct level *l, uint64_t set, uint64_t i, uint64_t block)
{
	if (l->tag[i] != INVALID)
		forget(l, set, i);
	l->tag[i] = TAG(block);
	l->hash[slot(l, block)] = (struct rt_wslot){ TAG(block), i };
}

uint64_t
rt_level_empty(struct level *l, uint64_t set)
{
	uint64_t b = set * l->ways, w;

	for (w = l->lo[set]; w < l->ways && l->tag[b + w] != INVALID; w++)
		;
	l->lo[set] = (uint32_t)w;
	return w < l->ways ? b + w : UINT64_MAX;
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
		return RT_ENOMEM;
	if (c->policy == RT_PLRU) {
		if ((l->tree = calloc(l->nsets, sizeof *l->tree)) == NULL ||
		    (l->plm = malloc(2 * l->ways * sizeof *l->plm)) == NULL)
			return RT_ENOMEM;
		rt_plru_masks((uint32_t)l->ways, l->plm, l->plm + l->ways);
	}
	return hashed(c) ? index_init(l) : 0;
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
	free(l->hash);
	free(l->lo);
	free(l->prv);
	free(l->nxt);
	free(l->ends);
	rt_pf_free(l->pf);
	free(l->pfb);
	if (l->nopf != NULL)
		rt_level_free(l->nopf);
	free(l->nopf);
}
