/* hierctl.c: what is asked of a hierarchy besides accesses: flushes and
 * invalidations (Dinero IV's copy-back), the future for OPT, 3C's twins
 * and their classes of misses, its statistics; making and freeing it. */
#include <stdlib.h>
#include <string.h>

#include "hier.h"

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
	h->seed = seed;
	h->pfrnd = 1;
	if ((h->lv = calloc(n, sizeof *h->lv)) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		if (rt_level_init(&h->lv[i], &levels[i]))
			goto fail;
	if (icache != NULL && ((h->i1 = calloc(1, sizeof *h->i1)) == NULL ||
	    rt_level_init(h->i1, icache)))
		goto fail;
	for (i = 1; i < n; i++) {
		h->lv[i].narrow = levels[i].block < levels[i - 1].block ||
		    (i == 1 && icache != NULL && levels[i].block < icache->block);
		h->slow[i] = (uint8_t)h->lv[i].narrow;	/* level i - 1 sends to i */
	}
	h->slow[0] = (uint8_t)(n > 1 && h->lv[1].narrow);	/* the I-cache sends to 1 */
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
	rt_coh_free(h);
	for (i = 0; h->lv && i < h->n; i++)
		rt_level_free(&h->lv[i]);
	free(h->lv);
	if (h->i1)
		rt_level_free(h->i1);
	free(h->i1);
	free(h);
}

void
rt_hier_watch(struct rt_hier *h, int level, rt_down_fn *fn, void *ctx)
{
	h->down = fn;
	h->downctx = ctx;
	h->downlevel = level;
	h->slow[level + 1] = 1;
	if (level == 0)
		h->slow[0] = 1;
}

/* 3C: the kind of a miss at level k, against the reference fully
 * associative cache, which sees every access: Hill's LRU (a reuse
 * distance of the level's blocks or more misses there) or Dinero IV's of
 * the level's own policy; a miss is compulsory at the block's first
 * (first missed, in Dinero's), capacity where the reference cache
 * misses too, else conflict. */
void
rt_hier_classify(struct rt_hier *h, int k, uint64_t block, int op, int hit)
{
	struct level *l = rt_hier_lvl(h, k);
	uint64_t d, td;
	int c, fa;

	if (l->shadow != NULL) {
		if (rt_reuse_access(l->shadow, block, &d, &td) != 0 || hit)
			return;
		c = d == RT_COLD ? RT_3C_COMPULSORY :
		    d >= l->c.size / l->c.block ? RT_3C_CAPACITY : RT_3C_CONFLICT;
	} else if (l->fa != NULL) {
		fa = rt_fa_access(l->fa, block, op == RT_WRITE);
		if (hit || (!fa && (c = rt_fa_first(l->fa, block)) < 0))
			return;
		c = fa ? RT_3C_CONFLICT : c ? RT_3C_COMPULSORY : RT_3C_CAPACITY;
	} else if (hit)	/* cores without 3C: coherence misses alone */
		return;
	else
		c = RT_3C_NONE;
	if (l->inval != NULL && rt_coh_missed(l, block))
		c = RT_3C_COHERENCE;
	if (c == RT_3C_COMPULSORY)
		l->s.compulsory++;
	else if (c == RT_3C_CAPACITY)
		l->s.capacity++;
	else if (c == RT_3C_CONFLICT)
		l->s.conflict++;
	else if (c == RT_3C_COHERENCE)
		l->s.coherence++;
	if (k >= 0)
		h->miss3c[k] = c;
}

/* A way's part in a flush: its dirty block written below and kept, or
 * with inval dropped unwritten. */
static void
flushway(struct rt_hier *h, int k, uint64_t i, int inval)
{
	struct level *l = rt_hier_lvl(h, k);

	if (l->tag[i] == INVALID)
		return;
	if (inval)
		rt_level_drop(l, i / l->ways, i);
	else if (l->dirty[i]) {
		l->s.writebacks++;
		l->s.bytes_down += l->c.block;
		rt_hier_below(h, k, TAG(l->tag[i]) * l->c.block, RT_WRITE, l->c.block);
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
	struct level *l = rt_hier_lvl(h, k);
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
rt_hier_eventk(struct rt_hier *h, int k, const struct rt_rec *ev)
{
	struct level *l = rt_hier_lvl(h, k);
	struct rt_span s;
	int64_t w;
	int inval = ev->kind == RT_INVAL;

	if (inval && l->nopf != NULL)
		rt_pf_inval(l, ev);
	if (ev->size == 0) {
		flushall(h, k, inval);
		return;
	}
	for (rt_span_start(&s, ev->addr, rt_last(ev), l->c.block); rt_span_next(&s);)
		if ((w = rt_level_lookup(l, s.block, rt_level_set(l, s.block))) >= 0)
			flushway(h, k, (uint64_t)w, inval);
}

void
rt_hier_event(struct rt_hier *h, const struct rt_rec *ev)
{
	int k;

	if (ev->kind != RT_FLUSH && ev->kind != RT_INVAL)
		return;
	if (h->coh != NULL) {	/* every core's private levels, then the shared */
		rt_coh_event(h, ev);
		return;
	}
	for (k = h->i1 ? -1 : 0; k < h->n; k++)
		rt_hier_eventk(h, k, ev);
}

void
rt_hier_future(struct rt_hier *h, int k, const uint64_t *next, size_t n)
{
	struct level *l = rt_hier_lvl(h, k);

	l->fut = next;
	l->nfut = n;
}

void
rt_hier_arrivals(struct rt_hier *h, int k, rt_arrive_fn *fn, void *ctx)
{
	struct level *l = rt_hier_lvl(h, k);

	l->arrive = fn;
	l->arrivectx = ctx;
}


uint64_t
rt_hier_set(const struct rt_hier *h, uint64_t addr, int op)
{
	const struct level *l = op == RT_IFETCH && h->i1 != NULL ? h->i1 : &h->lv[0];

	return rt_level_set(l, addr / l->c.block);
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

/* 3C: every miss is compulsory (the block's first), capacity (a fully
 * associative cache of the same size misses too) or conflict; that cache
 * is LRU and allocates on every miss (Hill), or with RT_3C_OWN keeps the
 * level's policy and allocation (Dinero IV; RT_EUSAGE for a policy it
 * does not have). */
int
rt_hier_3c(struct rt_hier *h, int how)
{
	struct level *l;
	int k;

	for (k = h->i1 ? -1 : 0; k < h->n; k++) {
		l = rt_hier_lvl(h, k);
		if (how == RT_3C_OWN && l->c.policy != RT_LRU && l->c.policy != RT_FIFO &&
		    l->c.policy != RT_RANDOM)
			return RT_EUSAGE;
	}
	for (k = h->i1 ? -1 : 0; k < h->n; k++) {
		l = rt_hier_lvl(h, k);
		if (how == RT_3C_OWN ? (l->fa = rt_fa_new(&l->c, h->seed)) == NULL :
		    (l->shadow = rt_reuse_new(0)) == NULL)
			return RT_ENOMEM;
		l->threec = 1;
	}
	return 0;
}

void
rt_stats_add(struct rt_cache_stats *a, const struct rt_cache_stats *b)
{
	int i;

	for (i = 0; i < 3; i++) {
		a->acc[i] += b->acc[i];
		a->miss[i] += b->miss[i];
	}
	a->evictions += b->evictions;
	a->writebacks += b->writebacks;
	a->invalidations += b->invalidations;
	a->compulsory += b->compulsory;
	a->capacity += b->capacity;
	a->conflict += b->conflict;
	a->bytes_up += b->bytes_up;
	a->bytes_down += b->bytes_down;
	a->coherence += b->coherence;
	a->downgrades += b->downgrades;
	a->pf_issued += b->pf_issued;
	a->pf_useless += b->pf_useless;
	a->pf_useful += b->pf_useful;
	a->pf_unused += b->pf_unused;
	a->nopf_misses += b->nopf_misses;
	a->pf_aborted += b->pf_aborted;
}

int
rt_hier_levels(const struct rt_hier *h)
{
	return h->n;
}

const struct rt_cache_stats *
rt_hier_stats(const struct rt_hier *h, int k, const struct rt_cache_cfg **cfg)
{
	if (h->coh != NULL && k < rt_coh_shared(h) && (k >= 0 || h->i1 != NULL)) {
		*cfg = &rt_hier_lvl((struct rt_hier *)h, k)->c;
		return rt_coh_total(h, k);
	}
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

/* Warm-up: what came so far is not counted. */
void
rt_hier_zero(struct rt_hier *h)
{
	int k;

	for (k = h->i1 ? -1 : 0; k < h->n; k++)
		memset(&rt_hier_lvl(h, k)->s, 0, sizeof h->mem);
	memset(&h->mem, 0, sizeof h->mem);
	if (h->coh != NULL)
		rt_coh_zero(h);
}

double
rt_hier_filled(const struct rt_hier *h)
{
	const struct level *l = &h->lv[h->n - 1];

	return (double)l->filled / (double)(l->nsets * l->ways);
}

void
rt_hier_setstats(struct rt_hier *h, int k, const struct rt_cache_stats *s)
{
	rt_hier_lvl(h, k)->s = *s;
}
