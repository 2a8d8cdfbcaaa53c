/* ph.c: Vietoris-Rips persistent cohomology over Z/p (Bauer, Ripser, 2021). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* Simplices are vertex sets in increasing order, numbered by the
 * combinatorial number system: key = sum over r of C(v_r, r + 1).  The
 * filtration orders them by diameter, then by decreasing key (Ripser's
 * order); cohomology reduces columns from the last simplex to the first,
 * and a column's pivot is its earliest cofacet. */
struct simplex {
	uint64_t key;
	float diam;
	uint32_t v[3];
};

struct ventry {			/* a term of a reduction column */
	struct simplex s;
	uint32_t coef;
};

struct hentry {			/* a term of a working coboundary */
	uint64_t key;
	float diam;
	uint32_t coef;
};

struct pivot {			/* pivot key -> the column that owns it */
	uint64_t key;
	uint32_t col, coef;
};

/* A kept reduced coboundary added to the working column: its terms
 * rpool[at..end), in filtration order, times f. */
struct cursor {
	uint64_t key;		/* of the next term, rpool[at] */
	float diam;
	uint32_t f;
	size_t at, end;
};

struct ctx {
	const struct rt_graph *g;
	unsigned p;
	uint32_t *inv;
	uint64_t (*binom)[5];	/* binom[v][m] = C(v, m) */
	int nv;			/* vertices of a column simplex */

	struct hentry *heap;
	size_t nheap, capheap;
	struct ventry *work;
	size_t nwork, capwork;

	struct pivot *piv;	/* open addressing, key UINT64_MAX = empty */
	size_t pivmask, npiv;

	struct ventry *pool;	/* reduction columns of paired columns */
	size_t npool, cappool;
	size_t *colstart;
	uint32_t *collen;

	/* Reduced coboundaries of some of them, at most MAXRPOOL terms (2 GiB):
	 * on i.i.d. windows a cap of 2^24 filled at 1500 windows, and the
	 * columns reduced after that (the long-lived classes, whose reductions
	 * add the most) replayed instead: 350 M terms pushed where keeping
	 * them pushes 62 M (45 s to 17 s; 1500 windows keep 32 M terms). */
	struct hentry *rpool;
	size_t nrpool, caprpool, maxrpool;
	size_t *rstart;
	uint32_t *rlen;		/* NOCACHE: replay the reduction column */
	size_t *rcost;		/* cofacets a replay of the column pushes */
	struct cursor *cur;	/* kept coboundaries added to the column */
	size_t ncur, capcur;
	struct hentry *sum;	/* hsum's sorted copy */
	size_t capsum, compactat;
	size_t *cnt;		/* hsum's radix counts */
	size_t pushed;		/* by the column being reduced, replays counted */

	struct rt_ph *ph;
	size_t capbar, capcoc;
};

#define EMPTY UINT64_MAX
#define NOCACHE UINT32_MAX
#define MAXRPOOL ((size_t)1 << 27)
#define COMPACT ((size_t)1 << 14)	/* terms on the heap before hsum is worth it */

static int
earlier(float da, uint64_t ka, float db, uint64_t kb)
{
	return da < db || (da == db && ka > kb);
}

static void siftdown(struct hentry *, size_t, size_t);

/* Sum the heap's equal terms and drop the zeros, the heap left unordered:
 * a radix sort by key (16 bits a pass, as many passes as the largest key
 * needs: two below 2^32) and a pass over the runs.  A working coboundary
 * holds terms many times over, which a pop at a time sums at a cache miss
 * per level; sorting streams through memory, where a hash table of a heap
 * of millions of terms missed the cache at every term (2000 i.i.d.
 * windows: 237 s of CPU with a hash table, 157 s sorting). */
static int
hsum(struct ctx *x)
{
	struct hentry *src, *dst, *t;
	size_t i, n = x->nheap, o, sum;
	uint64_t maxkey = 0;
	int shift;

	if (rt_grow(&x->sum, &x->capsum, n + 1, sizeof *x->sum))
		return -1;
	if (x->cnt == NULL && (x->cnt = malloc(65536 * sizeof *x->cnt)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (x->heap[i].key > maxkey)
			maxkey = x->heap[i].key;
	src = x->heap;
	dst = x->sum;
	for (shift = 0; shift < 64 && (shift == 0 || maxkey >> shift); shift += 16) {
		memset(x->cnt, 0, 65536 * sizeof *x->cnt);
		for (i = 0; i < n; i++)
			x->cnt[src[i].key >> shift & 0xffff]++;
		for (sum = 0, i = 0; i < 65536; i++) {
			o = x->cnt[i];
			x->cnt[i] = sum;
			sum += o;
		}
		for (i = 0; i < n; i++)
			dst[x->cnt[src[i].key >> shift & 0xffff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	/* src is sorted by key: sum the runs into the heap's array */
	for (o = 0, i = 0; i < n; o += src[o].coef != 0) {
		struct hentry e = src[i++];

		while (i < n && src[i].key == e.key)
			if ((e.coef += src[i++].coef) >= x->p)
				e.coef -= x->p;
		src[o] = e;
	}
	if (src != x->heap) {
		t = x->heap;
		x->heap = x->sum;
		x->sum = t;
		i = x->capheap;
		x->capheap = x->capsum;
		x->capsum = i;
	}
	x->nheap = o;
	return 0;
}

/* hsum, then the heap order again (bottom up), when the heap has grown
 * four times since it was last compacted: on 2000 i.i.d. windows this
 * halves the memory (1.3 GB to 0.78) for a few per cent of time. */
static int
compact(struct ctx *x)
{
	size_t i;

	if (hsum(x))
		return -1;
	for (i = x->nheap / 4 + 1; i-- > 0;)
		siftdown(x->heap, x->nheap, i);
	x->compactat = 4 * x->nheap > COMPACT ? 4 * x->nheap : COMPACT;
	return 0;
}

/* The heap keeps the earliest entry on top.  It is 4-ary: a node's
 * children share a cache line, and there are half as many levels. */
static int
hpush(struct ctx *x, uint64_t key, float diam, uint32_t coef)
{
	struct hentry e = { key, diam, coef }, *h;
	size_t i, up;

	if (x->nheap >= x->compactat && compact(x))
		return -1;
	if (x->nheap == x->capheap &&
	    rt_grow(&x->heap, &x->capheap, x->nheap + 1, sizeof *x->heap))
		return -1;
	h = x->heap;
	for (i = x->nheap++; i > 0; i = up) {
		up = (i - 1) / 4;
		if (!earlier(e.diam, e.key, h[up].diam, h[up].key))
			break;
		h[i] = h[up];
	}
	h[i] = e;
	return 0;
}

/* Move h[i] down to its place among n. */
static void
siftdown(struct hentry *h, size_t n, size_t i)
{
	struct hentry last = h[i];
	size_t c, m, end;

	for (;;) {
		c = 4 * i + 1;
		if (c >= n)
			break;
		end = c + 4 < n ? c + 4 : n;
		for (m = c++; c < end; c++)
			if (earlier(h[c].diam, h[c].key, h[m].diam, h[m].key))
				m = c;
		if (!earlier(h[m].diam, h[m].key, last.diam, last.key))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = last;
}

static struct hentry
hpop(struct ctx *x)
{
	struct hentry top = x->heap[0];

	if (--x->nheap > 0) {
		x->heap[0] = x->heap[x->nheap];
		siftdown(x->heap, x->nheap, 0);
	}
	return top;
}

/* The working coboundary is the heap (the column's own coboundary and
 * replayed ones) and the kept coboundaries added to it, each a run in
 * filtration order read by a cursor; the cursors are a binary heap by
 * their next terms.  An addition of a kept column costs a cursor, and a
 * term is touched only when the pivot search reaches it: on 1000 i.i.d.
 * windows 32 M pushes of kept terms onto the heap, and their sorting and
 * popping, were 60% of persist's time. */
static int
cearlier(const struct ctx *x, const struct cursor *a, const struct cursor *b)
{
	(void)x;
	return earlier(a->diam, a->key, b->diam, b->key);
}

static void
csiftdown(struct ctx *x, size_t i)
{
	struct cursor *h = x->cur, last = h[i];
	size_t c, n = x->ncur;

	for (;;) {
		if ((c = 2 * i + 1) >= n)
			break;
		if (c + 1 < n && cearlier(x, &h[c + 1], &h[c]))
			c++;
		if (!cearlier(x, &h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
}

static int
cpush(struct ctx *x, size_t at, size_t end, uint32_t f)
{
	struct cursor e = { 0, 0, f, at, end };
	size_t i, up;

	if (at == end)
		return 0;
	e.key = x->rpool[at].key;
	e.diam = x->rpool[at].diam;
	if (rt_grow(&x->cur, &x->capcur, x->ncur + 1, sizeof *x->cur))
		return -1;
	for (i = x->ncur++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!cearlier(x, &e, &x->cur[up]))
			break;
		x->cur[i] = x->cur[up];
	}
	x->cur[i] = e;
	return 0;
}

/* The top cursor's term, taken: its coefficient times the cursor's
 * factor, not reduced mod p (below 2^32: wnext sums them in 64 bits and
 * reduces once a term, where a division a cursor's term was a fifth of
 * the time). */
static uint64_t
cpop(struct ctx *x)
{
	struct cursor *t = &x->cur[0];
	uint64_t coef = (uint64_t)x->rpool[t->at].coef * t->f;

	if (++t->at == t->end) {
		if (--x->ncur == 0)
			return coef;
		x->cur[0] = x->cur[x->ncur];
	} else {
		t->key = x->rpool[t->at].key;
		t->diam = x->rpool[t->at].diam;
	}
	csiftdown(x, 0);
	return coef;
}

/* Take the earliest term of the working coboundary with every equal one,
 * their coefficients summed (perhaps to 0).  0 if the column is empty. */
static int
wnext(struct ctx *x, struct hentry *e)
{
	const struct cursor *r;
	uint64_t sum;

	if (x->ncur && (r = &x->cur[0], x->nheap == 0 ||
	    !earlier(x->heap[0].diam, x->heap[0].key, r->diam, r->key))) {
		e->key = r->key;
		e->diam = r->diam;
		sum = cpop(x);
	} else if (x->nheap) {
		*e = hpop(x);
		sum = e->coef;
	} else
		return 0;
	for (;;) {
		if (x->ncur && x->cur[0].key == e->key)
			sum += cpop(x);
		else if (x->nheap && x->heap[0].key == e->key)
			sum += hpop(x).coef;
		else
			break;
	}
	e->coef = (uint32_t)(sum % x->p);
	return 1;
}

/* The pivot of the working coboundary: its earliest term with a nonzero
 * sum of coefficients, taken from it.  0 if the column is zero. */
static int
wpivot(struct ctx *x, struct hentry *piv)
{
	while (wnext(x, piv))
		if (piv->coef)
			return 1;
	return 0;
}

static struct pivot *
pfind(struct ctx *x, uint64_t key)
{
	size_t i;

	if (x->piv == NULL)
		return NULL;
	for (i = rt_hash64(key) & x->pivmask; x->piv[i].key != EMPTY; i = (i + 1) & x->pivmask)
		if (x->piv[i].key == key)
			return &x->piv[i];
	return NULL;
}

static int
padd(struct ctx *x, uint64_t key, uint32_t col, uint32_t coef)
{
	struct pivot *old = x->piv;
	size_t i, j, cap, oldcap = x->piv ? x->pivmask + 1 : 0;

	if (2 * (x->npiv + 1) > oldcap) {
		cap = oldcap ? 2 * oldcap : 1024;
		if ((x->piv = malloc(cap * sizeof *x->piv)) == NULL) {
			x->piv = old;
			return -1;
		}
		for (i = 0; i < cap; i++)
			x->piv[i].key = EMPTY;
		x->pivmask = cap - 1;
		for (i = 0; i < oldcap; i++)
			if (old[i].key != EMPTY) {
				for (j = rt_hash64(old[i].key) & x->pivmask; x->piv[j].key != EMPTY;
				    j = (j + 1) & x->pivmask)
					;
				x->piv[j] = old[i];
			}
		free(old);
	}
	for (i = rt_hash64(key) & x->pivmask; x->piv[i].key != EMPTY; i = (i + 1) & x->pivmask)
		;
	x->piv[i].key = key;
	x->piv[i].col = col;
	x->piv[i].coef = coef;
	x->npiv++;
	return 0;
}

/* Cofacets of s (x->nv vertices) in decreasing key order: the common
 * neighbours k of its vertices, from the largest down. */
struct cofit {
	const struct simplex *s;
	size_t lo[3], at[3];
};

static void
cof_init(struct ctx *x, struct cofit *it, const struct simplex *s)
{
	int m;

	it->s = s;
	for (m = 0; m < x->nv; m++) {
		it->lo[m] = x->g->off[s->v[m]];
		it->at[m] = x->g->off[s->v[m] + 1];
	}
}

/* The next cofacet: its key, diameter and the sign of s in its boundary. */
static int
cof_next(struct ctx *x, struct cofit *it, uint64_t *key, float *diam, int *neg)
{
	const uint32_t *nb = x->g->nb;
	const float *d = x->g->d;
	const struct simplex *s = it->s;
	uint32_t k;
	float dm;
	int m, pos;

	while (it->at[0] > it->lo[0]) {
		k = nb[--it->at[0]];
		dm = d[it->at[0]];
		for (m = 1; m < x->nv; m++) {
			while (it->at[m] > it->lo[m] && nb[it->at[m] - 1] > k)
				it->at[m]--;
			if (it->at[m] == it->lo[m] || nb[it->at[m] - 1] != k)
				break;
			if (d[it->at[m] - 1] > dm)
				dm = d[it->at[m] - 1];
		}
		if (m < x->nv)
			continue;
		*diam = dm > s->diam ? dm : s->diam;
		/* k goes in at position pos; vertices above it move up a place */
		*key = 0;
		for (pos = 0, m = 0; m < x->nv; m++) {
			if (s->v[m] < k) {
				*key += x->binom[s->v[m]][m + 1];
				pos++;
			} else
				*key += x->binom[s->v[m]][m + 2];
		}
		*key += x->binom[k][pos + 1];
		*neg = pos & 1;
		return 1;
	}
	return 0;
}

/* Push the coboundary of s times coef; with check, stop at an emergent
 * pair: the first cofacet of s's own diameter met (the latest key among
 * them, so the earliest in the filtration) that no column owns yet. */
static int
coboundary(struct ctx *x, const struct simplex *s, uint32_t coef, int check,
    struct hentry *emergent)
{
	struct cofit it;
	uint64_t key;
	float diam;
	int neg;

	cof_init(x, &it, s);
	while (cof_next(x, &it, &key, &diam, &neg)) {
		uint32_t c = neg ? x->p - coef : coef;

		if (check && diam == s->diam) {
			if (pfind(x, key) == NULL) {
				emergent->key = key;
				emergent->diam = diam;
				emergent->coef = c;
				return 1;
			}
			check = 0;
		}
		if (hpush(x, key, diam, c))
			return -1;
		x->pushed++;
	}
	return 0;
}

static int
workadd(struct ctx *x, const struct simplex *s, uint32_t coef)
{
	if (rt_grow(&x->work, &x->capwork, x->nwork + 1, sizeof *x->work))
		return -1;
	x->work[x->nwork].s = *s;
	x->work[x->nwork++].coef = coef;
	return 0;
}

static int
bykey(const void *a, const void *b)
{
	const struct ventry *p = a, *q = b;

	return p->s.key < q->s.key ? -1 : p->s.key > q->s.key;
}

/* The working reduction column with equal terms summed, zeros dropped. */
static void
worksum(struct ctx *x)
{
	size_t i, o = 0;

	if (x->nwork > 1)
		qsort(x->work, x->nwork, sizeof *x->work, bykey);
	for (i = 0; i < x->nwork; i++) {
		if (o && x->work[o - 1].s.key == x->work[i].s.key) {
			x->work[o - 1].coef = (x->work[o - 1].coef + x->work[i].coef) % x->p;
			if (x->work[o - 1].coef == 0)
				o--;
			continue;
		}
		x->work[o++] = x->work[i];
	}
	x->nwork = o;
}

/* Keep the reduced coboundary of column c, its pivot piv taken from the
 * working coboundary and the rest still in it, if it is no longer than
 * the coboundaries its reduction column replays (pushed of them) and
 * there is room: adding the column later then costs a cursor over its
 * surviving terms, not every cofacet of every term.  The terms are taken
 * in filtration order (the pivot first), giving up as soon as the column
 * is too long to keep; the working coboundary is emptied. */
static int
keepr(struct ctx *x, size_t c, size_t pushed, const struct hentry *piv)
{
	size_t start = x->nrpool;
	struct hentry e = *piv;

	x->rlen[c] = NOCACHE;
	if (x->nheap > COMPACT && compact(x))
		return -1;
	do {
		if (e.coef == 0)
			continue;
		if (x->nrpool - start + 1 > pushed || x->nrpool + 1 > x->maxrpool) {
			x->nrpool = start;
			x->nheap = 0;
			x->ncur = 0;
			return 0;
		}
		if (rt_grow(&x->rpool, &x->caprpool, x->nrpool + 1, sizeof *x->rpool))
			return -1;
		x->rpool[x->nrpool++] = e;
	} while (wnext(x, &e));
	x->rstart[c] = start;
	x->rlen[c] = (uint32_t)(x->nrpool - start);
	return 0;
}

static int
addbar(struct ctx *x, int dim, float birth, float death, const struct simplex *s,
    int cocycle)
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
	if (!cocycle)
		return 0;
	if (rt_grow(&ph->cocycle, &x->capcoc, ph->ncocycle + x->nwork,
	    sizeof *ph->cocycle))
		return -1;
	b->cocycle = ph->ncocycle;
	b->ncocycle = x->nwork;
	for (i = 0; i < x->nwork; i++) {
		ph->cocycle[ph->ncocycle].i = x->work[i].s.v[0];
		ph->cocycle[ph->ncocycle].j = x->work[i].s.v[1];
		ph->cocycle[ph->ncocycle++].coef = x->work[i].coef;
	}
	return 0;
}

/* Reduce the coboundary matrix of one dimension, columns given in
 * reverse filtration order. */
static int
reduce(struct ctx *x, int dim, const struct simplex *col, size_t ncol)
{
	struct hentry piv;
	struct pivot *owner;
	size_t c, t, start;
	uint32_t factor, j, a;
	int k;

	x->nv = dim + 1;
	free(x->colstart);
	free(x->collen);
	free(x->rstart);
	free(x->rlen);
	free(x->rcost);
	x->npool = 0;
	x->nrpool = 0;
	if ((x->colstart = malloc((ncol + 1) * sizeof *x->colstart)) == NULL ||
	    (x->collen = calloc(ncol + 1, sizeof *x->collen)) == NULL ||
	    (x->rstart = malloc((ncol + 1) * sizeof *x->rstart)) == NULL ||
	    (x->rlen = malloc((ncol + 1) * sizeof *x->rlen)) == NULL ||
	    (x->rcost = malloc((ncol + 1) * sizeof *x->rcost)) == NULL)
		return -1;
	for (c = 0; c < ncol; c++) {
		int added = 0;

		x->rlen[c] = NOCACHE;
		x->pushed = 0;
		x->compactat = COMPACT;
		x->ph->columns++;
		x->nheap = 0;
		x->ncur = 0;
		x->nwork = 0;
		if (workadd(x, &col[c], 1))
			return -1;
		if ((k = coboundary(x, &col[c], 1, 1, &piv)) < 0)
			return -1;
		if (k == 1)
			x->ph->emergent++;
		else if ((k = wpivot(x, &piv)) < 0)
			return -1;
		while (k == 1 && (owner = pfind(x, piv.key)) != NULL) {
			j = owner->col;
			factor = (x->p - piv.coef * x->inv[owner->coef] % x->p) % x->p;
			added = 1;
			if (x->rlen[j] != NOCACHE) {
				/* the pivot, taken, cancels against r's first term */
				x->pushed += x->rcost[j];
				for (t = 0; t < x->collen[j]; t++) {
					const struct ventry *e = &x->pool[x->colstart[j] + t];

					if (workadd(x, &e->s, (uint32_t)((uint64_t)e->coef * factor % x->p)))
						return -1;
				}
				if (cpush(x, x->rstart[j] + 1, x->rstart[j] + x->rlen[j], factor))
					return -1;
				if ((k = wpivot(x, &piv)) < 0)
					return -1;
				x->ph->reduced++;
				continue;
			}
			if (hpush(x, piv.key, piv.diam, piv.coef))	/* the replay cancels it */
				return -1;
			for (t = 0; t < x->collen[j]; t++) {
				const struct ventry *e = &x->pool[x->colstart[j] + t];

				a = (uint32_t)((uint64_t)e->coef * factor % x->p);
				if (workadd(x, &e->s, a) || coboundary(x, &e->s, a, 0, NULL) < 0)
					return -1;
			}
			if ((k = wpivot(x, &piv)) < 0)
				return -1;
			x->ph->reduced++;
		}
		worksum(x);
		if (k == 0) {
			if (addbar(x, dim, col[c].diam, INFINITY, &col[c], dim == 1))
				return -1;
			continue;
		}
		if (piv.diam > col[c].diam &&
		    addbar(x, dim, col[c].diam, piv.diam, &col[c], dim == 1))
			return -1;
		if (padd(x, piv.key, (uint32_t)c, piv.coef))
			return -1;
		x->rcost[c] = x->pushed;
		if (added && keepr(x, c, x->pushed, &piv))
			return -1;
		start = x->npool;
		if (rt_grow(&x->pool, &x->cappool, x->npool + x->nwork, sizeof *x->pool))
			return -1;
		memcpy(x->pool + start, x->work, x->nwork * sizeof *x->work);
		x->npool += x->nwork;
		x->colstart[c] = start;
		x->collen[c] = (uint32_t)x->nwork;
	}
	return 0;
}

static int
filtration_desc(const void *a, const void *b)
{
	const struct simplex *p = a, *q = b;

	if (p->diam != q->diam)
		return p->diam > q->diam ? -1 : 1;
	return p->key < q->key ? -1 : p->key > q->key;
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
	qsort(e, ne, sizeof *e, filtration_desc);
	col = e;
	for (i = ne; i-- > 0;) {	/* increasing filtration order */
		if (!rt_uf_join(up, e[i].v[0], e[i].v[1]))
			continue;
		if (e[i].diam > 0 && addbar(x, 0, 0, e[i].diam, &e[i], 0))
			goto fail;
		e[i].key = EMPTY;	/* paired: cleared from dimension 1 */
	}
	for (j = 0; j < g->n; j++)
		if (rt_uf_find(up, j) == j) {
			struct simplex s = { .v = { j, 0, 0 } };

			if (addbar(x, 0, 0, INFINITY, &s, 0))
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
	struct simplex *s;

	if (t->err || pfind(t->x, key) != NULL)
		return;	/* paired in dimension 1: cleared */
	if (rt_grow(&t->col, &t->cap, t->ncol + 1, sizeof *t->col)) {
		t->err = 1;
		return;
	}
	s = &t->col[t->ncol++];
	s->v[0] = i;
	s->v[1] = j;
	s->v[2] = k;
	s->key = key;
	s->diam = d[ij] > d[jk] ? d[ij] : d[jk];
	if (d[ik] > s->diam)
		s->diam = d[ik];
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
	if (t.ncol > 1)
		qsort(t.col, t.ncol, sizeof *t.col, filtration_desc);
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
rt_ph_compute(struct rt_ph *ph, const struct rt_graph *g, int maxdim, unsigned p)
{
	struct ctx x = { .g = g, .p = p, .ph = ph, .maxrpool = MAXRPOOL };
	struct simplex *col = NULL;
	size_t ncol = 0, v;
	int m, status = -1;

	memset(ph, 0, sizeof *ph);
	if (!rt_prime(p) || p > 65521 || maxdim < 0 || maxdim > 2)
		return -1;
	if ((x.inv = malloc(p * sizeof *x.inv)) == NULL ||
	    (x.binom = malloc((g->n + 2) * sizeof *x.binom)) == NULL)
		goto out;
	x.inv[0] = 0;
	x.inv[1] = 1;
	for (v = 2; v < p; v++)	/* inv(a) = -(p / a) * inv(p mod a) */
		x.inv[v] = (uint32_t)((uint64_t)(p - p / v) * x.inv[p % v] % p);
	for (v = 0; v < g->n + 2; v++)
		for (m = 0; m <= 4; m++)
			x.binom[v][m] = m == 0 ? 1 : v == 0 ? 0 :
			    x.binom[v - 1][m - 1] + x.binom[v - 1][m];
	if (dim0(&x, &col, &ncol))
		goto out;
	if (maxdim >= 1 && reduce(&x, 1, col, ncol))
		goto out;
	if (maxdim >= 2) {
		free(col);
		col = NULL;
		if (triangles(&x, &col, &ncol))
			goto out;
		free(x.piv);
		x.piv = NULL;
		x.npiv = 0;
		if (reduce(&x, 2, col, ncol))
			goto out;
	}
	status = 0;
out:
	free(col);
	free(x.inv);
	free(x.binom);
	free(x.heap);
	free(x.work);
	free(x.piv);
	free(x.pool);
	free(x.colstart);
	free(x.collen);
	free(x.rpool);
	free(x.rstart);
	free(x.rlen);
	free(x.rcost);
	free(x.sum);
	free(x.cnt);
	free(x.cur);
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
