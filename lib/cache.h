/* cache.h: caches and their hierarchies, reuse (stack) distances,
 * histograms (cachesim, reusedist). */
#ifndef RT_CACHE_H
#define RT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "reftrace.h"

/* Exact LRU stack distances.  rt_reuse_access sets *dist to the number of
 * distinct other blocks touched since the block's previous access and
 * *tdist (when timed) to the number of accesses between, RT_COLD for a
 * first access; 0, or -1 out of memory. */
#define RT_COLD UINT64_MAX
struct rt_reuse;
struct rt_reuse *rt_reuse_new(int timed);
int rt_reuse_access(struct rt_reuse *r, uint64_t block, uint64_t *dist, uint64_t *tdist);
int rt_reuse_remove(struct rt_reuse *r, uint64_t block);	/* 1 if it was there */
void rt_reuse_prefetch(const struct rt_reuse *r, uint64_t block);	/* an access to come */
void rt_reuse_prefetch2(const struct rt_reuse *r, uint64_t block);	/* nearer: its slot */
uint64_t rt_reuse_blocks(const struct rt_reuse *r);
size_t rt_reuse_memory(const struct rt_reuse *r);
void rt_reuse_free(struct rt_reuse *r);

/* Sparse weighted histograms. */
struct rt_bin { uint64_t key; double w; };
struct rt_hist;
struct rt_hist *rt_hist_new(void);
int rt_hist_add(struct rt_hist *h, uint64_t key, double w);
void rt_hist_scale(struct rt_hist *h, double f);
void rt_hist_prefetch(const struct rt_hist *h, uint64_t key);
struct rt_bin *rt_hist_sorted(const struct rt_hist *h, size_t *n);
void rt_hist_free(struct rt_hist *h);

/* Caches.  A level: size, associativity (ways), block size, replacement
 * policy, write-through (else write-back), no-write-allocate. */
enum { RT_LRU, RT_FIFO, RT_RANDOM, RT_MRU, RT_PLRU, RT_SRRIP, RT_LFU, RT_OPT, RT_PES };
enum { RT_NINE, RT_INCLUSIVE, RT_EXCLUSIVE };	/* inclusion between levels */
#define RT_MAXLEVEL 8
struct rt_cache_cfg {
	uint64_t size;
	uint32_t assoc, block;
	int policy, wt, nwa;
};
struct rt_cache_stats {
	uint64_t acc[3], miss[3];	/* reads, writes, fetches */
	uint64_t evictions, writebacks, invalidations;
	uint64_t compulsory, capacity, conflict;	/* with rt_hier_3c */
	uint64_t bytes_up, bytes_down;	/* filled from below, sent below */
};
int rt_cache_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen);
int rt_policy_parse(const char *name);
const char *rt_policy_name(int policy);

/* A hierarchy: levels[0] is the first (data, or unified), icache a split
 * first-level instruction cache or NULL.  rt_hier_access takes an access
 * within one first-level block (rt_hier_block bytes) and returns the level
 * that held it, 0-based (rt_hier_levels for memory). */
typedef void rt_down_fn(void *ctx, uint64_t addr, int op);
struct rt_hier;
struct rt_hier *rt_hier_new(const struct rt_cache_cfg *levels, int n,
    const struct rt_cache_cfg *icache, int inclusion, uint64_t seed);
int rt_hier_access(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes);
uint32_t rt_hier_block(const struct rt_hier *h, int op);
uint64_t rt_hier_set(const struct rt_hier *h, uint64_t addr, int op);	/* first level's set */
int rt_hier_3c(struct rt_hier *h);	/* classify misses from now on */
/* OPT and PES at level k: for the i-th block that arrives there, the
 * position of that block's next arrival (rt_future of the arrivals). */
void rt_hier_future(struct rt_hier *h, int k, const uint64_t *next, size_t n);
typedef void rt_arrive_fn(void *ctx, uint64_t block);
void rt_hier_arrivals(struct rt_hier *h, int k, rt_arrive_fn *fn, void *ctx);
/* Block numbers in place -> positions of each block's next use. */
int rt_future(uint64_t *v, size_t n);
/* The address of the block the last access evicted at each level, or
 * UINT64_MAX. */
const uint64_t *rt_hier_evicted(const struct rt_hier *h);
int rt_hier_levels(const struct rt_hier *h);
/* Statistics of level k (-1: the split I-cache; rt_hier_levels: memory). */
const struct rt_cache_stats *rt_hier_stats(const struct rt_hier *h, int k,
    const struct rt_cache_cfg **cfg);
/* Call fn with every block level k sends below it (misses, writebacks). */
void rt_hier_watch(struct rt_hier *h, int k, rt_down_fn *fn, void *ctx);
void rt_hier_free(struct rt_hier *h);

/* cachegrind's own model, for exact agreement with its summary line. */
struct rt_cgstats { uint64_t ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw; };
struct rt_cg;
struct rt_cg *rt_cg_new(const struct rt_cache_cfg *i1, const struct rt_cache_cfg *d1,
    const struct rt_cache_cfg *ll);
void rt_cg_access(struct rt_cg *g, const struct rt_rec *rec);
const struct rt_cgstats *rt_cg_stats(const struct rt_cg *g);
void rt_cg_free(struct rt_cg *g);

#endif
