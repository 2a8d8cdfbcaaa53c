/* hier.c: a hierarchy of set-associative caches, trace-driven: an access
 * served level by level, misses filled from below, victims chosen by the
 * level's policy and written back, inclusion kept; and the batched path,
 * in the same file so that its calls to serve cost no more than they must. */
#include <stdlib.h>
#include <string.h>

#include "hier.h"

static void
touch(struct rt_hier *h, struct level *l, uint64_t set, uint64_t i, int fill)
{
	uint64_t *st = &l->st[i];

	switch (l->c.policy) {
	case RT_LRU:
	case RT_MRU:
		*st = h->now;
		if (l->ends != NULL)
			rt_level_touch(l, set, i);
		break;
	case RT_FIFO:
		if (fill) {
			*st = h->now;
			if (l->ends != NULL)
				rt_level_touch(l, set, i);
		}
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

	if (l->hash != NULL) {	/* the first empty way and the lists' ends kept */
		if ((i = rt_level_empty(l, set)) != UINT64_MAX)
			return i;
		if (l->ends != NULL)
			return l->c.policy == RT_MRU ? rt_level_last(l, set) : rt_level_first(l, set);
	} else
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
int64_t
rt_level_lookup(const struct level *l, uint64_t block, uint64_t set)
{
	uint64_t b = set * l->ways, i = b + l->hint[set], t = TAG(block);
	int64_t w;

	if (l->tag[i] == t)
		return (int64_t)i;
	if (l->hash != NULL) {
		if ((w = rt_level_find(l, block)) >= 0)
			l->hint[set] = (uint32_t)((uint64_t)w - b);
		return w;
	}
	for (i = b; i < b + l->ways; i++)
		if (l->tag[i] == t) {
			l->hint[set] = (uint32_t)(i - b);
			return (int64_t)i;
		}
	return -1;
}

/* victim's choice at an LRU level without a hash, the first empty way,
 * else the least recent, in one pass without branches: an empty way's
 * key is 0, a full way's its stamp with the top bit set (a stamp is a
 * count of accesses), and the first of the smallest keys wins.  Which
 * way a miss takes is random on an unpredictable trace, and a branch per
 * way mispredicted there. */
static uint64_t
lruvictim(const struct level *l, uint64_t b)
{
	uint64_t i, m, key, best = b, w = UINT64_MAX;

	for (i = b; i < b + l->ways; i++) {
		key = l->tag[i] == INVALID ? 0 : l->st[i] | 1ull << 63;
		m = -(uint64_t)(key < w);
		w ^= (w ^ key) & m;
		best ^= (best ^ i) & m;
	}
	return best;
}

/* lookup for an LRU level whose ways nothing below touches (no
 * inclusion): on a miss, *vw is the way victim would choose (the first
 * empty way, else the least recent), found now, not at the fill. */
static int64_t
lrulookup(struct level *l, uint64_t block, uint64_t set, uint64_t *vw)
{
	uint64_t b = set * l->ways, i = b + l->hint[set], t = TAG(block), e = UINT64_MAX;
	int64_t w;

	if (l->tag[i] == t)
		return (int64_t)i;
	if (l->hash != NULL) {
		if ((w = rt_level_find(l, block)) >= 0) {
			l->hint[set] = (uint32_t)((uint64_t)w - b);
			return w;
		}
		*vw = (e = rt_level_empty(l, set)) != UINT64_MAX ? e : rt_level_first(l, set);
		return -1;
	}
	for (i = b; i < b + l->ways; i++)
		if (l->tag[i] == t) {
			l->hint[set] = (uint32_t)(i - b);
			return (int64_t)i;
		}
	*vw = lruvictim(l, b);
	return -1;
}

static int serve(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes);
static int served(struct rt_hier *h, int k, uint64_t block, uint64_t set, int64_t i, uint64_t vw,
    int op, uint32_t bytes);
static void fill(struct rt_hier *h, int k, uint64_t block, int dirty, uint64_t vw);

static int
nextk(const struct rt_hier *h, int k)
{
	(void)h;
	return k < 0 ? 1 : k + 1;
}

/* A level below with smaller blocks is asked for each of its blocks in
 * what comes (#38 W1), as a run on the miss stream would be; the deepest
 * level that served one. */
static int
blockwise(struct rt_hier *h, int n, uint64_t addr, int op, uint32_t bytes)
{
	int from = n, f, updirty = 0;
	struct rt_span s;

	for (rt_span_start(&s, addr, addr + bytes - 1, h->lv[n].c.block); rt_span_next(&s);) {
		if ((f = serve(h, n, s.addr, op, (uint32_t)s.len)) > from)
			from = f;
		updirty |= h->updirty;
	}
	h->updirty = updirty;
	return from;
}

/* What level k sends to the level below it, or to memory: bytes from
 * addr, a block of k's or a write's bytes; returns the level that had
 * it.  Watched (rt_hier_watch), or to smaller blocks below, it is
 * rt_hier_below's. */
static int
below(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes)
{
	int n = nextk(h, k);

	if (h->slow[k + 1])
		return rt_hier_below(h, k, addr, op, bytes);
	if (n >= h->n) {
		h->mem.acc[op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0]++;
		return h->n;
	}
	return serve(h, n, addr, op, bytes);
}

int
rt_hier_below(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes)
{
	int n = nextk(h, k);

	if (h->split != NULL && k < 1) {	/* the other thread's */
		rt_hsplit_put(h->split, addr, op, bytes);
		return h->n;
	}
	if (h->down && (k == h->downlevel || (k < 0 && h->downlevel == 0)))
		h->down(h->downctx, addr, op, bytes);
	if (h->coh != NULL && op != RT_WRITE && n == rt_coh_shared(h))
		rt_coh_fetch(h, addr);	/* the other cores' dirty copies first */
	if (n >= h->n) {
		h->mem.acc[op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0]++;
		return h->n;
	}
	return h->lv[n].narrow ? blockwise(h, n, addr, op, bytes) : serve(h, n, addr, op, bytes);
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
	uint64_t set;

	if (len == 0)
		return 0;
	/* by block numbers, not addresses: the last block of the address
	 * space ends at 2^64, where an address stepping past it wrapped to 0
	 * and went on for 2^58 blocks (an upper block larger than len) */
	for (j = k - 1; j >= -1; j--) {
		if (j == -1 && h->i1 == NULL)
			break;
		l = rt_hier_lvl(h, j);
		last = (addr > UINT64_MAX - (len - 1) ? UINT64_MAX : addr + (len - 1)) / l->c.block;
		for (block = addr / l->c.block;; block++) {	/* every upper block in it */
			set = rt_level_set(l, block);
			if ((i = rt_level_lookup(l, block, set)) >= 0) {
				dirty |= l->dirty[i];
				if (l->pfb != NULL && l->pfb[i]) {
					l->s.pf_unused++;
					l->pfb[i] = 0;
				}
				rt_level_drop(l, set, (uint64_t)i);
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
	struct level *l = rt_hier_lvl(h, k);
	uint64_t set = rt_level_set(l, block), i = vw != UINT64_MAX ? vw : victim(h, l, set);
	uint64_t v = TAG(l->tag[i]), b;
	int vd = l->dirty[i] && !l->tlb, n = nextk(h, k), sh;

	if (__builtin_expect(l->pfb != NULL, 0)) {
		l->s.pf_unused += l->tag[i] != INVALID && l->pfb[i];
		l->pfb[i] = 0;
	}
	if (l->tag[i] != INVALID) {
		l->s.evictions++;
		if (k >= 0)
			h->evicted[k] = v * l->c.block;
		if (h->incl == RT_INCLUSIVE && k >= 1)
			vd |= backinval(h, k, v * l->c.block, l->c.block);
		if (h->incl == RT_EXCLUSIVE && n < h->n) {
			/* victim fill: the block moves down, clean or dirty, as
			 * every block of the level below in it */
			l->s.bytes_down += l->c.block;
			l->s.writebacks += vd;
			sh = h->lv[n].bshift;
			for (b = v * l->c.block >> sh; b <= (v * l->c.block + (l->c.block - 1)) >> sh; b++)
				fill(h, n, b, vd, UINT64_MAX);
		} else if (vd) {
			l->s.writebacks++;
			l->s.bytes_down += l->c.block;
			below(h, k, v * l->c.block, RT_WRITE, l->c.block);
		}
	} else
		l->filled++;
	rt_level_put(l, set, i, block);
	l->dirty[i] = (uint8_t)dirty;
	l->hint[set] = (uint32_t)(i - set * l->ways);
	l->s.bytes_up += l->tlb ? 0 : l->c.block;
	touch(h, l, set, i, 1);
}

/* A demand hit at a level with a prefetcher: a prefetched block's first
 * use, and a read's or fetch's prefetches. */
static __attribute__((noinline)) void
pfhit(struct rt_hier *h, int k, uint64_t block, int op, uint64_t i)
{
	struct level *l = rt_hier_lvl(h, k);
	int first = l->pfb[i];

	l->s.pf_useful += first;
	l->pfb[i] = 0;
	if (op != RT_WRITE)
		rt_pf_demand(h, k, block, op, 0, first);
}

/* A prefetch of block into level k: counted apart from demand; a
 * miss is a read below, as Dinero IV's (its prefetch attribute dropped). */
void
rt_hier_pfetch(struct rt_hier *h, int k, uint64_t block, int op)
{
	struct level *l = rt_hier_lvl(h, k);
	uint64_t set = rt_level_set(l, block);
	int64_t i = rt_level_lookup(l, block, set);

	h->now++;
	l->s.pf_issued++;
	if (i >= 0) {
		touch(h, l, set, (uint64_t)i, 0);
		l->s.pf_useless++;
		return;
	}
	h->updirty = 0;
	below(h, k, block << l->bshift, op, l->c.block);
	fill(h, k, block, h->updirty, UINT64_MAX);
	l->pfb[set * l->ways + l->hint[set]] = 1;
	if (l->inval != NULL)	/* back: its next miss is no coherence miss */
		rt_coh_missed(l, block);
}

/* A demand access to the twin of a prefetching level (tags only): a miss
 * counted and filled as the level would without prefetches; its random
 * draws its own, so that the level's are as they were. */
static __attribute__((noinline)) void
nopf(struct rt_hier *h, struct level *l, uint64_t block, int op)
{
	struct level *t = l->nopf;
	uint64_t set = rt_level_set(t, block), i;
	int64_t w = rt_level_lookup(t, block, set);
	struct rt_rng keep = h->rng;

	if (w >= 0) {
		touch(h, t, set, (uint64_t)w, 0);
		return;
	}
	l->s.nopf_misses++;
	if (op == RT_WRITE && l->c.nwa)
		return;
	h->rng = l->nopfrng;
	i = victim(h, t, set);
	l->nopfrng = h->rng;
	h->rng = keep;
	rt_level_put(t, set, i, block);
	t->hint[set] = (uint32_t)(i - set * t->ways);
	touch(h, t, set, i, 1);
}

/* One block access at level k; returns the level that had the block
 * (h->n for memory). */
static int
serve(struct rt_hier *h, int k, uint64_t addr, int op, uint32_t bytes)
{
	struct level *l = rt_hier_lvl(h, k);
	uint64_t block = addr >> l->bshift, set = rt_level_set(l, block), vw = UINT64_MAX;
	int64_t i = l->c.policy == RT_LRU && h->incl == RT_NINE ? lrulookup(l, block, set, &vw) :
	    rt_level_lookup(l, block, set);

	return served(h, k, block, set, i, vw, op, bytes);
}

/* serve after its lookup: block's way i in its set, or -1 and the way
 * to fill vw (UINT64_MAX: victim's choice at the fill). */
static int
served(struct rt_hier *h, int k, uint64_t block, uint64_t set, int64_t i, uint64_t vw, int op,
    uint32_t bytes)
{
	struct level *l = rt_hier_lvl(h, k);
	uint64_t base = block << l->bshift;
	int kind = op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0, from, fetch;

	h->now++;
	l->s.acc[kind]++;
	l->fpos++;
	if (__builtin_expect(l->pf != NULL, 0))
		nopf(h, l, block, op);
	if (l->arrive != NULL)
		l->arrive(l->arrivectx, block);
	if (l->threec)
		rt_hier_classify(h, k, block, op, i >= 0);
	if (i >= 0) {
		touch(h, l, set, (uint64_t)i, 0);
		if (__builtin_expect(l->pf != NULL, 0))
			pfhit(h, k, block, op, (uint64_t)i);
		if (h->incl == RT_EXCLUSIVE && k > 0) {
			/* found below the first level: it moves up, dirt and all */
			h->updirty = l->dirty[i];
			rt_level_drop(l, set, (uint64_t)i);
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
	if (__builtin_expect(l->pf != NULL, 0) && op != RT_WRITE)
		rt_pf_miss(h, k);
	h->updirty = 0;
	from = below(h, k, base, fetch, l->c.block);
	fill(h, k, block, (op == RT_WRITE && !l->c.wt) || h->updirty, vw);
	if (op == RT_WRITE && l->c.wt) {
		l->s.bytes_down += bytes;
		below(h, k, base, RT_WRITE, bytes);
	}
	if (__builtin_expect(l->pf != NULL, 0) && op != RT_WRITE)
		rt_pf_demand(h, k, block, fetch, 1, 1);
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
	return h->coh != NULL ? rt_coh_access(h, addr, op, bytes) : access1(h, addr, op, bytes);
}

int
rt_hier_access1(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes)
{
	return access1(h, addr, op, bytes);
}

/* Whether serve's hit at a first level is rt_hier_run's: a stamp, a dirty
 * bit, a count, and nothing that watches (3C's twin, OPT's arrivals) or
 * goes below (write-through).  Sets whose number is a power of two.  2:
 * a level with a hash, whose hit moves its way in its set's list too. */
static int
quickable(const struct level *l)
{
	return (l->c.policy == RT_LRU || l->c.policy == RT_MRU) && !l->c.wt && l->pf == NULL &&
	    !l->threec && l->arrive == NULL && (l->mask || l->nsets == 1) ?
	    1 + (l->hash != NULL) : 0;
}

/* The way of first level l that holds block, or -1 (then serve does it
 * all).  The ways of a set are side by side: the way last found is tried
 * first, then a search without branches. */
static inline int64_t
quickway(struct level *l, uint64_t block, int hq)
{
	uint64_t set = block & l->mask, b = set * l->ways, t = TAG(block), *tag = l->tag + b;
	uint32_t w = l->hint[set];
	int64_t i;

	if (tag[w] == t)
		return (int64_t)(b + w);
	if (hq && l->hash != NULL) {
		if ((i = rt_level_find(l, block)) >= 0)
			l->hint[set] = (uint32_t)((uint64_t)i - b);
		return i;
	}
	for (w = 0; w < l->ways && tag[w] != t; w++)
		;
	if (w == l->ways)
		return -1;
	l->hint[set] = w;
	return (int64_t)(b + w);
}

/* access1's miss at first level l (k 0, or -1 for the I-cache), a plain
 * LRU level (quickable 1): quickway's pass found no tag, so serve's
 * search is not made again; the victim is chosen here as lrulookup would
 * (without inclusion; with it, below may empty a way first and the fill
 * chooses).  A modify's write is then a hit, through serve. */
static void
quickmiss(struct rt_hier *h, struct level *l, int k, uint64_t block, int op, uint32_t bytes)
{
	uint64_t set = block & l->mask;

	served(h, k, block, set, -1, h->incl == RT_NINE ? lruvictim(l, set * l->ways) : UINT64_MAX,
	    op == RT_MODIFY ? RT_READ : op, bytes);
	if (op == RT_MODIFY)
		serve(h, k, block << l->bshift, RT_WRITE, bytes);
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
static inline __attribute__((always_inline)) size_t
run(struct rt_hier *h, const struct rt_rec *v, size_t n, int hq)
{
	struct level *lv[2];
	const struct rt_rec *r, *end = v + n;
	uint64_t hits[4] = { 0 }, lb[2] = { UINT64_MAX, UINT64_MAX }, li[2] = { 0 };
	uint64_t addr, last, blk, now = h->now, pk = 0, *st[2];
	uint8_t *dt[2];
	int64_t i;
	int op, side, k, q[2], bsh[2], lru[2];
	struct rt_span s;

	lv[0] = &h->lv[0];
	lv[1] = h->i1 != NULL ? h->i1 : lv[0];
	for (side = 0; side < 2; side++) {
		q[side] = quickable(lv[side]);
		lru[side] = q[side] == 1 && lv[side]->c.policy == RT_LRU;
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
			else if (!q[side] || (i = quickway(lv[side], blk, hq)) < 0) {
				h->now = now;
				lb[0] = lb[1] = UINT64_MAX;	/* serve may change any way */
				if (lru[side])
					quickmiss(h, lv[side], side && h->i1 != NULL ? -1 : 0, blk, op,
					    (uint32_t)(last - addr + 1));
				else
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
			if (hq && q[side] > 1)
				rt_level_touch(lv[side], blk & lv[side]->mask, (uint64_t)i);
			if (op == RT_WRITE || op == RT_MODIFY)
				dt[0][i] = 1;
			continue;
		}
		for (rt_span_start(&s, addr, last, lv[side]->c.block); rt_span_next(&s);) {
			if (q[side] && (i = quickway(lv[side], s.block, hq)) >= 0) {
				hits[op]++;
				now += 1 + (op == RT_MODIFY);
				st[side][i] = now;
				if (hq && q[side] > 1)
					rt_level_touch(lv[side], s.block & lv[side]->mask, (uint64_t)i);
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

/* With a prefetcher or cores (a TLB's): each access through serve, its
 * pc kept (a store per access that the plain path does without), its
 * core's levels in place. */
static size_t
slowrun(struct rt_hier *h, const struct rt_rec *v, size_t n)
{
	const struct rt_rec *r;
	struct rt_span s;

	for (r = v; r < v + n && r->kind == RT_ACCESS; r++) {
		h->pc = r->pc;
		if (h->coh != NULL)
			rt_hier_thread(h, r->tid);
		for (rt_span_start(&s, r->addr, rt_last(r), rt_hier_block(h, r->op)); rt_span_next(&s);)
			if (h->coh != NULL)
				rt_coh_access(h, s.addr, r->op, (uint32_t)s.len);
			else
				access1(h, s.addr, r->op, (uint32_t)s.len);
	}
	return (size_t)(r - v);
}

/* run with the hashed levels' steps compiled out where no side has one */
size_t
rt_hier_run(struct rt_hier *h, const struct rt_rec *v, size_t n)
{
	struct level *l1 = h->i1 != NULL ? h->i1 : &h->lv[0];

	if (h->pfon || h->coh != NULL || h->sb != NULL)
		return h->sb != NULL ? rt_sb_run(h, v, n) : slowrun(h, v, n);
	return quickable(&h->lv[0]) > 1 || quickable(l1) > 1 ? run(h, v, n, 1) : run(h, v, n, 0);
}
#undef LANES
