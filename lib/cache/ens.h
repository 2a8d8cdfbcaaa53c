/* ens.h: the ensemble's insides, shared by ensemble.c and future.c. */
#ifndef RT_ENS_H
#define RT_ENS_H

#include "cache.h"

/* A way holds the complement of its block number: an empty way is 0, so
 * tags come zeroed from calloc. */
#define TAG(block) (~(uint64_t)(block))
#define INVALID 0

#define MAXH 256
#define NBATCH 4096
#define MAXAA 16

/* Every LRU configuration of one block size in one pass (allassoc.c):
 * one level, write-allocate, sets a power of two, at most RT_AA_MAXWAYS
 * ways (rt_aa_fits).  Only accesses and misses are known, not what the
 * dirty blocks did. */
#define RT_AA_MAXWAYS 64
struct rt_aa;
int rt_aa_fits(const struct rt_cache_cfg *c);
struct rt_aa *rt_aa_new(const struct rt_cache_cfg *const *c, int n);	/* one block size */
void rt_aa_access(struct rt_aa *a, uint64_t addr, uint64_t last, int op);
void rt_aa_stats(const struct rt_aa *a, const struct rt_cache_cfg *c, struct rt_cache_stats *s);
uint32_t rt_aa_set(const struct rt_aa *a, const struct rt_cache_cfg *c, uint64_t set,
    uint64_t *blocks);
void rt_aa_free(struct rt_aa *a);
/* Tree pseudo-LRU (plru.c), the one statement of it: a bit per inner
 * node of a set's tree points to the less recent half; touching way w is
 * tree & ~clr[w] | set[w] (rt_plru_masks fills both for ways a power of
 * two, at most 64); the victim is found walking down the bits. */
void rt_plru_masks(uint32_t ways, uint64_t *clr, uint64_t *set);
static inline uint32_t
rt_plru_victim(uint64_t tree, uint32_t ways)
{
	uint64_t node = 1;
	uint32_t i = 0;

	for (; ways > 1; ways /= 2) {
		node = 2 * node + (tree >> node & 1);
		i = 2 * i + (uint32_t)(node & 1);
	}
	return i;
}
/* The one-level PLRU configurations of sets a power of two (plru.c):
 * accesses and misses, batch by batch. */
struct rt_ensacc { uint64_t addr; uint32_t bytes; uint8_t op; };	/* within a block */
struct rt_pl;
int rt_pl_fits(const struct rt_cache_cfg *c);
struct rt_pl *rt_pl_new(const struct rt_cache_cfg *c);
void rt_pl_access(struct rt_pl *p, uint64_t addr, int op);
void rt_pl_run(struct rt_pl *p, const struct rt_ensacc *b, int n, int hasi);
void rt_pl_event(struct rt_pl *p, const struct rt_rec *ev);
void rt_pl_stats(const struct rt_pl *p, struct rt_cache_stats *s);
void rt_pl_free(struct rt_pl *p);
/* hierctl.c: level k's statistics are s (counted by an rt_aa instead). */
void rt_hier_setstats(struct rt_hier *h, int k, const struct rt_cache_stats *s);

struct rt_ens {
	struct rt_cache_cfg lv[RT_MAXLEVEL];	/* -c, or the first -E */
	int nlv;
	struct rt_cache_cfg icache;
	int hasi, incl;
	uint64_t seed;
	char *name[MAXH];		/* -E configurations */
	int nname;
	struct rt_hier *h[MAXH];
	int nh, depth;
	int served[MAXH];
	uint64_t bsi, bsd;		/* first-level block sizes: fetches, data */
	int uniform;			/* every configuration has them */
	int plain;			/* one configuration, no per-access output */
	int batched;			/* several, table output only */
	int solo;			/* plain, one hierarchy run alone, no TLB */
	int cores;			/* rt_ens_cores: accesses one by one, by thread */
	struct rt_aa *aa[MAXAA];	/* the LRU configurations, by block size */
	int naa;
	int grp[MAXH];			/* configuration i's rt_aa + 1, or 0 */
	int own[MAXH], nown;		/* the others: a hierarchy each */
	struct rt_pl *pl[MAXH];		/* configuration i's, or NULL: rt_hier_access */
	rt_served_fn *fn;
	void *ctx;
	struct rt_ensacc batch[NBATCH];
	int nbatch;
	/* OPT and PES: each arrival's next use, by level + 1 (0: I-cache) */
	uint64_t *fut[RT_MAXLEVEL + 1];
	size_t nfut[RT_MAXLEVEL + 1];
	/* TLBs (tlb.c): their levels as given, '/' between, to expand as -E's;
	 * the split instruction TLB they share; a hierarchy per configuration */
	char tlbspec[1024];
	/* prefetchers (prefetch.c), each at its level of the one configuration */
	struct rt_pf_cfg pf[2 * RT_MAXLEVEL];
	int pflv[2 * RT_MAXLEVEL], npf;
	struct rt_cache_cfg itlb;
	int hasitlb;
	char *tname[MAXH];
	int ntname;
	struct rt_hier *t[MAXH];
	int nt;
};

/* ensemble.c: every configuration of a spec whose sizes and associativities
 * may be ranges and policies lists ('/' between levels), appended to names;
 * a configuration's levels, each read by fn. */
int rt_ens_names(char **names, int *nnames, const char *prefix, const char *rest, char *why,
    size_t whylen);
typedef int rt_level_parse_fn(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen);
int rt_ens_parse(const char *name, rt_level_parse_fn *fn, struct rt_cache_cfg *lv, int *nlv,
    char *why, size_t whylen);
/* tlb.c: the TLB configurations built (with 3C as threec asks: RT_3C_...),
 * run over accesses v[0..n), freed. */
int rt_tlb_build(struct rt_ens *e, int threec, char *why, size_t whylen);
/* prefetch.c: the prefetchers into the one hierarchy built: 0 or an RT_E code, with why */
int rt_ens_pfbuild(struct rt_ens *e, char *why, size_t whylen);
void rt_tlb_run(struct rt_ens *e, const struct rt_rec *v, int n);
void rt_tlb_free(struct rt_ens *e);
/* enspool.c: e's configurations simulated on up to n threads, records
 * put in by the caller's thread; *pp NULL (and 0) where the ensemble is
 * not one the pool runs (cores, TLBs, observers other than two
 * configurations compared).  put and end: 0 or RT_ENOMEM. */
struct rt_enspool;
int rt_enspool_new(struct rt_enspool **pp, struct rt_ens *e, int n);
int rt_enspool_put(struct rt_enspool *p, const struct rt_rec *v, int n);
int rt_enspool_end(struct rt_enspool *p);	/* every record simulated, told */
void rt_enspool_free(struct rt_enspool *p);
/* subblk.c: 0, or RT_EUSAGE with why when h has sub-blocks and other
 * (3C, cores, TLBs, configurations) or what it does not model */
int rt_sb_check(const struct rt_hier *h, int other, char *why, size_t whylen);

#endif
