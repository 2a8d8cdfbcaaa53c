/* ens.h: the ensemble's insides, shared by ensemble.c and future.c. */
#ifndef RT_ENS_H
#define RT_ENS_H

#include "cache.h"

#define MAXH 256
#define NBATCH 4096

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
	rt_served_fn *fn;
	void *ctx;
	struct { uint64_t addr; uint32_t bytes; uint8_t op; } batch[NBATCH];
	int nbatch;
	/* OPT and PES: each arrival's next use, by level + 1 (0: I-cache) */
	uint64_t *fut[RT_MAXLEVEL + 1];
	size_t nfut[RT_MAXLEVEL + 1];
};

#endif
