/* cache.h: caches and their hierarchies, reuse (stack) distances,
 * histograms (cachesim, reusedist). */
#ifndef RT_CACHE_H
#define RT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reftrace.h"

/* Exact LRU stack distances.  rt_reuse_access sets *dist to the number of
 * distinct other blocks touched since the block's previous access and
 * *tdist (when timed) to the number of accesses between, RT_COLD for a
 * first access; 0, or RT_ENOMEM. */
#define RT_COLD UINT64_MAX
struct rt_reuse;
struct rt_reuse *rt_reuse_new(int timed);
int rt_reuse_access(struct rt_reuse *r, uint64_t block, uint64_t *dist, uint64_t *tdist);
/* The same with the place rt_reuse_prefetch2 found the block at, looked at
 * first (any value will do: one that no longer holds the block is not
 * used; RT_NOWHERE, the place of none, is prefetch2's answer for a block
 * not in the table). */
#define RT_NOWHERE SIZE_MAX
int rt_reuse_access_at(struct rt_reuse *r, uint64_t block, size_t hint, uint64_t *dist,
    uint64_t *tdist);
/* n (at most RT_REUSE_RUN) accesses of untimed r at once, their distances
 * in dist: 0, or RT_ENOMEM (the accesses before the failing one made). */
#define RT_REUSE_RUN 256
int rt_reuse_run(struct rt_reuse *r, const uint64_t *b, size_t n, uint64_t *dist);
int rt_reuse_remove(struct rt_reuse *r, uint64_t block);	/* 1 if it was there */
void rt_reuse_prefetch(const struct rt_reuse *r, uint64_t block);	/* an access to come */
size_t rt_reuse_prefetch2(const struct rt_reuse *r, uint64_t block);	/* nearer: its slot */
uint64_t rt_reuse_blocks(const struct rt_reuse *r);
/* The blocks in out (rt_reuse_blocks of them), the most recent first. */
size_t rt_reuse_stack(const struct rt_reuse *r, uint64_t *out);
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
size_t rt_hist_memory(const struct rt_hist *h);	/* bytes; never shrinks */
void rt_hist_free(struct rt_hist *h);

/* Caches.  A level: size, associativity (ways), block size, replacement
 * policy, write-through (else write-back), no-write-allocate. */
enum { RT_LRU, RT_FIFO, RT_RANDOM, RT_MRU, RT_PLRU, RT_SRRIP, RT_LFU, RT_OPT, RT_PES };
enum { RT_NINE, RT_INCLUSIVE, RT_EXCLUSIVE };	/* inclusion between levels */
#define RT_MAXLEVEL 8
/* The words that name a configuration in a table or histogram header. */
#define RT_CONFIGLEN 160
struct rt_cache_cfg {
	uint64_t size;
	uint32_t assoc, block;
	int policy, wt, nwa;
	uint32_t sub;		/* sub-blocks of that many bytes (Dinero IV's), or 0 */
};
struct rt_cache_stats {
	uint64_t acc[3], miss[3];	/* reads, writes, fetches */
	uint64_t evictions, writebacks, invalidations;
	uint64_t compulsory, capacity, conflict;	/* with rt_hier_3c */
	uint64_t bytes_up, bytes_down;	/* filled from below, sent below */
	uint64_t coherence, downgrades;	/* with rt_hier_cores */
	/* with a prefetcher (rt_hier_prefetch): prefetches issued, those
	 * that found their block there, demand hits on a prefetched block
	 * not yet used, prefetched blocks evicted unused */
	uint64_t pf_issued, pf_useless, pf_useful, pf_unused;
	uint64_t nopf_misses;	/* the demand misses of its twin that never prefetches */
	uint64_t pf_aborted;	/* prefetches thrown away (abort=P) */
	uint64_t sb_blockmiss[2];	/* with sub-blocks: demand and prefetch block misses */
};
void rt_stats_add(struct rt_cache_stats *a, const struct rt_cache_stats *b);	/* a += b */
/* SIZE:ASSOC:BLOCK[:POLICY[:wb|wt[:wa|nwa]]].  Refused: more than
 * RT_MAXWAYS ways (full associativity included) and a cache whose tags
 * (rt_cache_bytes) need more than the machine's memory (rt_memory). */
#define RT_MAXWAYS (1u << 20)
int rt_cache_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen);
/* A TLB level: ENTRIES:ASSOC:PAGE[:POLICY], a cache of ENTRIES x PAGE
 * bytes (its reach) in blocks of a page, pages up to 1G; not opt or pes. */
int rt_tlb_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen);
double rt_cache_bytes(const struct rt_cache_cfg *c);
int rt_policy_parse(const char *name);
/* Prefetching at a level (lib/cache/prefetch.c): Dinero IV's fetch
 * policies (-Tfetch d a m t l s, distance n blocks; no sub-blocks, so l
 * never prefetches and s its own block), and a stride prefetcher of
 * entries by pc and a next-n-lines stream prefetcher, degree n.  Spec
 * [LEVEL:]KIND[:N[:ENTRIES]], LEVEL 1.. or i (the instruction cache):
 * 0 and *level (-1 for i, 0 the first), or RT_EUSAGE with why. */
enum { RT_PF_DEMAND, RT_PF_ALWAYS, RT_PF_MISS, RT_PF_TAGGED, RT_PF_LOADFW, RT_PF_SUBBLOCK,
	RT_PF_STRIDE, RT_PF_STREAM };
struct rt_pf_cfg { int kind, abort; uint32_t n, entries; };
int rt_pf_parse(const char *spec, int *level, struct rt_pf_cfg *c, char *why, size_t whylen);
const char *rt_policy_name(int policy);
uint64_t rt_cache_sets(const struct rt_cache_cfg *c);

/* A hierarchy: levels[0] is the first (data, or unified), icache a split
 * first-level instruction cache or NULL.  rt_hier_access takes an access
 * within one first-level block (rt_hier_block bytes) and returns the level
 * that held it, 0-based (rt_hier_levels for memory). */
typedef void rt_down_fn(void *ctx, uint64_t addr, int op, uint32_t bytes);
struct rt_hier;
struct rt_hier *rt_hier_new(const struct rt_cache_cfg *levels, int n,
    const struct rt_cache_cfg *icache, int inclusion, uint64_t seed);
int rt_hier_access(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes);
/* Level k (-1 the instruction cache) prefetches as c says; the pc of
 * the accesses that follow (a stride prefetcher's key).  0, RT_ENOMEM,
 * or RT_EUSAGE with why (no such level, OPT or PES there). */
int rt_hier_prefetch(struct rt_hier *h, int k, const struct rt_pf_cfg *c, char *why,
    size_t whylen);
/* 0: no level prefetches; else 1, | 2 if nopf_misses is unknown (inclusive
 * or exclusive), | 4 if a level aborts (the table's pf) */
int rt_hier_prefetching(const struct rt_hier *h);
int rt_hier_subblocks(const struct rt_hier *h);	/* a level has sub-blocks (sb=) */
int rt_hier_pfat(const struct rt_hier *h, int k);	/* level k (-1 I-cache) prefetches */
void rt_hier_pc(struct rt_hier *h, uint64_t pc);
uint32_t rt_hier_block(const struct rt_hier *h, int op);
/* Up to n accesses (RT_ACCESS items, of any size: split here into
 * first-level blocks) as rt_hier_access takes them, when nothing looks at
 * each (rt_hier_evicted and rt_hier_miss3c are not kept): a first-level
 * hit costs a few instructions.  Stops at the first item that is not an
 * access; returns the items taken. */
size_t rt_hier_run(struct rt_hier *h, const struct rt_rec *v, size_t n);
/* An RT_FLUSH or RT_INVAL event (others are ignored): at every level, the
 * dirty blocks of its range (every block for size 0) written below and
 * kept, or the blocks dropped unwritten.  Counted as writebacks. */
void rt_hier_event(struct rt_hier *h, const struct rt_rec *ev);
uint64_t rt_hier_set(const struct rt_hier *h, uint64_t addr, int op);	/* first level's set */
/* Classify misses from now on (3C) against a fully associative cache of
 * each level's size: RT_3C_LRU, Hill's, LRU and allocating on every miss;
 * RT_3C_OWN, Dinero IV's, with the level's policy (LRU, FIFO or RANDOM,
 * Dinero's three; else RT_EUSAGE) and write allocation.  0 or RT_ENOMEM. */
enum { RT_3C_LRU = 1, RT_3C_OWN };
int rt_hier_3c(struct rt_hier *h, int how);
/* OPT and PES at level k: for the i-th block that arrives there, the
 * position of that block's next arrival (rt_future of the arrivals). */
void rt_hier_future(struct rt_hier *h, int k, const uint64_t *next, size_t n);
typedef void rt_arrive_fn(void *ctx, uint64_t block);
void rt_hier_arrivals(struct rt_hier *h, int k, rt_arrive_fn *fn, void *ctx);
/* The address of the block the last access evicted at each level, or
 * UINT64_MAX. */
const uint64_t *rt_hier_evicted(const struct rt_hier *h);
/* With 3C (a shadow), the kind of miss the last access was at each level
 * (coherence: with rt_hier_cores). */
enum { RT_3C_NONE, RT_3C_COMPULSORY, RT_3C_CAPACITY, RT_3C_CONFLICT, RT_3C_COHERENCE };
const int *rt_hier_miss3c(const struct rt_hier *h);
/* Cores (lib/cache/coherence.c): every level but the last private to
 * each of n cores, the last shared, kept coherent by MSI: a write
 * invalidates the other cores' copies, a fetch that reaches the shared
 * level downgrades their dirty ones (each written back to the shared
 * level: a writeback at its level); a miss on a block another core's
 * write took is a coherence miss, its own class beside the 3C.  Non-
 * inclusive, one block size, no OPT or PES; after rt_hier_3c and
 * rt_hier_prefetch (each core's prefetcher its own, a prefetch a read
 * for MSI).  0, or RT_EUSAGE with why, RT_ENOMEM.  rt_hier_thread: the
 * core of the accesses that follow, tid mod n (core 0 without a thread
 * id); rt_hier_access or rt_hier_run.  rt_hier_stats of a private level
 * is the sum of the cores'. */
#define RT_MAXCORES 64
#define RT_MAXTHREADS 64	/* rt_sim_cfg's threads */
int rt_hier_cores(struct rt_hier *h, int n, char *why, size_t whylen);
void rt_hier_thread(struct rt_hier *h, uint32_t tid);
int rt_hier_ncores(const struct rt_hier *h);	/* 0: none */
int rt_hier_private(const struct rt_hier *h);	/* its private levels (data side) */
const struct rt_cache_stats *rt_hier_corestats(const struct rt_hier *h, int core, int k,
    const struct rt_cache_cfg **cfg);
int rt_hier_failed(const struct rt_hier *h);	/* RT_ENOMEM if a coherence miss was lost */
int rt_hier_levels(const struct rt_hier *h);
/* Statistics of level k (-1: the split I-cache; rt_hier_levels: memory). */
const struct rt_cache_stats *rt_hier_stats(const struct rt_hier *h, int k,
    const struct rt_cache_cfg **cfg);
/* Warm-up: every count set to 0 (the caches' contents kept); the share
 * of the last level's ways filled so far (a way emptied and filled again
 * counts twice: it is a warmth, not an occupancy). */
void rt_hier_zero(struct rt_hier *h);
double rt_hier_filled(const struct rt_hier *h);
/* Call fn with what level k sends below it: the blocks of its misses and
 * writebacks, the bytes of a write it passes on (write-through, no-write-
 * allocate). */
void rt_hier_watch(struct rt_hier *h, int k, rt_down_fn *fn, void *ctx);
void rt_hier_free(struct rt_hier *h);
/* Time slices (lib/cache/tslice.c).  rt_hier_sliceable: 0, or RT_EUSAGE
 * with why when h's counts cannot be made exact from slices (RANDOM, OPT,
 * PES, 3C, TLBs, prefetchers, cores).  rt_hier_statewrite: h's counts
 * and caches' state after slice k of n of a trace file of bytes bytes
 * (a check that the fix-up has the job's trace), as a cache-state stream;
 * rt_hier_stateread loads one into h (of the same configuration), its
 * slice in *k, *n, *bytes.  rt_hier_fixup: h, empty, made the run of the whole
 * trace from the states of its n slices (states, in order) and the trace
 * (to simulate each slice again from the true state at its start until
 * that run's state is the slice's run's from empty); fx says how many
 * records it simulated, how many slices converged, how many did not. */
struct rt_tsfix { uint64_t resim, converged, whole; };
int rt_hier_sliceable(const struct rt_hier *h, char *why, size_t whylen);
int rt_hier_statewrite(FILE *f, const struct rt_hier *h, uint64_t k, uint64_t n,
    uint64_t bytes);
int rt_hier_stateread(struct rt_hier *h, const char *path, uint64_t *k, uint64_t *n,
    uint64_t *bytes, char *why, size_t whylen) RT_WUR;
int rt_hier_fixup(struct rt_hier *h, const char *trace, char *const *states, int n, int nthreads,
    struct rt_tsfix *fx, char *why, size_t whylen) RT_WUR;

/* cachegrind's own model, for exact agreement with its summary line.
 * The counts are in cachegrind's order (Ir I1mr ILmr Dr ...); an access
 * adds to row too when row is not NULL. */
struct rt_cgstats { uint64_t ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw; };
struct rt_cg;
struct rt_cg *rt_cg_new(const struct rt_cache_cfg *i1, const struct rt_cache_cfg *d1,
    const struct rt_cache_cfg *ll);
void rt_cg_access(struct rt_cg *g, const struct rt_rec *rec, struct rt_cgstats *row);
const struct rt_cgstats *rt_cg_stats(const struct rt_cg *g);
void rt_cg_free(struct rt_cg *g);

/* Average access time: the first level's latency plus, at each level,
 * its local miss ratio times the cost of going below; lat has a latency
 * per level and one for memory. */
double rt_hier_amat(const struct rt_hier *h, const double *lat);
/* The same of n levels' statistics, the first level's first. */
double rt_amat(const struct rt_cache_stats *const *s, int n, const double *lat);

/* Ensembles (lib/cache/ensemble.c): several hierarchies run over one
 * pass.  A configuration comes level by level (rt_ens_level; presets
 * such as "i7" too), or many from a spec (rt_ens_expand:
 * "1K..2M:8:32..64:lru,plru" is every size, block and policy, '/' parts
 * the levels); they share the split I-cache, the inclusion and the seed.
 * Errors: RT_EUSAGE with why for a bad spec, RT_ENOMEM. */
struct rt_ens;
struct rt_ens *rt_ens_new(void);
int rt_ens_level(struct rt_ens *e, const char *spec, char *why, size_t whylen);
int rt_ens_expand(struct rt_ens *e, const char *spec, char *why, size_t whylen);
/* The levels of rt_ens_level's configuration, or of the first expanded
 * one once built. */
const struct rt_cache_cfg *rt_ens_levels(const struct rt_ens *e, int *n);
/* Build the hierarchies.  observed: some output follows every access
 * (rt_ens_observe), so accesses are not batched. */
int rt_ens_build(struct rt_ens *e, const struct rt_cache_cfg *icache, int inclusion,
    uint64_t seed, int threec, int observed, char *why, size_t whylen);	/* threec: RT_3C_ */
int rt_ens_count(const struct rt_ens *e);	/* configurations (-E, or built) */
int rt_ens_depth(const struct rt_ens *e);	/* the most levels of any */
struct rt_hier *rt_ens_hier(const struct rt_ens *e, int i);
const char *rt_ens_name(const struct rt_ens *e, int i);	/* NULL for rt_ens_level's */
/* After every first-level block of an access: the level that served it
 * in each configuration. */
typedef void rt_served_fn(void *ctx, const struct rt_rec *rec, uint64_t addr,
    const int *served);
void rt_ens_observe(struct rt_ens *e, rt_served_fn *fn, void *ctx);
void rt_ens_access(struct rt_ens *e, const struct rt_rec *rec);
/* The same for the accesses at the start of v (up to n): stops at the
 * first item that is not an access; returns the accesses taken. */
int rt_ens_run(struct rt_ens *e, const struct rt_rec *v, int n);
void rt_ens_flush(struct rt_ens *e);	/* the accesses still batched */
void rt_ens_event(struct rt_ens *e, const struct rt_rec *ev);	/* rt_hier_event */
/* TLBs beside the caches (lib/cache/tlb.c): every access looks its pages
 * up in each TLB configuration, in parallel with the first level (the
 * caches see the same); flushes and invalidations are the caches'.
 * rt_ens_tlb adds a level below those given (ENTRIES and ASSOC may be
 * ranges and POLICY a list, as -E's: each combination of the levels is a
 * configuration), or with itlb the split instruction TLB they share in
 * front of their second level.  RT_EUSAGE with why. */
int rt_ens_tlb(struct rt_ens *e, const char *spec, int itlb, char *why, size_t whylen);
/* A prefetcher (rt_pf_parse's spec) at a level of every configuration
 * rt_ens_build makes (each its own).  RT_EUSAGE with why. */
int rt_ens_prefetch(struct rt_ens *e, const char *spec, char *why, size_t whylen);
int rt_ens_tlbs(const struct rt_ens *e);	/* TLB configurations, once built */
/* Every configuration's levels but the last private to each of n cores
 * (rt_hier_cores), the cores given by the records' thread ids, and every
 * TLB level each core's (no TLB coherence: a write changes no
 * translation); before rt_ens_build, which refuses what rt_hier_cores
 * does. */
void rt_ens_cores(struct rt_ens *e, int n);
struct rt_hier *rt_ens_tlbh(const struct rt_ens *e, int i);
const char *rt_ens_tlbname(const struct rt_ens *e, int i);	/* "64:4:4K:lru/..." */
void rt_ens_zero(struct rt_ens *e);	/* rt_hier_zero: the first configuration, the TLBs */
void rt_ens_free(struct rt_ens *e);

/* OPT and PES need the future (lib/cache/future.c): the input is read
 * once per level with such a policy, before the simulation.  Standard
 * input is first copied to a temporary file, named in tmp when it was
 * made (then read that instead, in the binary format, and remove it).
 * Returns 0, 1 if some input failed (diag was told), or with err
 * RT_EUSAGE for configurations that cannot be foreseen together, RT_EIO
 * or RT_ENOMEM. */
int rt_ens_needs_future(const struct rt_ens *e);
int rt_ens_foresee(struct rt_ens *e, char **files, int nfiles, int fmt, int skipbad,
    rt_diag_fn *diag, char *tmp, size_t tmplen, char *err, size_t errlen);

/* Keys of per-key tables (lib/cache/tally.c): a record's first-level set,
 * region, source line or function. */
enum { RT_KEY_SET, RT_KEY_REGION, RT_KEY_LOC, RT_KEY_FUNC };
int rt_key_parse(const char *name);	/* -1 if unknown */
const char *rt_key_name(int key);	/* "set" */
uint64_t rt_key_of(int key, const struct rt_rec *rec, uint64_t addr,
    const struct rt_regions *g, const struct rt_hier *h);
/* The key as its table writes it: "12", "bsort.c:31", "main", "-". */
const char *rt_key_label(int key, uint64_t k, char *buf, size_t len);

/* Rows of rowsize bytes by key, zero until used; NULL out of memory or
 * for a key past 2^28. */
struct rt_tally;
struct rt_tally *rt_tally_new(size_t rowsize);
void *rt_tally_row(struct rt_tally *t, uint64_t key);
uint64_t rt_tally_keys(const struct rt_tally *t);	/* keys below have rows */
/* Why a table by this key says nothing (every record's key unknown: a
 * trace without locations, or without regions), or NULL. */
const char *rt_key_missing(int key, const struct rt_tally *t);
const void *rt_tally_get(const struct rt_tally *t, uint64_t key);
void rt_tally_free(struct rt_tally *t);
/* cachesim -g: a row is the accesses (a modify is two), the misses at
 * each of n levels, then the fetches, reads and writes (a modify is a
 * read and a write): n + 4 counts; served is the level that served the
 * access. */
int rt_tally_access(struct rt_tally *t, uint64_t key, int op, int served, int n);
/* The directory the absolute paths of a loc table's used rows (the first
 * rowsize bytes not all zero) share, in root: its length, 0 if none. */
size_t rt_tally_root(int key, const struct rt_tally *t, size_t rowsize, char *root,
    size_t len);

/* Running statistics (Welford) of distances, RT_COLD counted apart. */
struct rt_welford { uint64_t n, cold; double mean, m2; };
void rt_welford_add(struct rt_welford *a, uint64_t d);

/* Cache streams (lib/cache/table.c, lib/cache/records.c): one writer
 * each, and a reader for the cache table.  Writers return 0, or RT_EIO
 * when the FILE has an error. */
struct rt_cache_row {
	char name[8];		/* L1, L1I, L1D, L2, ..., mem, then TLB1 (TLB1I, TLB1D), ... */
	int hascfg;		/* 0 for memory */
	int tlb;		/* a TLB's (after memory's: no part of AMAT) */
	int core;		/* 1 + the core of a private level's row of one core
				 * (L1.0, after the level's sum): no part of AMAT */
	int pf;			/* the level prefetches: its nopf_misses are known */
	struct rt_cache_cfg cfg;
	struct rt_cache_stats s;
};
struct rt_cache_table {
	struct rt_cache_row row[2 * RT_MAXLEVEL + 3 + RT_MAXCORES * RT_MAXLEVEL];
	int n, threec;		/* threec 2: compulsory alone (a merge's) */
	int cores;		/* rt_hier_cores': the coherence columns and core rows */
	int pf;			/* prefetch columns; pf & 2 nopf_misses unknown, pf & 4 pf_aborted */
	int sb;			/* sub-block columns (rt_hier_subblocks) */
	double amat;
	/* A partition's table (its trace's header recorded one) also says,
	 * in a #partition line, what a merge needs that the rows do not:
	 * the partition, the inclusion and the latencies (nlat of them). */
	struct rt_part part;
	int incl, nlat;
	double lat[RT_MAXLEVEL + 1];
	char config[RT_CONFIGLEN];	/* and in a #config line, rt_sim_cfg's */
};
/* Why a table with prefetch columns does not merge. */
extern const char rt_cachetab_pfwhy[];
void rt_cachetab_of(struct rt_cache_table *t, const struct rt_hier *h, const double *lat,
    int threec);
void rt_cachetab_tlb(struct rt_cache_table *t, const struct rt_hier *tlb);	/* its rows after */
int rt_cachetab_write(FILE *f, const struct rt_cache_table *t);
int rt_cachetab_read(struct rt_reader *r, struct rt_cache_table *t, char *err, size_t errlen);
int rt_cachetab_put(FILE *f, const struct rt_cache_table *t, int summary);	/* either */
int rt_enstab_write(FILE *f, const struct rt_ens *e, const double *lat);
/* The streams of a trace's partitions, or of samples, about to be merged
 * (lib/cache/tabmerge.c): each named stream's partition (n 0: none) and
 * configuration must be the first's, of one trace (the fingerprints
 * known the same), no partition twice, none missing at the end; RT_EBAD (RT_ENOMEM, RT_EUSAGE) with one sentence naming
 * the streams that clash. */
struct rt_partset;
struct rt_partset *rt_partset_new(void);
int rt_partset_add(struct rt_partset *s, const char *name, const struct rt_part *p,
    const char *config, char *why, size_t whylen);
int rt_partset_end(const struct rt_partset *s, char *why, size_t whylen);
void rt_partset_free(struct rt_partset *s);
/* Partitions' tables merged (cachesim -M, lib/cache/tabmerge.c): the
 * counts added, the ratios and AMAT computed again, as one run over the
 * whole trace writes them, written to f (rt_cachetab_put); 0, or an RT_E
 * code with "file: why" in err.  A table that is no partition's, of
 * another configuration or partitioning than the first, of a partition
 * already given, or partitions missing are refused.  rt_cachetab_exact
 * says why the table of a partition would not add up to the whole's (a
 * partition block smaller than a level's block, a partition count that
 * does not divide a level's sets, random replacement), NULL if it would. */
const char *rt_cachetab_exact(const struct rt_cache_table *t, char *why, size_t whylen);
/* diag warns where -3's capacity and conflict misses do not add up. */
int rt_tabmerge_write(FILE *f, char **files, int n, int summary, rt_diag_fn *diag, char *err,
    size_t errlen);
/* col: the data column (0 the first after the key) the rows are sorted on,
 * largest first, or -1 for the misses; rt_bytab_column gives a column's
 * number from its name, or -1 (cg: the table of cachegrind's counts). */
int rt_bytab_write(FILE *f, int key, const struct rt_tally *t, int nlevels, int col) RT_WUR;
int rt_bytab_column(const char *name, int nlevels, int cg);
int rt_cgtab_write(FILE *f, const struct rt_cgstats *s);
/* Counts by source location (rows of nev uint64_t by location id, as
 * struct rt_cgstats for cachegrind's model; lib/cache/cgfile.c):
 * cachegrind's output file (desc lines, cmd: the files read or "-",
 * events, fl= fn= and a line of counts per source line, summary), which cg_annotate, cg_diff,
 * cg_merge and KCachegrind read; evnames NULL for cachegrind's nine.  A
 * table of cachegrind's counts by key (loc or func), rows by first-level
 * misses (I1mr + D1mr + D1mw), most first; a summary for people,
 * labelled as cachegrind's.  The writers of rows: 0, or RT_ENOMEM. */
int rt_cgfile_write(FILE *f, const struct rt_tally *t, int nev, const char *evnames,
    const char *const *desc, int ndesc, char *const *files, int nfiles) RT_WUR;
/* The same for reuse distances: rows of 3 (nsizes + 1) counts, per kind
 * (fetch, read or modify, write) the accesses and the misses of each
 * fully associative LRU cache of sizes[] bytes in blocks of block. */
int rt_cgfile_lru(FILE *f, const struct rt_tally *t, const uint64_t *sizes, int nsizes,
    uint64_t block, char *const *files, int nfiles);
int rt_cgby_write(FILE *f, int key, const struct rt_tally *t, int col) RT_WUR;
int rt_cgsum_write(FILE *f, const struct rt_cgstats *s);
/* Per-access streams: -d (the level that served each access and what
 * each level evicted), --diff, --temperature. */
int rt_cacherec_header(FILE *f, int nlevels);
int rt_cacherec_write(FILE *f, uint64_t seq, int served, int nlevels, const uint64_t *evicted);
int rt_cachediff_header(FILE *f);
int rt_cachediff_write(FILE *f, uint64_t seq, int a, int na, int b, int nb);
/* Cache temperature (Choudhury, 5.2.4): per level, over the last window
 * accesses, +1 for a hit there, -1 for a miss, 0 when it was not asked. */
struct rt_temp;
struct rt_temp *rt_temp_new(uint64_t window, int nlevels);
int rt_temp_header(FILE *f, int nlevels);
int rt_temp_write(struct rt_temp *t, FILE *f, uint64_t seq, int served);
void rt_temp_free(struct rt_temp *t);

/* A cachesim run (lib/cache/sim.c): records in, a batch at a time
 * (rt_sim_run), to an ensemble's hierarchies or to
 * cachegrind's model, and what follows each access: the streams above
 * to out, the caller's watch, the tally by key (-g), the miss stream. */
/* What served each first-level block of an access: the first level's
 * set, the level (rt_hier_levels: memory), with 3C the kind of a first-
 * level miss (1 compulsory, 2 capacity, 3 conflict, else 0), and whether
 * it evicted a block. */
typedef void rt_sim_watch_fn(void *ctx, uint64_t set, int level, int kind, int evicted);
struct rt_sim_cfg {
	const char *config;		/* what else changes a count, for a partition's
					 * table to say (options, as words), or NULL */
	const struct rt_cache_cfg *icache;	/* a split I1, or NULL */
	int incl, threec, ensemble;	/* RT_NINE ...; 3C (RT_3C_...); a row a configuration */
	uint64_t seed;			/* of RANDOM */
	const double *lat;		/* cycles per level and memory (AMAT), nlat of them */
	int nlat;
	FILE *out;			/* the streams and the table */
	int records, diff, key;		/* the per-access streams; a table by key (-1 none) */
	uint64_t tempw;			/* the temperature stream's window, or 0 */
	rt_sim_watch_fn *watch;		/* or NULL */
	void *watchctx;
	int bylocs;			/* keep counts by location (rt_sim_cgfile) */
	int sortcol;			/* by key: the column sorted on, -1 the misses */
	int fold;			/* by loc, func: an object not the program's
					 * (the trace's first) in one row, [name] */
	int cores;			/* rt_ens_cores, or 0 */
	uint64_t warmup;		/* records of seq below it are not counted */
	double warmfrac;		/* nor those before the last level is this full */
	/* Time slices (rt_hier_fixup): with slice "k/n", rt_sim_run is
	 * slice k's job, rt_sim_report writing its state; with fixup, the
	 * run of the whole from the trace and its slices' states (rt_sim_run's
	 * files), and with fixup 2 diag told its work. */
	const char *slice;
	int fixup;
	int threads;			/* rt_sim_run: simulating threads beside the
					 * reader, at most RT_MAXTHREADS; 0 or 1: none */
};
struct rt_sim;
/* Build the hierarchies, and write the headers of the streams asked
 * for (records, diff, temperature) to out: 0, or RT_EUSAGE (a configuration or latencies
 * that do not fit) or RT_ENOMEM, with why. */
int rt_sim_new(struct rt_sim **s, struct rt_ens *e, struct rt_regions *regs,
    const struct rt_sim_cfg *c, char *why, size_t whylen);
/* cachegrind's model over e's levels, D1 and LL, and c's icache as I1
 * (else D1's geometry); c's out, key, bylocs and sortcol as above.  With
 * no level, *guessed is set and D1 is 32K:8:64, LL 8M:16:64 (cachegrind
 * asks the CPU; a trace cannot).  With a key (RT_KEY_LOC or RT_KEY_FUNC)
 * the report is the table by that key.  0, or RT_EUSAGE (not two levels)
 * or RT_ENOMEM, with why. */
int rt_sim_cgnew(struct rt_sim **s, struct rt_ens *e, struct rt_regions *regs,
    const struct rt_sim_cfg *c, int *guessed, char *why, size_t whylen);
/* cachegrind's out file of the counts by location (bylocs), its desc:
 * lines the levels simulated.  0, RT_ENOMEM or RT_EIO. */
int rt_sim_cgfile(const struct rt_sim *s, FILE *f, char *const *files, int nfiles) RT_WUR;
/* What level (1 the first) sends below goes to w as a trace. */
void rt_sim_misses(struct rt_sim *s, int level, struct rt_writer *w);
/* After rt_sim_run failed: RT_EIO if writing the miss
 * stream did (errno says why), else RT_ENOMEM with why; 0 if neither did. */
int rt_sim_failed(const struct rt_sim *s, char *why, size_t whylen);
/* The run: every record of files (none, or "-": standard input) through
 * s, the future read first where a policy needs it (standard input
 * spooled to a temporary file, removed after: rt_ens_foresee), then
 * the accesses still batched; with flush, every dirty block written
 * back.  With a warm-up (rt_sim_cfg's warmup or warmfrac: one hierarchy
 * and its table alone), the counts start at the first record past it.
 * Returns what rt_foreach does (0, 1 or 2; the future's
 * failed inputs count), or an RT_E code with why: RT_EUSAGE for levels
 * that cannot be foreseen together, RT_EIO when writing the miss stream
 * failed (rt_sim_failed says so too). */
int rt_sim_run(struct rt_sim *s, char **files, int n, int fmt, int skipbad, rt_diag_fn *diag,
    struct rt_part *part, int flush, char *why, size_t whylen);
/* The run, for a caller that reads the records itself (trmap's page):
 * n records of v through s, then the accesses still batched; 0, or the
 * code rt_sim_failed returns.  No future is read: not for OPT or PES, and
 * no miss stream. */
int rt_sim_records(struct rt_sim *s, struct rt_rec *v, int n);
int rt_sim_finish(struct rt_sim *s);
/* The table at the end, if a stream was not the output (for people with
 * summary; part: the trace's partition); diag warns.  0 or RT_ENOMEM. */
int rt_sim_report(const struct rt_sim *s, int summary, const struct rt_part *part,
    rt_diag_fn *diag) RT_WUR;
/* Why a table by key lacks what its key needs (no locations in the
 * trace, say), or NULL. */
const char *rt_sim_missing(const struct rt_sim *s);
void rt_sim_free(struct rt_sim *s);

/* Reuse-distance histograms and miss-ratio curves (lib/cache/histio.c).
 * Bins are sorted by key, RT_COLD last; the weights are in full-trace
 * units.  A histogram has log2 bins, or with exact a bin per distance. */
struct rt_histinfo {
	uint64_t block;		/* bytes */
	double accesses, rate;	/* rate: of the sample it came from */
	uint64_t memory;	/* bytes of a fixed-size sample's tables, or 0 */
	struct rt_part part;	/* the trace's partition measured (n 0: none) */
	char config[RT_CONFIGLEN];	/* what else changes a count, or "" */
};
int rt_hist_write(FILE *f, const struct rt_bin *v, size_t n, const struct rt_histinfo *in,
    int exact);
int rt_mrc_write(FILE *f, const struct rt_bin *v, size_t n, const struct rt_histinfo *in);
int rt_hist_summary(FILE *f, const struct rt_bin *v, size_t n, const struct rt_histinfo *in,
    int timed);
/* Add a histogram stream's bins to h (with RT_HIST_RATE, each times the
 * stream's own rate: the counts of the whole its sample stands for); in
 * gets the stream's block, accesses and rate.  Returns 0, or with err
 * ("path:line: reason"; bins read so far stay added) RT_EBAD, RT_ENOMEM,
 * or with RT_HIST_EXACT, RT_EUSAGE for log2 bins, which do not merge. */
#define RT_HIST_RATE 1
#define RT_HIST_EXACT 2
int rt_hist_read(struct rt_reader *r, struct rt_hist *h, int flags, struct rt_histinfo *in,
    char *err, size_t errlen);
/* Histogram streams of samples or partitions (of one configuration, every
 * partition once, in blocks of block bytes) merged, each weighted by its
 * rate: the whole's bins, sorted (*n of them), in describing it; NULL with
 * why, "out of memory" when that. */
struct rt_bin *rt_hist_merge(char *const *paths, int n, uint64_t block, size_t *nb,
    struct rt_histinfo *in, char *why, size_t whylen);
/* A curve's points: C blocks (and bytes) hold the misses. */
struct rt_mrc_point { uint64_t blocks, bytes; double misses, ratio; };
int rt_mrc_read(struct rt_reader *r, struct rt_mrc_point **v, size_t *n, struct rt_histinfo *in,
    char *err, size_t errlen);

/* Reuse-distance streams (lib/cache/reusestat.c): per access, by key,
 * and over running windows. */
int rt_reuserec_header(FILE *f, int timed);
int rt_reuserec_write(FILE *f, uint64_t seq, uint64_t block, uint64_t dist);
/* rows: rt_welford; 0 or RT_ENOMEM */
int rt_reuseby_write(FILE *f, int key, const struct rt_tally *t) RT_WUR;
int rt_reusewin_header(FILE *f);
int rt_reusewin_write(FILE *f, uint64_t seq, const struct rt_welford *w);

/* SHARDS sampling (Waldspurger et al., FAST 2015; lib/cache/shards.c):
 * a block is in the sample when the hash of its number is below a
 * threshold (rt_hash64 of the block xor the seed), at a fixed rate, or
 * at a fixed size, where the threshold falls as blocks come (a max-heap
 * of the sampled hashes). */
struct rt_shards;
struct rt_shards *rt_shards_new(double rate, uint64_t size, uint64_t seed);
uint64_t rt_shards_threshold(const struct rt_shards *s);	/* UINT64_MAX: all */
double rt_shards_rate(const struct rt_shards *s);
/* A new block in a sample of fixed size, 1 if the sample is now over it:
 * then rt_shards_shrink takes the blocks of largest hash out of r,
 * lowers the threshold and returns the new rate over the old, the factor
 * by which counts so far are to be scaled. */
int rt_shards_enter(struct rt_shards *s, uint64_t hash, uint64_t block);
double rt_shards_shrink(struct rt_shards *s, struct rt_reuse *r);
size_t rt_shards_memory(const struct rt_shards *s);	/* bytes */
/* SHARDS_adj: the difference between the expected and the actual sample
 * count at distance 0, then the weights scaled by 1/rate.  0, or
 * RT_ENOMEM. */
int rt_shards_adjust(struct rt_hist *h, uint64_t accesses, double sampled, double rate);
void rt_shards_free(struct rt_shards *s);

/* Reuse distances of a trace (lib/cache/rdist.c): every block an access
 * covers, sampled, measured, counted in a histogram; fn sees each
 * measured access with its distance in full-trace units (RT_COLD). */
struct rt_rdist_cfg {
	uint64_t block;
	int timed;		/* time distances, not reuse distances */
	double rate;		/* SHARDS at this rate (1: every block) */
	uint64_t size;		/* or at this many blocks (0: not) */
	uint64_t seed;
	uint64_t pk, pn;	/* partition pk of pn, as a sample (pn 0: none), */
	uint64_t pbytes;	/* by blocks of pbytes bytes, a multiple of block */
};
struct rt_rdsample { uint64_t seq, addr, block, dist; uint32_t loc, var; uint8_t op; };
typedef void rt_rdist_fn(void *ctx, const struct rt_rdsample *s);
struct rt_rdist;
struct rt_rdist *rt_rdist_new(const struct rt_rdist_cfg *c, rt_rdist_fn *fn,
    rt_item_fn *event, void *ctx);
/* rt_foreach_batch's function, ctx the rt_rdist: an event goes to
 * event(ctx, rec) once the accesses before it are measured.  0, or -1
 * out of memory (rt_rdist_error says more) or when event said so. */
int rt_rdist_batch(void *d, struct rt_rec *v, int n);
uint64_t rt_rdist_lastseq(const struct rt_rdist *d);	/* of the last access */
/* The trace is partition p of a whole (its header says so): a sample at
 * rate 1/n, every access of it measured, the others in other partitions
 * (so no SHARDS_adj: the partitions' histograms add up to the whole's
 * counts).  Before the first access, for fn's distances. */
void rt_rdist_part(struct rt_rdist *d, const struct rt_part *p);
/* The histogram in full-trace units, sorted; NULL out of memory.  With a
 * fixed size (c.size N) in->memory is the bytes of the tables (blocks,
 * sample, histogram; none ever shrinks, so also their peak), bounded by N
 * alone: at most 64K + 50 (N+1) + 16 (66-m) 2^(m-1), 2^m the least power
 * of two >= N and >= 256 (72 (N+1) with time distances, and while
 * (66-m) 2^(m-1) < 2^24); else 0.  The histogram of a fixed-size sample
 * keeps the m leading bits of distances of 2^m and more. */
struct rt_bin *rt_rdist_finish(struct rt_rdist *d, size_t *n, struct rt_histinfo *in);
/* Time slices (PARDA: Niu et al., IPDPS 2012): rt_rdist_slice, before
 * the first access, makes d a slice's, which keeps its first access to
 * each block instead of measuring it.  rt_rdist_take moves what the merge
 * needs out of such a d into p (and its end stack with stack: not wanted
 * of the trace's last slice), leaving d spent but to free;
 * rt_rdist_merge(d, p) adds slice p, the one after those merged into d
 * so far: merged in order into a d of the same configuration, the slices
 * measure the whole trace.  The merge is associative: into a slice's d,
 * p's first uses that miss on d's stack stay first uses, and d becomes
 * the pair's slice.  Exact reuse distances only: rate 1, no fixed
 * size, partition, time distances or fn.  0, or -1 out of memory
 * (rt_rdist_error of the d named). */
struct rt_rdslice {
	uint64_t accesses, sampled, zeros, lastseq;	/* d's counts */
	struct rt_bin *hist;	/* the distances within the slice, by key */
	size_t nhist;
	uint64_t *first;	/* the blocks in the order of their first access */
	size_t nfirst;
	uint64_t *stack;	/* the blocks at the end, the most recent first */
	size_t nstack;
};
void rt_rdist_slice(struct rt_rdist *d);
int rt_rdist_take(struct rt_rdist *d, struct rt_rdslice *p, int stack);
int rt_rdist_merge(struct rt_rdist *d, const struct rt_rdslice *p);
void rt_rdslice_free(struct rt_rdslice *p);

/* A slice as a reuse-state stream (lib/cache/rdstate.c): slices k to
 * k + span - 1 (span 0 or 1: slice k alone) of n of a trace file of bytes
 * bytes, in blocks of block bytes.
 * rt_rdslice_read: 0, or RT_EBAD, RT_EIO or RT_ENOMEM with why.
 * rt_rdist_states: the states at paths (a run of one trace's slices,
 * each once, in any order, in blocks of block bytes, d's) merged into d,
 * the run they make in *run: 0, RT_EUSAGE (not one trace's slices, not a
 * run, or with whole not every slice), or as rt_rdslice_read but out of
 * memory -1.  A run's merged state (d in slice mode, rt_rdist_save of
 * *run) merges with the others as its slices would. */
struct rt_rdslicehead { uint64_t k, n, bytes, block, span; };
int rt_rdslice_write(FILE *f, const struct rt_rdslice *p, const struct rt_rdslicehead *h);
/* slice d taken (rt_rdist_take) and written: 0, RT_EIO, or -1 (rt_rdist_error) */
int rt_rdist_save(FILE *f, struct rt_rdist *d, const struct rt_rdslicehead *h);
int rt_rdslice_read(const char *path, struct rt_rdslice *p, struct rt_rdslicehead *h,
    char *why, size_t whylen) RT_WUR;
int rt_rdist_states(struct rt_rdist *d, uint64_t block, char *const *paths, int n, int whole,
    struct rt_rdslicehead *run, char *why, size_t whylen) RT_WUR;
/* The trace file at path measured into d (of configuration c, as the
 * slices are) on n threads, a slice each, merged in order: 0; 2 when the
 * input failed (said by diag, as rt_foreach_batch says it: nothing of it
 * stands); RT_EUSAGE, nothing done, when the file is not a binary trace
 * whose slices can be entered or c is not of exact reuse distances (read
 * it on one thread); -1 out of memory.
 * Memory: every slice's blocks at once. */
int rt_rdist_threads(struct rt_rdist *d, const struct rt_rdist_cfg *c, const char *path,
    int fmt, int skipbad, int n, rt_diag_fn *diag, char *why, size_t whylen);
const char *rt_rdist_error(const struct rt_rdist *d);
void rt_rdist_free(struct rt_rdist *d);

#endif
