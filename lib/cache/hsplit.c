/* hsplit.c: one hierarchy on two threads, its first levels on one and
 * the levels below on the other.
 *
 * Without inclusion nothing below changes a first level: the first
 * levels' hits and misses are what they are whatever is below, and the
 * levels below see only what the first levels send them (fetches of
 * missed blocks, write-backs, writes through), in order.  So the first
 * thread runs the first levels and keeps what they send below in a
 * stream; the second runs that stream through the levels below.  Each
 * level has one thread's clock for its stamps: the order of a level's
 * accesses, and so every LRU choice, is that of one thread's run.
 * A flush or invalidation goes to the first levels in the first thread
 * (their write-backs into the stream), and to the levels below where
 * the stream reaches it, as one thread does it level by level. */
#include <stdlib.h>
#include <string.h>

#include "hier.h"

/* Whether h runs split: two levels or more, one thread's counts its only
 * outputs (no prefetchers, cores, sub-blocks, inclusion, watcher, OPT's
 * arrivals), and random choices on one side only (one generator serves
 * every level, and split, the draws of the two sides would interleave
 * otherwise than in one thread). */
int
rt_hier_cansplit(const struct rt_hier *h)
{
	int k, up = 0, down = 0;

	if (h->n < 2 || h->incl != RT_NINE || h->pfon || h->coh != NULL || h->sb != NULL ||
	    h->down != NULL)
		return 0;
	for (k = h->i1 != NULL ? -1 : 0; k < h->n; k++) {
		const struct level *l = k < 0 ? h->i1 : &h->lv[k];

		if (l->arrive != NULL || l->pf != NULL || l->inval != NULL || l->tlb)
			return 0;
		if (l->c.policy == RT_RANDOM && k < 1)
			up = 1;
		else if (l->c.policy == RT_RANDOM)
			down = 1;
	}
	return !(up && down);
}

/* low: h's copy for the levels below (its own clock, counts of memory,
 * generator); h's first levels send to a stream from now on. */
int
rt_hier_split(struct rt_hier *h, struct rt_hier **low)
{
	if ((*low = malloc(sizeof **low)) == NULL)
		return RT_ENOMEM;
	**low = *h;
	h->slow[0] = h->slow[1] = 1;	/* their sends to rt_hier_below */
	return 0;
}

/* The stream the first levels send to until the next call, emptied. */
void
rt_hier_upper(struct rt_hier *h, struct rt_hsplit *s)
{
	s->n = 0;
	h->split = s;
}

int
rt_hsplit_put(struct rt_hsplit *s, uint64_t addr, int op, uint32_t bytes)
{
	struct rt_hdown *v;
	size_t cap;

	if (s->n == s->cap) {
		cap = s->cap ? 2 * s->cap : 4096;
		if ((v = realloc(s->v, cap * sizeof *v)) == NULL) {
			s->failed = 1;
			return -1;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].addr = addr;
	s->v[s->n].bytes = bytes;
	s->v[s->n++].op = op;
	return 0;
}

/* Event ev, item at of the records the stream goes with: the first
 * levels' part now, the rest where the stream has it. */
void
rt_hier_upper_event(struct rt_hier *h, const struct rt_rec *ev, size_t at)
{
	int k;

	if (ev->kind != RT_FLUSH && ev->kind != RT_INVAL)
		return;
	for (k = h->i1 != NULL ? -1 : 0; k < 1; k++)
		rt_hier_eventk(h, k, ev);
	rt_hsplit_put(h->split, at, RT_HEVENT, 0);
}

/* The stream s through the levels below; v: its records, for events. */
void
rt_hier_lower(struct rt_hier *low, const struct rt_hsplit *s, const struct rt_rec *v)
{
	const struct rt_hdown *d;
	int k;

	for (d = s->v; d < s->v + s->n; d++)
		if (d->op == RT_HEVENT)
			for (k = 1; k < low->n; k++)
				rt_hier_eventk(low, k, &v[d->addr]);
		else
			rt_hier_below(low, 0, d->addr, d->op, d->bytes);
}

/* h whole again, on one thread: what low counted and drew taken back, the
 * clock past both sides' stamps. */
void
rt_hier_join(struct rt_hier *h, struct rt_hier *low)
{
	int k, down = 0;

	for (k = 1; k < h->n; k++)
		down |= h->lv[k].c.policy == RT_RANDOM;
	if (down)
		h->rng = low->rng;
	h->mem = low->mem;
	if (low->now > h->now)
		h->now = low->now;
	for (k = 1; k < h->n; k++) {
		h->evicted[k] = low->evicted[k];
		h->miss3c[k] = low->miss3c[k];
	}
	h->slow[0] = low->slow[0];
	h->slow[1] = low->slow[1];
	h->split = NULL;
	free(low);
}

void
rt_hsplit_free(struct rt_hsplit *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}
