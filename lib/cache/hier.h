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
	int threec;			/* shadow or fa: 3C */
	int tlb;			/* a TLB's: lookups, no data (no write-backs, no bytes) */
	uint64_t *tag;
	uint64_t *st;			/* policy state per way */
	uint64_t *tree;			/* PLRU bits per set */
	uint64_t *plm;			/* PLRU: rt_plru_masks, clr then set */
	uint32_t *hint;			/* per set: the way last found or filled */
	uint8_t *dirty;
	struct rt_reuse *shadow;		/* 3C: fully associative LRU twin */
	struct rt_fa *fa;			/* or Dinero IV's: the level's policy */
	const uint64_t *fut;			/* OPT/PES: next use, by arrival */
	size_t nfut, fpos;
	rt_arrive_fn *arrive;			/* sees every block that arrives */
	void *arrivectx;
	struct rt_cache_stats s;
	uint64_t filled;			/* fills of an empty way */
};

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

	int updirty;			/* an exclusive level handed up dirt */
	rt_down_fn *down;		/* sees what a level sends below */
	void *downctx;
	int downlevel;
	uint8_t slow[RT_MAXLEVEL + 1];	/* by k + 1: what k sends below is watched,
					 * or goes to smaller blocks */
};

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

/* fa3c.c: Dinero IV's reference cache for 3C, fully associative with
 * the policy (LRU, FIFO, RANDOM: Dinero's three) and allocation of c.  rt_fa_access:
 * whether block was there; rt_fa_first: whether its miss is the block's
 * first, 1, 0 or -1 out of memory. */
struct rt_fa;
struct rt_fa *rt_fa_new(const struct rt_cache_cfg *c, uint64_t seed);
int rt_fa_access(struct rt_fa *f, uint64_t block, int write);
int rt_fa_first(struct rt_fa *f, uint64_t block);
void rt_fa_free(struct rt_fa *f);

#endif
