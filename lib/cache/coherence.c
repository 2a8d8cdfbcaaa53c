/* coherence.c: private caches over a shared one.  Every level but the
 * last is each core's own, the last is shared, and MSI keeps the private
 * copies coherent by snooping the other cores' private levels: a write
 * invalidates their copies (a dirty one written back to the shared level
 * first: M to I), a fetch that reaches the shared level makes their dirty
 * copies clean (written back: M to S).  A dirty private copy is M, a
 * clean one S; a write hit on S invalidates the others as a miss does.
 * A miss on a block whose copy another core's write took is a coherence
 * miss.  The current core's private levels are the hierarchy's own
 * (h->lv, h->i1), so that hier.c serves a core as it serves a machine of
 * one; a change of core swaps them. */
#include <stdlib.h>
#include <string.h>

#include "hier.h"

/* A set of block numbers: open addressing, linear probing, keys TAG(block)
 * as the levels' (0: empty). */
struct rt_cset { uint64_t *key, mask, n; };

struct rt_coh {
	int n, np, cur;			/* cores, private levels (data side), the current */
	struct level *lv;		/* core c's level k: lv[c * np + k], but the current's */
	struct level *i1;		/* core c's split I-cache: i1[c], or NULL */
	struct rt_cache_stats tot[RT_MAXLEVEL + 1];	/* by k + 1: the cores' sum */
	int err;			/* a block not remembered: out of memory */
};

static uint64_t
cslot(const struct rt_cset *s, uint64_t block)
{
	uint64_t j = rt_hash64(block) & s->mask;

	while (s->key[j] != INVALID && s->key[j] != TAG(block))
		j = (j + 1) & s->mask;
	return j;
}

static int
csadd(struct rt_cset *s, uint64_t block)
{
	struct rt_cset t = { NULL, s->mask ? 2 * s->mask + 1 : 63, 0 };
	uint64_t i;

	if (2 * (s->n + 1) > s->mask + 1) {	/* at most half full */
		if ((t.key = calloc(t.mask + 1, sizeof *t.key)) == NULL)
			return RT_ENOMEM;
		for (i = 0; s->key != NULL && i <= s->mask; i++)
			if (s->key[i] != INVALID)
				t.key[cslot(&t, TAG(s->key[i]))] = s->key[i];
		t.n = s->n;
		free(s->key);
		*s = t;
	}
	i = cslot(s, block);
	s->n += s->key[i] == INVALID;
	s->key[i] = TAG(block);
	return 0;
}

/* Whether block was in s; it is not now (the entries after it that hashed
 * at or before its slot move back: Knuth 6.4, algorithm R). */
static int
cstake(struct rt_cset *s, uint64_t block)
{
	uint64_t i, j, h;

	if (s->n == 0 || s->key[i = cslot(s, block)] == INVALID)
		return 0;
	s->key[i] = INVALID;
	s->n--;
	for (j = i;;) {
		j = (j + 1) & s->mask;
		if (s->key[j] == INVALID)
			return 1;
		h = rt_hash64(TAG(s->key[j])) & s->mask;
		if (((j - h) & s->mask) >= ((j - i) & s->mask)) {
			s->key[i] = s->key[j];
			s->key[j] = INVALID;
			i = j;
		}
	}
}

/* Core c's level k (-1: its I-cache). */
static struct level *
corelvl(const struct rt_hier *h, int c, int k)
{
	const struct rt_coh *o = h->coh;

	if (c == o->cur)
		return k < 0 ? h->i1 : &h->lv[k];
	return k < 0 ? &o->i1[c] : &o->lv[c * o->np + k];
}

int
rt_coh_shared(const struct rt_hier *h)
{
	return h->coh->np;
}

/* Core c's private level k made as core 0's t: its own arrays, 3C's
 * reference cache and prefetcher if t has them; with coherence, a set
 * of blocks taken. */
static int
corelevel(struct rt_hier *h, struct level *l, const struct level *t, int c)
{
	if (c > 0) {
		if (rt_level_init(l, &t->c))
			return RT_ENOMEM;
		l->narrow = t->narrow;
		l->tlb = t->tlb;
		l->threec = t->threec;
		if ((t->shadow != NULL && (l->shadow = rt_reuse_new(0)) == NULL) ||
		    (t->fa != NULL && (l->fa = rt_fa_new(&t->c, h->seed)) == NULL) ||
		    (t->pf != NULL && rt_pf_copy(l, t)))
			return RT_ENOMEM;
	}
	if (h->coh->np == h->n)	/* a TLB's: no coherence */
		return 0;
	l->threec = 1;
	return (l->inval = calloc(1, sizeof *l->inval)) == NULL ? RT_ENOMEM : 0;
}

/* Why h cannot have cores, or NULL. */
static const char *
refused(const struct rt_hier *h)
{
	int k;

	if (h->n < 2)
		return "the last level is shared: give two levels or more";
	if (h->incl != RT_NINE)
		return "private levels are non-inclusive (as drcachesim's)";
	for (k = h->i1 ? -1 : 0; k < h->n; k++) {
		if (rt_hier_lvl((struct rt_hier *)h, k)->c.block != h->lv[0].c.block)
			return "one block size at every level (as drcachesim's -line_size)";
		if (rt_hier_lvl((struct rt_hier *)h, k)->c.policy >= RT_OPT)
			return "opt and pes foresee one stream, not a core's";
	}
	return NULL;
}

int
rt_hier_cores(struct rt_hier *h, int n, char *why, size_t whylen)
{
	const char *no = refused(h);

	if (n < 1 || n > RT_MAXCORES || no != NULL) {
		snprintf(why, whylen, "%s", no != NULL ? no : "1 to 64 cores");
		return RT_EUSAGE;
	}
	snprintf(why, whylen, "cannot allocate the caches of %d cores", n);
	return rt_coh_new(h, n, h->n - 1);
}

/* n cores, each with its own levels 0 .. np-1 (and I-cache); np may be
 * every level (a TLB's: nothing shared, nothing snooped). */
int
rt_coh_new(struct rt_hier *h, int n, int np)
{
	struct rt_coh *o;
	int c, k;

	if ((o = h->coh = calloc(1, sizeof *o)) == NULL ||
	    (o->lv = calloc((size_t)n * np, sizeof *o->lv)) == NULL ||
	    (h->i1 != NULL && (o->i1 = calloc((size_t)n, sizeof *o->i1)) == NULL))
		return RT_ENOMEM;
	o->n = n;	/* rt_coh_free frees what is made */
	o->np = np;
	for (c = 0; c < n; c++)
		for (k = h->i1 ? -1 : 0; k < np; k++)
			if (corelevel(h, c ? corelvl(h, c, k) : rt_hier_lvl(h, k),
			    rt_hier_lvl(h, k), c))
				return RT_ENOMEM;
	if (np == h->n)
		return 0;
	h->slow[np] = 1;	/* the last private level's fetches are snooped */
	if (np == 1)
		h->slow[0] = 1;	/* and the I-cache's, when the next is shared */
	return 0;
}

void
rt_coh_free(struct rt_hier *h)
{
	struct rt_coh *o = h->coh;
	struct level *l;
	int c, k;

	if (o == NULL)
		return;
	for (c = 0; c < o->n; c++)
		for (k = h->i1 ? -1 : 0; k < o->np; k++) {
			l = corelvl(h, c, k);
			if (l->inval != NULL)
				free(l->inval->key);
			free(l->inval);
			l->inval = NULL;
			if (c != o->cur)	/* the current's are the hierarchy's */
				rt_level_free(l);
		}
	free(o->lv);
	free(o->i1);
	free(o);
	h->coh = NULL;
}

void
rt_hier_thread(struct rt_hier *h, uint32_t tid)
{
	struct rt_coh *o = h->coh;
	int c = tid == RT_NOTID ? 0 : (int)(tid % (uint32_t)o->n);

	if (c == o->cur)
		return;
	memcpy(&o->lv[o->cur * o->np], h->lv, (size_t)o->np * sizeof *h->lv);
	memcpy(h->lv, &o->lv[c * o->np], (size_t)o->np * sizeof *h->lv);
	if (h->i1 != NULL) {
		o->i1[o->cur] = *h->i1;
		*h->i1 = o->i1[c];
	}
	o->cur = c;
}

/* The other cores' copies of block: with inval dropped (the block
 * remembered for a coherence miss), else made clean (a downgrade); a
 * dirty one is written back to the shared level first. */
static void
snoop(struct rt_hier *h, uint64_t block, int inval)
{
	struct rt_coh *o = h->coh;
	struct level *l;
	uint64_t set;
	int64_t i;
	int c, k;

	if (o->np == h->n)	/* TLBs: a write needs no TLB coherence */
		return;
	for (c = 0; c < o->n; c++)
		for (k = h->i1 ? -1 : 0; k < o->np && c != o->cur; k++) {
			l = corelvl(h, c, k);
			if (inval && l->nopf != NULL)
				rt_pf_forget(l, block);
			if ((i = rt_level_lookup(l, block, set = rt_level_set(l, block))) < 0)
				continue;
			if (l->dirty[i]) {
				l->dirty[i] = 0;
				l->s.writebacks++;
				l->s.downgrades += !inval;
				l->s.bytes_down += l->c.block;
				rt_hier_below(h, o->np - 1, block << l->bshift, RT_WRITE, l->c.block);
			}
			if (inval) {
				if (l->pfb != NULL && l->pfb[i]) {
					l->s.pf_unused++;
					l->pfb[i] = 0;
				}
				rt_level_drop(l, set, (uint64_t)i);
				l->s.invalidations++;
				o->err |= csadd(l->inval, block) != 0;
			}
		}
}

/* A modify is a read then a write, as hier.c's.  A block dirty in the
 * first level is M there: no other core has a copy to invalidate. */
int
rt_coh_access(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes)
{
	struct level *l = &h->lv[0];
	uint64_t b = addr >> l->bshift;
	int64_t i;
	int k;

	if (op == RT_MODIFY) {
		k = rt_coh_access(h, addr, RT_READ, bytes);
		rt_coh_access(h, addr, RT_WRITE, bytes);
		return k;
	}
	if (op == RT_WRITE && ((i = rt_level_lookup(l, b, rt_level_set(l, b))) < 0 ||
	    !l->dirty[i]))
		snoop(h, b, 1);
	return rt_hier_access1(h, addr, op, bytes);
}

void
rt_coh_fetch(struct rt_hier *h, uint64_t addr)
{
	snoop(h, addr >> h->lv[0].bshift, 0);
}

int
rt_coh_missed(struct level *l, uint64_t block)
{
	return cstake(l->inval, block);
}

const struct rt_cache_stats *
rt_coh_total(const struct rt_hier *h, int k)
{
	struct rt_coh *o = h->coh;
	struct rt_cache_stats *t = &o->tot[k + 1];
	int c;

	memset(t, 0, sizeof *t);
	for (c = 0; c < o->n; c++)
		rt_stats_add(t, &corelvl(h, c, k)->s);
	return t;
}

void
rt_coh_zero(struct rt_hier *h)
{
	int c, k;

	for (c = 0; c < h->coh->n; c++)
		for (k = h->i1 ? -1 : 0; k < h->coh->np; k++)
			memset(&corelvl(h, c, k)->s, 0, sizeof h->mem);
}

/* A flush or invalidate: each core's private levels, first to last, then
 * the shared level, so that what one writes back reaches the next first. */
void
rt_coh_event(struct rt_hier *h, const struct rt_rec *ev)
{
	int c, k, cur = h->coh->cur;

	for (c = 0; c < h->coh->n; c++) {
		rt_hier_thread(h, (uint32_t)c);
		for (k = h->i1 ? -1 : 0; k < h->coh->np; k++)
			rt_hier_eventk(h, k, ev);
	}
	rt_hier_thread(h, (uint32_t)cur);
	for (k = h->coh->np; k < h->n; k++)
		rt_hier_eventk(h, k, ev);
}

int
rt_hier_ncores(const struct rt_hier *h)
{
	return h->coh != NULL ? h->coh->n : 0;
}

int
rt_hier_private(const struct rt_hier *h)
{
	return h->coh != NULL ? h->coh->np : 0;
}

const struct rt_cache_stats *
rt_hier_corestats(const struct rt_hier *h, int core, int k, const struct rt_cache_cfg **cfg)
{
	const struct level *l = corelvl(h, core, k);

	*cfg = &l->c;
	return &l->s;
}

int
rt_hier_failed(const struct rt_hier *h)
{
	return (h->coh != NULL && h->coh->err) || rt_sb_failed(h) ? RT_ENOMEM : 0;
}
