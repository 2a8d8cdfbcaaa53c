/* ph.c: Vietoris-Rips persistent cohomology over Z/p (Bauer, Ripser, 2021). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef EMERGENT_DELAY
#include <unistd.h>
#endif

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

/* Pivot key -> the column that owns it.  The key is written last, with
 * release order, so that a thread that finds it sees the column's
 * reduction and reduced coboundary stored. */
struct pivot {
	_Atomic uint64_t key;
	uint32_t col, coef;
};

/* A kept reduced coboundary added to the working column: its terms
 * [at, end), in filtration order, times f. */
struct cursor {
	uint64_t key;		/* of the next term, *at */
	float diam;
	uint32_t f;
	const struct hentry *at, *end;
};

/* Memory handed out in spans that never move (a column being read by one
 * thread while another stores the next). */
struct arena {
	char **chunk;
	size_t nchunk, capchunk;
	char *at, *end;
};

struct pend;

struct ctx {
	const struct rt_graph *g;
	unsigned p, threads;
	double invp;		/* 1 / p, for pmod */
	uint32_t *inv;
	uint64_t (*binom)[5];	/* binom[v][m] = C(v, m) */
	int nv;			/* vertices of a column simplex */
	int dim;
	uint64_t *row;		/* of at most DENSE vertices: neighbours as bits, */
	float *dm;		/* distances as a matrix (NULL: merge the lists) */
	size_t nw;		/* words a row */
	const struct simplex *col;
	size_t ncol;
	size_t napp;		/* after them, columns in apparent pairs */

	struct pivot *piv;	/* open addressing, key EMPTY = empty; */
	size_t pivmask;		/* sized for every column: it never moves */

	struct arena vpool;	/* reduction columns of paired columns */
	const struct ventry **colp;
	uint32_t *collen;
	struct arena rpool;	/* reduced coboundaries of some of them */
	size_t nrpool;		/* their terms, at most MAXRPOOL */
	const struct hentry **rp;
	uint32_t *rlen;		/* NOCACHE: replay the reduction column */
	size_t *rcost;		/* cofacets a replay of the column pushes */
	_Atomic(struct hentry *) *cob;	/* coboundaries of columns of one simplex */
	_Atomic size_t ncob;	/* and their terms, at most MAXCOB */

	struct rt_ph *ph;
	size_t capbar, capcoc;

	pthread_mutex_t mu;	/* columns are reduced ahead on threads and */
	pthread_cond_t cv;	/* committed one at a time in column order */
	size_t next, committed;
	int committing, err;
	struct pend *pend;	/* LOOK of them, column c in pend[c % LOOK] */
	int helpers;		/* threads beside one */
	int jobstate;		/* merges of keepr's a thread asks another */
	struct wk *job;		/* to do: the nodes of job's tree marked for */
	size_t jobk, jobm;	/* them among [jobk, jobm) */
};

/* Buffers a thread sorts in, its own whatever column it holds: they are
 * as large as the longest coboundary summed, and a slot would free them
 * (and pay page faults and reallocation again for every column). */
struct scratch {
	struct hentry *a, *b;	/* terms gathered, and rsort's copy */
	size_t capa, capb;
	uint32_t *cnt;		/* rsort's radix counts */
	struct hnode *nd;	/* keepr's tree of runs to merge, */
	size_t *run, caprun;	/* its nodes as a heap, then a stack */
	size_t capnd;
	struct ventry *v;	/* worksum's */
	size_t capv;
	struct hentry *c;	/* cobrun's */
	size_t capc;
	struct arena cpool;	/* the coboundaries this thread made */
};

struct wk {			/* a thread's working column */
	struct ctx *x;
	struct hentry *heap;
	size_t nheap, capheap;
	struct ventry *work;
	size_t nwork, capwork;
	struct cursor *cur;	/* kept coboundaries added to the column */
	size_t ncur, capcur;
	size_t compactat, spillat;
	struct scratch *sc;	/* the thread's */
	size_t pushed;		/* by the column being reduced, replays counted */
	struct hentry *kept;	/* keepr's copy of the reduced coboundary */
	size_t nkept, capkept;
	struct hentry *old;	/* a copy the reduction goes on from */
	struct hentry **sp;	/* runs spill made of short ones */
	size_t nsp, capsp;
	size_t capold;
};

/* A column reduced ahead, kept until its turn to commit: its working
 * column as the reduction left it, at a pivot no column owned then. */
struct pend {
	int ready;
	size_t c;
	int k, emergent, added;
	int keep;		/* keepr: 1 kept, 0 gave up, -1 not tried */
	struct hentry piv;
	uint64_t reduced;
	struct wk ws;
};

#define EMPTY UINT64_MAX
#define NOCACHE UINT32_MAX
#define COMPACT ((size_t)1 << 14)	/* terms on the heap before hsum is worth it */
#define SHORT 256		/* terms of a run that spill() moves to the heap */
#ifndef SPILL			/* t/1700 builds one of 8 */
#define SPILL 1024		/* runs added before spill() is worth it */
#endif
/* Reduced coboundaries are kept up to 2^27 terms (2 GiB): a smaller cap
 * fills early on i.i.d. windows, and the columns reduced after that (the
 * long-lived classes, whose reductions add the most) are replayed
 * instead, pushing several times the terms. */
#define MAXRPOOL ((size_t)1 << 27)
/* Coboundaries of columns of one simplex, kept from their second
 * addition: up to 2^25 terms (512 MiB). */
#ifndef MAXCOB			/* t/1700 builds one of 4096 */
#define MAXCOB ((size_t)1 << 25)
#endif
#define CHUNK ((size_t)1 << 24)		/* bytes of an arena's chunk */
#ifndef SEGMENT			/* t/1700 builds one of 64 */
#define SEGMENT ((size_t)1 << 20)	/* terms keepr merges at a time */
#endif
#define DENSE 4096		/* vertices for rows of bits and a matrix */
#define LOOK 64			/* columns reduced ahead of the last committed */
#define HELP (SEGMENT / 128 + 1)	/* merge steps worth sharing with another thread */
enum { NOJOB, POSTED, TAKEN, DONE };

static void *
aalloc(struct arena *a, size_t n)
{
	size_t sz;

	n = n == 0 ? 16 : (n + 15) & ~(size_t)15;
	if ((size_t)(a->end - a->at) < n) {
		if (rt_grow(&a->chunk, &a->capchunk, a->nchunk + 1, sizeof *a->chunk))
			return NULL;
		sz = n > CHUNK ? n : CHUNK;
		if ((a->chunk[a->nchunk] = malloc(sz)) == NULL)
			return NULL;
		a->at = a->chunk[a->nchunk++];
		a->end = a->at + sz;
	}
	a->at += n;
	return a->at - n;
}

static void
afree(struct arena *a)
{
	while (a->nchunk > 0)
		free(a->chunk[--a->nchunk]);
	free(a->chunk);
	memset(a, 0, sizeof *a);
}

/* a mod p by a multiplication, not a division (no gain was measured on
 * its own, within the noise of a loaded machine): below 2^50 the quotient
 * a double estimates is off by one at most. */
static uint32_t
pmod(const struct ctx *x, uint64_t a)
{
	uint64_t q;
	int64_t r;

	if (a >> 50)
		return (uint32_t)(a % x->p);
	q = (uint64_t)((double)a * x->invp);
	r = (int64_t)(a - q * x->p);
	if (r < 0)
		r += x->p;
	else if (r >= (int64_t)x->p)
		r -= x->p;
	return (uint32_t)r;
}

/* A term's coefficient times f (a factor of a run not yet applied). */
static uint32_t
scaled(const struct ctx *x, const struct hentry *e, uint32_t f)
{
	return f == 1 ? e->coef : pmod(x, (uint64_t)e->coef * f);
}

/* The terms [from, to) times f written to o: the end of what it wrote. */
static struct hentry *
scopy(const struct ctx *x, struct hentry *o, const struct hentry *from,
    const struct hentry *to, uint32_t f)
{
	for (; from < to; from++, o++) {
		*o = *from;
		o->coef = scaled(x, from, f);
	}
	return o;
}

static int
earlier(float da, uint64_t ka, float db, uint64_t kb)
{
	return da < db || (da == db && ka > kb);
}

static void siftdown(struct hentry *, size_t, size_t);

/* Trade two buffers of terms and their capacities. */
static void
trade(struct hentry **a, size_t *ca, struct hentry **b, size_t *cb)
{
	struct hentry *t = *a;
	size_t n = *ca;

	*a = *b;
	*ca = *cb;
	*b = t;
	*cb = n;
}

/* Sort terms stably by key (bydiam 0) or by the bits of the diameter (1:
 * a nonnegative float orders as its bits), LSD radix with 11-bit digits
 * over the bits that differ among them only: keys below 2^33 take three
 * passes, and the diameters of windows (small integers, whose floats
 * differ in 11 bits) one.  The counts of every digit come from one pass. */
#define RBITS 11
#define RBUCKETS (1 << RBITS)
static uint32_t
fbits(float f)
{
	uint32_t u;

	if (f == 0)
		return 0;	/* -0 too */
	memcpy(&u, &f, sizeof u);
	return u;
}

static uint64_t
rval(const struct hentry *e, int bydiam)
{
	return bydiam ? fbits(e->diam) : e->key;
}

static int
rsort(struct scratch *sc, struct hentry *a, size_t n, int bydiam)
{
	struct hentry *src = a, *dst, *t;
	size_t i;
	uint64_t or = 0, and = ~(uint64_t)0, v;
	uint32_t *cnt, sum, o;
	int d, nd, lo;

	for (i = 0; i < n; i++) {
		v = rval(&a[i], bydiam);
		or |= v;
		and &= v;
	}
	if ((v = or ^ and) == 0)
		return 0;	/* all alike */
	lo = __builtin_ctzll(v);
	nd = (64 - __builtin_clzll(v) - lo + RBITS - 1) / RBITS;
	if (rt_grow(&sc->b, &sc->capb, n + 1, sizeof *sc->b))
		return -1;
	if (sc->cnt == NULL && (sc->cnt = malloc(6 * RBUCKETS * sizeof *sc->cnt)) == NULL)
		return -1;
	memset(sc->cnt, 0, (size_t)nd * RBUCKETS * sizeof *sc->cnt);
	for (i = 0; i < n; i++) {
		v = rval(&a[i], bydiam) >> lo;
		for (d = 0; d < nd; d++, v >>= RBITS)
			sc->cnt[d * RBUCKETS + (v & (RBUCKETS - 1))]++;
	}
	dst = sc->b;
	for (d = 0; d < nd; d++) {
		int shift = lo + d * RBITS;

		cnt = sc->cnt + d * RBUCKETS;
		for (sum = 0, i = 0; i < RBUCKETS; i++) {
			o = cnt[i];
			cnt[i] = sum;
			sum += o;
		}
		for (i = 0; i < n; i++)
			dst[cnt[rval(&src[i], bydiam) >> shift & (RBUCKETS - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)		/* an odd number of passes: back, the */
		memcpy(a, src, n * sizeof *src);	/* copy stays the thread's */
	return 0;
}

/* Sum the heap's equal terms and drop the zeros, the terms left in
 * increasing key order (the heap order lost).  A working coboundary
 * holds terms many times over, which a pop at a time sums at a cache miss
 * per level; sorting streams through memory, where a hash table of a heap
 * of millions of terms misses the cache at every term. */
static int
hsum(struct wk *w, struct hentry *h, size_t *np)
{
	size_t i, n = *np, o;

	if (rsort(w->sc, h, n, 0))
		return -1;
	for (o = 0, i = 0; i < n;) {
		struct hentry e = h[i];
		uint64_t c = h[i++].coef;

		while (i < n && h[i].key == e.key)
			c += h[i++].coef;
		if ((e.coef = pmod(w->x, c)) != 0)
			h[o++] = e;
	}
	*np = o;
	return 0;
}

/* hsum, then the heap order again (bottom up), when the heap has grown
 * four times since it was last compacted: memory that a heap of repeated
 * terms would take, for little time. */
static int
compact(struct wk *w)
{
	size_t i;

	if (hsum(w, w->heap, &w->nheap))
		return -1;
	for (i = w->nheap / 4 + 1; i-- > 0;)
		siftdown(w->heap, w->nheap, i);
	w->compactat = 4 * w->nheap > COMPACT ? 4 * w->nheap : COMPACT;
	return 0;
}

/* The heap keeps the earliest entry on top.  It is 4-ary: a node's
 * children share a cache line, and there are half as many levels. */
static int
hpush(struct wk *w, uint64_t key, float diam, uint32_t coef)
{
	struct hentry e = { key, diam, coef }, *h;
	size_t i, up;

	if (w->nheap >= w->compactat && compact(w))
		return -1;
	if (w->nheap == w->capheap &&
	    rt_grow(&w->heap, &w->capheap, w->nheap + 1, sizeof *w->heap))
		return -1;
	h = w->heap;
	for (i = w->nheap++; i > 0; i = up) {
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
hpop(struct wk *w)
{
	struct hentry top = w->heap[0];

	if (--w->nheap > 0) {
		w->heap[0] = w->heap[w->nheap];
		siftdown(w->heap, w->nheap, 0);
	}
	return top;
}

/* The working coboundary is the heap (the column's own coboundary and
 * replayed ones) and the kept coboundaries added to it, each a run in
 * filtration order read by a cursor; the cursors are a binary heap by
 * their next terms.  An addition of a kept column costs a cursor, and a
 * term is touched only when the pivot search reaches it, where pushing
 * every kept term onto the heap, then sorting and popping them, was most
 * of persist's time. */
static int
cearlier(const struct cursor *a, const struct cursor *b)
{
	return earlier(a->diam, a->key, b->diam, b->key);
}

static void
csiftdown(struct wk *w, size_t i)
{
	struct cursor *h = w->cur, last = h[i];
	size_t c, n = w->ncur;

	for (;;) {
		if ((c = 2 * i + 1) >= n)
			break;
		if (c + 1 < n && cearlier(&h[c + 1], &h[c]))
			c++;
		if (!cearlier(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
}

static int spill(struct wk *, int);

static int
cpush(struct wk *w, const struct hentry *at, const struct hentry *end, uint32_t f)
{
	struct cursor e = { 0, 0, f, at, end };
	size_t i, up;

	if (at == end)
		return 0;
	e.key = at->key;
	e.diam = at->diam;
	if (rt_grow(&w->cur, &w->capcur, w->ncur + 1, sizeof *w->cur))
		return -1;
	for (i = w->ncur++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!cearlier(&e, &w->cur[up]))
			break;
		w->cur[i] = w->cur[up];
	}
	w->cur[i] = e;
	return w->ncur >= w->spillat ? spill(w, 1) : 0;
}

/* The top cursor's term, taken: its coefficient times the cursor's
 * factor, not reduced mod p (below 2^32: wnext sums them in 64 bits and
 * reduces once a term, not a division for every cursor's term). */
static uint64_t
cpop(struct wk *w)
{
	struct cursor *t = &w->cur[0];
	uint64_t coef = (uint64_t)t->at->coef * t->f;

	if (++t->at == t->end) {
		if (--w->ncur == 0)
			return coef;
		w->cur[0] = w->cur[w->ncur];
	} else {
		t->key = t->at->key;
		t->diam = t->at->diam;
	}
	csiftdown(w, 0);
	return coef;
}

/* Sum a working coboundary's equal terms and drop the zeros, the terms
 * left in filtration order (by key, summed, the order reversed, then
 * stably by diameter): a run like a kept one. */
static int
sortrun(struct wk *w, struct hentry *h, size_t *np)
{
	size_t i, n;

	if (hsum(w, h, np))
		return -1;
	for (n = *np, i = 0; i < n / 2; i++) {
		struct hentry e = h[i];

		h[i] = h[n - 1 - i];
		h[n - 1 - i] = e;
	}
	return rsort(w->sc, h, n, 1);
}

static void
spfree(struct wk *w)
{
	while (w->nsp > 0)
		free(w->sp[--w->nsp]);
}

/* Gather what is left of the runs shorter than SHORT, times their
 * factors: into the heap's array (keepr sorts it), or (with order) into
 * one run of their own, sorted, that a cursor reads.  A column that adds
 * many short runs (the coboundaries cobrun keeps: hundreds a column on
 * i.i.d. windows) would pop among as many cursors, and keepr merge as
 * many runs; pushed on the heap one term at a time they cost as much as
 * the replays they replace. */
static int
spill(struct wk *w, int order)
{
	struct hentry *h;
	size_t i, k, n = 0, o = order ? 0 : w->nheap;

	for (i = 0; i < w->ncur; i++)
		if (w->cur[i].end - w->cur[i].at < SHORT)
			n += (size_t)(w->cur[i].end - w->cur[i].at);
	if (order && n == 0) {	/* every run long */
		w->spillat = 2 * w->ncur;
		return 0;
	}
	if (order) {
		if (rt_grow(&w->sp, &w->capsp, w->nsp + 1, sizeof *w->sp) ||
		    (h = malloc((n + 1) * sizeof *h)) == NULL)
			return -1;
		w->sp[w->nsp++] = h;
	} else {
		if (rt_grow(&w->heap, &w->capheap, w->nheap + n, sizeof *w->heap))
			return -1;
		h = w->heap;
	}
	for (k = 0, i = 0; i < w->ncur; i++) {
		struct cursor c = w->cur[i];

		if (c.end - c.at >= SHORT) {
			w->cur[k++] = c;
			continue;
		}
		o = (size_t)(scopy(w->x, h + o, c.at, c.end, c.f) - h);
	}
	w->ncur = k;
	w->spillat = 2 * k > SPILL ? 2 * k : SPILL;
	if (!order) {
		w->nheap = o;
		return 0;
	}
	if (sortrun(w, h, &n))
		return -1;
	if (n > 0)
		w->cur[w->ncur++] = (struct cursor){ h->key, h->diam, 1, h, h + n };
	for (i = w->ncur / 2 + 1; w->ncur > 1 && i-- > 0;)
		csiftdown(w, i);
	return 0;
}

/* Take the earliest term of the working coboundary with every equal one,
 * their coefficients summed (perhaps to 0).  0 if the column is empty. */
static int
wnext(struct wk *w, struct hentry *e)
{
	const struct cursor *r;
	uint64_t sum;

	if (w->ncur && (r = &w->cur[0], w->nheap == 0 ||
	    !earlier(w->heap[0].diam, w->heap[0].key, r->diam, r->key))) {
		e->key = r->key;
		e->diam = r->diam;
		sum = cpop(w);
	} else if (w->nheap) {
		*e = hpop(w);
		sum = e->coef;
	} else
		return 0;
	for (;;) {
		if (w->ncur && w->cur[0].key == e->key)
			sum += cpop(w);
		else if (w->nheap && w->heap[0].key == e->key)
			sum += hpop(w).coef;
		else
			break;
	}
	e->coef = pmod(w->x, sum);
	return 1;
}

/* The pivot of the working coboundary: its earliest term with a nonzero
 * sum of coefficients, taken from it.  0 if the column is zero. */
static int
wpivot(struct wk *w, struct hentry *piv)
{
	while (wnext(w, piv))
		if (piv->coef)
			return 1;
	return 0;
}

static struct pivot *
pfind(const struct ctx *x, uint64_t key)
{
	size_t i;
	uint64_t k;

	if (x->piv == NULL)
		return NULL;
	for (i = rt_hash64(key) & x->pivmask;
	    (k = atomic_load_explicit(&x->piv[i].key, memory_order_acquire)) != EMPTY;
	    i = (i + 1) & x->pivmask)
		if (k == key)
			return &x->piv[i];
	return NULL;
}

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

/* Cofacets of s (it->nv vertices) in decreasing key order: the common
 * neighbours k of its vertices, from the largest down. */
struct cofit {
	const struct simplex *s;
	size_t lo[3], at[3];
	size_t wi;		/* with rows of bits: the word before, */
	uint64_t bits;		/* and the common neighbours left in this one */
	uint32_t k;		/* the vertex the last cofacet added */
	int nv;
};

/* Rows of bits and the distance matrix, for a graph small enough and
 * dense enough that a row has fewer words than a vertex has neighbours:
 * the common neighbours of an edge are then the AND of two rows, not a
 * merge of two lists of neighbours that branches at every step. */
static int
dense(struct ctx *x)
{
	const struct rt_graph *g = x->g;
	size_t v, t, n = g->n;

	if (n == 0 || n > DENSE || g->off[n] < n * ((n + 63) / 64))
		return 0;
	x->nw = (n + 63) / 64;
	if ((x->row = calloc(n * x->nw, sizeof *x->row)) == NULL ||
	    (x->dm = malloc(n * n * sizeof *x->dm)) == NULL)
		return -1;
	for (v = 0; v < n; v++)
		for (t = g->off[v]; t < g->off[v + 1]; t++) {
			x->row[v * x->nw + g->nb[t] / 64] |= (uint64_t)1 << (g->nb[t] % 64);
			x->dm[v * n + g->nb[t]] = g->d[t];
		}
	return 0;
}

static void
cof_initn(const struct ctx *x, struct cofit *it, const struct simplex *s, int nv)
{
	int m;

	it->s = s;
	it->nv = nv;
	it->wi = x->nw;
	it->bits = 0;
	for (m = 0; m < nv; m++) {
		it->lo[m] = x->g->off[s->v[m]];
		it->at[m] = x->g->off[s->v[m] + 1];
	}
}

static void
cof_init(const struct ctx *x, struct cofit *it, const struct simplex *s)
{
	cof_initn(x, it, s, x->nv);
}

/* The next common neighbour k of s's vertices, from the largest down,
 * and the largest distance from them to it: from rows of bits ... */
static int
cof_rows(const struct ctx *x, struct cofit *it, uint32_t *k, float *dm)
{
	const struct simplex *s = it->s;
	const uint64_t *r0 = x->row + (size_t)s->v[0] * x->nw;
	const uint64_t *r1 = x->row + (size_t)s->v[1] * x->nw;
	const uint64_t *r2 = it->nv > 2 ? x->row + (size_t)s->v[2] * x->nw : NULL;
	size_t n = x->g->n;
	int b, m;

	while (it->bits == 0) {
		if (it->wi == 0)
			return 0;
		it->wi--;
		it->bits = r0[it->wi] & r1[it->wi] & (r2 != NULL ? r2[it->wi] : ~(uint64_t)0);
	}
	b = 63 - __builtin_clzll(it->bits);
	it->bits &= ~((uint64_t)1 << b);
	*k = (uint32_t)(it->wi * 64 + (size_t)b);
	*dm = x->dm[s->v[0] * n + *k];
	for (m = 1; m < it->nv; m++)
		if (x->dm[s->v[m] * n + *k] > *dm)
			*dm = x->dm[s->v[m] * n + *k];
	return 1;
}

/* ... or by merging the lists of neighbours. */
static int
cof_lists(const struct ctx *x, struct cofit *it, uint32_t *k, float *dm)
{
	const uint32_t *nb = x->g->nb;
	const float *d = x->g->d;
	int m;

	while (it->at[0] > it->lo[0]) {
		*k = nb[--it->at[0]];
		*dm = d[it->at[0]];
		for (m = 1; m < it->nv; m++) {
			while (it->at[m] > it->lo[m] && nb[it->at[m] - 1] > *k)
				it->at[m]--;
			if (it->at[m] == it->lo[m] || nb[it->at[m] - 1] != *k)
				break;
			if (d[it->at[m] - 1] > *dm)
				*dm = d[it->at[m] - 1];
		}
		if (m == it->nv)
			return 1;
	}
	return 0;
}

/* The next cofacet: its key, diameter and the sign of s in its boundary. */
static int
cof_next(const struct ctx *x, struct cofit *it, uint64_t *key, float *diam, int *neg)
{
	const struct simplex *s = it->s;
	uint32_t k;
	float dm;
	int m, pos;

	if (!(x->row != NULL ? cof_rows(x, it, &k, &dm) : cof_lists(x, it, &k, &dm)))
		return 0;
	it->k = k;
	*diam = dm > s->diam ? dm : s->diam;
	/* k goes in at position pos; vertices above it move up a place */
	*key = 0;
	for (pos = 0, m = 0; m < it->nv; m++) {
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

/* Apparent pairs (Bauer, "Ripser", 2021, section 3.5): a simplex s and
 * its first cofacet t of its own diameter (its coboundary's pivot) when
 * s is t's last facet of that diameter in the filtration (the smallest
 * key).  They are pairs of the persistence whatever the reduction does,
 * seen from either side without the pivot table: such a column is not
 * entered in it and never looked for there, saving a look-up, a cache
 * miss each, for most columns of dimension 2. */
static float
dist(const struct ctx *x, uint32_t a, uint32_t b)
{
	size_t s;

	if (x->dm != NULL)
		return x->dm[(size_t)a * x->g->n + b];
	s = rt_graph_slot(x->g, a, b);
	return s == SIZE_MAX ? INFINITY : x->g->d[s];
}

/* t's facet of diameter d with the smallest key, into *f (t: nv + 1
 * vertices, increasing, of diameter d); 0 if none. */
static int
zfacet(const struct ctx *x, int nv, const uint32_t *t, float d, struct simplex *f)
{
	float dd[4][4], fd;
	int nt = nv + 1, o, m, i;

	for (m = 0; m < nt; m++)
		for (i = m + 1; i < nt; i++)
			dd[m][i] = dist(x, t[m], t[i]);
	for (o = nt - 1; o >= 0; o--) {	/* without t[o]: keys increase as o falls */
		for (fd = 0, m = 0; m < nt; m++)
			for (i = m + 1; i < nt; i++)
				if (m != o && i != o && dd[m][i] > fd)
					fd = dd[m][i];
		if (fd != d)
			continue;
		memset(f, 0, sizeof *f);
		for (f->key = 0, i = 0, m = 0; m < nt; m++)
			if (m != o) {
				f->v[i] = t[m];
				f->key += x->binom[t[m]][i + 1];
				i++;
			}
		f->diam = d;
		return 1;
	}
	return 0;
}

/* The key of f's first cofacet of f's diameter d (f: nv vertices), and
 * whether f comes in its boundary with coefficient -1; 0 if none. */
static int
zcofacet(const struct ctx *x, int nv, const struct simplex *f, uint64_t *key, int *neg)
{
	struct cofit it;
	float diam;

	cof_initn(x, &it, f, nv);
	while (cof_next(x, &it, key, &diam, neg))
		if (diam == f->diam)
			return 1;
	return 0;
}

/* Is t (nv + 1 vertices, increasing; key tkey, diameter d) the apparent
 * pair of a facet?  That facet into *f, and whether t comes in its
 * coboundary with coefficient -1. */
static int
apparentof(const struct ctx *x, int nv, const uint32_t *t, uint64_t tkey, float d,
    struct simplex *f, int *neg)
{
	uint64_t key;

	return zfacet(x, nv, t, d, f) && zcofacet(x, nv, f, &key, neg) && key == tkey;
}

/* s's first cofacet of its own diameter t (k added, key tkey; s of nv
 * vertices; the caller found it so): is it s's apparent pair (2), another
 * facet's (1), or neither (0)? */
static int
apparent(const struct ctx *x, int nv, const struct simplex *s, uint32_t k, uint64_t tkey)
{
	uint32_t t[4];
	struct simplex f;
	uint64_t key;
	int m, i = 0, neg;

	for (m = 0; m < nv; m++) {
		if (k < s->v[m] && (m == 0 || k > s->v[m - 1]))
			t[i++] = k;
		t[i++] = s->v[m];
	}
	if (i == nv)
		t[i] = k;
	if (!zfacet(x, nv, t, s->diam, &f))
		return 0;
	if (f.key == s->key)
		return 2;	/* t is s's first cofacet of its diameter */
	return zcofacet(x, nv, &f, &key, &neg) && key == tkey;
}

/* Is s (nv vertices) in an apparent pair with a cofacet? */
static int
apparentup(const struct ctx *x, int nv, const struct simplex *s)
{
	struct cofit it;
	uint64_t key;
	float diam;
	int neg;

	cof_initn(x, &it, s, nv);
	while (cof_next(x, &it, &key, &diam, &neg))
		if (diam == s->diam)
			return apparent(x, nv, s, it.k, key) == 2;
	return 0;
}

/* The column whose apparent pair is the cofacet piv, into *f, and the
 * coefficient of piv in its coboundary; 0 if none.  *j its place among
 * the x->napp after the columns (sorted as they are: by diameter down,
 * key up), or NOCACHE in dimension 2, where onetri did not keep them
 * (in dimension 1 not there cannot be: -1). */
static int
apparentcol(const struct ctx *x, const struct hentry *piv, struct simplex *f, uint32_t *coef,
    uint32_t *j)
{
	uint32_t t[4], lo, hi, mid;
	uint64_t key = piv->key;
	size_t a, b, c;
	int m, neg;

	for (hi = (uint32_t)x->g->n, m = x->nv + 1; m >= 1; m--) {
		for (lo = (uint32_t)m - 1; lo + 1 < hi;) {	/* C(lo, m) <= key */
			mid = lo + (hi - lo) / 2;
			if (x->binom[mid][m] <= key)
				lo = mid;
			else
				hi = mid;
		}
		t[m - 1] = lo;
		key -= x->binom[lo][m];
		hi = lo;
	}
	if (!apparentof(x, x->nv, t, piv->key, piv->diam, f, &neg))
		return 0;
	*coef = neg ? x->p - 1 : 1;
	for (a = x->ncol, b = x->ncol + x->napp; a < b;) {
		c = a + (b - a) / 2;
		if (x->col[c].diam > f->diam || (x->col[c].diam == f->diam && x->col[c].key < f->key))
			a = c + 1;
		else
			b = c;
	}
	*j = a < x->ncol + x->napp && x->col[a].key == f->key ? (uint32_t)a : NOCACHE;
	return *j == NOCACHE && x->dim == 1 ? -1 : 1;
}

/* Move the columns in apparent pairs with a cofacet after the others,
 * *napp of them: they are not reduced, and apparentcol finds them when
 * a column needs them (on i.i.d. windows nearly all of them are). */
static int
unapparent(struct ctx *x, int nv, struct simplex *col, size_t *ncol, size_t *napp)
{
	struct simplex *a;
	size_t i, n = 0, m = 0;

	if ((a = malloc((*ncol + 1) * sizeof *a)) == NULL)
		return -1;
	for (i = 0; i < *ncol; i++)
		if (apparentup(x, nv, &col[i]))
			a[m++] = col[i];
		else
			col[n++] = col[i];
	memcpy(col + n, a, m * sizeof *a);
	free(a);
	x->ph->apparent += m;
	*ncol = n;
	*napp = m;
	return 0;
}

/* Push the coboundary of s times coef; with check, stop at an emergent
 * pair: the first cofacet of s's own diameter met (the latest key among
 * them, so the earliest in the filtration) that no column owns yet: not
 * a column committed, nor a simplex whose apparent pair it is (s's own
 * would do, but unapparent moved those, and onetri left them out). */
static int
coboundary(struct wk *w, const struct simplex *s, uint32_t coef, int check,
    struct hentry *emergent)
{
	const struct ctx *x = w->x;
	struct cofit it;
	uint64_t key;
	float diam;
	int neg;

	cof_init(x, &it, s);
	while (cof_next(x, &it, &key, &diam, &neg)) {
		uint32_t c = neg ? x->p - coef : coef;

		if (check && diam == s->diam) {
			int ap = apparent(x, x->nv, s, it.k, key);

			if (ap == 2 || (ap == 0 && pfind(x, key) == NULL)) {
				emergent->key = key;
				emergent->diam = diam;
				emergent->coef = c;
				return 1;
			}
			check = 0;
		}
		if (hpush(w, key, diam, c))
			return -1;
		w->pushed++;
	}
	return 0;
}

/* The coboundary of column j, whose reduction column is one simplex, in
 * filtration order, coefficients 1 and -1: *run its terms after run[-1],
 * whose key is their number; made by the thread that adds the column the
 * second time, and kept: such columns are added many times each, and
 * their cofacets found again at every addition cost much of the
 * reduction; kept from the first addition, the many added once would
 * cost memory for nothing.  *run NULL at the first
 * addition, or when MAXCOB terms are kept already: the caller replays
 * the column. */
static struct hentry once;	/* x->cob[j]: added once */

static int
cobrun(struct wk *w, uint32_t j, const struct simplex *s, const struct hentry **run)
{
	struct ctx *x = w->x;
	struct scratch *sc = w->sc;
	struct hentry *h = atomic_load_explicit(&x->cob[j], memory_order_acquire), *old = &once;
	struct cofit it;
	uint64_t key;
	float diam;
	size_t n = 0;
	int neg;

	*run = NULL;
	if (h == NULL) {
		old = NULL;
		atomic_compare_exchange_strong(&x->cob[j], &old, &once);
		return 0;
	}
	if (h == &once) {
		if (atomic_load_explicit(&x->ncob, memory_order_relaxed) >= MAXCOB)
			return 0;
		cof_init(x, &it, s);
		while (cof_next(x, &it, &key, &diam, &neg)) {
			if (rt_grow(&sc->c, &sc->capc, n + 1, sizeof *sc->c))
				return -1;
			sc->c[n++] = (struct hentry){ key, diam, neg ? x->p - 1 : 1 };
		}
		if (atomic_load_explicit(&x->ncob, memory_order_relaxed) + n + 1 > MAXCOB)
			return 0;
		atomic_fetch_add_explicit(&x->ncob, n + 1, memory_order_relaxed);
		if ((h = aalloc(&sc->cpool, (n + 1) * sizeof *h)) == NULL)
			return -1;
		h[0] = (struct hentry){ n, 0, 0 };
		memcpy(h + 1, sc->c, n * sizeof *h);
		if (rsort(sc, h + 1, n, 1))	/* by key down, then diameter */
			return -1;
		if (!atomic_compare_exchange_strong_explicit(&x->cob[j], &old, h,
		    memory_order_acq_rel, memory_order_acquire))
			h = old;	/* another thread's, made meanwhile */
	}
	*run = h + 1;
	return 0;
}

static int
workadd(struct wk *w, const struct simplex *s, uint32_t coef)
{
	if (rt_grow(&w->work, &w->capwork, w->nwork + 1, sizeof *w->work))
		return -1;
	w->work[w->nwork].s = *s;
	w->work[w->nwork++].coef = coef;
	return 0;
}

/* The working reduction column with equal terms summed, zeros dropped,
 * in key order: its keys sorted by rsort (no comparison calls, as
 * qsort's), the terms gathered in that order. */
static int
worksum(struct wk *w)
{
	struct scratch *sc = w->sc;
	size_t i, o = 0, n = w->nwork;
	unsigned p = w->x->p;

	if (n < 2)
		return 0;
	if (rt_grow(&sc->a, &sc->capa, n, sizeof *sc->a) ||
	    rt_grow(&sc->v, &sc->capv, n, sizeof *sc->v))
		return -1;
	for (i = 0; i < n; i++) {
		sc->a[i].key = w->work[i].s.key;
		sc->a[i].coef = (uint32_t)i;
	}
	if (rsort(sc, sc->a, n, 0))
		return -1;
	for (i = 0; i < n; i++) {
		const struct ventry *e = &w->work[sc->a[i].coef];

		if (o && sc->v[o - 1].s.key == e->s.key) {
			if ((sc->v[o - 1].coef += e->coef) >= p)
				sc->v[o - 1].coef -= p;
			if (sc->v[o - 1].coef == 0)
				o--;
		} else
			sc->v[o++] = *e;
	}
	memcpy(w->work, sc->v, o * sizeof *w->work);
	w->nwork = o;
	return 0;
}

/* Merge two runs, x's terms times fx and y's times fy, in filtration
 * order, equal terms summed, zeros dropped: the terms written. */
static size_t
merge(const struct ctx *c, const struct hentry *x, size_t nx, uint32_t fx,
    const struct hentry *y, size_t ny, uint32_t fy, struct hentry *out)
{
	const struct hentry *xe = x + nx, *ye = y + ny;
	struct hentry *o = out;
	unsigned p = c->p;

	while (x < xe && y < ye) {
		if (x->key == y->key) {
			uint32_t s = scaled(c, x, fx) + scaled(c, y, fy);

			if (s >= p)
				s -= p;
			if (s) {
				*o = *x;
				o++->coef = s;
			}
			x++;
			y++;
		} else if (earlier(x->diam, x->key, y->diam, y->key)) {
			*o = *x;
			o++->coef = scaled(c, x++, fx);
		} else {
			*o = *y;
			o++->coef = scaled(c, y++, fy);
		}
	}
	o = scopy(c, o, x, xe, fx);
	return (size_t)(scopy(c, o, y, ye, fy) - out);
}

/* merge from the ends: the output ends at oend; the terms written. */
static size_t
mergeback(const struct ctx *c, const struct hentry *x, size_t nx, uint32_t fx,
    const struct hentry *y, size_t ny, uint32_t fy, struct hentry *oend)
{
	const struct hentry *xp = x + nx, *yp = y + ny;
	struct hentry *o = oend;
	unsigned p = c->p;

	while (xp > x && yp > y) {
		if (xp[-1].key == yp[-1].key) {
			uint32_t s = scaled(c, --xp, fx) + scaled(c, --yp, fy);

			if (s >= p)
				s -= p;
			if (s) {
				*--o = *xp;
				o->coef = s;
			}
		} else if (earlier(xp[-1].diam, xp[-1].key, yp[-1].diam, yp[-1].key)) {
			*--o = *--yp;
			o->coef = scaled(c, yp, fy);
		} else {
			*--o = *--xp;
			o->coef = scaled(c, xp, fx);
		}
	}
	while (xp > x) {
		*--o = *--xp;
		o->coef = scaled(c, xp, fx);
	}
	while (yp > y) {
		*--o = *--yp;
		o->coef = scaled(c, yp, fy);
	}
	return (size_t)(oend - o);
}

/* A node of the tree keepr merges a segment's runs by: a piece of a run
 * (l NONE), read where it is, or the merge of two. */
#define NONE UINT32_MAX
struct hnode {
	size_t at, n;		/* its terms: [at, at + n) of sc->a or sc->b, */
	const struct hentry *src;	/* or a piece's: src[0, n) times f */
	uint32_t f;		/* (while the tree is built, at is its cursor) */
	uint32_t l, r, up;
	int inb;		/* in sc->b: a right child's */
	int who;		/* merged by this thread first (0), another (1), */
	size_t work, anc;	/* this one after (2); terms read by its merges */
};				/* and by its ancestors' */

/* Node indices as a binary heap, the node with the fewest terms on top. */
static void
hndown(const struct hnode *nd, size_t *h, size_t n, size_t i)
{
	size_t last = h[i], c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && nd[h[c + 1]].n < nd[h[c]].n)
			c++;
		if (nd[h[c]].n >= nd[last].n)
			break;
		h[i] = h[c];
	}
	h[i] = last;
}

/* Merge node m's children, l in sc->a and r in sc->b, r's place right
 * after l's (with a gap between them, nothing else), into m's buffer
 * without a copy: forward from l's start into sc->b, or backward from
 * r's end into sc->a; the root (out not NULL) into out.  The output
 * cannot overtake the child it shares its buffer with: it writes no more
 * terms than it has read, and that child lies ahead of it.  A piece of a
 * run is read in its run, its factor applied as it is merged. */
static void
mergenode(struct wk *w, struct hnode *m, const struct hnode *l, const struct hnode *r,
    struct hentry *out)
{
	struct scratch *sc = w->sc;
	const struct hentry *x = l->src != NULL ? l->src : sc->a + l->at;
	const struct hentry *y = r->src != NULL ? r->src : sc->b + r->at;

	if (out != NULL)
		m->n = merge(w->x, x, l->n, l->f, y, r->n, r->f, out);
	else if (m->inb) {
		m->n = merge(w->x, x, l->n, l->f, y, r->n, r->f, sc->b + l->at);
		m->at = l->at;
	} else {
		m->n = mergeback(w->x, x, l->n, l->f, y, r->n, r->f, sc->a + r->at + r->n);
		m->at = r->at + r->n - m->n;
	}
}

/* The merges of the nodes [k, m) of w's tree marked who, in the order
 * they were made (children first); the root's output to out. */
static void
merges(struct wk *w, size_t k, size_t m, int who, struct hentry *out)
{
	struct hnode *nd = w->sc->nd;
	size_t i;

	for (i = k; i < m; i++)
		if (nd[i].who == who)
			mergenode(w, &nd[i], &nd[nd[i].l], &nd[nd[i].r], i == m - 1 ? out : NULL);
}

/* Offer a subtree of the merges of w's tree (nodes [k, m), every one
 * marked 0) to another thread: the one that makes the longer of the two
 * threads' shares, and the merges above it, the shortest (the merges of
 * a long column's coboundary at its commit, which every column after it
 * waits for, on two threads where the other waits too).  Marked 1, its
 * ancestors 2.  1 if it is offered: helped() then waits for it. */
static int
share(struct wk *w, size_t k, size_t m)
{
	struct ctx *x = w->x;
	struct hnode *nd = w->sc->nd;
	size_t i, best, t, s = 0, total, rest;
	int posted = 0;

	if (x->helpers == 0 || m - k < 2)
		return 0;
	nd[m - 1].up = (uint32_t)m;
	for (i = k; i < m; i++)
		nd[i].work = nd[i].n + (nd[i].l < k ? 0 : nd[nd[i].l].work) +
		    (nd[i].r < k ? 0 : nd[nd[i].r].work);
	if ((total = nd[m - 1].work) < HELP)
		return 0;
	nd[m - 1].anc = 0;
	for (best = total, i = m - 1; i-- > k;) {
		nd[i].anc = nd[nd[i].up].anc + nd[nd[i].up].n;
		rest = total - nd[i].work - nd[i].anc;
		t = (nd[i].work + nd[i].work / 4 > rest ? nd[i].work + nd[i].work / 4 : rest) +
		    nd[i].anc;
		if (t < best) {
			best = t;
			s = i;
		}
	}
	if (best > total / 4 * 3)
		return 0;
	for (i = s; i < m; i = nd[i].up)	/* s and its ancestors */
		nd[i].who = 2;
	for (i = s + 1; i-- > k;)	/* s's subtree: a node's parent comes after it */
		if (i == s || nd[nd[i].up].who == 1)
			nd[i].who = 1;
	pthread_mutex_lock(&x->mu);
	if (x->jobstate == NOJOB) {
		x->job = w;
		x->jobk = k;
		x->jobm = m;
		x->jobstate = POSTED;
		posted = 1;
		pthread_cond_broadcast(&x->cv);
	}
	pthread_mutex_unlock(&x->mu);
	if (!posted)
		for (i = k; i < m; i++)
			nd[i].who = 0;
	return posted;
}

/* The subtree offered: merged by this thread if no other took it, or
 * waited for. */
static void
helped(struct wk *w, size_t k, size_t m)
{
	struct ctx *x = w->x;

	pthread_mutex_lock(&x->mu);
	if (x->jobstate == POSTED) {
		x->jobstate = TAKEN;
		pthread_mutex_unlock(&x->mu);
		merges(w, k, m, 1, NULL);
		pthread_mutex_lock(&x->mu);
	} else
		while (x->jobstate != DONE)
			pthread_cond_wait(&x->cv, &x->mu);
	x->jobstate = NOJOB;
	pthread_mutex_unlock(&x->mu);
}

/* How many terms of a run come before t or are t, in filtration order. */
static size_t
upto(const struct cursor *r, const struct hentry *t)
{
	size_t lo = 0, hi = (size_t)(r->end - r->at), mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (earlier(t->diam, t->key, r->at[mid].diam, r->at[mid].key))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The next terms of the runs, SEGMENT or so, merged and appended to
 * w->kept (equal terms summed, zeros dropped), *np of them: the terms up
 * to a term of the longest run, every run cut there, merged two at a
 * time by Huffman's tree over their lengths, the two shortest first (a
 * long run is merged once or twice, not in every round of pairs, which
 * takes fewer merge steps when runs are of very unequal lengths).  The
 * pieces are
 * read where they are, and the merges' outputs laid out in the order of
 * the tree's leaves, every left child's in sc->a and right child's in
 * sc->b at the same places, so that the two runs of every merge are
 * neighbours in two buffers and merge where they are; the root's is
 * written to w->kept. */
static int
segment(struct wk *w, size_t *np)
{
	struct scratch *sc = w->sc;
	const struct hentry *t = NULL;
	struct hnode *nd;
	struct hentry *out;
	size_t i, j, k, m, n = 0, len, big = 0, step, *h;

	for (k = 0, i = 0; i < w->ncur; i++)
		if (w->cur[i].at < w->cur[i].end)
			w->cur[k++] = w->cur[i];
	w->ncur = k;
	for (i = 0; i < k; i++) {
		len = (size_t)(w->cur[i].end - w->cur[i].at);
		n += len;
		if (len > (size_t)(w->cur[big].end - w->cur[big].at))
			big = i;
	}
	if (rt_grow(&sc->run, &sc->caprun, 2 * k + 2, sizeof *sc->run) ||
	    rt_grow(&sc->nd, &sc->capnd, 2 * k + 2, sizeof *sc->nd))
		return -1;
	nd = sc->nd;
	h = sc->run;
	for (i = 0; i < k; i++)		/* the runs' pieces: whole, */
		nd[i].n = (size_t)(w->cur[i].end - w->cur[i].at);
	if (n > SEGMENT)		/* or cut at a term of the longest run */
		for (step = SEGMENT / k + 1;; step /= 2) {
			len = (size_t)(w->cur[big].end - w->cur[big].at);
			t = &w->cur[big].at[(step < len ? step : len) - 1];
			for (n = 0, i = 0; i < k; i++)
				n += nd[i].n = upto(&w->cur[i], t);
			if (n <= 2 * SEGMENT || step == 1)
				break;
		}
	if (rt_grow(&sc->a, &sc->capa, n + 1, sizeof *sc->a) ||
	    rt_grow(&sc->b, &sc->capb, n + 1, sizeof *sc->b) ||
	    rt_grow(&w->kept, &w->capkept, w->nkept + n, sizeof *w->kept))
		return -1;
	out = w->kept + w->nkept;
	for (j = 0, i = 0; i < k; i++)
		if ((len = nd[i].n) > 0)
			nd[j++] = (struct hnode){ .at = i, .n = len, .f = 1, .l = NONE, .r = NONE };
	*np = 0;
	if ((k = j) == 0)
		return 0;
	/* Huffman's tree over their lengths */
	for (i = 0; i < k; i++)
		h[i] = i;
	for (i = k / 2 + 1; i-- > 0;)
		hndown(nd, h, k, i);
	for (m = k, j = k; j > 1; m++) {
		size_t x = h[0];

		h[0] = h[--j];
		hndown(nd, h, j, 0);
		nd[m] = (struct hnode){ .n = nd[x].n + nd[h[0]].n, .f = 1, .l = (uint32_t)x,
		    .r = (uint32_t)h[0] };
		nd[x].up = nd[h[0]].up = (uint32_t)m;
		h[0] = m;
		hndown(nd, h, j, 0);
	}
	/* the pieces' places in the order of its leaves, left first, a left
	 * child's in sc->a and a right one's in sc->b (the root's in sc->a) */
	nd[m - 1].inb = 0;
	for (h[0] = m - 1, j = 1, n = 0; j > 0;) {
		struct hnode *v = &nd[h[--j]];
		struct cursor *c;

		if (v->l != NONE) {
			nd[v->l].inb = 0;
			nd[v->r].inb = 1;
			h[j++] = v->r;
			h[j++] = v->l;
			continue;
		}
		c = &w->cur[v->at];
		v->src = c->at;
		v->f = c->f;
		c->at += v->n;
		v->at = n;
		n += v->n;
	}
	if (k == 1) {		/* one piece: copied */
		scopy(w->x, out, nd[0].src, nd[0].src + nd[0].n, nd[0].f);
		*np = nd[0].n;
		return 0;
	}
	/* merged in the order the tree was built, children first, a subtree
	 * perhaps by another thread */
	if (share(w, k, m)) {
		merges(w, k, m, 0, out);
		helped(w, k, m);
		merges(w, k, m, 2, out);
	} else
		merges(w, k, m, 0, out);
	*np = nd[m - 1].n;
	return 0;
}

/* Copy the reduced coboundary of the column, its pivot piv taken from the
 * working coboundary and the rest still in it, to w->kept, if it is no
 * longer than the coboundaries its reduction column replays (pushed of
 * them): adding the column later then costs a cursor over its surviving
 * terms, not every cofacet of every term.  Every term left is needed, so
 * they are not popped one at a time (a cache miss a level for each, on
 * heaps of millions of terms): the heap is sorted (by key, summed, the order reversed, then
 * stably by diameter) and made a run like the kept ones, and the runs are
 * merged a segment at a time (the sorting buffers stay small).  The
 * working coboundary is emptied.  1 if kept. */
static int
keepr(struct wk *w, const struct hentry *piv)
{
	struct hentry *h;
	size_t n;

	if (spill(w, 0))
		return -1;
	h = w->heap;
	n = w->nheap;
	w->nheap = 0;
	if (sortrun(w, h, &n) ||
	    rt_grow(&w->cur, &w->capcur, w->ncur + 1, sizeof *w->cur))
		return -1;
	w->cur[w->ncur++] = (struct cursor){ .f = 1, .at = h, .end = h + n };
	if (rt_grow(&w->kept, &w->capkept, 1, sizeof *w->kept))
		return -1;
	w->nkept = 1;		/* the pivot */
	for (;;) {
		if (segment(w, &n))
			return -1;
		if (w->nkept + n > w->pushed) {
			w->nkept = 0;
			w->ncur = 0;
			return 0;
		}
		w->nkept += n;
		if (w->ncur == 0 && n == 0)
			break;
	}
	w->kept[0] = *piv;
	return 1;
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
	const struct hentry *run;
	const struct ventry *col;
	struct ventry one;
	size_t t, len;
	uint32_t factor, j, oc, rlen, a = 0;
	int ap;

	while (r->k == 1) {
		if ((owner = pfind(x, r->piv.key)) != NULL) {
			j = owner->col;
			oc = owner->coef;
			col = x->colp[j];
			len = x->collen[j];
			rlen = x->rlen[j];
		} else if ((ap = apparentcol(x, &r->piv, &one.s, &oc, &j)) <= 0) {
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
		if (rlen == NOCACHE && len == 1 && j != NOCACHE && cobrun(w, j, &col[0].s, &run))
			return -1;
		for (t = 0; t < len; t++) {
			const struct ventry *e = &col[t];

			a = pmod(x, (uint64_t)e->coef * factor);
			if (workadd(w, &e->s, a))
				return -1;
			if (rlen == NOCACHE && run == NULL &&
			    coboundary(w, &e->s, a, 0, NULL) < 0)
				return -1;
		}
		/* the pivot, taken, cancels against the first term of the
		 * column's reduced coboundary, kept, or of its one simplex's */
		if (rlen != NOCACHE) {
			w->pushed += x->rcost[j];
			if (cpush(w, x->rp[j] + 1, x->rp[j] + rlen, factor))
				return -1;
		} else if (run != NULL) {
			w->pushed += run[-1].key;	/* as many as a replay */
			if (cpush(w, run + 1, run + run[-1].key, a))
				return -1;
		} else if (hpush(w, r->piv.key, r->piv.diam, r->piv.coef))	/* the replay cancels it */
			return -1;
		r->k = wpivot(w, &r->piv);
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
	if (r->k == 1 && r->added && (r->keep = keepr(w, &r->piv)) < 0)
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

	spfree(w);
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
	if (workadd(w, s, 1))
		return -1;
	if ((k = coboundary(w, s, 1, 1, &r->piv)) < 0)
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
	r->k = wpivot(w, &r->piv);
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
		trade(&w->old, &w->capold, &w->kept, &w->capkept);
		w->nheap = 0;
		w->ncur = 0;
		if (cpush(w, w->old + 1, w->old + w->nkept, 1))
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
	st = (r->k == 1 && pfind(x, r->piv.key) != NULL && resume(w, r)) || worksum(w);
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
	if (r->keep == 1 && x->nrpool + w->nkept <= MAXRPOOL) {
		if ((v = aalloc(&x->rpool, w->nkept * sizeof *w->kept)) == NULL)
			return -1;
		memcpy(v, w->kept, w->nkept * sizeof *w->kept);
		x->rp[c] = v;
		x->rlen[c] = (uint32_t)w->nkept;
		x->nrpool += w->nkept;
	}
	if ((v = aalloc(&x->vpool, w->nwork * sizeof *w->work)) == NULL)
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
	spfree(w);
	free(w->sp);
	w->sp = NULL;
	w->capsp = 0;
	w->heap = w->kept = w->old = NULL;
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

	spfree(w);
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
			merges(jw, k, m, 1, NULL);
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
	afree(&x->vpool);
	afree(&x->rpool);
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
		free(sc[i].cnt);
		free(sc[i].run);
		free(sc[i].nd);
		free(sc[i].v);
		free(sc[i].c);
		afree(&sc[i].cpool);
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
	if (rsort(&sc, h, n, 0))
		goto out;
	for (i = 0; i < n / 2; i++) {
		e = h[i];
		h[i] = h[n - 1 - i];
		h[n - 1 - i] = e;
	}
	if (rsort(&sc, h, n, 1))
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
	if (colsort(e, ne))
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
	if (apparentof(t->x, 2, v, key, diam, &f, &neg))
		return;	/* an apparent pair's, not in the table */
	f.v[0] = i;
	f.v[1] = j;
	f.v[2] = k;
	f.key = key;
	f.diam = diam;
	if (apparentup(t->x, 3, &f)) {
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
	if (dim0(&x, &col, &ncol) || dense(&x))
		goto out;
	if (maxdim >= 1 && (unapparent(&x, 2, col, &ncol, &napp) ||
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
