/* ph.c: Vietoris-Rips persistent cohomology over Z/p (Bauer, Ripser, 2021):
 * columns reduced ahead on threads and committed in order.  phint.h
 * says which file holds which part. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef EMERGENT_DELAY
#include <unistd.h>
#endif

#include "phint.h"

/* The table for ncol columns, each owning one pivot at most. */
static int
palloc(struct ctx *x, size_t ncol)
{
	size_t i, cap = 1024;

	while (cap < 2 * ncol + 2)
		cap *= 2;
	if ((x->piv = malloc(cap * sizeof *x->piv)) == NULL)
		return -1;
	for (i = 0; i < cap; i++)
		atomic_init(&x->piv[i].key, EMPTY);
	x->pivmask = cap - 1;
	return 0;
}

static void
padd(struct ctx *x, uint64_t key, uint32_t col, uint32_t coef)
{
	size_t i;

	for (i = rt_hash64(key) & x->pivmask;
	    atomic_load_explicit(&x->piv[i].key, memory_order_relaxed) != EMPTY;
	    i = (i + 1) & x->pivmask)
		;
	x->piv[i].col = col;
	x->piv[i].coef = coef;
	atomic_store_explicit(&x->piv[i].key, key, memory_order_release);
}

static int
addbar(struct ctx *x, int dim, float birth, float death, const struct simplex *s,
    const struct ventry *work, size_t nwork)
{
	struct rt_ph *ph = x->ph;
	struct rt_bar *b;
	size_t i;

	if (rt_grow(&ph->bar, &x->capbar, ph->nbar + 1, sizeof *ph->bar))
		return -1;
	b = &ph->bar[ph->nbar++];
	memset(b, 0, sizeof *b);
	b->dim = dim;
	b->birth = birth;
	b->death = death;
	if (s != NULL)
		memcpy(b->v, s->v, sizeof b->v);
	if (work == NULL)
		return 0;
	if (rt_grow(&ph->cocycle, &x->capcoc, ph->ncocycle + nwork, sizeof *ph->cocycle))
		return -1;
	b->cocycle = ph->ncocycle;
	b->ncocycle = nwork;
	for (i = 0; i < nwork; i++) {
		ph->cocycle[ph->ncocycle].i = work[i].s.v[0];
		ph->cocycle[ph->ncocycle].j = work[i].s.v[1];
		ph->cocycle[ph->ncocycle++].coef = work[i].coef;
	}
	return 0;
}

/* Add the columns that own the working column's pivot, one after the
 * other, until it has a pivot no column owns or none. */
static int
advance(struct wk *w, struct pend *r)
{
	struct ctx *x = w->x;
	struct pivot *owner;
	const uint64_t *run;
	const struct ventry *col;
	struct ventry one;
	size_t t, len;
	uint32_t factor, j, oc, rlen, a = 0;
	int ap, lazy;

	while (r->k == 1) {
		if ((owner = pfind(x, r->piv.key)) != NULL) {
			j = owner->col;
			oc = owner->coef;
			col = x->colp[j];
			len = x->collen[j];
			rlen = x->rlen[j];
		} else if ((ap = rt_ph_apparentcol(x, &r->piv, &one.s, &oc, &j)) <= 0) {
			if (ap < 0)
				return -1;
			break;
		} else {
			one.coef = 1;
			col = &one;
			len = 1;
			rlen = NOCACHE;
		}
		factor = (x->p - r->piv.coef * x->inv[oc] % x->p) % x->p;
		r->added = 1;
		r->reduced++;
		run = NULL;
		lazy = rlen == LAZY;
		if (lazy)
			rlen = NOCACHE;
		if (rlen == NOCACHE && (lazy || (len == 1 && j != NOCACHE)) &&
		    rt_ph_cobrun(w, j, col, len, &run))
			return -1;
		for (t = 0; t < len; t++) {
			const struct ventry *e = &col[t];

			a = pmod(x, (uint64_t)e->coef * factor);
			if (rt_ph_workadd(w, &e->s, a))
				return -1;
			if (rlen == NOCACHE && run == NULL &&
			    rt_ph_coboundary(w, &e->s, a, 0, NULL) < 0)
				return -1;
		}
		/* the pivot, taken, cancels against the first term of the
		 * column's reduced coboundary, kept, or of its one simplex's */
		if (rlen != NOCACHE) {
			w->pushed += x->rcost[j];
			if (rt_ph_cpush(w, x->rp[j] + 1, x->rp[j] + rlen, factor))
				return -1;
		} else if (run != NULL) {	/* as many as a replay */
			w->pushed += lazy ? x->rcost[j] : run[-1];
			if (rt_ph_cpush(w, run + 1, run + run[-1], len == 1 ? a : factor))
				return -1;
		} else if (hpush(w, r->piv.key, r->piv.diam, r->piv.coef))	/* the replay cancels it */
			return -1;
		r->k = rt_ph_wpivot(w, &r->piv);
	}
	return 0;
}

/* Reduce on to a pivot no column owns, or none, and copy the reduced
 * coboundary if worth keeping (r->keep: 1 kept, 0 too long, -1 not
 * tried). */
static int
finish(struct wk *w, struct pend *r)
{
	r->keep = -1;
	if (advance(w, r))
		return -1;
	if (r->k == 1 && r->added && w->x->packed && (r->keep = rt_ph_keepr(w)) < 0)
		return -1;
	return 0;
}

/* Reduce column c against the columns committed so far, in w and r.
 * Every pivot found owned is owned for good, so the additions are those
 * of the sequential reduction up to the last pivot, and the reduction
 * goes on from there if a column committed since owns that pivot.  An
 * emergent pair stops here: its coboundary stopped short, and a column
 * committed on another thread since the check may own its pivot already
 * (reducing the short coboundary then gave a wrong pivot, about once in
 * 25 runs of t/1700's 600 windows under ASan); commit checks again. */
static int
column(struct wk *w, size_t c, struct pend *r)
{
	const struct simplex *s = &w->x->col[c];
	int k;

	rt_ph_spfree(w);
	w->pushed = 0;
	w->compactat = COMPACT;
	w->spillat = SPILL;
	w->nheap = 0;
	w->ncur = 0;
	w->nwork = 0;
	w->nkept = 0;
	r->c = c;
	r->emergent = r->added = 0;
	r->reduced = 0;
	if (rt_ph_workadd(w, s, 1))
		return -1;
	if ((k = rt_ph_coboundary(w, s, 1, 1, &r->piv)) < 0)
		return -1;
	if (k == 1) {
		r->emergent = 1;
#ifdef EMERGENT_DELAY		/* t/1700's test of the race above */
		usleep(EMERGENT_DELAY);
#endif
		r->k = 1;
		r->keep = -1;
		return 0;
	}
	r->k = rt_ph_wpivot(w, &r->piv);
	return finish(w, r);
}

/* A column whose pivot a column committed since it was reduced owns:
 * reduced on from where it stood, its working coboundary the reduced one
 * keepr copied (its pivot, first, taken), or the heap if keepr did not
 * run; again from the start if keepr gave up (and emptied the heap) or
 * an emergent pair stopped its coboundary short. */
static int
resume(struct wk *w, struct pend *r)
{
	if (r->emergent || r->keep == 0)
		return column(w, r->c, r);
	if (r->keep == 1) {
		rt_ph_trade(&w->old, &w->capold, &w->kept, &w->capkept);
		w->nheap = 0;
		w->ncur = 0;
		if (rt_ph_cpush(w, w->old + 1, w->old + w->nkept, 1))
			return -1;
		w->nkept = 0;
	}
	return finish(w, r);
}

/* Trade a thread's working column for a slot's. */
static void
wswap(struct wk *w, struct pend *r)
{
	struct wk t = *w;

	*w = r->ws;
	r->ws = t;
	w->sc = t.sc;
	r->ws.sc = NULL;
}

/* Column r->c, every column before it committed: if a column committed
 * since it was reduced owns its pivot, reduce it on (an emergent pair
 * stopped its coboundary short: again from the start); then record its
 * bar, its reduction column and reduced coboundary, and its pivot. */
static int
commit(struct pend *r, struct scratch *sc)
{
	struct wk *w = &r->ws;
	struct ctx *x = w->x;
	const struct simplex *s = &x->col[r->c];
	size_t c = r->c;
	void *v;
	int st;

	w->sc = sc;		/* the committing thread's */
	st = (r->k == 1 && pfind(x, r->piv.key) != NULL && resume(w, r)) || rt_ph_worksum(w);
	w->sc = NULL;
	if (st)
		return -1;
	x->ph->columns++;
	x->ph->emergent += (uint64_t)r->emergent;
	x->ph->reduced += r->reduced;
	x->rlen[c] = NOCACHE;
	x->collen[c] = 0;
	if (r->k == 0)
		return addbar(x, x->dim, s->diam, INFINITY, s, x->dim == 1 ? w->work : NULL,
		    w->nwork);
	if (r->piv.diam > s->diam && addbar(x, x->dim, s->diam, r->piv.diam, s,
	    x->dim == 1 ? w->work : NULL, w->nwork))
		return -1;
	x->rcost[c] = w->pushed;
	if (r->keep == 1 && w->nkept >= LONGRUN)
		x->rlen[c] = LAZY;	/* made again at its second addition */
	else if (r->keep == 1 && x->nrpool + w->nkept <= MAXRPOOL) {
		if (w->nkept >= BIG) {	/* handed over, shrunk in place */
			if ((v = realloc(w->kept, w->nkept * sizeof *w->kept)) != NULL)
				w->kept = v;
			if (rt_ph_aadopt(&x->rpool, w->kept))
				return -1;
			v = w->kept;
			w->kept = NULL;
			w->capkept = 0;
		} else if ((v = rt_ph_aalloc(&x->rpool, w->nkept * sizeof *w->kept)) == NULL)
			return -1;
		else
			memcpy(v, w->kept, w->nkept * sizeof *w->kept);
		x->rp[c] = v;
		x->rlen[c] = (uint32_t)w->nkept;
		x->nrpool += w->nkept;
	}
	if ((v = rt_ph_aalloc(&x->vpool, w->nwork * sizeof *w->work)) == NULL)
		return -1;
	memcpy(v, w->work, w->nwork * sizeof *w->work);
	x->colp[c] = v;
	x->collen[c] = (uint32_t)w->nwork;
	padd(x, r->piv.key, (uint32_t)c, r->piv.coef);
	return 0;
}

static void
wfree(struct wk *w)
{
	free(w->heap);
	free(w->work);
	free(w->cur);
	free(w->kept);
	free(w->old);
	rt_ph_spfree(w);
	free(w->sp);
	w->sp = NULL;
	w->capsp = 0;
	w->heap = NULL;
	w->kept = w->old = NULL;
	w->work = NULL;
	w->cur = NULL;
	w->capheap = w->capkept = w->capold = w->capwork = w->capcur = 0;
}

/* A slot keeps its buffers for the next column it holds, unless they are
 * large: LOOK slots each keeping a long column's would be LOOK times the
 * memory. */
static void
release(struct pend *r)
{
	struct wk *w = &r->ws;

	rt_ph_spfree(w);
	if (w->capheap > 4096 || w->capwork > 4096 || w->capkept > 4096 ||
	    w->capold > 4096 || w->capcur > 4096)
		wfree(w);
}

/* A thread: take the next column, reduce it, leave it in its slot, and
 * commit the slots ready in column order unless another thread is;
 * between columns, first merge what another thread offers (keepr's at a
 * commit, which the columns after it wait for).  It stays until every
 * column is committed: the last ones, committed one after the other, are
 * the longest. */
static void *
worker(void *arg)
{
	struct wk *w = arg;
	struct ctx *x = w->x;
	struct pend *r;
	size_t c;
	int st;

	pthread_mutex_lock(&x->mu);
	while (!x->err && x->committed < x->ncol) {
		if (x->jobstate == POSTED) {	/* merges another thread offers */
			struct wk *jw = x->job;
			size_t k = x->jobk, m = x->jobm;

			x->jobstate = TAKEN;
			pthread_mutex_unlock(&x->mu);
			rt_ph_merges(jw, k, m, 1, NULL);
			pthread_mutex_lock(&x->mu);
			x->jobstate = DONE;
			pthread_cond_broadcast(&x->cv);
			continue;
		}
		if (x->next >= x->ncol || x->next >= x->committed + LOOK) {
			pthread_cond_wait(&x->cv, &x->mu);
			continue;
		}
		c = x->next++;
		pthread_mutex_unlock(&x->mu);
		r = &x->pend[c % LOOK];
		st = column(w, c, r);
		wswap(w, r);
		pthread_mutex_lock(&x->mu);
		if (st) {
			x->err = 1;
			break;
		}
		r->ready = 1;
		if (x->committing)
			continue;
		x->committing = 1;
		while (!x->err && x->committed < x->ncol &&
		    (r = &x->pend[x->committed % LOOK])->ready) {
			pthread_mutex_unlock(&x->mu);
			st = commit(r, w->sc);
			release(r);
			pthread_mutex_lock(&x->mu);
			r->ready = 0;
			if (st)
				x->err = 1;
			x->committed++;
			pthread_cond_broadcast(&x->cv);
		}
		x->committing = 0;
	}
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	return NULL;
}


/* Forget the columns of the dimension reduced last. */
static void
colfree(struct ctx *x)
{
	rt_ph_afree(&x->vpool);
	rt_ph_afree(&x->rpool);
	free(x->piv);
	free(x->colp);
	free(x->collen);
	free(x->rp);
	free(x->rlen);
	free(x->rcost);
	free(x->cob);
	x->cob = NULL;
	x->piv = NULL;
	x->colp = NULL;
	x->collen = NULL;
	x->rp = NULL;
	x->rlen = NULL;
	x->rcost = NULL;
}

/* Bits of the values 0 to v. */
static int
bits(uint64_t v)
{
	return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

/* How the terms of dimension dim's runs are packed (phint.h), or none
 * made if they do not fit TERMBITS: the keys of cofacets of dim + 2
 * vertices among g->n, below C(n, dim + 2) if that does not overflow. */
static void
packing(struct ctx *x, int dim)
{
	uint64_t n = x->g->n, top = x->binom[n][dim + 2];
	int db = bits(x->ndtab > 0 ? x->ndtab - 1 : 0);

	x->kb = bits(top > 0 ? top - 1 : 0);
	x->cb = x->p == 2 ? 0 : bits(x->p - 1);
	x->tb = x->kb + x->cb;
	x->kmask = x->kb == 64 ? UINT64_MAX : ((uint64_t)1 << x->kb) - 1;
	x->cmask = ((uint64_t)1 << x->cb) - 1;
	x->packed = n >= (size_t)dim + 2 && top >= x->binom[n - 1][dim + 2] &&
	    x->tb + (db > 0 ? db : 1) <= TERMBITS;
}

/* Reduce the coboundary matrix of one dimension, columns given in
 * reverse filtration order, on x->threads threads.  The result is the
 * sequential one, whatever the threads' timing. */
static int
reduce(struct ctx *x, int dim, const struct simplex *col, size_t ncol, size_t napp)
{
	struct wk w[8];
	struct scratch sc[8];
	pthread_t th[8];
	unsigned i, n = x->threads < 1 ? 1 : x->threads > 8 ? 8 : x->threads, started = 0;
	int status = -1;

	x->nv = dim + 1;
	x->dim = dim;
	x->col = col;
	x->ncol = ncol;
	x->napp = napp;
	x->next = x->committed = 0;
	x->committing = x->err = 0;
	x->nrpool = 0;
	x->jobstate = NOJOB;
	packing(x, dim);
	atomic_store(&x->ncob, 0);
	colfree(x);
	memset(w, 0, sizeof w);
	memset(sc, 0, sizeof sc);
	if (ncol < 2 * LOOK)
		n = 1;
	if (palloc(x, ncol) ||
	    (x->colp = calloc(ncol + 1, sizeof *x->colp)) == NULL ||
	    (x->collen = calloc(ncol + 1, sizeof *x->collen)) == NULL ||
	    (x->rp = calloc(ncol + 1, sizeof *x->rp)) == NULL ||
	    (x->rlen = malloc((ncol + 1) * sizeof *x->rlen)) == NULL ||
	    (x->rcost = calloc(ncol + 1, sizeof *x->rcost)) == NULL ||
	    (x->cob = calloc(ncol + napp + 1, sizeof *x->cob)) == NULL ||
	    (x->pend = calloc(LOOK, sizeof *x->pend)) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		w[i].x = x;
		w[i].sc = &sc[i];
	}
	x->helpers = (int)n - 1;
	for (i = 0; i < LOOK; i++)
		x->pend[i].ws.x = x;
	for (i = 1; i < n; i++, started++)
		if (pthread_create(&th[i], NULL, worker, &w[i]))
			break;
	worker(&w[0]);
	for (i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	if (!x->err && x->committed == ncol)
		status = 0;
out:
	for (i = 0; i < n; i++) {
		wfree(&w[i]);
		free(sc[i].a);
		free(sc[i].b);
		free(sc[i].ta);
		free(sc[i].tb);
		free(sc[i].cnt);
		free(sc[i].run);
		free(sc[i].nd);
		free(sc[i].v);
		free(sc[i].c);
		rt_ph_afree(&sc[i].cpool);
	}
	if (x->pend != NULL)
		for (i = 0; i < LOOK; i++)
			wfree(&x->pend[i].ws);
	free(x->pend);
	x->pend = NULL;
	return status;
}

/* Sort columns into reverse filtration order (diameter decreasing, then
 * key increasing) by rsort: by key, reversed, stably by diameter,
 * reversed again: a radix sort streams where qsort's comparisons call
 * out and branch, on columns that number millions in dimension 2. */
static int
colsort(struct simplex *col, size_t n)
{
	struct scratch sc = { 0 };
	struct hentry *h, e;
	struct simplex *s;
	size_t i;
	int st = -1;

	if (n < 2)
		return 0;
	if (n > UINT32_MAX)
		return -1;
	h = malloc((n + 1) * sizeof *h);
	s = malloc((n + 1) * sizeof *s);
	if (h == NULL || s == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		h[i].key = col[i].key;
		h[i].diam = col[i].diam;
		h[i].coef = (uint32_t)i;
	}
	if (rt_ph_rsort(&sc, h, n, 0))
		goto out;
	for (i = 0; i < n / 2; i++) {
		e = h[i];
		h[i] = h[n - 1 - i];
		h[n - 1 - i] = e;
	}
	if (rt_ph_rsort(&sc, h, n, 1))
		goto out;
	for (i = 0; i < n; i++)
		s[n - 1 - i] = col[h[i].coef];
	memcpy(col, s, n * sizeof *col);
	st = 0;
out:
	free(h);
	free(s);
	free(sc.b);
	free(sc.cnt);
	return st;
}

/* Dimension 0 by union-find in filtration order; the edges that merge
 * nothing are the columns of dimension 1 (clearing). */
static int
dim0(struct ctx *x, struct simplex **colp, size_t *ncolp)
{
	const struct rt_graph *g = x->g;
	struct simplex *e, *col;
	size_t i, k, ne = 0, ncol = 0;
	uint32_t *up, j;

	if ((e = malloc((g->off[g->n] / 2 + 1) * sizeof *e)) == NULL ||
	    (up = malloc((g->n + 1) * sizeof *up)) == NULL) {
		free(e);
		return -1;
	}
	for (j = 0; j < g->n; j++) {
		up[j] = j;
		for (k = g->off[j]; k < g->off[j + 1] && g->nb[k] < j; k++) {
			e[ne].v[0] = g->nb[k];
			e[ne].v[1] = j;
			e[ne].v[2] = 0;
			e[ne].diam = g->d[k];
			e[ne++].key = x->binom[g->nb[k]][1] + x->binom[j][2];
		}
	}
	if (colsort(e, ne) || (x->dtab = malloc((ne + 1) * sizeof *x->dtab)) == NULL)
		goto fail;
	for (i = ne; i-- > 0;)	/* diameters increasing */
		if (x->ndtab == 0 || e[i].diam != x->dtab[x->ndtab - 1])
			x->dtab[x->ndtab++] = e[i].diam;
	if (rt_ph_dindex(x))
		goto fail;
	col = e;
	for (i = ne; i-- > 0;) {	/* increasing filtration order */
		if (!rt_uf_join(up, e[i].v[0], e[i].v[1]))
			continue;
		if (e[i].diam > 0 && addbar(x, 0, 0, e[i].diam, &e[i], NULL, 0))
			goto fail;
		e[i].key = EMPTY;	/* paired: cleared from dimension 1 */
	}
	for (j = 0; j < g->n; j++)
		if (rt_uf_find(up, j) == j) {
			struct simplex s = { .v = { j, 0, 0 } };

			if (addbar(x, 0, 0, INFINITY, &s, NULL, 0))
				goto fail;
		}
	for (i = 0; i < ne; i++)
		if (e[i].key != EMPTY)
			col[ncol++] = e[i];
	free(up);
	*colp = col;
	*ncolp = ncol;
	return 0;
fail:
	free(e);
	free(up);
	return -1;
}

/* The triangles that dimension 1 left unpaired, for dimension 2. */
struct tris {
	struct ctx *x;
	struct simplex *col;
	size_t ncol, cap;
	int err;
};

static void
onetri(void *c, uint32_t i, uint32_t j, uint32_t k, size_t ij, size_t jk, size_t ik)
{
	struct tris *t = c;
	const float *d = t->x->g->d;
	uint64_t key = t->x->binom[i][1] + t->x->binom[j][2] + t->x->binom[k][3];
	uint32_t v[3] = { i, j, k };
	struct simplex *s, f;
	float diam;
	int neg;

	if (t->err || pfind(t->x, key) != NULL)
		return;	/* paired in dimension 1: cleared */
	diam = d[ij] > d[jk] ? d[ij] : d[jk];
	if (d[ik] > diam)
		diam = d[ik];
	if (rt_ph_apparentof(t->x, 2, v, key, diam, &f, &neg))
		return;	/* an apparent pair's, not in the table */
	f.v[0] = i;
	f.v[1] = j;
	f.v[2] = k;
	f.key = key;
	f.diam = diam;
	if (rt_ph_apparentup(t->x, 3, &f)) {
		t->x->ph->apparent++;	/* the facet of an apparent pair: not a column */
		return;
	}
	if (rt_grow(&t->col, &t->cap, t->ncol + 1, sizeof *t->col)) {
		t->err = 1;
		return;
	}
	s = &t->col[t->ncol++];
	s->v[0] = i;
	s->v[1] = j;
	s->v[2] = k;
	s->key = key;
	s->diam = diam;
}

static int
triangles(struct ctx *x, struct simplex **colp, size_t *ncolp)
{
	struct tris t = { .x = x };

	rt_graph_triangles(x->g, x->g->thresh, onetri, &t);
	if (t.err) {
		free(t.col);
		return -1;
	}
	if (colsort(t.col, t.ncol)) {
		free(t.col);
		return -1;
	}
	*colp = t.col;
	*ncolp = t.ncol;
	return 0;
}

int
rt_prime(uint64_t p)
{
	uint64_t d;

	if (p < 2)
		return 0;
	for (d = 2; d * d <= p; d++)
		if (p % d == 0)
			return 0;
	return 1;
}

int
rt_ph_compute(struct rt_ph *ph, const struct rt_graph *g, int maxdim, unsigned p,
    unsigned threads)
{
	struct ctx x = { .g = g, .p = p, .ph = ph, .threads = threads };
	struct simplex *col = NULL;
	size_t ncol = 0, napp = 0, v;
	int m, status = -1;

	memset(ph, 0, sizeof *ph);
	if (!rt_prime(p) || p > 65521 || maxdim < 0 || maxdim > 2)
		return -1;
	if (pthread_mutex_init(&x.mu, NULL))
		return -1;
	if (pthread_cond_init(&x.cv, NULL)) {
		pthread_mutex_destroy(&x.mu);
		return -1;
	}
	if ((x.inv = malloc(p * sizeof *x.inv)) == NULL ||
	    (x.binom = malloc((g->n + 2) * sizeof *x.binom)) == NULL)
		goto out;
	x.invp = 1.0 / p;
	x.inv[0] = 0;
	x.inv[1] = 1;
	for (v = 2; v < p; v++)	/* inv(a) = -(p / a) * inv(p mod a) */
		x.inv[v] = (uint32_t)((uint64_t)(p - p / v) * x.inv[p % v] % p);
	for (v = 0; v < g->n + 2; v++)
		for (m = 0; m <= 4; m++)
			x.binom[v][m] = m == 0 ? 1 : v == 0 ? 0 :
			    x.binom[v - 1][m - 1] + x.binom[v - 1][m];
	if (dim0(&x, &col, &ncol) || rt_ph_dense(&x))
		goto out;
	if (maxdim >= 1 && (rt_ph_unapparent(&x, 2, col, &ncol, &napp) ||
	    reduce(&x, 1, col, ncol, napp)))
		goto out;
	if (maxdim >= 2) {
		free(col);
		col = NULL;
		if (triangles(&x, &col, &ncol))
			goto out;
		if (reduce(&x, 2, col, ncol, 0))
			goto out;
	}
	status = 0;
out:
	free(col);
	free(x.inv);
	free(x.binom);
	free(x.dtab);
	free(x.dbkt);
	colfree(&x);
	free(x.row);
	free(x.dm);
	pthread_cond_destroy(&x.cv);
	pthread_mutex_destroy(&x.mu);
	if (status)
		rt_ph_free(ph);
	return status;
}

void
rt_ph_free(struct rt_ph *ph)
{
	free(ph->bar);
	free(ph->cocycle);
	memset(ph, 0, sizeof *ph);
}
