/* cache.c: set-associative caches and hierarchies of them, trace-driven.
 *
 * A level is an array of sets of ways; each way holds a block number, a
 * dirty bit and the policy's state (a time stamp for LRU, MRU and FIFO,
 * a count for LFU, a re-reference prediction for SRRIP, tree bits per set
 * for pseudo-LRU).  The hierarchy sends a level's misses and writebacks to
 * the level below it; main memory is below the last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ens.h"

/* Tags (ens.h) come zeroed from calloc, so a page of them costs memory
 * only when a set in it is used (a big cache over a small trace stays
 * small). */

struct level {
	struct rt_cache_cfg c;
	uint64_t nsets, ways, mask;	/* mask: nsets - 1 when a power of two */
	int bshift;			/* log2 of the block size */
	uint64_t *tag;
	uint64_t *st;			/* policy state per way */
	uint64_t *tree;			/* PLRU bits per set */
	uint64_t *plm;			/* PLRU: rt_plru_masks, clr then set */
	uint32_t *hint;			/* per set: the way last found or filled */
	uint8_t *dirty;
	struct rt_reuse *shadow;		/* 3C: fully associative LRU twin */
	const uint64_t *fut;			/* OPT/PES: next use, by arrival */
	size_t nfut, fpos;
	rt_arrive_fn *arrive;			/* sees every block that arrives */
	void *arrivectx;
	struct rt_cache_stats s;
};

struct rt_hier {
	struct level *lv;		/* data side: lv[0] .. lv[n-1] */
	int n;
	struct level *i1;		/* split instruction cache, or NULL */
	int incl;
	uint64_t now;			/* accesses, for stamps */
	struct rt_rng rng;
	struct rt_cache_stats mem;
	uint64_t evicted[RT_MAXLEVEL];	/* by the last access, per level */
	int miss3c[RT_MAXLEVEL];	/* its kind of miss there (-3): RT_3C_... */

	int updirty;			/* an exclusive level handed up dirt */
	rt_down_fn *down;		/* sees what a level sends below */
	void *downctx;
	int downlevel;
};

static struct level *lvl(struct rt_hier *h, int k);

static const char *polnames[] = { "lru", "fifo", "random", "mru", "plru", "srrip", "lfu",
	"opt", "pes" };

int
rt_policy_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof polnames / sizeof polnames[0]; i++)
		if (strcasecmp(s, polnames[i]) == 0)
			return (int)i;
	if (strcasecmp(s, "nru") == 0)	/* SRRIP with one bit */
		return RT_SRRIP;
	return -1;
}

const char *
rt_policy_name(int p)
{
	return p >= 0 && p < (int)(sizeof polnames / sizeof polnames[0]) ? polnames[p] : "?";
}

/* SIZE:ASSOC:BLOCK[:POLICY[:wb|wt[:wa|nwa]]]; ASSOC may be "full". */
int
rt_cache_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen)
{
	char buf[128], *f[6], *p, *save = NULL;
	int n = 0;
	uint64_t v;

	memset(c, 0, sizeof *c);
	c->policy = RT_LRU;
	if (strlen(spec) >= sizeof buf) {
		snprintf(why, whylen, "too long");
		return -1;
	}
	strcpy(buf, spec);
	for (p = strtok_r(buf, ":", &save); p && n < 6; p = strtok_r(NULL, ":", &save))
		f[n++] = p;
	if (n < 3) {
		snprintf(why, whylen, "want SIZE:ASSOC:BLOCK[:POLICY[:wb|wt[:wa|nwa]]]");
		return -1;
	}
	if (rt_parse_size(f[0], &c->size) || c->size == 0) {
		snprintf(why, whylen, "bad size '%s'", f[0]);
		return -1;
	}
	if (rt_parse_size(f[2], &v) || v == 0 || (v & (v - 1)) || v > (1u << 20)) {
		snprintf(why, whylen, "block size '%s': want a power of two up to 1M", f[2]);
		return -1;
	}
	c->block = (uint32_t)v;
	if (strcasecmp(f[1], "full") == 0)
		c->assoc = 0;
	else if (rt_parse_size(f[1], &v) || v == 0 || v > RT_MAXWAYS) {
		snprintf(why, whylen, "bad associativity '%s'", f[1]);
		return -1;
	} else
		c->assoc = (uint32_t)v;
	if (c->size % c->block) {
		snprintf(why, whylen, "size %llu is not a multiple of the block size %u",
		    (unsigned long long)c->size, c->block);
		return -1;
	}
	if (c->assoc == 0 && c->size / c->block > RT_MAXWAYS) {
		snprintf(why, whylen, "fully associative with %llu blocks: a set has at "
		    "most %u ways", (unsigned long long)(c->size / c->block), RT_MAXWAYS);
		return -1;
	}
	if (c->assoc == 0)
		c->assoc = (uint32_t)(c->size / c->block);
	if ((c->size / c->block) % c->assoc) {
		snprintf(why, whylen, "size %llu is not a multiple of associativity x block (%u x %u)",
		    (unsigned long long)c->size, c->assoc, c->block);
		return -1;
	}
	if (n > 3 && (c->policy = rt_policy_parse(f[3])) < 0) {
		snprintf(why, whylen, "unknown policy '%s' (lru, fifo, random, mru, plru, srrip, nru, lfu, opt, pes)", f[3]);
		return -1;
	}
	if (c->policy == RT_PLRU && (c->assoc & (c->assoc - 1))) {
		snprintf(why, whylen, "pseudo-LRU needs a power-of-two associativity, not %u", c->assoc);
		return -1;
	}
	if (c->policy == RT_PLRU && c->assoc > 64) {
		snprintf(why, whylen, "pseudo-LRU keeps at most 64 ways");
		return -1;
	}
	if (rt_cache_bytes(c) > rt_memory()) {
		snprintf(why, whylen, "needs %.1f GiB for its tags, more than the %.1f GiB "
		    "of memory here", rt_cache_bytes(c) / 1073741824.0,
		    rt_memory() / 1073741824.0);
		return -1;
	}
	if (n > 4) {
		if (strcasecmp(f[4], "wt") == 0)
			c->wt = 1;
		else if (strcasecmp(f[4], "wb") != 0) {
			snprintf(why, whylen, "write policy '%s': wb or wt", f[4]);
			return -1;
		}
	}
	if (n > 5) {
		if (strcasecmp(f[5], "nwa") == 0)
			c->nwa = 1;
		else if (strcasecmp(f[5], "wa") != 0) {
			snprintf(why, whylen, "write-miss policy '%s': wa or nwa", f[5]);
			return -1;
		}
	}
	return 0;
}

/* What level_init allocates: per way a tag, a policy state and a dirty
 * byte; per set a hint and, for pseudo-LRU, tree bits.  In doubles, as a
 * terabyte cache's count overflows nothing there. */
double
rt_cache_bytes(const struct rt_cache_cfg *c)
{
	double blocks = (double)(c->size / c->block), sets = blocks / (c->assoc ? c->assoc : blocks);

	return blocks * (2 * sizeof(uint64_t) + 1) +
	    sets * (sizeof(uint32_t) + (c->policy == RT_PLRU ? sizeof(uint64_t) : 0));
}

static int
level_init(struct level *l, const struct rt_cache_cfg *c)
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
		return -1;
	if (c->policy == RT_PLRU) {
		if ((l->tree = calloc(l->nsets, sizeof *l->tree)) == NULL ||
		    (l->plm = malloc(2 * l->ways * sizeof *l->plm)) == NULL)
			return -1;
		rt_plru_masks((uint32_t)l->ways, l->plm, l->plm + l->ways);
	}
	return 0;
}

static void
level_free(struct level *l)
{
	rt_reuse_free(l->shadow);
	free(l->tag);
	free(l->st);
	free(l->dirty);
	free(l->tree);
	free(l->plm);
	free(l->hint);
}

struct rt_hier *
rt_hier_new(const struct rt_cache_cfg *levels, int n, const struct rt_cache_cfg *icache,
    int inclusion, uint64_t seed)
{
	struct rt_hier *h;
	int i;

	if (n < 1 || n > RT_MAXLEVEL || (h = calloc(1, sizeof *h)) == NULL)
		return NULL;
	h->n = n;
	h->incl = inclusion;
	rt_rng_seed(&h->rng, seed);
	if ((h->lv = calloc(n, sizeof *h->lv)) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		if (level_init(&h->lv[i], &levels[i]))
			goto fail;
	if (icache != NULL && ((h->i1 = calloc(1, sizeof *h->i1)) == NULL ||
	    level_init(h->i1, icache)))
		goto fail;
	return h;
fail:
	rt_hier_free(h);
	return NULL;
}

void
rt_hier_free(struct rt_hier *h)
{
	int i;

	if (h == NULL)
		return;
	for (i = 0; h->lv && i < h->n; i++)
		level_free(&h->lv[i]);
	free(h->lv);
	if (h->i1)
		level_free(h->i1);
	free(h->i1);
	free(h);
}

void
rt_hier_watch(struct rt_hier *h, int level, rt_down_fn *fn, void *ctx)
{
	h->down = fn;
	h->downctx = ctx;
	h->downlevel = level;
}

static uint64_t
setof(const struct level *l, uint64_t block)
{
	return l->mask || l->nsets == 1 ? block & l->mask : block % l->nsets;
}

static void
touch(struct rt_hier *h, struct level *l, uint64_t set, uint64_t i, int fill)
{
	uint64_t *st = &l->st[i];

	switch (l->c.policy) {
	case RT_LRU:
	case RT_MRU:
		*st = h->now;
		break;
	case RT_FIFO:
		if (fill)
			*st = h->now;
		break;
	case RT_LFU:
		*st = fill ? 1 : *st + 1;
		break;
	case RT_SRRIP:	/* 2-bit RRPV: long re-reference on fill, near on hit */
		*st = fill ? 2 : 0;
		break;
	case RT_PLRU:
		i -= set * l->ways;
		l->tree[set] = (l->tree[set] & ~l->plm[i]) | l->plm[l->ways + i];
		break;
	case RT_OPT:	/* when the block is wanted next, in this level's stream */
	case RT_PES:
		*st = l->fpos - 1 < l->nfut ? l->fut[l->fpos - 1] : UINT64_MAX;
		break;
	}
}

/* The smallest state of a full set, the first on ties. */
static uint64_t
leastst(const struct level *l, uint64_t b)
{
	uint64_t i, best = b, w;

	for (i = b, w = UINT64_MAX; i < b + l->ways; i++)
		if (l->st[i] < w) {
			w = l->st[i];
			best = i;
		}
	return best;
}

static uint64_t
victim(struct rt_hier *h, struct level *l, uint64_t set)
{
	uint64_t b = set * l->ways, i, best = b;

	for (i = b; i < b + l->ways; i++)
		if (l->tag[i] == INVALID)
			return i;
	switch (l->c.policy) {
	case RT_RANDOM:
		return b + rt_rng_below(&h->rng, l->ways);
	case RT_PLRU:
		return b + rt_plru_victim(l->tree[set], (uint32_t)l->ways);
	case RT_MRU:
	case RT_OPT:	/* Belady: the one wanted furthest in the future */
		for (i = b; i < b + l->ways; i++)
			if (l->st[i] > l->st[best])
				best = i;
		return best;
	case RT_SRRIP:
		for (;;) {
			for (i = b; i < b + l->ways; i++)
				if (l->st[i] >= 3)
					return i;
			for (i = b; i < b + l->ways; i++)
				l->st[i]++;
		}
	default:	/* LRU, FIFO, LFU, PES: the smallest state, the first on ties */
		return leastst(l, b);
	}
}

/* The way holding block in its set, or -1; the way last found is tried
 * first, as a hit usually repeats it. */
static int64_t
lookup(const struct level *l, uint64_t block, uint64_t set)
{
	uint64_t b = set * l->ways, i = b + l->hint[set], t = TAG(block);

	if (l->tag[i] == t)
		return (int64_t)i;
	for (i = b; i < b + l->ways; i++)
		if (l->tag[i] == t) {
			l->hint[set] = (uint32_t)(i - b);
			return (int64_t)i;
		}
	return -1;
}

/* lookup for an LRU level whose ways nothing below touches (no
 * inclusion): on a miss, *vw is the way victim would choose, found in the
 * same pass over the tags (the first empty way, else the least recent). */
static int64_t
lrulookup(struct level *l, uint64_t block, uint64_t set, uint64_t *vw)
{
	uint64_t b = set * l->ways, i = b + l->hint[set], t = TAG(block), e = UINT64_MAX;

	if (l->tag[i] == t)
		return (int64_t)i;
	for (i = b; i < b + l->ways; i++) {
		if (l->tag[i] == t) {
			l->hint[set] = (uint32_t)(i - b);
			return (int64_t)i;
		}
		if (l->tag[i] == INVALID && e == UINT64_MAX)
			e = i;
	}
	*vw = e != UINT64_MAX ? e : leastst(l, b);
	return -1;
}

static int serve(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes);

/* Levels are numbered 0 .. n-1 on the data side; the split instruction
 * cache is -1 and sits beside level 0, in front of level 1. */
static int
nextk(const struct rt_hier *h, int k)
{
	(void)h;
	return k < 0 ? 1 : k + 1;
}

static struct level *
lvl(struct rt_hier *h, int k)
{
	return k < 0 ? h->i1 : &h->lv[k];
}

/* What level k sends to the level below it, or to memory: the address
 * of its block (levels may have blocks of different sizes). */
static int
below(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes)
{
	int n = nextk(h, k);

	if (h->down && (k == h->downlevel || (k < 0 && h->downlevel == 0)))
		h->down(h->downctx, addr, op);
	if (n < h->n)
		return serve(h, n, addr, op, bytes);
	h->mem.acc[op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0]++;
	return h->n;
}

/* Inclusion: a block leaving level k >= 1 leaves every level above it.
 * Returns whether an upper copy was dirty (its data goes down with it). */
static int
backinval(struct rt_hier *h, int k, uint64_t addr, uint32_t len)
{
	uint64_t block, last;
	int j, dirty = 0;
	int64_t i;
	struct level *l;

	if (len == 0)
		return 0;
	/* by block numbers, not addresses: the last block of the address
	 * space ends at 2^64, where an address stepping past it wrapped to 0
	 * and went on for 2^58 blocks (an upper block larger than len) */
	for (j = k - 1; j >= -1; j--) {
		if (j == -1 && h->i1 == NULL)
			break;
		l = lvl(h, j);
		last = (addr > UINT64_MAX - (len - 1) ? UINT64_MAX : addr + (len - 1)) / l->c.block;
		for (block = addr / l->c.block;; block++) {	/* every upper block in it */
			if ((i = lookup(l, block, setof(l, block))) >= 0) {
				dirty |= l->dirty[i];
				l->tag[i] = INVALID;
				l->dirty[i] = 0;
				l->s.invalidations++;
			}
			if (block == last)
				break;
		}
	}
	return dirty;
}

/* Put block in level k, evicting as the policy says (way vw when it is
 * known, else UINT64_MAX). */
static void
fill(struct rt_hier *h, int k, uint64_t block, int dirty, uint64_t vw)
{
	struct level *l = lvl(h, k);
	uint64_t set = setof(l, block), i = vw != UINT64_MAX ? vw : victim(h, l, set);
	uint64_t v = TAG(l->tag[i]);
	int vd = l->dirty[i], n = nextk(h, k);

	if (l->tag[i] != INVALID) {
		l->s.evictions++;
		if (k >= 0)
			h->evicted[k] = v * l->c.block;
		if (h->incl == RT_INCLUSIVE && k >= 1)
			vd |= backinval(h, k, v * l->c.block, l->c.block);
		if (h->incl == RT_EXCLUSIVE && n < h->n) {
			/* victim fill: the block moves down, clean or dirty */
			l->s.bytes_down += l->c.block;
			l->s.writebacks += vd;
			fill(h, n, v * l->c.block / lvl(h, n)->c.block, vd, UINT64_MAX);
		} else if (vd) {
			l->s.writebacks++;
			l->s.bytes_down += l->c.block;
			below(h, k, v * l->c.block, RT_WRITE, l->c.block);
		}
	}
	l->tag[i] = TAG(block);
	l->dirty[i] = (uint8_t)dirty;
	l->hint[set] = (uint32_t)(i - set * l->ways);
	l->s.bytes_up += l->c.block;
	touch(h, l, set, i, 1);
}

/* One block access at level k; returns the level that had the block
 * (h->n for memory). */
static int
serve(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes)
{
	struct level *l = lvl(h, k);
	uint64_t block = addr >> l->bshift, set = setof(l, block), base = block << l->bshift;
	uint64_t vw = UINT64_MAX;
	int64_t i = l->c.policy == RT_LRU && h->incl == RT_NINE ? lrulookup(l, block, set, &vw) :
	    lookup(l, block, set);
	int kind = op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0, from, fetch;

	h->now++;
	l->s.acc[kind]++;
	l->fpos++;
	if (l->arrive != NULL)
		l->arrive(l->arrivectx, block);
	if (l->shadow != NULL) {
		uint64_t d, td;

		if (rt_reuse_access(l->shadow, block, &d, &td) == 0 && i < 0) {
			int c = d == RT_COLD ? RT_3C_COMPULSORY :
			    d >= l->c.size / l->c.block ? RT_3C_CAPACITY : RT_3C_CONFLICT;

			if (c == RT_3C_COMPULSORY)
				l->s.compulsory++;
			else if (c == RT_3C_CAPACITY)
				l->s.capacity++;
			else
				l->s.conflict++;
			if (k >= 0)
				h->miss3c[k] = c;
		}
	}
	if (i >= 0) {
		touch(h, l, set, (uint64_t)i, 0);
		if (h->incl == RT_EXCLUSIVE && k > 0) {
			/* found below the first level: it moves up, dirt and all */
			h->updirty = l->dirty[i];
			l->tag[i] = INVALID;
			l->dirty[i] = 0;
		} else if (op == RT_WRITE && l->c.wt) {
			l->s.bytes_down += bytes;
			below(h, k, base, RT_WRITE, bytes);
		} else if (op == RT_WRITE)
			l->dirty[i] = 1;
		return k < 0 ? 0 : k;
	}
	l->s.miss[kind]++;
	if (op == RT_WRITE && l->c.nwa) {
		l->s.bytes_down += bytes;
		return below(h, k, base, RT_WRITE, bytes);
	}
	fetch = op == RT_IFETCH ? RT_IFETCH : RT_READ;
	if (h->incl == RT_EXCLUSIVE && k > 0)
		return below(h, k, base, fetch, l->c.block);	/* no copy kept here */
	h->updirty = 0;
	from = below(h, k, base, fetch, l->c.block);
	fill(h, k, block, (op == RT_WRITE && !l->c.wt) || h->updirty, vw);
	if (op == RT_WRITE && l->c.wt) {
		l->s.bytes_down += bytes;
		below(h, k, base, RT_WRITE, bytes);
	}
	return from;
}

/* One access within a first-level block. */
static int
access1(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes)
{
	int k;

	if (op == RT_IFETCH && h->i1 != NULL)
		return serve(h, -1, addr, op, bytes);
	if (op == RT_MODIFY) {	/* a read, then a write */
		k = serve(h, 0, addr, RT_READ, bytes);
		serve(h, 0, addr, RT_WRITE, bytes);
		return k;
	}
	return serve(h, 0, addr, op, bytes);
}

int
rt_hier_access(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes)
{
	int k;

	for (k = 0; k < h->n; k++) {
		h->evicted[k] = UINT64_MAX;
		h->miss3c[k] = RT_3C_NONE;
	}
	return access1(h, addr, op, bytes);
}

/* Whether serve's hit at a first level is rt_hier_run's: a stamp, a dirty
 * bit, a count, and nothing that watches (3C's twin, OPT's arrivals) or
 * goes below (write-through).  Sets whose number is a power of two. */
static int
quickable(const struct level *l)
{
	return (l->c.policy == RT_LRU || l->c.policy == RT_MRU) && !l->c.wt &&
	    l->shadow == NULL && l->arrive == NULL && (l->mask || l->nsets == 1);
}

/* The way of first level l that holds block, or -1 (then serve does it
 * all).  The ways of a set are side by side: the way last found is tried
 * first, then a search without branches. */
static inline int64_t
quickway(struct level *l, uint64_t block)
{
	uint64_t set = block & l->mask, b = set * l->ways, t = TAG(block), *tag = l->tag + b;
	uint32_t w = l->hint[set];

	if (tag[w] == t)
		return (int64_t)(b + w);
	for (w = 0; w < l->ways && tag[w] != t; w++)
		;
	if (w == l->ways)
		return -1;
	l->hint[set] = w;
	return (int64_t)(b + w);
}

/* Accesses in a row with nothing to see after each (no rt_hier_evicted,
 * no rt_hier_miss3c): a first-level hit here, the rest through serve.
 * A hit does what serve's does (a stamp, a dirty bit, a count) with the
 * clock in a local until serve is called, and the counts of single-block
 * hits by op in the 16-bit lanes of one register (a count in memory is a
 * chain of stores and loads from one hit to the next); each side (data
 * 0, fetches 1) remembers the block and way of its last hit while nothing
 * else ran, as the next access of a side is often to the same block.
 * Stops at the first item that is not an access; returns the items
 * taken. */
#define LANES 0x8000800080008000ull	/* a lane's top bit: time to add up */
size_t
rt_hier_run(struct rt_hier *h, const struct rt_rec *v, size_t n)
{
	struct level *lv[2];
	const struct rt_rec *r, *end = v + n;
	uint64_t hits[4] = { 0 }, lb[2] = { UINT64_MAX, UINT64_MAX }, li[2] = { 0 };
	uint64_t addr, last, blk, now = h->now, pk = 0, *st[2];
	uint8_t *dt[2];
	int64_t i;
	int op, side, k, q[2], bsh[2];
	struct rt_span s;

	lv[0] = &h->lv[0];
	lv[1] = h->i1 != NULL ? h->i1 : lv[0];
	for (side = 0; side < 2; side++) {
		q[side] = quickable(lv[side]);
		bsh[side] = lv[side]->bshift;
		st[side] = lv[side]->st;
		dt[side] = lv[side]->dirty;
	}
	for (r = v; r < end && r->kind == RT_ACCESS; r++) {
		op = r->op;
		addr = r->addr;
		last = rt_last(r);
		side = op == RT_IFETCH;
		blk = addr >> bsh[side];
		if ((last >> bsh[side]) == blk) {
			if (blk == lb[side])	/* set only where quickable */
				i = (int64_t)li[side];
			else if (!q[side] || (i = quickway(lv[side], blk)) < 0) {
				h->now = now;
				lb[0] = lb[1] = UINT64_MAX;	/* serve may change any way */
				access1(h, addr, op, (uint32_t)(last - addr + 1));
				now = h->now;
				continue;
			} else {
				lb[side] = blk;
				li[side] = (uint64_t)i;
			}
			pk += 1ull << (op << 4);
			if (pk & LANES) {
				for (k = 0; k < 4; k++)
					hits[k] += pk >> (k << 4) & 0xffff;
				pk = 0;
			}
			now += 1 + (op == RT_MODIFY);	/* a read, then a write */
			st[side][i] = now;
			if (op == RT_WRITE || op == RT_MODIFY)
				dt[0][i] = 1;
			continue;
		}
		for (rt_span_start(&s, addr, last, lv[side]->c.block); rt_span_next(&s);) {
			if (q[side] && (i = quickway(lv[side], s.block)) >= 0) {
				hits[op]++;
				now += 1 + (op == RT_MODIFY);
				st[side][i] = now;
				if (op == RT_WRITE || op == RT_MODIFY)
					dt[0][i] = 1;
				continue;
			}
			h->now = now;
			lb[0] = lb[1] = UINT64_MAX;
			access1(h, s.addr, op, (uint32_t)s.len);
			now = h->now;
		}
	}
	h->now = now;
	for (k = 0; k < 4; k++)
		hits[k] += pk >> (k << 4) & 0xffff;
	lv[0]->s.acc[0] += hits[RT_READ] + hits[RT_MODIFY];
	lv[0]->s.acc[1] += hits[RT_WRITE] + hits[RT_MODIFY];
	lv[1]->s.acc[2] += hits[RT_IFETCH];
	return (size_t)(r - v);
}
#undef LANES

/* A way's part in a flush: its dirty block written below and kept, or
 * with inval dropped unwritten. */
static void
flushway(struct rt_hier *h, int k, uint64_t i, int inval)
{
	struct level *l = lvl(h, k);

	if (l->tag[i] == INVALID)
		return;
	if (inval)
		l->tag[i] = INVALID;
	else if (l->dirty[i]) {
		l->s.writebacks++;
		l->s.bytes_down += l->c.block;
		below(h, k, TAG(l->tag[i]) * l->c.block, RT_WRITE, l->c.block);
	}
	l->dirty[i] = 0;
}

struct wayord { uint64_t st, i; };

static int
byst(const void *a, const void *b)
{
	const struct wayord *x = a, *y = b;

	return x->st != y->st ? (x->st < y->st ? -1 : 1) : (x->i > y->i) - (x->i < y->i);
}

/* Every way of level k, in the order Dinero's stack of pending write-backs
 * sends them: the last set first, and in a set the least recent way first
 * (the least policy state: a stamp for LRU and FIFO); by place where the
 * memory to sort a set is wanting. */
static void
flushall(struct rt_hier *h, int k, int inval)
{
	struct level *l = lvl(h, k);
	struct wayord *ord = malloc(l->ways * sizeof *ord);
	uint64_t set, i;

	for (set = l->nsets; set-- > 0;) {
		for (i = 0; i < l->ways; i++)
			if (ord != NULL) {
				ord[i].i = set * l->ways + i;
				ord[i].st = l->st[ord[i].i];
			} else
				flushway(h, k, set * l->ways + i, inval);
		if (ord == NULL)
			continue;
		qsort(ord, l->ways, sizeof *ord, byst);
		for (i = 0; i < l->ways; i++)
			flushway(h, k, ord[i].i, inval);
	}
	free(ord);
}

/* Dinero IV's copy-back and invalidate (d4copyback, d4invalidate): level
 * by level from the first, so that what one writes back reaches the next
 * before that is flushed in turn. */
void
rt_hier_event(struct rt_hier *h, const struct rt_rec *ev)
{
	struct level *l;
	struct rt_span s;
	int64_t w;
	int k, inval = ev->kind == RT_INVAL;

	if (ev->kind != RT_FLUSH && !inval)
		return;
	for (k = h->i1 ? -1 : 0; k < h->n; k++) {
		l = lvl(h, k);
		if (ev->size == 0) {
			flushall(h, k, inval);
			continue;
		}
		for (rt_span_start(&s, ev->addr, rt_last(ev), l->c.block); rt_span_next(&s);)
			if ((w = lookup(l, s.block, setof(l, s.block))) >= 0)
				flushway(h, k, (uint64_t)w, inval);
	}
}

void
rt_hier_future(struct rt_hier *h, int k, const uint64_t *next, size_t n)
{
	struct level *l = lvl(h, k);

	l->fut = next;
	l->nfut = n;
}

void
rt_hier_arrivals(struct rt_hier *h, int k, rt_arrive_fn *fn, void *ctx)
{
	struct level *l = lvl(h, k);

	l->arrive = fn;
	l->arrivectx = ctx;
}

/* Turn a sequence of block numbers into, at each position, the position
 * of the same block's next appearance (UINT64_MAX: none), scanning back. */
int
rt_future(uint64_t *v, size_t n)
{
	size_t cap = 1024, i, j, used = 0;
	uint64_t *key, *at, b;

	while (cap < 2 * n + 2)
		cap *= 2;
	if ((key = malloc(cap * sizeof *key)) == NULL || (at = malloc(cap * sizeof *at)) == NULL) {
		free(key);
		return -1;
	}
	memset(at, 0xff, cap * sizeof *at);	/* at: UINT64_MAX = empty */
	for (i = n; i-- > 0;) {
		b = v[i];
		j = rt_hash64(b) & (cap - 1);
		while (at[j] != UINT64_MAX && key[j] != b)
			j = (j + 1) & (cap - 1);
		if (at[j] == UINT64_MAX) {
			key[j] = b;
			used++;
			v[i] = UINT64_MAX;
		} else
			v[i] = at[j];
		at[j] = i;
	}
	(void)used;
	free(key);
	free(at);
	return 0;
}

uint64_t
rt_hier_set(const struct rt_hier *h, uint64_t addr, int op)
{
	const struct level *l = op == RT_IFETCH && h->i1 != NULL ? h->i1 : &h->lv[0];

	return setof(l, addr / l->c.block);
}

uint32_t
rt_hier_block(const struct rt_hier *h, int op)
{
	return op == RT_IFETCH && h->i1 != NULL ? h->i1->c.block : h->lv[0].c.block;
}

const uint64_t *
rt_hier_evicted(const struct rt_hier *h)
{
	return h->evicted;
}

const int *
rt_hier_miss3c(const struct rt_hier *h)
{
	return h->miss3c;
}

/* 3C (Hill): every miss is compulsory (never seen), capacity (a fully
 * associative LRU cache of the same size misses too) or conflict. */
int
rt_hier_3c(struct rt_hier *h)
{
	int k;

	for (k = h->i1 ? -1 : 0; k < h->n; k++)
		if ((lvl(h, k)->shadow = rt_reuse_new(0)) == NULL)
			return -1;
	return 0;
}

int
rt_hier_levels(const struct rt_hier *h)
{
	return h->n;
}

const struct rt_cache_stats *
rt_hier_stats(const struct rt_hier *h, int k, const struct rt_cache_cfg **cfg)
{
	if (k == -1 && h->i1 != NULL) {
		*cfg = &h->i1->c;
		return &h->i1->s;
	}
	if (k >= 0 && k < h->n) {
		*cfg = &h->lv[k].c;
		return &h->lv[k].s;
	}
	*cfg = NULL;
	return &h->mem;
}

void
rt_hier_setstats(struct rt_hier *h, int k, const struct rt_cache_stats *s)
{
	lvl(h, k)->s = *s;
}

/* cachegrind's model (cg_sim.c): LRU, write-allocate, no dirty state; an
 * access spanning two blocks is one reference that misses if either
 * block does; LL is asked only after a first-level miss. */
struct rt_cg {
	struct level i1, d1, ll;
	uint64_t now;
	struct rt_cgstats s;
};

static int
cg_miss1(struct rt_cg *g, struct level *l, uint64_t block)
{
	uint64_t set = setof(l, block), b = set * l->ways, i, j;

	for (i = b; i < b + l->ways; i++)
		if (l->tag[i] == TAG(block))
			break;
	/* move to the front: ways ordered from most to least recent */
	j = i < b + l->ways ? i : b + l->ways - 1;
	for (; j > b; j--)
		l->tag[j] = l->tag[j - 1];
	l->tag[b] = TAG(block);
	(void)g;
	return i == b + l->ways;
}

static int
cg_ismiss(struct rt_cg *g, struct level *l, const struct rt_rec *r)
{
	struct rt_span s;
	int m = 0;

	for (rt_span_start(&s, r->addr, rt_last(r), l->c.block); rt_span_next(&s);)
		m |= cg_miss1(g, l, s.block);
	return m;
}

struct rt_cg *
rt_cg_new(const struct rt_cache_cfg *i1, const struct rt_cache_cfg *d1, const struct rt_cache_cfg *ll)
{
	struct rt_cg *g = calloc(1, sizeof *g);

	if (g == NULL)
		return NULL;
	if (level_init(&g->i1, i1) || level_init(&g->d1, d1) || level_init(&g->ll, ll)) {
		rt_cg_free(g);
		return NULL;
	}
	return g;
}

void
rt_cg_access(struct rt_cg *g, const struct rt_rec *r, struct rt_cgstats *row)
{
	uint64_t *s = &g->s.ir, *t = row ? &row->ir : NULL;
	int k = r->op == RT_IFETCH ? 0 : r->op == RT_WRITE ? 6 : 3;	/* R, M: 3 */

	s[k]++;
	if (t)
		t[k]++;
	if (cg_ismiss(g, r->op == RT_IFETCH ? &g->i1 : &g->d1, r)) {
		s[k + 1]++;
		if (t)
			t[k + 1]++;
		if (cg_ismiss(g, &g->ll, r)) {
			s[k + 2]++;
			if (t)
				t[k + 2]++;
		}
	}
}

const struct rt_cgstats *
rt_cg_stats(const struct rt_cg *g)
{
	return &g->s;
}

void
rt_cg_free(struct rt_cg *g)
{
	if (g == NULL)
		return;
	level_free(&g->i1);
	level_free(&g->d1);
	level_free(&g->ll);
	free(g);
}
