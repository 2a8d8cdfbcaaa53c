/* hier.h: a hierarchy's insides, shared by the files of the cache model
 * (level.c, hier.c, hierctl.c, fa3c.c, cg.c).
 *
 * A level is an array of sets of ways; each way holds a block number, a
 * dirty bit and the policy's state (a time stamp for LRU, MRU and FIFO,
 * a count for LFU, a re-reference prediction for SRRIP, tree bits per set
 * for pseudo-LRU).  The hierarchy sends a level's misses and writebacks to
 * the level below it; main memory is below the last. */
#ifndef RT_HIER_H
#define RT_HIER_H

#include "ens.h"

/* Tags (ens.h) come zeroed from calloc, so a page of them costs memory
 * only when a set in it is used (a big cache over a small trace stays
 * small). */
struct level {
	struct rt_cache_cfg c;
	uint64_t nsets, ways, mask;	/* mask: nsets - 1 when a power of two */
	int bshift;			/* log2 of the block size */
	int narrow;			/* blocks smaller than a level above's */
	int threec;			/* shadow or fa: 3C; inval: coherence misses */
	int tlb;			/* a TLB's: lookups, no data (no write-backs, no bytes) */
	uint64_t *tag;
	uint64_t *st;			/* policy state per way */
	uint64_t *tree;			/* PLRU bits per set */
	uint64_t *plm;			/* PLRU: rt_plru_masks, clr then set */
	uint32_t *hint;			/* per set: the way last found or filled */
	uint8_t *dirty;
	struct rt_reuse *shadow;		/* 3C: fully associative LRU twin */
	struct rt_fa *fa;			/* or Dinero IV's: the level's policy */
	struct rt_cset *inval;			/* a core's: blocks another core's write took */
	const uint64_t *fut;			/* OPT/PES: next use, by arrival */
	size_t nfut, fpos;
	rt_arrive_fn *arrive;			/* sees every block that arrives */
	void *arrivectx;
	struct rt_cache_stats s;
	uint64_t filled;			/* fills of an empty way */
	struct rt_pf *pf;			/* its prefetcher, or NULL (prefetch.c) */
	uint8_t *pfb;				/* per way: prefetched, no demand since */
	struct level *nopf;			/* with pf: its twin that never prefetches */
	struct rt_rng nopfrng;			/* the twin's random draws */
	/* Sets of RT_HASHWAYS ways or more: the resident blocks hashed to
	 * their ways (every change of a way's block is rt_level_put's or
	 * rt_level_drop's), the first way that may be empty, and for LRU,
	 * MRU and FIFO each set's blocks in a list by (state, way), so that
	 * neither a lookup nor a victim scans the ways. */
	struct rt_wslot *hash;			/* TAG(block) and its way; key INVALID: empty */
	uint64_t hmask;
	int hshift;
	uint32_t *lo;				/* per set: the ways below it are full */
	uint32_t *prv, *nxt;			/* per way: list links, way + 1 (0: none) */
	uint32_t *ends;				/* per set: its list's first and last, way + 1 */
};

#ifndef RT_HASHWAYS
#define RT_HASHWAYS 32
/* cachegrind's levels: 0 I1, 1 D1, 2 LL; a level as its desc: line */
const struct rt_cache_cfg *rt_cg_cfg(const struct rt_cg *g, int k);
void rt_cg_desc(char *buf, size_t len, const char *name, const struct rt_cache_cfg *c);

#endif
struct rt_wslot { uint64_t key, way; };

struct rt_hier {
	struct level *lv;		/* data side: lv[0] .. lv[n-1] */
	int n;
	struct level *i1;		/* split instruction cache, or NULL */
	int incl;
	uint64_t now;			/* accesses, for stamps */
	uint64_t seed;			/* of RANDOM, and of 3C's reference caches */
	struct rt_rng rng;
	struct rt_cache_stats mem;
	uint64_t evicted[RT_MAXLEVEL];	/* by the last access, per level */
	int miss3c[RT_MAXLEVEL];	/* its kind of miss there (-3): RT_3C_... */
	uint64_t pc;			/* of the access: a stride prefetcher's key */
	int pfon;			/* a level prefetches; 2: with abort */
	uint64_t pfrnd;			/* abort's draws: Dinero IV's minstd state */

	int updirty;			/* an exclusive level handed up dirt */
	rt_down_fn *down;		/* sees what a level sends below */
	void *downctx;
	int downlevel;
	uint8_t slow[RT_MAXLEVEL + 1];	/* by k + 1: what k sends below is watched,
					 * or goes to smaller blocks, or to the shared level */
	struct rt_coh *coh;		/* cores (coherence.c), or NULL */
	struct rt_hsplit *split;	/* on two threads: the first levels' sends (hsplit.c) */
	struct rt_sb *sb;		/* a level has sub-blocks (subblk.c), or NULL */
};

/* hsplit.c: a hierarchy on two threads, the first levels (the I-cache
 * and level 0) on one, the levels below on the other, a stream between
 * (a send, or RT_HEVENT: the event at item addr).  rt_hier_cansplit:
 * whether h's counts are then a thread's; rt_hier_split: 0, or RT_ENOMEM;
 * the first thread: rt_hier_upper (a stream), then rt_hier_run and
 * rt_hier_upper_event; the second: rt_hier_lower of each stream; then
 * rt_hier_join, on one thread again. */
#define RT_HEVENT (-1)
struct rt_hdown { uint64_t addr; uint32_t bytes; int op; };
struct rt_hsplit { struct rt_hdown *v; size_t n, cap; int failed; };
int rt_hier_cansplit(const struct rt_hier *h);
int rt_hier_split(struct rt_hier *h, struct rt_hier **low);
void rt_hier_upper(struct rt_hier *h, struct rt_hsplit *s);
void rt_hier_upper_event(struct rt_hier *h, const struct rt_rec *ev, size_t at);
void rt_hier_lower(struct rt_hier *low, const struct rt_hsplit *s, const struct rt_rec *v);
void rt_hier_join(struct rt_hier *h, struct rt_hier *low);
int rt_hsplit_put(struct rt_hsplit *s, uint64_t addr, int op, uint32_t bytes);
void rt_hsplit_free(struct rt_hsplit *s);

/* subblk.c: Dinero IV's sub-blocks, the hierarchy's accesses and flushes
 * when a level has them (rt_sb_new: 0, or -1 out of memory) */
int rt_sb_new(struct rt_hier *h);
size_t rt_sb_run(struct rt_hier *h, const struct rt_rec *v, size_t n);
void rt_sb_event(struct rt_hier *h, const struct rt_rec *ev);
int rt_sb_prefetch(struct rt_hier *h, int k, const struct rt_pf_cfg *c, char *why, size_t whylen);
int rt_sb_failed(const struct rt_hier *h);
void rt_sb_free(struct rt_sb *b);

/* level.c: a level's arrays, allocated zeroed (every way empty); 0 or -1
 * out of memory (then rt_level_free what was made). */
int rt_level_init(struct level *l, const struct rt_cache_cfg *c);
void rt_level_free(struct level *l);

/* The set of a block. */
static inline uint64_t
rt_level_set(const struct level *l, uint64_t block)
{
	return l->mask || l->nsets == 1 ? block & l->mask : block % l->nsets;
}

/* The way that holds block in a level with a hash (l->hash), or -1. */
static inline int64_t
rt_level_find(const struct level *l, uint64_t block)
{
	uint64_t j = (block * 0x9e3779b97f4a7c15ull) >> l->hshift, t = TAG(block);
	const struct rt_wslot *s;

	for (;; j = (j + 1) & l->hmask) {
		s = &l->hash[j];
		if (s->key == t)
			return (int64_t)s->way;
		if (s->key == INVALID)
			return -1;
	}
}

/* Way i of set (global index) takes block, or is emptied; the first empty
 * way of a set, or UINT64_MAX; way i's state changed: its place in its
 * set's list (l->ends) by (state, way).  rt_level_first is the least
 * state's way (the first on ties), rt_level_last the greatest's. */
void rt_index_put(struct level *l, uint64_t set, uint64_t i, uint64_t block);
void rt_index_drop(struct level *l, uint64_t set, uint64_t i);
uint64_t rt_level_empty(struct level *l, uint64_t set);
void rt_level_order(struct level *l, uint64_t set, uint64_t i);
uint64_t rt_level_first(const struct level *l, uint64_t set);
uint64_t rt_level_last(const struct level *l, uint64_t set);

/* The common case of rt_level_order inline: a way that is the last of
 * its list stays so when its state grows. */
static inline void
rt_level_touch(struct level *l, uint64_t set, uint64_t i)
{
	uint64_t b = set * l->ways;
	uint32_t p = l->prv[i];

	if (l->ends[2 * set + 1] != (uint32_t)(i - b) + 1 || (p && l->st[b + p - 1] >= l->st[i]))
		rt_level_order(l, set, i);
}

static inline void
rt_level_put(struct level *l, uint64_t set, uint64_t i, uint64_t block)
{
	if (l->hash != NULL)
		rt_index_put(l, set, i, block);
	else
		l->tag[i] = TAG(block);
}

static inline void
rt_level_drop(struct level *l, uint64_t set, uint64_t i)
{
	if (l->hash != NULL)
		rt_index_drop(l, set, i);
	else
		l->tag[i] = INVALID;
}

/* Levels are numbered 0 .. n-1 on the data side; the split instruction
 * cache is -1 and sits beside level 0, in front of level 1. */
static inline struct level *
rt_hier_lvl(struct rt_hier *h, int k)
{
	return k < 0 ? h->i1 : &h->lv[k];
}

/* hier.c: the way holding block in its set, or -1; what level k sends
 * below it (to the next level, or memory), returning the level that had
 * the block.  hierctl.c: the kind of a miss (or hit) at level k, for 3C. */
int64_t rt_level_lookup(const struct level *l, uint64_t block, uint64_t set);
int rt_hier_below(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes);
void rt_hier_classify(struct rt_hier *h, int k, uint64_t block, int op, int hit);

/* hier.c: one access within a first-level block, as rt_hier_access's
 * (its per-access arrays not reset); hierctl.c: a flush or invalidate
 * event at level k.  coherence.c: an access of the current core (a write
 * first invalidates the other cores' copies); a fetch from the shared
 * level (downgrades); whether a miss at l is a coherence miss (block
 * then forgotten); the cores' sums, zeroing, flushes and freeing. */
int rt_hier_access1(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes);
void rt_hier_eventk(struct rt_hier *h, int k, const struct rt_rec *ev);
int rt_coh_new(struct rt_hier *h, int n, int np);	/* n cores' levels 0 .. np-1 */
int rt_coh_access(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes);
void rt_coh_fetch(struct rt_hier *h, uint64_t addr);
int rt_coh_missed(struct level *l, uint64_t block);
const struct rt_cache_stats *rt_coh_total(const struct rt_hier *h, int k);
void rt_coh_zero(struct rt_hier *h);
void rt_coh_event(struct rt_hier *h, const struct rt_rec *ev);
void rt_coh_free(struct rt_hier *h);
int rt_coh_shared(const struct rt_hier *h);	/* the first shared level */
/* prefetch.c: after a demand read or fetch at level k of block (miss:
 * it missed, first: or hit a prefetched block unused till then), the
 * prefetches of k's prefetcher, each through rt_hier_pfetch (hier.c). */
void rt_pf_demand(struct rt_hier *h, int k, uint64_t block, int op, int miss, int first);
void rt_pf_free(struct rt_pf *p);
int rt_pf_copy(struct level *l, const struct level *t);	/* t's prefetcher, new, in l */
void rt_pf_forget(struct level *l, uint64_t block);	/* another core's write: out of l's twin */
void rt_pf_inval(struct level *l, const struct rt_rec *ev);	/* an invalidate event, in l's twin */
void rt_hier_pfetch(struct rt_hier *h, int k, uint64_t block, int op);
/* A demand read's or fetch's miss at k, before it goes below: where
 * Dinero IV draws for abort (prefetch.c). */
void rt_pf_miss(struct rt_hier *h, int k);
/* Dinero IV's draw for abort, its random() (minstd from 1) in *state:
 * 1 if the prefetch is thrown away (percent of the time). */
int rt_pf_draw(uint64_t *state, int percent);

/* fa3c.c: Dinero IV's reference cache for 3C, fully associative with
 * the policy (LRU, FIFO, RANDOM: Dinero's three) and allocation of c.  rt_fa_access:
 * whether block was there; rt_fa_first: whether its miss is the block's
 * first, 1, 0 or -1 out of memory. */
struct rt_fa;
struct rt_fa *rt_fa_new(const struct rt_cache_cfg *c, uint64_t seed);
int rt_fa_access(struct rt_fa *f, uint64_t block, int write);
int rt_fa_first(struct rt_fa *f, uint64_t block);
void rt_fa_free(struct rt_fa *f);

/* cachegrind's levels: 0 I1, 1 D1, 2 LL; a level as its desc: line */
const struct rt_cache_cfg *rt_cg_cfg(const struct rt_cg *g, int k);
void rt_cg_desc(char *buf, size_t len, const char *name, const struct rt_cache_cfg *c);

#endif
