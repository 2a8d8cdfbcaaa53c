/* phcol.c: a working column of the reduction (ph.c): the heap of its
 * terms, the kept runs added to it read by cursors, and the radix sort. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phint.h"

void *
rt_ph_aalloc(struct arena *a, size_t n)
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

/* p, from malloc, a chunk of its own of the arena, freed with it. */
int
rt_ph_aadopt(struct arena *a, void *p)
{
	if (rt_grow(&a->chunk, &a->capchunk, a->nchunk + 1, sizeof *a->chunk))
		return -1;
	a->chunk[a->nchunk++] = p;	/* aalloc goes on in its chunk at a->at */
	return 0;
}

void
rt_ph_afree(struct arena *a)
{
	while (a->nchunk > 0)
		free(a->chunk[--a->nchunk]);
	free(a->chunk);
	memset(a, 0, sizeof *a);
}

/* The terms [from, to) times f written to o: the end of what it wrote. */
uint64_t *
rt_ph_scopy(const struct ctx *x, uint64_t *o, const uint64_t *from, const uint64_t *to, uint32_t f)
{
	if (f == 1) {
		memmove(o, from, (size_t)(to - from) * sizeof *o);	/* o may trail from: a merge in place */
		return o + (to - from);
	}
	for (; from < to; from++)
		*o++ = scaled(x, *from, f);
	return o;
}

/* The same unpacked. */
static struct hentry *
unpack(const struct ctx *x, struct hentry *o, const uint64_t *from, const uint64_t *to, uint32_t f)
{
	for (; from < to; from++, o++) {
		uint64_t t = scaled(x, *from, f);

		o->key = tkey(x, t);
		o->diam = tdiam(x, t);
		o->coef = tcoef(x, t);
	}
	return o;
}

static uint32_t
fbits(float f)
{
	uint32_t u;

	if (f == 0)
		return 0;	/* -0 too */
	memcpy(&u, &f, sizeof u);
	return u;
}

#define DBUCKETS (1 << 16)
/* dtab's buckets: at most DBUCKETS by the bits of a diameter (a
 * nonnegative float orders as its bits), each a few entries to search,
 * not all of dtab's (a binary search of 2 M distances for every term of
 * a column made o3_2048 20% more instructions). */
int
rt_ph_dindex(struct ctx *x)
{
	uint32_t span, b;
	size_t i, nb;

	if (x->ndtab == 0)
		return 0;
	x->dlo = fbits(x->dtab[0]);
	span = fbits(x->dtab[x->ndtab - 1]) - x->dlo;
	for (x->dshift = 0; (span >> x->dshift) >= DBUCKETS; x->dshift++)
		;
	nb = (size_t)(span >> x->dshift) + 2;
	if ((x->dbkt = malloc(nb * sizeof *x->dbkt)) == NULL)
		return -1;
	for (i = 0, b = 0; b < nb; b++) {
		while (i < x->ndtab && (fbits(x->dtab[i]) - x->dlo) >> x->dshift < b)
			i++;
		x->dbkt[b] = (uint32_t)i;
	}
	return 0;
}

/* Pack the n terms of h, in filtration order, in place: h read as
 * uint64_t after.  A term's diameter is found in x->dtab (in its bucket)
 * when it is not the term before's; -1 if one is not there (not an
 * edge's). */
int
rt_ph_pack(const struct ctx *x, struct hentry *h, size_t n)
{
	uint64_t *t = (uint64_t *)(void *)h, di = 0;
	size_t i, lo, hi, mid;
	uint32_t top;
	float d = NAN;

	if (x->ndtab == 0)
		return n > 0 ? -1 : 0;
	top = fbits(x->dtab[x->ndtab - 1]);
	for (i = 0; i < n; i++) {
		struct hentry e = h[i];

		if (e.diam != d) {
			if (fbits(e.diam) < x->dlo || fbits(e.diam) > top)
				return -1;
			mid = (fbits(e.diam) - x->dlo) >> x->dshift;
			for (lo = x->dbkt[mid], hi = x->dbkt[mid + 1]; lo < hi;) {
				mid = lo + (hi - lo) / 2;
				if (x->dtab[mid] < e.diam)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == x->ndtab || x->dtab[lo] != e.diam)
				return -1;
			d = e.diam;
			di = (uint64_t)lo << x->tb;
		}
		t[i] = di | (x->kmask - e.key) << x->cb | (x->cb ? e.coef : 0);
	}
	return 0;
}

/* Trade two buffers of terms and their capacities. */
void
rt_ph_trade(uint64_t **a, size_t *ca, uint64_t **b, size_t *cb)
{
	uint64_t *t = *a;
	size_t n = *ca;

	*a = *b;
	*ca = *cb;
	*b = t;
	*cb = n;
}

/* Sort terms stably by key (bydiam 0) or by the bits of the diameter (1:
 * a nonnegative float orders as its bits), LSD radix with 11-bit digits
 * (8-bit for fewer than RSMALL terms) over the bits that differ among
 * them only: keys below 2^33 take three passes, and the diameters of
 * windows (small integers, whose floats differ in 11 bits) one.  The
 * counts of every digit come from one pass. */
#define RBITS 11
#define RBUCKETS (1 << RBITS)
/* Fewer terms than this: 8-bit digits, whose 256 buckets each pass
 * clears and sums cost less than the passes they add (the short columns
 * of Ripser's o3 and sphere clouds sort a few hundred terms, where 2048
 * buckets a pass were a third of persist's instructions). */
#ifndef RSMALL			/* t/1700 builds one of 64 */
#define RSMALL 2048
#endif
#define RBITSMALL 8
static uint64_t
rval(const struct hentry *e, int bydiam)
{
	return bydiam ? fbits(e->diam) : e->key;
}

/* The digits of an LSD radix sort of n values whose bits that differ are
 * those of v: their count, the lowest bit, bits a digit; sc's counts
 * cleared for them.  0 if nothing differs. */
static int
digits(struct scratch *sc, uint64_t v, size_t n, int *lo, int *rb)
{
	int nd;

	if (v == 0)
		return 0;	/* all alike */
	*lo = __builtin_ctzll(v);
	*rb = n < RSMALL ? RBITSMALL : RBITS;
	nd = (64 - __builtin_clzll(v) - *lo + *rb - 1) / *rb;
	if (sc->cnt == NULL && (sc->cnt = malloc(8 * RBUCKETS * sizeof *sc->cnt)) == NULL)
		return -1;
	memset(sc->cnt, 0, ((size_t)nd << *rb) * sizeof *sc->cnt);
	return nd;
}

/* Counts into offsets, digit d's. */
static uint32_t *
offsets(struct scratch *sc, int d, int rb)
{
	uint32_t *cnt = sc->cnt + ((size_t)d << rb), sum = 0, o;
	size_t i;

	for (i = 0; i < (size_t)1 << rb; i++) {
		o = cnt[i];
		cnt[i] = sum;
		sum += o;
	}
	return cnt;
}

int
rt_ph_rsort(struct scratch *sc, struct hentry *a, size_t n, int bydiam)
{
	struct hentry *src = a, *dst, *t;
	size_t i, nb;
	uint64_t or = 0, and = ~(uint64_t)0, v;
	uint32_t *cnt;
	int d, nd, lo = 0, rb = 0;

	for (i = 0; i < n; i++) {
		v = rval(&a[i], bydiam);
		or |= v;
		and &= v;
	}
	if ((nd = digits(sc, or ^ and, n, &lo, &rb)) <= 0)
		return nd;
	if (rt_grow(&sc->b, &sc->capb, n + 1, sizeof *sc->b))
		return -1;
	nb = (size_t)1 << rb;
	for (i = 0; i < n; i++) {
		v = rval(&a[i], bydiam) >> lo;
		for (d = 0; d < nd; d++, v >>= rb)
			sc->cnt[d * nb + (v & (nb - 1))]++;
	}
	dst = sc->b;
	for (d = 0; d < nd; d++) {
		int shift = lo + d * rb;

		cnt = offsets(sc, d, rb);
		for (i = 0; i < n; i++)
			dst[cnt[rval(&src[i], bydiam) >> shift & (nb - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)		/* an odd number of passes: back, the */
		memcpy(a, src, n * sizeof *src);	/* copy stays the thread's */
	return 0;
}

/* The working terms h[0, *np) packed in place (phint.h), sorted into
 * filtration order, equal ones summed and zeros dropped: a run of *np
 * words at h.  The radix sort's buffer is the second half of h's own
 * memory, which the terms packed leave free: a long column is not held
 * twice (its heap and rsort's copy of it were half of persist's peak on
 * Ripser's o3_2048), and a pass moves 8 bytes a term, not 16. */
static int
wsum(struct wk *w, struct hentry *h, size_t *np)
{
	const struct ctx *x = w->x;
	uint64_t *src = (uint64_t *)(void *)h, *dst = src + *np, *t, or = 0, and = ~(uint64_t)0, v;
	size_t i, n = *np, o, nb;
	uint32_t *cnt;
	int d, nd, lo = 0, rb = 0;

	if (rt_ph_pack(x, h, n))
		return -1;
	for (i = 0; i < n; i++) {
		or |= src[i];
		and &= src[i];
	}
	if ((nd = digits(w->sc, tord(x, or ^ and) << x->cb, n, &lo, &rb)) < 0)
		return -1;
	nb = (size_t)1 << rb;
	for (i = 0; i < n; i++)
		for (v = src[i] >> lo, d = 0; d < nd; d++, v >>= rb)
			w->sc->cnt[d * nb + (v & (nb - 1))]++;
	for (d = 0; d < nd; d++) {
		cnt = offsets(w->sc, d, rb);
		for (i = 0; i < n; i++)
			dst[cnt[src[i] >> (lo + d * rb) & (nb - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	t = (uint64_t *)(void *)h;
	for (o = 0, i = 0; i < n;) {	/* summed, into t from src (t or not) */
		uint64_t e = src[i], c = tcoef(x, src[i++]);

		while (i < n && tord(x, src[i]) == tord(x, e))
			c += tcoef(x, src[i++]);
		if ((c = pmod(x, c)) != 0)
			t[o++] = x->cb ? (e & ~x->cmask) | c : e;
	}
	*np = o;
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

	if (rt_ph_rsort(w->sc, h, n, 0))
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
 * terms would take, for little time.  Where terms are packed, wsum (no
 * copy of the heap beside it), unpacked in place from the last (a term
 * is written over words read already): in filtration order, a heap. */
int
rt_ph_compact(struct wk *w)
{
	const uint64_t *t = (const uint64_t *)(void *)w->heap;
	size_t i;

	if (w->x->packed) {
		if (wsum(w, w->heap, &w->nheap))
			return -1;
		for (i = w->nheap; i-- > 0;) {
			uint64_t e = t[i];

			w->heap[i] = (struct hentry){ tkey(w->x, e), tdiam(w->x, e), tcoef(w->x, e) };
		}
	} else if (hsum(w, w->heap, &w->nheap))
		return -1;
	for (i = w->nheap / 4 + 1; !w->x->packed && i-- > 0;)
		siftdown(w->heap, w->nheap, i);
	w->compactat = 4 * w->nheap > COMPACT ? 4 * w->nheap : COMPACT;
	return 0;
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


int
rt_ph_cpush(struct wk *w, const uint64_t *at, const uint64_t *end, uint32_t f)
{
	struct cursor e = { 0, 0, f, at, end };
	size_t i, up;

	if (at == end)
		return 0;
	e.key = tkey(w->x, *at);
	e.diam = tdiam(w->x, *at);
	if (rt_grow(&w->cur, &w->capcur, w->ncur + 1, sizeof *w->cur))
		return -1;
	for (i = w->ncur++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!cearlier(&e, &w->cur[up]))
			break;
		w->cur[i] = w->cur[up];
	}
	w->cur[i] = e;
	return w->ncur >= w->spillat ? rt_ph_spill(w, 1) : 0;
}

/* The top cursor's term, taken: its coefficient times the cursor's
 * factor, not reduced mod p (below 2^32: wnext sums them in 64 bits and
 * reduces once a term, not a division for every cursor's term). */
static uint64_t
cpop(struct wk *w)
{
	struct cursor *t = &w->cur[0];
	uint64_t coef = (uint64_t)tcoef(w->x, *t->at) * t->f;

	if (++t->at == t->end) {
		if (--w->ncur == 0)
			return coef;
		w->cur[0] = w->cur[w->ncur];
	} else {
		t->key = tkey(w->x, *t->at);
		t->diam = tdiam(w->x, *t->at);
	}
	csiftdown(w, 0);
	return coef;
}

/* A working coboundary made a run like a kept one (wsum): packed, in
 * filtration order, equal terms summed, zeros dropped. */
int
rt_ph_sortrun(struct wk *w, struct hentry *h, size_t *np)
{
	return wsum(w, h, np);
}

void
rt_ph_spfree(struct wk *w)
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
int
rt_ph_spill(struct wk *w, int order)
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
		o = (size_t)(unpack(w->x, h + o, c.at, c.end, c.f) - h);
	}
	w->ncur = k;
	w->spillat = 2 * k > SPILL ? 2 * k : SPILL;
	if (!order) {
		w->nheap = o;
		return 0;
	}
	if (rt_ph_sortrun(w, h, &n))
		return -1;
	if (n > 0) {
		const uint64_t *t = (const uint64_t *)(void *)h;

		w->cur[w->ncur++] = (struct cursor){ tkey(w->x, *t), tdiam(w->x, *t), 1, t,
		    t + n };
	}
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
int
rt_ph_wpivot(struct wk *w, struct hentry *piv)
{
	while (wnext(w, piv))
		if (piv->coef)
			return 1;
	return 0;
}
