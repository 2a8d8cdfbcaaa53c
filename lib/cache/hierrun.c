/* hierrun.c: the hierarchy's fast path, accesses in a row whose
 * first-level hits cost a few instructions; the rest go through
 * rt_hier_access1 (hier.c). */
#include "hier.h"

/* Whether serve's hit at a first level is rt_hier_run's: a stamp, a dirty
 * bit, a count, and nothing that watches (3C's twin, OPT's arrivals) or
 * goes below (write-through).  Sets whose number is a power of two. */
static int
quickable(const struct level *l)
{
	return (l->c.policy == RT_LRU || l->c.policy == RT_MRU) && !l->c.wt &&
	    l->shadow == NULL && l->fa == NULL && l->arrive == NULL && (l->mask || l->nsets == 1);
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
				rt_hier_access1(h, addr, op, (uint32_t)(last - addr + 1));
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
			rt_hier_access1(h, s.addr, op, (uint32_t)s.len);
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
