/* subblk.c: Dinero IV's sub-blocks (-lN-Tsbsize): a hierarchy with a
 * level of sub-blocks runs here, a port of its d4ref (ref.c) and
 * d4copyback (misc.c): per way valid, dirty and referenced masks of
 * sub-blocks; a reference misses when its block is absent or a sub-block
 * it touches is invalid, and fetches only those sub-blocks; write-back
 * writes each run of dirty sub-blocks.  Each level keeps Dinero's stack
 * of pending references: the fetch, then a write-through, then the
 * victim's runs, then a prefetch, then the rest of a reference that
 * crossed into the next block.  LRU or FIFO, wb/wt and wa/nwa, prefetch
 * d a m t l s (distance in sub-blocks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hier.h"

struct sbway { uint64_t blk, valid, dirty, ref, pfd, st; };
struct sbref { uint64_t addr; uint32_t size; uint8_t op, pf, multi; };

struct sblv {
	struct level *l;
	struct rt_cache_stats *s;
	int bshift, sshift, fifo, kind, twin;
	int abort;				/* -Tpfabort's percent, drawn from *rnd */
	uint64_t *rnd;
	uint64_t nsets, ways, now, dist;	/* dist: the prefetch distance in bytes */
	struct sbway *w;
	struct sbref *stk;
	size_t top, cap;
	int fail;
	struct sblv *nopf;			/* a prefetching level's twin */
};

struct rt_sb {
	int n;				/* levels: v[0] the I-cache (or unused), v[1 + k] lv[k] */
	struct sblv v[RT_MAXLEVEL + 1];
	struct rt_cache_stats twins[RT_MAXLEVEL + 1];	/* the twins' own, unread */
};

static struct sblv *
lvof(struct rt_sb *b, int k)
{
	return &b->v[k + 1];
}

static int
initlv(struct sblv *v, struct level *l, struct rt_cache_stats *s)
{
	v->l = l;
	v->s = s;
	v->bshift = l->bshift;
	v->sshift = __builtin_ctz(l->c.sub ? l->c.sub : l->c.block);
	v->fifo = l->c.policy == RT_FIFO;
	v->nsets = l->nsets;
	v->ways = l->ways;
	v->w = calloc(v->nsets * v->ways, sizeof *v->w);
	return v->w == NULL;
}

static void
push(struct sblv *v, uint64_t addr, uint32_t size, int op, int pf, int multi)
{
	struct sbref *n;

	if (v->twin)
		return;
	if (v->top == v->cap) {
		if ((n = realloc(v->stk, (v->cap * 2 + 16) * sizeof *n)) == NULL) {
			v->fail = 1;
			return;
		}
		v->stk = n;
		v->cap = v->cap * 2 + 16;
	}
	v->stk[v->top++] = (struct sbref){ addr, size, (uint8_t)op, (uint8_t)pf, (uint8_t)multi };
}

/* d4_wbblock: a write per run of dirty valid sub-blocks, pushed in
 * address order (so sent last first) */
static void
wbblock(struct sblv *v, struct sbway *w)
{
	uint64_t d = w->valid & w->dirty, a = w->blk << v->bshift, start;
	int j = 0;

	while (d != 0) {
		for (; !(d >> j & 1); j++)
			;
		start = a + ((uint64_t)j << v->sshift);
		for (; j < 64 && (d >> j & 1); j++)
			d &= ~(1ull << j);
		push(v, start, (uint32_t)((a + ((uint64_t)j << v->sshift)) - start), RT_WRITE, 0, 0);
		v->s->writebacks++;
	}
	w->dirty = 0;
}

/* One reference's work at level v (d4ref before d4_dopending) */
static void
work(struct sblv *v, struct sbref m)
{
	uint64_t bsize = 1ull << v->bshift, bmask = bsize - 1, blk = m.addr >> v->bshift;
	uint64_t set = v->nsets & (v->nsets - 1) ? blk % v->nsets : blk & (v->nsets - 1);
	struct sbway *w = &v->w[set * v->ways], *p = NULL, *r;
	uint64_t bits, i, pa, nsb;
	int first, last, kind = m.op == RT_WRITE ? 1 : m.op == RT_IFETCH ? 2 : 0, miss, bmiss, wb;
	int walloc = m.op == RT_WRITE && !v->l->c.nwa, go = 0;

	if ((m.addr & bmask) + m.size > bsize) {	/* d4_splitm */
		push(v, (blk + 1) << v->bshift, m.size - (uint32_t)(bsize - (m.addr & bmask)),
		    m.op, 0, 1);
		m.size = (uint32_t)(bsize - (m.addr & bmask));
	}
	first = (int)((m.addr & bmask) >> v->sshift);
	last = (int)(((m.addr + m.size - 1) & bmask) >> v->sshift);
	bits = (last == 63 ? ~0ull : (2ull << last) - 1) & ~((1ull << first) - 1);
	nsb = (uint64_t)(last - first + 1);
	for (i = 0; i < v->ways; i++)
		if (w[i].valid && w[i].blk == blk) {
			p = &w[i];
			break;
		}
	bmiss = p == NULL;
	miss = bmiss || (p->valid & bits) != bits;
	if (!m.pf && m.op != RT_WRITE && v->kind != RT_PF_DEMAND) {
		pa = m.addr + v->dist;
		switch (v->kind) {
		case RT_PF_MISS: go = miss; break;
		case RT_PF_TAGGED: go = miss || !(p->ref & bits); break;
		case RT_PF_LOADFW: go = pa >> v->bshift == blk; break;
		default: go = 1;
		}
		pa = pa >> v->sshift << v->sshift;
		if (v->kind == RT_PF_SUBBLOCK && pa >> v->bshift != blk)
			pa -= bsize;
		if (go && v->abort && rt_pf_draw(v->rnd, v->abort)) {
			v->s->pf_aborted++;	/* d4ref throws it away */
			go = 0;
		}
		if (go) {
			push(v, pa, 1u << v->sshift, m.op, 1, 0);
			v->s->pf_issued++;
		}
	}
	wb = 0;
	if (m.op != RT_WRITE || !bmiss || walloc) {
		if (bmiss) {	/* an empty way, else the least recent (first filled) */
			for (i = 0, p = w; i < v->ways && w[i].valid; i++)
				if (w[i].st < p->st)
					p = &w[i];
			if (i < v->ways) {
				p = &w[i];
				v->l->filled += !v->twin;
			} else {
				r = p;	/* Dinero: the victim goes after the new block is in */
				v->s->evictions++;
				if (!v->twin)
					v->s->pf_unused += (uint64_t)__builtin_popcountll(r->pfd & r->valid);
			}
			if (i == v->ways && (p->valid & p->dirty))
				wbblock(v, p);
			*p = (struct sbway){ blk, 0, 0, 0, 0, ++v->now };
		} else if (!v->fifo)
			p->st = ++v->now;
		if (!m.pf && (p->pfd & bits & p->valid) && !v->twin) {
			v->s->pf_useful += (uint64_t)__builtin_popcountll(p->pfd & bits & p->valid);
			p->pfd &= ~bits;
		}
		if (m.pf)
			p->pfd |= bits & ~p->valid;
		p->valid |= bits;
		if (!m.pf)
			p->ref |= bits;
		wb = m.op == RT_WRITE && !v->l->c.wt;
		if (wb)
			p->dirty |= bits;
	}
	if (m.op == RT_WRITE && !wb)
		push(v, m.addr, m.size, RT_WRITE, 0, 0);
	if (miss && (m.op != RT_WRITE || (walloc && m.size != nsb << v->sshift)))
		push(v, m.addr >> v->sshift << v->sshift, (uint32_t)(nsb << v->sshift),
		    m.op == RT_IFETCH ? RT_IFETCH : RT_READ, 0, 0);
	if (m.pf) {
		v->s->pf_useless += !miss;
		v->s->sb_blockmiss[1] += bmiss;
		return;
	}
	if (v->twin) {
		v->l->s.nopf_misses += (uint64_t)miss;
		return;
	}
	v->s->acc[kind]++;
	v->s->miss[kind] += miss;
	v->s->sb_blockmiss[0] += bmiss;
	if (v->nopf != NULL)
		work(v->nopf, m);
}

static void ref(struct rt_hier *h, int k, struct sbref m);

/* d4_dopending: level k's stack, the last pushed first */
static void
drain(struct rt_hier *h, int k)
{
	struct sblv *v = lvof(h->sb, k);
	struct sbref m;

	while (v->top > 0) {
		m = v->stk[--v->top];
		if (m.pf || m.multi) {
			m.multi = 0;
			work(v, m);
			continue;
		}
		if (m.op == RT_WRITE)
			v->s->bytes_down += m.size;
		else
			v->s->bytes_up += m.size;
		ref(h, k < 0 ? 1 : k + 1, m);
	}
}

static void
ref(struct rt_hier *h, int k, struct sbref m)
{
	if (k >= h->n) {
		h->mem.acc[m.op == RT_WRITE ? 1 : m.op == RT_IFETCH ? 2 : 0]++;
		return;
	}
	work(lvof(h->sb, k), m);
	drain(h, k);
}

size_t
rt_sb_run(struct rt_hier *h, const struct rt_rec *v, size_t n)
{
	const struct rt_rec *r;
	uint64_t a, len;
	uint32_t part;
	int op;

	for (r = v; r < v + n && r->kind == RT_ACCESS; r++)
		for (op = r->op == RT_MODIFY ? RT_READ : r->op;; op = RT_WRITE) {
			for (a = r->addr, len = r->size ? r->size : 1; len > 0; a += part, len -= part) {
				part = len > UINT32_MAX >> 1 ? UINT32_MAX >> 1 : (uint32_t)len;
				ref(h, op == RT_IFETCH && h->i1 != NULL ? -1 : 0,
				    (struct sbref){ a, part, (uint8_t)op, 0, 0 });
			}
			if (r->op != RT_MODIFY || op == RT_WRITE)
				break;
		}
	return (size_t)(r - v);
}

/* d4copyback of the first data level, carried down (size 0: everything;
 * the sets from the last, in a set the least recent first), or
 * d4invalidate of every level */
void
rt_sb_event(struct rt_hier *h, const struct rt_rec *ev)
{
	struct sblv *v;
	struct sbway *w;
	uint64_t i, j, blk;
	int k;

	for (k = h->i1 ? -1 : 0; k < h->n; k++) {
		v = lvof(h->sb, k);
		for (i = 0; i < v->nsets * v->ways; i++) {
			w = &v->w[i];
			blk = ev->addr >> v->bshift;
			if (!w->valid || (ev->size && (w->blk < blk || w->blk > rt_last(ev) >> v->bshift)))
				continue;
			if (ev->kind == RT_INVAL) {
				w->valid = 0;
				v->s->invalidations++;
			}
		}
		if (ev->kind != RT_FLUSH || k < 0)
			continue;
		for (i = 0; i < v->nsets; i++) {	/* pushed: each set's most recent first */
			for (;;) {
				struct sbway *best = NULL;
				for (j = 0; j < v->ways; j++) {
					w = &v->w[i * v->ways + j];
					blk = ev->addr >> v->bshift;
					if (!(w->valid & w->dirty) || (ev->size && (w->blk < blk ||
					    w->blk > rt_last(ev) >> v->bshift)))
						continue;
					if (best == NULL || (w->st > best->st))
						best = w;
				}
				if (best == NULL)
					break;
				wbblock(v, best);
			}
		}
		drain(h, k);
	}
}

int
rt_sb_new(struct rt_hier *h)
{
	struct rt_sb *b;
	struct level *l;
	int k;

	for (k = h->i1 ? -1 : 0; k < h->n && !rt_hier_lvl(h, k)->c.sub; k++)
		;
	if (k == h->n)
		return 0;
	if ((h->sb = b = calloc(1, sizeof *b)) == NULL)
		return -1;
	for (k = h->i1 ? -1 : 0; k < h->n; k++) {
		l = rt_hier_lvl(h, k);
		if (initlv(lvof(b, k), l, &l->s))
			return -1;
	}
	return 0;
}

int
rt_sb_prefetch(struct rt_hier *h, int k, const struct rt_pf_cfg *c, char *why, size_t whylen)
{
	struct sblv *v = lvof(h->sb, k);

	if (c->kind >= RT_PF_STRIDE) {
		snprintf(why, whylen, "with sub-blocks, Dinero IV's d a m t l s");
		return RT_EUSAGE;
	}
	if ((c->kind == RT_PF_LOADFW || c->kind == RT_PF_SUBBLOCK) &&
	    ((uint64_t)c->n << v->sshift) > (1ull << v->bshift)) {
		snprintf(why, whylen, "a distance of %u sub-blocks is more than a block", c->n);
		return RT_EUSAGE;
	}
	v->kind = c->kind;
	v->dist = (uint64_t)c->n << v->sshift;
	v->abort = c->abort;
	v->rnd = &h->pfrnd;
	if (c->kind == RT_PF_DEMAND || v->nopf != NULL)
		return 0;
	if ((v->nopf = calloc(1, sizeof *v->nopf)) == NULL ||
	    initlv(v->nopf, v->l, &h->sb->twins[k + 1]))
		return RT_ENOMEM;
	v->nopf->twin = 1;
	return 0;
}

/* What sub-blocks are not simulated with: 0, or RT_EUSAGE with why */
int
rt_sb_check(const struct rt_hier *h, int other, char *why, size_t whylen)
{
	int k;

	if (h->sb == NULL)
		return 0;
	if (other || h->incl != RT_NINE) {
		snprintf(why, whylen, "sub-blocks are simulated in one non-inclusive configuration, "
		    "without 3C, --cores, TLB levels, maps or OPT");
		return RT_EUSAGE;
	}
	for (k = h->i1 ? -1 : 0; k < h->n; k++)
		if (h->sb->v[k + 1].fifo == 0 && h->sb->v[k + 1].l->c.policy != RT_LRU) {
			snprintf(why, whylen, "with sub-blocks, a level's policy is lru or fifo");
			return RT_EUSAGE;
		}
	return 0;
}

int
rt_hier_subblocks(const struct rt_hier *h)
{
	return h->sb != NULL;
}

int
rt_sb_failed(const struct rt_hier *h)
{
	int k;

	for (k = 0; h->sb != NULL && k <= RT_MAXLEVEL; k++)
		if (h->sb->v[k].fail)
			return 1;
	return 0;
}

void
rt_sb_free(struct rt_sb *b)
{
	int k;

	for (k = 0; b != NULL && k <= RT_MAXLEVEL; k++) {
		free(b->v[k].w);
		free(b->v[k].stk);
		if (b->v[k].nopf != NULL)
			free(b->v[k].nopf->w);
		free(b->v[k].nopf);
	}
	free(b);
}
