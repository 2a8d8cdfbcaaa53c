/* enspool.c: an ensemble's configurations on threads.  The caller reads
 * and decodes into a ring of slots of records; each worker runs its share
 * of the units (an rt_aa's LRU configurations, or one configuration's
 * hierarchy) over every slot in order, and a slot is filled again once
 * every worker is done with it.  Units share nothing, so the counts are
 * those of one thread; --diff's levels served are kept per slot and told
 * in the records' order once both configurations have them. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hier.h"

#define NSLOT 16	/* the reader up to 15 slots ahead: a worker's pace varies with its misses */
#define SLOTN 4096	/* records a slot: a hand-off per 4096 records */

struct slot {
	struct rt_rec v[SLOTN];
	int n, left;			/* records; workers yet to finish it */
	uint8_t *lv[2];			/* --diff: level served per span, by configuration */
	size_t cap[2];
	struct rt_hsplit dn;		/* split: what the first levels sent below */
	int updone;			/* split: the first levels are done with it */
};

struct worker {
	struct rt_enspool *p;
	int id;
	struct rt_ensacc *buf;		/* a batch of pieces of accesses */
	size_t cap;
};

struct rt_enspool {
	struct rt_ens *e;
	pthread_mutex_t mu;
	pthread_cond_t pub, freed;
	struct slot *slot;
	uint64_t published;		/* slots handed to the workers */
	struct slot *fill;		/* the slot being filled, or NULL */
	int nw, nu, done, err, diff;	/* err: a worker's, under mu */
	int split;			/* the workers' test of low, which the end clears */
	int failed;			/* err as the reader last saw it */
	int nalloc;			/* workers allocated */
	int wk[MAXAA + MAXH];		/* unit u's worker */
	pthread_t th[RT_MAXTHREADS];
	struct worker *w;
	rt_served_fn *fn;		/* --diff's */
	void *ctx;
	struct rt_hier *low;		/* the one hierarchy split (hsplit.c): its lower half */
};

/* A unit's rough cost, in single runs, for the split among workers. */
static double
cost(const struct rt_ens *e, int u)
{
	int k;

	if (u < e->naa)	/* one pass of the stack for all of them */
		return 1.0;
	k = e->own[u - e->naa];
	return e->pl[k] != NULL ? 0.25 : rt_hier_levels(e->h[k]);
}

/* Units to workers, the costliest first to the least loaded (LPT). */
static void
assign(struct rt_enspool *p)
{
	double load[RT_MAXTHREADS] = { 0 }, c[MAXAA + MAXH];
	int done[MAXAA + MAXH] = { 0 }, i, j, b, w;

	p->nu = p->e->naa + p->e->nown;
	for (i = 0; i < p->nu; i++)
		c[i] = cost(p->e, i);
	for (i = 0; i < p->nu; i++) {
		for (b = -1, j = 0; j < p->nu; j++)
			if (!done[j] && (b < 0 || c[j] > c[b]))
				b = j;
		for (w = 0, j = 1; j < p->nw; j++)
			if (load[j] < load[w])
				w = j;
		done[b] = 1;
		p->wk[b] = w;
		load[w] += c[b];
	}
}

/* Configuration k's level served for span j of a slot, kept. */
static int
keep(struct slot *sl, int k, size_t j, int lv)
{
	uint8_t *q;

	if (j >= sl->cap[k]) {
		if ((q = realloc(sl->lv[k], 2 * j + 1024)) == NULL)
			return -1;
		sl->lv[k] = q;
		sl->cap[k] = 2 * j + 1024;
	}
	sl->lv[k][j] = (uint8_t)lv;
	return 0;
}

static int
grow(struct worker *w)
{
	size_t cap = w->cap ? 2 * w->cap : 2 * NBATCH;
	struct rt_ensacc *b = realloc(w->buf, cap * sizeof *b);

	if (b == NULL)
		return -1;
	w->buf = b;
	w->cap = cap;
	return 0;
}

/* Configurations ks[0..m) over the spans buf[0..nb), the first span j
 * of its slot. */
static int
spans(struct rt_enspool *p, struct worker *w, const int *ks, int m, struct slot *sl, size_t j,
    size_t nb)
{
	struct rt_ens *e = p->e;
	struct rt_hier *h;
	size_t t;
	int i, lv;

	for (i = 0; i < m; i++) {
		if (e->pl[ks[i]] != NULL) {
			rt_pl_run(e->pl[ks[i]], w->buf, (int)nb, e->hasi);
			continue;
		}
		for (h = e->h[ks[i]], t = 0; t < nb; t++) {
			lv = rt_hier_access(h, w->buf[t].addr, w->buf[t].op, w->buf[t].bytes);
			if (p->diff && keep(sl, ks[i], j + t, lv))
				return -1;
		}
	}
	return 0;
}

/* Configurations ks[0..m), of first-level blocks bs (data, fetches),
 * over a slot as caches() and rt_ens_flush give it them: each access
 * split once for all, a batch of pieces at a time; an event to each. */
static int
owners(struct rt_enspool *p, struct worker *w, const int *ks, int m, const uint64_t *bs,
    struct slot *sl)
{
	const struct rt_rec *r;
	struct rt_span s;
	size_t j = 0, nb;
	int i = 0, k;

	while (i < sl->n) {
		for (nb = 0; i < sl->n && sl->v[i].kind == RT_ACCESS && nb < NBATCH; i++)
			for (r = &sl->v[i], rt_span_start(&s, r->addr, rt_last(r),
			    bs[r->op == RT_IFETCH]); rt_span_next(&s); nb++) {
				if (nb == w->cap && grow(w))
					return -1;
				w->buf[nb].addr = s.addr;
				w->buf[nb].op = r->op;
				w->buf[nb].bytes = (uint32_t)s.len;
			}
		if (spans(p, w, ks, m, sl, j, nb))
			return -1;
		j += nb;
		if (i < sl->n && sl->v[i].kind != RT_ACCESS) {
			for (k = 0; k < m; k++)
				if (p->e->pl[ks[k]] != NULL)
					rt_pl_event(p->e->pl[ks[k]], &sl->v[i]);
				else
					rt_hier_event(p->e->h[ks[k]], &sl->v[i]);
			i++;
		}
	}
	return 0;
}

/* This worker's share of a slot: the rt_aa's, the one hierarchy (as
 * rt_ens_run's solo path) or the others'. */
static int
share(struct rt_enspool *p, struct worker *w, struct slot *sl)
{
	struct rt_ens *e = p->e;
	const struct rt_rec *v = sl->v;
	uint64_t bs[2] = { e->bsd, e->bsi };
	int ks[MAXH], i, m, n = sl->n;

	for (m = 0, i = 0; i < p->nu; i++)
		if (p->wk[i] == w->id && i >= e->naa)
			ks[m++] = e->own[i - e->naa];
		else if (p->wk[i] == w->id)	/* fetches are the I-cache's; events change no rt_aa */
			for (n = 0; n < sl->n; n++)
				if (v[n].kind == RT_ACCESS && !(v[n].op == RT_IFETCH && e->hasi))
					rt_aa_access(e->aa[i], v[n].addr, rt_last(&v[n]), v[n].op);
	n = sl->n;
	if (m > 0 && e->solo)
		for (i = 0; i < n; i++) {
			i += (int)rt_hier_run(e->h[0], v + i, (size_t)(n - i));
			if (i < n)
				rt_hier_event(e->h[0], &v[i]);
		}
	else if (m > 0 && e->uniform)
		return owners(p, w, ks, m, bs, sl);
	else
		for (i = 0; i < m; i++) {	/* each its own blocks */
			bs[0] = rt_hier_block(e->h[ks[i]], RT_READ);
			bs[1] = rt_hier_block(e->h[ks[i]], RT_IFETCH);
			if (owners(p, w, ks + i, 1, bs, sl))
				return -1;
		}
	return 0;
}

/* Split, the first levels' share of a slot: rt_ens_run's solo path, with
 * what they send below kept in the slot for the second worker. */
static int
upper(struct rt_enspool *p, struct slot *sl)
{
	struct rt_hier *h = p->e->h[0];
	size_t i, n = (size_t)sl->n;

	rt_hier_upper(h, &sl->dn);
	for (i = 0; i < n; i++) {
		i += rt_hier_run(h, sl->v + i, n - i);
		if (i < n)
			rt_hier_upper_event(h, &sl->v[i], i);
	}
	return sl->dn.failed ? -1 : 0;
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct rt_enspool *p = w->p;
	struct slot *sl;
	uint64_t k;
	int bad, lower = p->split && w->id == 1;

	for (k = 0;; k++) {
		sl = &p->slot[k % NSLOT];
		pthread_mutex_lock(&p->mu);
		while ((p->published <= k || (lower && !sl->updone)) && !p->done)
			pthread_cond_wait(&p->pub, &p->mu);
		if (p->published <= k) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		pthread_mutex_unlock(&p->mu);	/* the units are this worker's alone */
		bad = 0;
		if (lower)
			rt_hier_lower(p->low, &sl->dn, sl->v);
		else
			bad = p->split ? upper(p, sl) : share(p, w, sl);
		pthread_mutex_lock(&p->mu);
		p->err |= bad;
		if (p->split && !lower) {
			sl->updone = 1;
			pthread_cond_broadcast(&p->pub);
		}
		if (--sl->left == 0)
			pthread_cond_broadcast(&p->freed);
		pthread_mutex_unlock(&p->mu);
	}
}

/* --diff: a finished slot's accesses told, span by span, in order. */
static void
tell(struct rt_enspool *p, struct slot *sl)
{
	struct rt_ens *e = p->e;
	const struct rt_rec *r;
	struct rt_span s;
	size_t j = 0;
	int i, lv[2];

	for (i = 0; i < sl->n; i++) {
		r = &sl->v[i];
		if (r->kind != RT_ACCESS)
			continue;
		for (rt_span_start(&s, r->addr, rt_last(r), r->op == RT_IFETCH ? e->bsi : e->bsd);
		    rt_span_next(&s); j++) {
			lv[0] = sl->lv[0][j];
			lv[1] = sl->lv[1][j];
			p->fn(p->ctx, r, s.addr, lv);
		}
	}
	sl->n = 0;
}

/* Slot k % NSLOT once every worker is done with it (told, with --diff). */
static struct slot *
await(struct rt_enspool *p, uint64_t k)
{
	struct slot *sl = &p->slot[k % NSLOT];

	pthread_mutex_lock(&p->mu);
	while (sl->left > 0)
		pthread_cond_wait(&p->freed, &p->mu);
	p->failed = p->err;
	pthread_mutex_unlock(&p->mu);
	if (p->diff && !p->failed && sl->n > 0)
		tell(p, sl);
	sl->n = 0;
	return sl;
}

static void
publish(struct rt_enspool *p)
{
	if (p->fill == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->fill->left = p->nw;
	p->fill->updone = 0;
	p->published++;
	pthread_cond_broadcast(&p->pub);
	pthread_mutex_unlock(&p->mu);
	p->fill = NULL;
}

/* Every slot published, done and told. */
static void
drain(struct rt_enspool *p)
{
	uint64_t k;

	publish(p);
	for (k = p->published > NSLOT ? p->published - NSLOT : 0; k < p->published; k++)
		await(p, k);
}

int
rt_enspool_new(struct rt_enspool **pp, struct rt_ens *e, int nthreads)
{
	struct rt_enspool *p;
	int i;

	*pp = NULL;
	/* what the pool does not do: cores, TLBs, prefetchers beside others,
	 * per-access observers other than --diff's */
	if (nthreads < 2 || e->cores || e->nt || (e->npf && !e->solo) || e->nown + e->naa == 0 ||
	    (e->fn != NULL && (e->nh != 2 || !e->uniform)))
		return 0;
	if ((p = calloc(1, sizeof *p)) == NULL || (p->slot = calloc(NSLOT, sizeof *p->slot)) == NULL ||
	    (p->w = calloc((size_t)nthreads, sizeof *p->w)) == NULL) {
		rt_enspool_free(p);
		return RT_ENOMEM;
	}
	p->e = e;
	p->nalloc = nthreads;
	p->diff = e->fn != NULL;
	p->fn = e->fn;
	p->ctx = e->ctx;
	p->nw = nthreads < e->naa + e->nown ? nthreads : e->naa + e->nown;
	assign(p);
	/* its halves on two workers, when the reader and each half may have a
	 * core: on two cores the three threads took 0.33 s where the whole
	 * hierarchy on one worker took 0.29 (-c i7, bench/levels) */
	if (e->solo && nthreads >= 3 && rt_hier_cansplit(e->h[0])) {
		if (rt_hier_split(e->h[0], &p->low)) {
			p->nw = 0;	/* none started */
			rt_enspool_free(p);
			return RT_ENOMEM;
		}
		p->nw = 2;
		p->split = 1;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->pub, NULL);
	pthread_cond_init(&p->freed, NULL);
	for (i = 0; i < p->nw; i++) {
		p->w[i].p = p;
		p->w[i].id = i;
		if (pthread_create(&p->th[i], NULL, work, &p->w[i]) != 0) {
			p->nw = i;	/* those started end with the pool */
			rt_enspool_free(p);
			return RT_ENOMEM;
		}
	}
	*pp = p;
	return 0;
}

/* An invalidation splits the rt_aa's configurations (ungroup): the
 * workers stopped first, the units dealt again after. */
static void
inval(struct rt_enspool *p, const struct rt_rec *ev)
{
	drain(p);
	rt_ens_event(p->e, ev);
	assign(p);
}

/* Whether the workers take record r as it is (an invalidation with
 * grouped configurations does not: it ungroups them first). */
static int
kept(const struct rt_enspool *p, const struct rt_rec *r)
{
	return r->kind == RT_ACCESS || r->kind == RT_FLUSH || (r->kind == RT_INVAL && p->e->naa == 0);
}

/* Runs of records the workers take are copied into the slots whole: a
 * record at a time, the copy cost the reader as much as decoding. */
int
rt_enspool_put(struct rt_enspool *p, const struct rt_rec *v, int n)
{
	int i, j, m;

	for (i = 0; i < n && !p->failed; i = j) {
		if (!kept(p, &v[i])) {
			if (v[i].kind == RT_INVAL)
				inval(p, &v[i]);
			j = i + 1;
			continue;
		}
		if (p->fill == NULL)
			p->fill = await(p, p->published);
		m = SLOTN - p->fill->n;
		for (j = i + 1; j < n && j - i < m && kept(p, &v[j]); j++)
			;
		memcpy(p->fill->v + p->fill->n, v + i, (size_t)(j - i) * sizeof *v);
		p->fill->n += j - i;
		if (p->fill->n == SLOTN)
			publish(p);
	}
	return p->failed ? RT_ENOMEM : 0;
}

int
rt_enspool_end(struct rt_enspool *p)
{
	drain(p);
	if (p->low != NULL)
		rt_hier_join(p->e->h[0], p->low);
	p->low = NULL;
	return p->failed ? RT_ENOMEM : 0;
}

void
rt_enspool_free(struct rt_enspool *p)
{
	int i;

	if (p == NULL)
		return;
	if (p->nw > 0) {
		drain(p);
		pthread_mutex_lock(&p->mu);
		p->done = 1;
		pthread_cond_broadcast(&p->pub);
		pthread_mutex_unlock(&p->mu);
		for (i = 0; i < p->nw; i++)
			pthread_join(p->th[i], NULL);
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->pub);
		pthread_cond_destroy(&p->freed);
	}
	if (p->low != NULL)
		rt_hier_join(p->e->h[0], p->low);
	for (i = 0; p->slot != NULL && i < NSLOT; i++) {
		free(p->slot[i].lv[0]);
		free(p->slot[i].lv[1]);
		rt_hsplit_free(&p->slot[i].dn);
	}
	free(p->slot);
	for (i = 0; p->w != NULL && i < p->nalloc; i++)
		free(p->w[i].buf);
	free(p->w);
	free(p);
}
