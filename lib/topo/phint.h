/* phint.h: persistent cohomology's insides (ph.c), shared by the
 * reduction and its threads (ph.c), a working column's heap, runs and
 * sorting (phcol.c), cofacets, apparent pairs and coboundaries
 * (phcob.c), and kept coboundaries merged on two threads (phkeep.c).
 * The few functions every term passes through are inline here. */
#ifndef PHINT_H
#define PHINT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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

/* A term of a run (a reduced coboundary kept, a coboundary cobrun
 * kept, a working column sorted) in 64 bits, as Ripser packs its
 * entries: from the top, the rank of its diameter among the edges'
 * distinct diameters (x->dtab), its key subtracted from x->kmask (kb
 * bits) and its coefficient (cb bits; none over Z/2, where it is 1).
 * Filtration order is then the order of the words without their
 * coefficients, and a run takes half the memory of struct hentry's.
 * Where the three do not fit (TERMBITS), no run is made: the reduction
 * replays every column it adds (x->packed 0). */
#ifndef TERMBITS		/* t/1700 builds one of 0 */
#define TERMBITS 64
#endif

/* A run added to the working column: its terms [at, end), in filtration
 * order, times f. */
struct cursor {
	uint64_t key;		/* of the next term, *at */
	float diam;
	uint32_t f;
	const uint64_t *at, *end;
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
	float *dtab;		/* the edges' distinct diameters, increasing */
	size_t ndtab;
	uint32_t *dbkt;		/* dtab's index by the top bits of a diameter: */
	uint32_t dlo;		/* bucket (bits - dlo) >> dshift starts at */
	int dshift;		/* dbkt[bucket] */
	int packed;		/* runs made (their terms fit TERMBITS) */
	int kb, cb, tb;		/* bits of a term's key, coefficient, both */
	uint64_t kmask, cmask;

	struct pivot *piv;	/* open addressing, key EMPTY = empty; */
	size_t pivmask;		/* sized for every column: it never moves */

	struct arena vpool;	/* reduction columns of paired columns */
	const struct ventry **colp;
	uint32_t *collen;
	struct arena rpool;	/* reduced coboundaries of some of them */
	size_t nrpool;		/* their terms, at most MAXRPOOL */
	const uint64_t **rp;
	uint32_t *rlen;		/* NOCACHE: replay the reduction column */
	size_t *rcost;		/* cofacets a replay of the column pushes */
	_Atomic(uint64_t *) *cob;	/* coboundaries of columns of one simplex */
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
	uint64_t *ta, *tb;	/* keepr's merges' */
	size_t capta, captb;
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
	uint64_t *kept;		/* keepr's copy of the reduced coboundary */
	size_t nkept, capkept;
	uint64_t *old;		/* a copy the reduction goes on from */
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
#define LAZY (UINT32_MAX - 1)	/* rlen: not kept, made by cobrun if added */
#define COMPACT ((size_t)1 << 14)	/* terms on the heap before hsum is worth it */
#define SHORT 256		/* terms of a run that rt_ph_spill() moves to the heap */
#ifndef SPILL			/* t/1700 builds one of 8 */
#define SPILL 1024		/* runs added before rt_ph_spill() is worth it */
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
/* A reduced coboundary kept of this many terms or more is handed over
 * to the pool, not copied (held twice at its commit, such columns were
 * much of persist's peak on Ripser's o3_2048), and its column's sorting
 * buffer and heap freed after keepr (shrink; for every column, that
 * cost i.i.d. windows half as much time again: bench/RESULTS.persist). */
#ifndef BIG			/* t/1700 builds one of 64 */
#define BIG ((size_t)1 << 20)	/* terms */
#endif
/* A reduced coboundary of this many terms or more is not kept at its
 * column's commit but made again (cobrun) when the column is first
 * added: on Ripser's o3_2048 the two longest, 5.7 M and 6.9 M terms,
 * were never added at all, and the first was in the pool at persist's
 * peak.  Made again, a column costs its cofacets found and sorted once
 * more: at 2^20 terms 2000 i.i.d. windows, whose 15 coboundaries of 1-2.2 M
 * terms were added 49 times, took 40% more time (bench/RESULTS.persist). */
#ifndef LONGRUN			/* t/1700 builds one of 64 */
#define LONGRUN ((size_t)1 << 22)	/* terms */
#endif
#ifndef SEGMENT			/* t/1700 builds one of 64 */
#define SEGMENT ((size_t)1 << 20)	/* terms keepr merges at a time */
#endif
#define DENSE 4096		/* vertices for rows of bits and a matrix */
#define LOOK 64			/* columns reduced ahead of the last committed */
#define HELP (SEGMENT / 128 + 1)	/* merge steps worth sharing with another thread */
enum { NOJOB, POSTED, TAKEN, DONE };

/* phcol.c */
void *rt_ph_aalloc(struct arena *a, size_t n);
void rt_ph_afree(struct arena *a);
int rt_ph_aadopt(struct arena *a, void *p);
uint64_t *rt_ph_scopy(const struct ctx *x, uint64_t *o, const uint64_t *from, const uint64_t *to,
    uint32_t f);
int rt_ph_pack(const struct ctx *x, struct hentry *h, size_t n);
int rt_ph_dindex(struct ctx *x);
void rt_ph_trade(uint64_t **a, size_t *ca, uint64_t **b, size_t *cb);
int rt_ph_rsort(struct scratch *sc, struct hentry *a, size_t n, int bydiam);
int rt_ph_compact(struct wk *w);
int rt_ph_cpush(struct wk *w, const uint64_t *at, const uint64_t *end, uint32_t f);
int rt_ph_sortrun(struct wk *w, struct hentry *h, size_t *np);
void rt_ph_spfree(struct wk *w);
int rt_ph_spill(struct wk *w, int order);
int rt_ph_wpivot(struct wk *w, struct hentry *piv);
/* phcob.c */
int rt_ph_dense(struct ctx *x);
int rt_ph_apparentof(const struct ctx *x, int nv, const uint32_t *t, uint64_t tkey, float d,
    struct simplex *f, int *neg);
int rt_ph_apparentup(const struct ctx *x, int nv, const struct simplex *s);
int rt_ph_apparentcol(const struct ctx *x, const struct hentry *piv, struct simplex *f, uint32_t *coef,
    uint32_t *j);
int rt_ph_unapparent(struct ctx *x, int nv, struct simplex *col, size_t *ncol, size_t *napp);
int rt_ph_coboundary(struct wk *w, const struct simplex *s, uint32_t coef, int check,
    struct hentry *emergent);
int rt_ph_cobrun(struct wk *w, uint32_t j, const struct ventry *col, size_t len,
    const uint64_t **run);
int rt_ph_workadd(struct wk *w, const struct simplex *s, uint32_t coef);
int rt_ph_worksum(struct wk *w);
/* phkeep.c */
void rt_ph_merges(struct wk *w, size_t k, size_t m, int who, uint64_t *out);
int rt_ph_keepr(struct wk *w);

/* a mod p by a multiplication, not a division (no gain was measured on
 * its own, within the noise of a loaded machine): below 2^50 the quotient
 * a double estimates is off by one at most. */
static inline uint32_t
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

/* A packed term's key, diameter, coefficient, and its place in the
 * filtration (smaller earlier, equal for equal keys). */
static inline uint64_t
tkey(const struct ctx *x, uint64_t t)
{
	return x->kmask - (t >> x->cb & x->kmask);
}

static inline float
tdiam(const struct ctx *x, uint64_t t)
{
	return x->dtab[t >> x->tb];
}

static inline uint32_t
tcoef(const struct ctx *x, uint64_t t)
{
	return x->cb ? (uint32_t)(t & x->cmask) : 1;
}

static inline uint64_t
tord(const struct ctx *x, uint64_t t)
{
	return t >> x->cb;
}

/* A term's coefficient times f (a factor of a run not yet applied). */
static inline uint64_t
scaled(const struct ctx *x, uint64_t t, uint32_t f)
{
	return f == 1 ? t : (t & ~x->cmask) | pmod(x, (uint64_t)tcoef(x, t) * f);
}

static inline int
earlier(float da, uint64_t ka, float db, uint64_t kb)
{
	return da < db || (da == db && ka > kb);
}

/* Move h[i] down to its place among n. */
static inline void
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

static inline struct pivot *
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

/* The heap keeps the earliest entry on top.  It is 4-ary: a node's
 * children share a cache line, and there are half as many levels. */
static inline int
hpush(struct wk *w, uint64_t key, float diam, uint32_t coef)
{
	struct hentry e = { key, diam, coef }, *h;
	size_t i, up;

	if (w->nheap >= w->compactat && rt_ph_compact(w))
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

#endif
