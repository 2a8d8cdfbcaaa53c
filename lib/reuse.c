/* reuse.c: exact LRU stack (reuse) distances in O(log M) per access and
 * O(M) memory for M distinct blocks.
 *
 * Every live block owns the slot of its last access; slots are numbered
 * in access order.  The distance of a reuse is the number of live slots
 * after the block's previous one: live - rank(slot).  Rank is a bitmap of
 * live slots with popcounts inside a chunk of 512 slots and a Fenwick
 * tree over the chunks (Bennett and Kruskal's idea of counting distinct
 * references in a time-indexed tree, with the tree kept small enough to
 * stay in cache).  When the slots run out, live slots are renumbered
 * 0..live-1 in order, so memory follows the distinct blocks, not time. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

#define NONE UINT32_MAX
#define CHUNK 512		/* slots per Fenwick leaf */
#define WPC (CHUNK / 64)	/* bitmap words per chunk */

struct rt_reuse {
	/* open addressing, linear probing: block -> slot */
	uint64_t *key;
	uint32_t *slot;		/* NONE: empty */
	uint64_t *when;		/* last access time, with time distances */
	size_t cap, n;
	/* slots */
	uint32_t *owner;	/* slot -> table index */
	uint64_t *bits;		/* live slots */
	uint32_t *fen;		/* Fenwick tree of live counts per chunk, 1-based */
	uint32_t nslots, now, nchunks;
	uint64_t t;		/* accesses so far */
	int timed;
};

static int
slots_alloc(struct rt_reuse *r, uint32_t n)
{
	uint32_t *o = realloc(r->owner, (size_t)n * sizeof *o);
	uint64_t *b;
	uint32_t *f;

	if (o == NULL)
		return -1;
	r->owner = o;
	if ((b = realloc(r->bits, (size_t)n / 8)) == NULL)
		return -1;
	r->bits = b;
	if ((f = realloc(r->fen, ((size_t)n / CHUNK + 1) * sizeof *f)) == NULL)
		return -1;
	r->fen = f;
	r->nslots = n;
	r->nchunks = n / CHUNK;
	return 0;
}

struct rt_reuse *
rt_reuse_new(int timed)
{
	struct rt_reuse *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->timed = timed;
	r->cap = 1024;
	r->key = malloc(r->cap * sizeof *r->key);
	r->slot = malloc(r->cap * sizeof *r->slot);
	r->when = timed ? malloc(r->cap * sizeof *r->when) : NULL;
	if (r->key == NULL || r->slot == NULL || (timed && r->when == NULL) ||
	    slots_alloc(r, 1u << 16)) {
		rt_reuse_free(r);
		return NULL;
	}
	memset(r->slot, 0xff, r->cap * sizeof *r->slot);
	memset(r->bits, 0, r->nslots / 8);
	memset(r->fen, 0, (r->nchunks + 1) * sizeof *r->fen);
	return r;
}

void
rt_reuse_free(struct rt_reuse *r)
{
	if (r == NULL)
		return;
	free(r->key);
	free(r->slot);
	free(r->when);
	free(r->owner);
	free(r->bits);
	free(r->fen);
	free(r);
}

static void
fen_add(struct rt_reuse *r, uint32_t chunk, int32_t d)
{
	uint32_t i;

	for (i = chunk + 1; i <= r->nchunks; i += i & -i)
		r->fen[i] += (uint32_t)d;
}

/* Live slots at or before s. */
static uint64_t
rank(const struct rt_reuse *r, uint32_t s)
{
	uint32_t c = s / CHUNK, i, w = s / 64;
	uint64_t k = 0;

	for (i = c; i > 0; i -= i & -i)
		k += r->fen[i];
	for (i = c * WPC; i < w; i++)
		k += (uint64_t)__builtin_popcountll(r->bits[i]);
	return k + (uint64_t)__builtin_popcountll(r->bits[w] & (~0ULL >> (63 - s % 64)));
}

static void
setslot(struct rt_reuse *r, uint32_t s)
{
	r->bits[s / 64] |= 1ULL << (s % 64);
	fen_add(r, s / CHUNK, 1);
}

static void
clearslot(struct rt_reuse *r, uint32_t s)
{
	r->bits[s / 64] &= ~(1ULL << (s % 64));
	fen_add(r, s / CHUNK, -1);
}

/* Renumber the live slots 0..live-1 in order, growing the slot space
 * when the live ones fill more than half of it. */
static int
compact(struct rt_reuse *r)
{
	uint32_t s, j = 0, c, i;

	for (s = 0; s < r->now; s++)
		if (r->bits[s / 64] >> (s % 64) & 1) {
			r->owner[j] = r->owner[s];
			r->slot[r->owner[j]] = j;
			j++;
		}
	if (j > r->nslots / 2) {
		if (r->nslots >= (1u << 31) || slots_alloc(r, r->nslots * 2))
			return -1;
	}
	memset(r->bits, 0, r->nslots / 8);
	for (s = 0; s < j / 64; s++)
		r->bits[s] = ~0ULL;
	if (j % 64)
		r->bits[j / 64] = (1ULL << (j % 64)) - 1;
	/* a Fenwick tree built in linear time from the chunk counts */
	memset(r->fen, 0, (r->nchunks + 1) * sizeof *r->fen);
	for (c = 0; c < r->nchunks; c++) {
		uint32_t lo = c * CHUNK;

		r->fen[c + 1] += lo >= j ? 0 : j - lo >= CHUNK ? CHUNK : j - lo;
		i = (c + 1) + ((c + 1) & -(c + 1));
		if (i <= r->nchunks)
			r->fen[i] += r->fen[c + 1];
	}
	r->now = j;
	return 0;
}

static int
grow(struct rt_reuse *r)
{
	size_t nc = r->cap * 2, i, j;
	uint64_t *k = malloc(nc * sizeof *k), *w = NULL;
	uint32_t *s = malloc(nc * sizeof *s);

	if (r->timed)
		w = malloc(nc * sizeof *w);
	if (k == NULL || s == NULL || (r->timed && w == NULL)) {
		free(k);
		free(s);
		free(w);
		return -1;
	}
	memset(s, 0xff, nc * sizeof *s);
	for (i = 0; i < r->cap; i++) {
		if (r->slot[i] == NONE)
			continue;
		j = rt_hash64(r->key[i]) & (nc - 1);
		while (s[j] != NONE)
			j = (j + 1) & (nc - 1);
		k[j] = r->key[i];
		s[j] = r->slot[i];
		if (w)
			w[j] = r->when[i];
		r->owner[s[j]] = (uint32_t)j;
	}
	free(r->key);
	free(r->slot);
	free(r->when);
	r->key = k;
	r->slot = s;
	r->when = w;
	r->cap = nc;
	return 0;
}

int
rt_reuse_access(struct rt_reuse *r, uint64_t block, uint64_t *dist, uint64_t *tdist)
{
	size_t h, mask = r->cap - 1;
	uint32_t s;

	h = rt_hash64(block) & mask;
	while (r->slot[h] != NONE && r->key[h] != block)
		h = (h + 1) & mask;
	if (r->now == r->nslots && compact(r))
		return -1;
	if (r->slot[h] != NONE) {
		s = r->slot[h];
		*dist = r->n - rank(r, s);
		if (r->timed) {
			*tdist = r->t - r->when[h] - 1;
			r->when[h] = r->t;
		}
		clearslot(r, s);
	} else {
		if ((r->n + 1) * 4 > r->cap * 3) {
			if (grow(r))
				return -1;
			return rt_reuse_access(r, block, dist, tdist);
		}
		r->key[h] = block;
		r->n++;
		*dist = RT_COLD;
		if (r->timed) {
			*tdist = RT_COLD;
			r->when[h] = r->t;
		}
	}
	r->t++;
	r->slot[h] = r->now;
	r->owner[r->now] = (uint32_t)h;
	setslot(r, r->now);
	r->now++;
	return 0;
}

int
rt_reuse_remove(struct rt_reuse *r, uint64_t block)
{
	size_t h, j, k, mask = r->cap - 1;

	h = rt_hash64(block) & mask;
	while (r->slot[h] != NONE && r->key[h] != block)
		h = (h + 1) & mask;
	if (r->slot[h] == NONE)
		return 0;
	clearslot(r, r->slot[h]);
	r->slot[h] = NONE;
	r->n--;
	/* backward-shift deletion keeps every probe chain unbroken */
	for (j = (h + 1) & mask; r->slot[j] != NONE; j = (j + 1) & mask) {
		k = rt_hash64(r->key[j]) & mask;
		if ((j > h && (k <= h || k > j)) || (j < h && k <= h && k > j)) {
			r->key[h] = r->key[j];
			r->slot[h] = r->slot[j];
			if (r->when)
				r->when[h] = r->when[j];
			r->owner[r->slot[h]] = (uint32_t)h;
			r->slot[j] = NONE;
			h = j;
		}
	}
	return 1;
}

uint64_t
rt_reuse_blocks(const struct rt_reuse *r)
{
	return r->n;
}

size_t
rt_reuse_memory(const struct rt_reuse *r)
{
	return r->cap * (sizeof *r->key + sizeof *r->slot + (r->timed ? sizeof *r->when : 0)) +
	    (size_t)r->nslots * (sizeof *r->owner) + r->nslots / 8 +
	    (r->nchunks + 1) * sizeof *r->fen;
}
