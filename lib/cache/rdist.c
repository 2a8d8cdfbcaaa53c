/* rdist.c: the reuse distances of a trace: every block an access covers,
 * sampled (SHARDS or a partition), measured, counted in a histogram. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* Block accesses are queued so that the table is prefetched TAHEAD
 * accesses ahead of them, and their slots half as far; histogram counts
 * land AHEAD accesses late, their buckets prefetched meanwhile: a random
 * distance is a cache miss in a large histogram. */
#define NPEND 64
#define TAHEAD 16
#define AHEAD 8

/* A queued access to the block queued just before it is at distance 0 and
 * leaves the stack as it was (its block on top): the engine is not asked.
 * Accesses within a block one after another are common (small accesses
 * sweeping larger blocks, as in bench/reusedist).  Not with
 * time distances, whose clock the engine keeps. */
#define REPEAT (RT_NOWHERE - 1)

/* The histogram's keys.  At a fixed rate, distances in sample units,
 * scaled at the end: the keys are as many as the sampled blocks.  Under a
 * fixed size the rate falls as new blocks come, and the distances in
 * full-trace units grow with the trace's footprint: there a distance of
 * 2^m or more (2^m at least the size) keeps its m leading bits, which
 * leaves at most 2^(m-1) (66 - m) keys whatever the trace.  Counts are
 * added in units of the rate so far and scaled once at the end, not at
 * every fall of the rate. */
#define MINBITS 8
#define MAXBITS 48

struct rt_rdist {
	struct rt_rdist_cfg c;
	struct rt_reuse *eng;
	struct rt_hist *hist;		/* distance -> weight, RT_COLD too */
	struct rt_shards *sh;
	uint64_t threshold;		/* hash below: sampled */
	double rate;			/* the sampling rate now */
	uint64_t naccess;		/* every block access seen */
	int partfile;			/* the trace is a partition: all sampled */
	uint64_t per;			/* -P's partition blocks: blocks to one */
	double nsampled;		/* sampled accesses, in sample units */
	double scale, unit;		/* fixed size: the rate now over the first, 1/that */
	int bits;			/* fixed size: m */
	int bshift;			/* log2 of a block of a power of two, or -1 */
	struct rt_rdsample pend[NPEND];
	uint64_t hash[NPEND];
	size_t at[NPEND];		/* where the engine last saw the block, RT_NOWHERE or REPEAT */
	uint64_t lastq;			/* the block queued last, when nq */
	int nq;
	uint64_t zeros;			/* repeats not queued, at distance 0 */
	int npend;
	uint64_t late[AHEAD];
	unsigned nlate;
	uint64_t lastseq;		/* of the last access */
	int slice;			/* a time slice's: first accesses kept, not counted */
	int lean;			/* exact, nothing but the histogram: blocks queued alone */
	size_t nrun;
	uint64_t run[RT_REUSE_RUN], rdist[RT_REUSE_RUN];
	uint64_t *first;		/* its first access to each block, in order */
	size_t nfirst, capfirst;
	rt_rdist_fn *fn;
	rt_item_fn *event;
	void *ctx;
	char err[128];
};

struct rt_rdist *
rt_rdist_new(const struct rt_rdist_cfg *c, rt_rdist_fn *fn, rt_item_fn *event, void *ctx)
{
	struct rt_rdist *d = calloc(1, sizeof *d);

	if (d == NULL)
		return NULL;
	d->c = *c;
	d->fn = fn;
	d->event = event;
	d->ctx = ctx;
	if ((d->eng = rt_reuse_new(c->timed)) == NULL || (d->hist = rt_hist_new()) == NULL ||
	    (d->sh = rt_shards_new(c->rate, c->size, c->seed)) == NULL) {
		rt_rdist_free(d);
		return NULL;
	}
	d->threshold = rt_shards_threshold(d->sh);
	d->rate = c->pn ? 1.0 / (double)c->pn : c->rate;	/* a partition is a sample */
	d->scale = d->unit = 1;
	d->per = c->pbytes > c->block ? c->pbytes / c->block : 1;
	d->bshift = (c->block & (c->block - 1)) == 0 ? __builtin_ctzll(c->block) : -1;
	d->lean = c->rate >= 1 && !c->size && !c->pn && !c->timed && fn == NULL;
	for (d->bits = MINBITS; d->bits < MAXBITS && (1ULL << d->bits) < c->size; d->bits++)
		;
	return d;
}

void
rt_rdist_free(struct rt_rdist *d)
{
	if (d == NULL)
		return;
	rt_reuse_free(d->eng);
	rt_hist_free(d->hist);
	rt_shards_free(d->sh);
	free(d->first);
	free(d);
}

void
rt_rdist_part(struct rt_rdist *d, const struct rt_part *p)
{
	d->rate = 1.0 / (double)p->n;
	d->partfile = 1;
}

uint64_t
rt_rdist_lastseq(const struct rt_rdist *d)
{
	return d->lastseq;
}

const char *
rt_rdist_error(const struct rt_rdist *d)
{
	return d->err;
}

static int
nomem(struct rt_rdist *d)
{
	snprintf(d->err, sizeof d->err, "out of memory");
	return -1;
}

/* The engine out of memory: at how many blocks. */
static int
engnomem(struct rt_rdist *d)
{
	snprintf(d->err, sizeof d->err, "out of memory at %llu distinct blocks",
	    (unsigned long long)rt_reuse_blocks(d->eng));
	return -1;
}

/* A distance in full-trace units of 2^m or more: its bin, numbered on from
 * 2^m, 2^(m-1) to an octave. */
static uint64_t
tobin(uint64_t k, int m)
{
	int e;

	if (k < (1ULL << m) || k == RT_COLD)
		return k;
	e = 63 - __builtin_clzll(k);
	return ((uint64_t)(e - m + 1) << (m - 1)) + (k >> (e - m + 1));
}

/* The middle of the bin: off by at most k / 2^m, less than the step of
 * the sample's own distances (1/rate, with fewer than 2^m blocks). */
static uint64_t
frombin(uint64_t b, int m)
{
	uint64_t q;
	int sh;

	if (b < (1ULL << m) || b == RT_COLD)
		return b;
	q = b - (1ULL << m);
	sh = (int)(q >> (m - 1)) + 1;
	return ((1ULL << (m - 1)) + (q & ((1ULL << (m - 1)) - 1))) << sh | 1ULL << (sh - 1);
}

static int
count(struct rt_rdist *d, uint64_t key)
{
	uint64_t k = d->late[d->nlate % AHEAD];

	if (d->nlate >= AHEAD && rt_hist_add(d->hist, k, d->unit))
		return nomem(d);
	d->late[d->nlate++ % AHEAD] = key;
	rt_hist_prefetch(d->hist, key);
	return 0;
}

static int
count_flush(struct rt_rdist *d)
{
	unsigned i, n = d->nlate < AHEAD ? d->nlate : AHEAD;

	for (i = 0; i < n; i++)
		if (rt_hist_add(d->hist, d->late[(d->nlate - n + i) % AHEAD], d->unit))
			return nomem(d);
	d->nlate = 0;
	return 0;
}

static int
keepfirst(struct rt_rdist *d, uint64_t block)
{
	size_t c = d->capfirst ? 2 * d->capfirst : 4096;
	uint64_t *v;

	if (d->nfirst == d->capfirst) {
		if ((v = realloc(d->first, c * sizeof *v)) == NULL)
			return nomem(d);
		d->first = v;
		d->capfirst = c;
	}
	d->first[d->nfirst++] = block;
	return 0;
}

static int
access1(struct rt_rdist *d, struct rt_rdsample *p, uint64_t h, size_t at)
{
	uint64_t dist, td = 0;	/* td is read when timed, which REPEAT is not */
	double f;

	if (h >= d->threshold && d->threshold != UINT64_MAX)
		return 0;	/* the threshold fell since it was queued */
	if (at == REPEAT)
		dist = 0;
	else if (rt_reuse_access_at(d->eng, p->block, at, &dist, &td)) {
		return engnomem(d);
	}
	if (d->slice && dist == RT_COLD)	/* its distance is the merge's to find */
		return keepfirst(d, p->block);
	if (d->c.size && dist == RT_COLD && rt_shards_enter(d->sh, h, p->block)) {
		if (count_flush(d))	/* counts so far belong to the old rate */
			return -1;
		f = rt_shards_shrink(d->sh, d->eng);
		d->scale *= f;
		d->unit = 1 / d->scale;
		d->nsampled *= f;
		d->threshold = rt_shards_threshold(d->sh);
		d->rate = rt_shards_rate(d->sh);
		if (h >= d->threshold)
			return 0;	/* this very block left */
	}
	if (d->c.timed)
		dist = td;
	p->dist = dist;
	if (dist != RT_COLD && (d->c.size || d->fn != NULL))
		p->dist = (uint64_t)llround((double)dist / d->rate);
	d->nsampled += 1;
	if (count(d, d->c.size ? tobin(p->dist, d->bits) : dist))
		return -1;
	if (d->fn != NULL)
		d->fn(d->ctx, p);
	return 0;
}

/* The lean queue: the run measured, its distances counted (their
 * buckets fetched a few ahead), a slice's cold accesses kept instead. */
static int
runlean(struct rt_rdist *d)
{
	size_t i, n = d->nrun;
	uint64_t k;

	d->nrun = 0;
	if (rt_reuse_run(d->eng, d->run, n, d->rdist)) {
		return engnomem(d);
	}
	for (i = 0; i < n; i++) {
		if (i + AHEAD < n)
			rt_hist_prefetch(d->hist, d->rdist[i + AHEAD]);
		if ((k = d->rdist[i]) == RT_COLD && d->slice) {
			if (keepfirst(d, d->run[i]))
				return -1;
			continue;
		}
		d->nsampled += 1;
		if (rt_hist_add(d->hist, k, 1))
			return nomem(d);
	}
	return 0;
}

/* A block access queued on the lean path, or a repeat of the one before
 * counted at distance 0. */
static inline int
leanq(struct rt_rdist *d, uint64_t b)
{
	if (d->nq && b == d->lastq) {
		d->zeros++;
		return 0;
	}
	d->lastq = b;
	d->nq = 1;
	if (d->nrun == RT_REUSE_RUN && runlean(d))
		return -1;
	d->run[d->nrun++] = b;
	return 0;
}

static int
drain(struct rt_rdist *d)
{
	int i, n = d->npend;

	if (d->nrun && runlean(d))
		return -1;

	d->npend = 0;
	for (i = 0; i < n; i++) {
		if (i + TAHEAD < n && d->at[i + TAHEAD] != REPEAT)
			rt_reuse_prefetch(d->eng, d->pend[i + TAHEAD].block);
		if (i + TAHEAD / 2 < n && d->at[i + TAHEAD / 2] != REPEAT)
			d->at[i + TAHEAD / 2] = rt_reuse_prefetch2(d->eng, d->pend[i + TAHEAD / 2].block);
		if (access1(d, &d->pend[i], d->hash[i], d->at[i]))
			return -1;
	}
	return 0;
}

/* One block access: sampled or not, queued. */
static inline int
block(struct rt_rdist *d, const struct rt_rec *rec, uint64_t b)
{
	struct rt_rdsample *p;
	uint64_t h = 0;
	int rep;

	d->naccess++;
	if (d->lean)
		return leanq(d, b);
	if (d->c.pn && b / d->per % d->c.pn != d->c.pk)
		return 0;
	if (d->threshold != UINT64_MAX && (h = rt_hash64(b ^ d->c.seed)) >= d->threshold)
		return 0;	/* not sampled: nothing to queue */
	rep = d->nq && b == d->lastq && !d->c.timed;
	if (rep && !d->c.size && d->fn == NULL) {
		d->zeros++;	/* in no order that matters: added at the end */
		return 0;
	}
	if (d->npend == NPEND && drain(d))
		return -1;
	d->hash[d->npend] = h;
	d->at[d->npend] = rep ? REPEAT : RT_NOWHERE;
	d->lastq = b;
	d->nq = 1;
	p = &d->pend[d->npend++];
	p->seq = rec->seq;
	p->addr = rec->addr;
	p->block = b;
	p->loc = rec->loc;
	p->var = rec->var;
	p->op = rec->op;
	if (d->npend <= TAHEAD && !rep)
		rt_reuse_prefetch(d->eng, b);
	return 0;
}

/* An access across blocks, or an event: apart, so that the common case
 * keeps few registers. */
static __attribute__((noinline)) int
other(struct rt_rdist *d, const struct rt_rec *rec)
{
	struct rt_span s;
	struct rt_rec w;

	if (rec->kind != RT_ACCESS) {
		if (drain(d))	/* what follows the event sees it */
			return -1;
		return d->event != NULL ? d->event(d->ctx, (struct rt_rec *)rec) : 0;
	}
	/* a modify is a read and a write of each block, as caches count it
	 * (reftrace(7)): the write's distance is 0 */
	w = *rec;
	w.op = RT_WRITE;
	for (rt_span_start(&s, rec->addr, rt_last(rec), d->c.block); rt_span_next(&s);)
		if (block(d, rec, s.block) || (rec->op == RT_MODIFY && block(d, &w, s.block)))
			return -1;
	return 0;
}

static inline int
item(struct rt_rdist *d, const struct rt_rec *rec)
{
	uint64_t first, last;

	if (rec->kind == RT_ACCESS) {
		d->lastseq = rec->seq;
		if (d->bshift >= 0) {	/* no division */
			first = rec->addr >> d->bshift;
			last = rt_last(rec) >> d->bshift;
		} else {
			first = rec->addr / d->c.block;
			last = rt_last(rec) / d->c.block;
		}
		if (first == last && rec->op != RT_MODIFY)
			return block(d, rec, first);	/* within one block, as most are */
	}
	return other(d, rec);
}

/* The lean path's loop: an access within one block of a power of two
 * queued here, anything else by item. */
static int
leanbatch(struct rt_rdist *d, struct rt_rec *v, int n)
{
	uint64_t b, bs = 1ull << d->bshift;
	int i, sh = d->bshift;

	for (i = 0; i < n; i++) {
		b = v[i].addr >> sh;
		/* past its block: the offset in it and the size over bs (RT_MAXSIZE
		 * bounds the size, so no sum wraps) */
		if (v[i].kind != RT_ACCESS || v[i].op == RT_MODIFY ||
		    (v[i].addr & (bs - 1)) + v[i].size > bs) {
			if (item(d, &v[i]))
				return -1;
			continue;
		}
		d->lastseq = v[i].seq;
		d->naccess++;
		if (leanq(d, b))
			return -1;
	}
	return 0;
}

int
rt_rdist_batch(void *ctx, struct rt_rec *v, int n)
{
	struct rt_rdist *d = ctx;
	int i;

	if (d->lean && d->bshift >= 0)
		return leanbatch(d, v, n);
	for (i = 0; i < n; i++)
		if (item(ctx, &v[i]))
			return -1;
	return 0;
}

void
rt_rdist_slice(struct rt_rdist *d)
{
	d->slice = 1;
}

/* What the merge needs of slice s, moved out of it into p (s is spent:
 * its tables are freed, as the carried stack grows). */
int
rt_rdist_take(struct rt_rdist *s, struct rt_rdslice *p, int stack)
{
	memset(p, 0, sizeof *p);
	if (drain(s) || count_flush(s))
		return -1;
	if ((p->hist = rt_hist_sorted(s->hist, &p->nhist)) == NULL)
		return nomem(s);
	p->accesses = s->naccess;
	p->sampled = (uint64_t)s->nsampled;
	p->zeros = s->zeros;
	p->lastseq = s->lastseq;
	p->first = s->first;
	p->nfirst = s->nfirst;
	s->first = NULL;
	s->nfirst = s->capfirst = 0;
	if (stack) {
		p->nstack = (size_t)rt_reuse_blocks(s->eng);
		if ((p->stack = malloc((p->nstack ? p->nstack : 1) * sizeof *p->stack)) == NULL) {
			rt_rdslice_free(p);
			return nomem(s);
		}
		rt_reuse_stack(s->eng, p->stack);
	}
	rt_reuse_free(s->eng);
	rt_hist_free(s->hist);
	s->eng = NULL;
	s->hist = NULL;
	return 0;
}

void
rt_rdslice_free(struct rt_rdslice *p)
{
	free(p->hist);
	free(p->first);
	free(p->stack);
	memset(p, 0, sizeof *p);
}

/* Slice p after the slices merged into d so far (PARDA's merge).  The
 * distance of p's first access to a block, at its place in the whole
 * trace, is the number of blocks p touched before it (each first touched
 * before it) and of the blocks above it on the stack carried from the
 * slices before that p had not touched yet: the first accesses, taken in
 * order as accesses of the carried stack, find exactly that (all cold on
 * an empty one).  The stack after p is then p's own end stack over the
 * carried blocks p left alone: p's blocks taken again, the least recent
 * first (on an empty stack, each a new block and cheap). */
int
rt_rdist_merge(struct rt_rdist *d, const struct rt_rdslice *p)
{
	uint64_t dist, td;
	size_t i;
	int first;

	if (drain(d))	/* a slice's own accesses first */
		return -1;
	for (i = 0; i < p->nhist; i++)
		if (rt_hist_add(d->hist, p->hist[i].key, p->hist[i].w))
			return nomem(d);
	d->naccess += p->accesses;
	d->nsampled += (double)p->sampled;
	d->zeros += p->zeros;
	if (p->accesses)
		d->lastseq = p->lastseq;
	first = rt_reuse_blocks(d->eng) == 0;	/* nothing carried: all cold */
	for (i = 0; i < p->nfirst; i++) {
		if (i + TAHEAD < p->nfirst && !first)
			rt_reuse_prefetch(d->eng, p->first[i + TAHEAD]);
		if (first)
			dist = RT_COLD;
		else if (rt_reuse_access(d->eng, p->first[i], &dist, &td))
			return nomem(d);
		if (d->slice && dist == RT_COLD) {	/* a pair's first use: still to find */
			if (keepfirst(d, p->first[i]))
				return -1;
			continue;
		}
		d->nsampled += 1;
		if (count(d, dist))
			return -1;
	}
	for (i = p->nstack; i-- > 0;)
		if (rt_reuse_access(d->eng, p->stack[i], &dist, &td))
			return nomem(d);
	return 0;
}

/* Bytes of the tables (rt_rdist_finish says their bound) */
static size_t
fixedmem(const struct rt_rdist *d)
{
	return sizeof *d + rt_reuse_memory(d->eng) + rt_hist_memory(d->hist) +
	    rt_shards_memory(d->sh);
}

struct rt_bin *
rt_rdist_finish(struct rt_rdist *d, size_t *n, struct rt_histinfo *in)
{
	struct rt_bin *v;
	size_t i, j;

	if (drain(d) || count_flush(d))
		return NULL;
	d->nsampled += (double)d->zeros;	/* at a fixed rate: the unit is 1 */
	if (d->zeros && rt_hist_add(d->hist, 0, (double)d->zeros)) {
		nomem(d);
		return NULL;
	}
	if (d->scale != 1)	/* the counts in units of the last rate */
		rt_hist_scale(d->hist, d->scale);
	/* a partition's accesses are all counted, the other partitions' in
	 * theirs: no SHARDS_adj (its correction, cut at 0 where a partition
	 * has more accesses than its share, made the merge's total too high) */
	if (d->partfile || d->c.pn)
		rt_hist_scale(d->hist, 1 / d->rate);
	else if (rt_shards_adjust(d->hist, d->naccess, d->nsampled, d->rate)) {
		nomem(d);
		return NULL;
	}
	in->memory = d->c.size ? fixedmem(d) : 0;
	if ((v = rt_hist_sorted(d->hist, n)) == NULL) {
		nomem(d);
		return NULL;
	}
	in->block = d->c.block;
	in->rate = d->rate;
	in->accesses = 0;
	for (i = j = 0; i < *n; i++) {
		if (v[i].key != RT_COLD)	/* keys in order still */
			v[i].key = d->c.size ? frombin(v[i].key, d->bits) :
			    (uint64_t)llround((double)v[i].key / d->rate);
		if (v[i].w < 0)	/* a short sample can overshoot */
			v[i].w = 0;
		in->accesses += v[i].w;
		if (j > 0 && v[j - 1].key == v[i].key)
			v[j - 1].w += v[i].w;
		else
			v[j++] = v[i];
	}
	*n = j;
	return v;
}
