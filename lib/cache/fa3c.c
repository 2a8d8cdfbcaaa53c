/* fa3c.c: Dinero IV's reference cache for 3C (ref.c, -lN-Xccc): fully
 * associative, of the level's size, with the level's own replacement and
 * write allocation (Hill's is LRU with allocation: rt_reuse).  Ways in a
 * list, most recent (or most recently filled) first; a table of blocks
 * to ways; a table of the blocks it ever missed. */
#include <stdlib.h>

#include "hier.h"

#define NONE UINT32_MAX

struct rt_fa {
	int policy, nwa;
	uint32_t n, used, head, tail;	/* ways; filled; the list's ends */
	uint64_t *blk;
	uint32_t *prev, *next;
	uint64_t *key;			/* block -> way: TAG(block), INVALID empty */
	uint32_t *way;
	uint64_t mask;
	uint64_t *seen;			/* blocks missed: TAG(block), INVALID empty */
	uint64_t nseen, seenmask;
	struct rt_rng rng;
};

static uint64_t
slot(const uint64_t *key, uint64_t mask, uint64_t block)
{
	uint64_t j = rt_hash64(block) & mask;

	while (key[j] != INVALID && key[j] != TAG(block))
		j = (j + 1) & mask;
	return j;
}

struct rt_fa *
rt_fa_new(const struct rt_cache_cfg *c, uint64_t seed)
{
	struct rt_fa *f = calloc(1, sizeof *f);
	uint64_t cap = 16;

	if (f == NULL)
		return NULL;
	f->policy = c->policy;
	f->nwa = c->nwa;
	f->n = (uint32_t)(c->size / c->block);
	f->head = f->tail = NONE;
	while (cap < 2 * (uint64_t)f->n)
		cap *= 2;
	f->mask = cap - 1;
	f->seenmask = 1023;
	rt_rng_seed(&f->rng, seed);
	f->blk = malloc(f->n * sizeof *f->blk);
	f->prev = malloc(f->n * sizeof *f->prev);
	f->next = malloc(f->n * sizeof *f->next);
	f->key = calloc(cap, sizeof *f->key);
	f->way = malloc(cap * sizeof *f->way);
	f->seen = calloc(f->seenmask + 1, sizeof *f->seen);
	if (!f->blk || !f->prev || !f->next || !f->key || !f->way || !f->seen) {
		rt_fa_free(f);
		return NULL;
	}
	return f;
}

void
rt_fa_free(struct rt_fa *f)
{
	if (f == NULL)
		return;
	free(f->blk);
	free(f->prev);
	free(f->next);
	free(f->key);
	free(f->way);
	free(f->seen);
	free(f);
}

static void
unlink1(struct rt_fa *f, uint32_t w)
{
	if (f->prev[w] != NONE)
		f->next[f->prev[w]] = f->next[w];
	else
		f->head = f->next[w];
	if (f->next[w] != NONE)
		f->prev[f->next[w]] = f->prev[w];
	else
		f->tail = f->prev[w];
}

static void
front(struct rt_fa *f, uint32_t w)
{
	f->prev[w] = NONE;
	f->next[w] = f->head;
	if (f->head != NONE)
		f->prev[f->head] = w;
	f->head = w;
	if (f->tail == NONE)
		f->tail = w;
}

/* Take block's entry out of the table of ways (linear probing: the
 * entries after it that hashed at or before it move back). */
static void
forget(struct rt_fa *f, uint64_t block)
{
	uint64_t i = slot(f->key, f->mask, block), j = i, h;

	f->key[i] = INVALID;
	for (;;) {
		j = (j + 1) & f->mask;
		if (f->key[j] == INVALID)
			return;
		h = rt_hash64(TAG(f->key[j])) & f->mask;
		if (((j - h) & f->mask) >= ((j - i) & f->mask)) {
			f->key[i] = f->key[j];
			f->way[i] = f->way[j];
			f->key[j] = INVALID;
			i = j;
		}
	}
}

/* The way a new block takes: an empty one, else the policy's victim. */
static uint32_t
victim(struct rt_fa *f)
{
	uint32_t w;

	if (f->used < f->n)
		return f->used++;
	switch (f->policy) {
	case RT_RANDOM:
		w = (uint32_t)rt_rng_below(&f->rng, f->n);
		break;
	default:	/* LRU, FIFO: the end of the list */
		w = f->tail;
	}
	forget(f, f->blk[w]);
	unlink1(f, w);
	return w;
}

/* Whether block was there; a write with no-write-allocate does not bring
 * it in (Dinero IV's ref.c keeps its stack as the level's). */
int
rt_fa_access(struct rt_fa *f, uint64_t block, int write)
{
	uint64_t j = slot(f->key, f->mask, block);
	uint32_t w;

	if (f->key[j] != INVALID) {
		w = f->way[j];
		if (f->policy != RT_FIFO && f->policy != RT_RANDOM) {
			unlink1(f, w);
			front(f, w);
		}
		return 1;
	}
	if (write && f->nwa)
		return 0;
	w = victim(f);
	j = slot(f->key, f->mask, block);	/* forget may have moved it */
	f->key[j] = TAG(block);
	f->way[j] = w;
	f->blk[w] = block;
	front(f, w);
	return 0;
}

/* Whether a miss of block is its first (then it is remembered); 0, 1, or
 * -1 out of memory. */
int
rt_fa_first(struct rt_fa *f, uint64_t block)
{
	uint64_t *old, i, j, n = f->seenmask + 1;

	j = slot(f->seen, f->seenmask, block);
	if (f->seen[j] != INVALID)
		return 0;
	if (2 * (f->nseen + 1) > n) {	/* grow: half full at most */
		old = f->seen;
		if ((f->seen = calloc(2 * n, sizeof *f->seen)) == NULL) {
			f->seen = old;
			return -1;
		}
		f->seenmask = 2 * n - 1;
		for (i = 0; i < n; i++)
			if (old[i] != INVALID)
				f->seen[slot(f->seen, f->seenmask, TAG(old[i]))] = old[i];
		free(old);
		j = slot(f->seen, f->seenmask, block);
	}
	f->seen[j] = TAG(block);
	f->nseen++;
	return 1;
}
