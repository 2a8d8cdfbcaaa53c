/* reuse.c: exact LRU stack (reuse) distances in O(log M) per access and
 * O(M) memory for M distinct blocks.
 *
 * Every live block owns the slot of its last access; slots are numbered
 * in access order.  The distance of a reuse is the number of live slots
 * after the block's previous one: live - rank(slot).  Rank is a bitmap of
 * live slots with popcounts inside a chunk of 512 slots and a Fenwick
 * tree over the chunks (Bennett and Kruskal's idea of counting distinct
 * references in a time-indexed tree, with the tree kept small enough to
 * stay in cache).  The tree counts dead slots, not live ones: every slot
 * below the next one was live once, so the live ones before a chunk are
 * its first slot less the dead, and a new slot, always the next, costs a
 * bit and no walk up the tree.  When the slots run out, live slots are
 * renumbered 0..live-1 in order, so memory follows the distinct blocks,
 * not time. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

#define NONE UINT32_MAX
#define CHUNK 512		/* slots per Fenwick leaf */
#define WPC (CHUNK / 64)	/* bitmap words per chunk */

/* One cache miss per lookup: key and slot side by side, 12 bytes. */
struct ent {
	uint64_t key;
	uint32_t slot;		/* NONE: empty */
} __attribute__((packed));

struct rt_reuse {
	struct ent *e;		/* open addressing, linear probing */
	uint64_t *when;		/* last access time, with time distances */
	size_t cap, n;
	uint64_t *bits;		/* live slots */
	uint32_t *fen;		/* Fenwick tree of dead slots per chunk, 1-based */
	uint32_t nslots, now, nchunks;
	uint64_t t;		/* accesses so far */
	int timed;
};

/* The whole block number hashed.  Homes shared by runs of eight
 * consecutive blocks (a cache line for a sweep) make linear probing's
 * clusters long, and the time goes to the misses of the probes. */
static size_t
home(uint64_t block, size_t mask)
{
	return (size_t)rt_hash64(block) & mask;
}

/* not under AFL++, whose passes abort on an ifunc (afl++ 4.04c), nor
 * ThreadSanitizer, whose instrumented resolver runs before its runtime */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__) && !defined(__AFL_COMPILER) && \
    !defined(__SANITIZE_THREAD__)
#define CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define CLONES
#endif

static int
slots_alloc(struct rt_reuse *r, uint32_t n)
{
	uint64_t *b;
	uint32_t *f;

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

static struct ent *
table(size_t n)
{
	struct ent *e = rt_bigalloc(n * sizeof *e);
	size_t i;

	if (e != NULL)
		for (i = 0; i < n; i++)
			e[i].slot = NONE;
	return e;
}

struct rt_reuse *
rt_reuse_new(int timed)
{
	struct rt_reuse *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->timed = timed;
	r->cap = 1024;
	r->e = table(r->cap);
	r->when = timed ? malloc(r->cap * sizeof *r->when) : NULL;
	if (r->e == NULL || (timed && r->when == NULL) || slots_alloc(r, 1u << 16)) {
		rt_reuse_free(r);
		return NULL;
	}
	memset(r->bits, 0, r->nslots / 8);
	memset(r->fen, 0, (r->nchunks + 1) * sizeof *r->fen);
	return r;
}

void
rt_reuse_free(struct rt_reuse *r)
{
	if (r == NULL)
		return;
	free(r->e);
	free(r->when);
	free(r->bits);
	free(r->fen);
	free(r);
}

/* A slot of the chunk died. */
static inline void
fen_add(struct rt_reuse *r, uint32_t chunk)
{
	uint32_t i;

	for (i = chunk + 1; i <= r->nchunks; i += i & -i)
		r->fen[i]++;
}

/* Live slots at or before s (s below the next slot). */
static inline __attribute__((always_inline)) uint64_t
rank_(const struct rt_reuse *r, uint32_t s)
{
	uint32_t c = s / CHUNK, i, w = s / 64;
	uint64_t k = (uint64_t)c * CHUNK;

	for (i = c; i > 0; i -= i & -i)
		k -= r->fen[i];
	for (i = c * WPC; i < w; i++)
		k += (uint64_t)__builtin_popcountll(r->bits[i]);
	return k + (uint64_t)__builtin_popcountll(r->bits[w] & (~0ULL >> (63 - s % 64)));
}

CLONES static uint64_t
rank(const struct rt_reuse *r, uint32_t s)
{
	return rank_(r, s);
}

static inline void
setslot(struct rt_reuse *r, uint32_t s)
{
	r->bits[s / 64] |= 1ULL << (s % 64);
}

static inline void
clearslot(struct rt_reuse *r, uint32_t s)
{
	r->bits[s / 64] &= ~(1ULL << (s % 64));
	fen_add(r, s / CHUNK);
}

/* Renumber the live slots 0..live-1 in order: a live slot's new number is
 * its rank among the live ones, which the bitmap already knows.  The slot
 * space (a bit each) doubles when the live slots fill more than an eighth
 * of it, so a compaction comes at most every 7 live counts of accesses
 * (a fuller space compacts more often for no gain). */
CLONES static int
compact(struct rt_reuse *r)
{
	uint32_t *before, c, s, i, w;
	size_t j;
	uint32_t live = (uint32_t)r->n;

	if ((before = malloc(((size_t)r->nchunks + 1) * sizeof *before)) == NULL)
		return -1;
	for (c = 0, before[0] = 0; c < r->nchunks; c++) {
		for (i = 0, w = 0; i < WPC; i++)
			w += (uint32_t)__builtin_popcountll(r->bits[c * WPC + i]);
		before[c + 1] = before[c] + w;
	}
	for (j = 0; j < r->cap; j++) {
		if ((s = r->e[j].slot) == NONE)
			continue;
		c = s / CHUNK;
		w = before[c];
		for (i = c * WPC; i < s / 64; i++)
			w += (uint32_t)__builtin_popcountll(r->bits[i]);
		w += (uint32_t)__builtin_popcountll(r->bits[s / 64] & ((1ULL << (s % 64)) - 1));
		r->e[j].slot = w;
	}
	free(before);
	while (live > r->nslots / 8) {
		if (r->nslots >= (1u << 31) || slots_alloc(r, r->nslots * 2))
			return -1;
	}
	memset(r->bits, 0, r->nslots / 8);
	for (s = 0; s < live / 64; s++)
		r->bits[s] = ~0ULL;
	if (live % 64)
		r->bits[live / 64] = (1ULL << (live % 64)) - 1;
	memset(r->fen, 0, (r->nchunks + 1) * sizeof *r->fen);	/* none dead */
	r->now = live;
	return 0;
}

static int
grow(struct rt_reuse *r)
{
	size_t nc = r->cap * 2, i, j;
	struct ent *e = table(nc);
	uint64_t *w = NULL;

	if (r->timed)
		w = rt_bigalloc(nc * sizeof *w);
	if (e == NULL || (r->timed && w == NULL)) {
		free(e);
		free(w);
		return -1;
	}
	for (i = 0; i < r->cap; i++) {
		if (r->e[i].slot == NONE)
			continue;
		j = home(r->e[i].key, nc - 1);
		while (e[j].slot != NONE)
			j = (j + 1) & (nc - 1);
		e[j] = r->e[i];
		if (w)
			w[j] = r->when[i];
	}
	free(r->e);
	free(r->when);
	r->e = e;
	r->when = w;
	r->cap = nc;
	return 0;
}

/* One access, the block looked for at h first. */
static inline __attribute__((always_inline)) int
touch(struct rt_reuse *r, uint64_t block, size_t h, uint64_t *dist, uint64_t *tdist)
{
	size_t mask = r->cap - 1;
	uint32_t s;

	/* a key is in the table once: where it is, it is found */
	if (h >= r->cap || r->e[h].slot == NONE || r->e[h].key != block) {
		h = home(block, mask);
		while (r->e[h].slot != NONE && r->e[h].key != block)
			h = (h + 1) & mask;
	}
	if (r->now == r->nslots && compact(r))
		return RT_ENOMEM;
	if ((s = r->e[h].slot) != NONE) {
		*dist = r->n - rank_(r, s);
		if (r->timed) {
			*tdist = r->t - r->when[h] - 1;
			r->when[h] = r->t;
		}
		clearslot(r, s);
	} else {
		if ((r->n + 1) * 4 > r->cap * 3) {
			if (grow(r))
				return RT_ENOMEM;
			return rt_reuse_access(r, block, dist, tdist);
		}
		r->e[h].key = block;
		r->n++;
		*dist = RT_COLD;
		if (r->timed) {
			*tdist = RT_COLD;
			r->when[h] = r->t;
		}
	}
	r->t++;
	r->e[h].slot = r->now;
	setslot(r, r->now);
	r->now++;
	return 0;
}

/* The clones are static, the library's names calls to them: clang
 * (the fuzz build) leaves a function of the library's with clones
 * undefined at the link. */
CLONES static int
accessat(struct rt_reuse *r, uint64_t block, size_t hint, uint64_t *dist, uint64_t *tdist)
{
	return touch(r, block, hint, dist, tdist);
}

int
rt_reuse_access_at(struct rt_reuse *r, uint64_t block, size_t hint, uint64_t *dist,
    uint64_t *tdist)
{
	return accessat(r, block, hint, dist, tdist);
}

int
rt_reuse_access(struct rt_reuse *r, uint64_t block, uint64_t *dist, uint64_t *tdist)
{
	return accessat(r, block, RT_NOWHERE, dist, tdist);
}

/* The entries of a run are fetched all at once, then their bitmap words,
 * then used: misses overlap as far as the memory allows, where a pipeline
 * a few accesses deep left most of each miss's latency exposed.  A place
 * or slot found early is a hint, checked when used (accesses before it in
 * the run, a growth, a compaction may move it). */
CLONES static int
run(struct rt_reuse *r, const uint64_t *b, size_t n, uint64_t *dist)
{
	size_t at[RT_REUSE_RUN], i, h, mask = r->cap - 1;
	uint64_t td;
	int k;

	for (i = 0; i < n; i++) {
		at[i] = home(b[i], mask);
		__builtin_prefetch(&r->e[at[i]]);
	}
	for (i = 0; i < n; i++) {
		h = at[i];
		for (k = 0; r->e[h].slot != NONE && r->e[h].key != b[i] && k < 4; k++)
			h = (h + 1) & mask;
		if (r->e[h].slot != NONE && r->e[h].key == b[i])
			__builtin_prefetch(&r->bits[r->e[h].slot / 64]);
		at[i] = h;
	}
	for (i = 0; i < n; i++)
		if (touch(r, b[i], at[i], &dist[i], &td))
			return RT_ENOMEM;
	return 0;
}

int
rt_reuse_run(struct rt_reuse *r, const uint64_t *b, size_t n, uint64_t *dist)
{
	return run(r, b, n, dist);
}

int
rt_reuse_remove(struct rt_reuse *r, uint64_t block)
{
	size_t h, j, k, mask = r->cap - 1;

	h = home(block, mask);
	while (r->e[h].slot != NONE && r->e[h].key != block)
		h = (h + 1) & mask;
	if (r->e[h].slot == NONE)
		return 0;
	clearslot(r, r->e[h].slot);
	r->e[h].slot = NONE;
	r->n--;
	/* backward-shift deletion keeps every probe chain unbroken */
	for (j = (h + 1) & mask; r->e[j].slot != NONE; j = (j + 1) & mask) {
		k = home(r->e[j].key, mask);
		if ((j > h && (k <= h || k > j)) || (j < h && k <= h && k > j)) {
			r->e[h] = r->e[j];
			if (r->when)
				r->when[h] = r->when[j];
			r->e[j].slot = NONE;
			h = j;
		}
	}
	return 1;
}

void
rt_reuse_prefetch(const struct rt_reuse *r, uint64_t block)
{
	__builtin_prefetch(&r->e[home(block, r->cap - 1)]);
}

/* The second stage, once the entry is near: the bitmap word of the
 * block's slot, which rank will read, and where the block was, for
 * rt_reuse_access_at.  A guess: the slot and the place may move first. */
size_t
rt_reuse_prefetch2(const struct rt_reuse *r, uint64_t block)
{
	size_t h = home(block, r->cap - 1);
	int probes = 0;

	while (r->e[h].slot != NONE && r->e[h].key != block && probes++ < 4)
		h = (h + 1) & (r->cap - 1);
	if (r->e[h].slot == NONE || r->e[h].key != block)
		return RT_NOWHERE;
	__builtin_prefetch(&r->bits[r->e[h].slot / 64]);
	return h;
}

size_t
rt_reuse_stack(const struct rt_reuse *r, uint64_t *out)
{
	size_t j;

	for (j = 0; j < r->cap; j++)
		if (r->e[j].slot != NONE)
			out[r->n - rank(r, r->e[j].slot)] = r->e[j].key;
	return r->n;
}

uint64_t
rt_reuse_blocks(const struct rt_reuse *r)
{
	return r->n;
}

size_t
rt_reuse_memory(const struct rt_reuse *r)
{
	return r->cap * (sizeof *r->e + (r->timed ? sizeof *r->when : 0)) +
	    r->nslots / 8 + (r->nchunks + 1) * sizeof *r->fen;
}
