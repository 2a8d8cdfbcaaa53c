/* phkeep.c: a reduced coboundary kept for later additions, its runs
 * merged in segments that a second thread can share (ph.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phint.h"

/* x's coefficient times fx plus y's times fy, mod p. */
static uint32_t
sum2(const struct ctx *c, uint64_t x, uint32_t fx, uint64_t y, uint32_t fy)
{
	uint32_t s = tcoef(c, scaled(c, x, fx)) + tcoef(c, scaled(c, y, fy));

	return s >= c->p ? s - c->p : s;
}

/* Merge two runs, x's terms times fx and y's times fy, in filtration
 * order, equal terms summed, zeros dropped: the terms written. */
static size_t
merge(const struct ctx *c, const uint64_t *x, size_t nx, uint32_t fx,
    const uint64_t *y, size_t ny, uint32_t fy, uint64_t *out)
{
	const uint64_t *xe = x + nx, *ye = y + ny;
	uint64_t *o = out;

	while (x < xe && y < ye) {
		uint64_t ox = tord(c, *x), oy = tord(c, *y);

		if (ox == oy) {
			uint32_t s = sum2(c, *x++, fx, *y++, fy);

			if (s)
				*o++ = (x[-1] & ~c->cmask) | s;
		} else if (ox < oy)
			*o++ = scaled(c, *x++, fx);
		else
			*o++ = scaled(c, *y++, fy);
	}
	o = rt_ph_scopy(c, o, x, xe, fx);
	return (size_t)(rt_ph_scopy(c, o, y, ye, fy) - out);
}

/* merge from the ends: the output ends at oend; the terms written. */
static size_t
mergeback(const struct ctx *c, const uint64_t *x, size_t nx, uint32_t fx,
    const uint64_t *y, size_t ny, uint32_t fy, uint64_t *oend)
{
	const uint64_t *xp = x + nx, *yp = y + ny;
	uint64_t *o = oend;

	while (xp > x && yp > y) {
		uint64_t ox = tord(c, xp[-1]), oy = tord(c, yp[-1]);

		if (ox == oy) {
			uint32_t s = sum2(c, *--xp, fx, *--yp, fy);

			if (s)
				*--o = (*xp & ~c->cmask) | s;
		} else if (ox < oy)
			*--o = scaled(c, *--yp, fy);
		else
			*--o = scaled(c, *--xp, fx);
	}
	while (xp > x)
		*--o = scaled(c, *--xp, fx);
	while (yp > y)
		*--o = scaled(c, *--yp, fy);
	return (size_t)(oend - o);
}

/* A node of the tree keepr merges a segment's runs by: a piece of a run
 * (l NONE), read where it is, or the merge of two. */
#define NONE UINT32_MAX
struct hnode {
	size_t at, n;		/* its terms: [at, at + n) of sc->ta or sc->tb, */
	const uint64_t *src;	/* or a piece's: src[0, n) times f */
	uint32_t f;		/* (while the tree is built, at is its cursor) */
	uint32_t l, r, up;
	int inb;		/* in sc->tb: a right child's */
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

/* Merge node m's children, l in sc->ta and r in sc->tb, r's place right
 * after l's (with a gap between them, nothing else), into m's buffer
 * without a copy: forward from l's start into sc->tb, or backward from
 * r's end into sc->ta; the root (out not NULL) into out.  The output
 * cannot overtake the child it shares its buffer with: it writes no more
 * terms than it has read, and that child lies ahead of it.  A piece of a
 * run is read in its run, its factor applied as it is merged. */
static void
mergenode(struct wk *w, struct hnode *m, const struct hnode *l, const struct hnode *r,
    uint64_t *out)
{
	struct scratch *sc = w->sc;
	const uint64_t *x = l->src != NULL ? l->src : sc->ta + l->at;
	const uint64_t *y = r->src != NULL ? r->src : sc->tb + r->at;

	if (out != NULL)
		m->n = merge(w->x, x, l->n, l->f, y, r->n, r->f, out);
	else if (m->inb) {
		m->n = merge(w->x, x, l->n, l->f, y, r->n, r->f, sc->tb + l->at);
		m->at = l->at;
	} else {
		m->n = mergeback(w->x, x, l->n, l->f, y, r->n, r->f, sc->ta + r->at + r->n);
		m->at = r->at + r->n - m->n;
	}
}

/* The merges of the nodes [k, m) of w's tree marked who, in the order
 * they were made (children first); the root's output to out. */
void
rt_ph_merges(struct wk *w, size_t k, size_t m, int who, uint64_t *out)
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
		rt_ph_merges(w, k, m, 1, NULL);
		pthread_mutex_lock(&x->mu);
	} else
		while (x->jobstate != DONE)
			pthread_cond_wait(&x->cv, &x->mu);
	x->jobstate = NOJOB;
	pthread_mutex_unlock(&x->mu);
}

/* How many terms of a run come before t or are t, in filtration order:
 * galloping from the run's start, where a cut mostly falls, so that a
 * run of millions of terms costs a few reads near its start, not a cache
 * miss a level of a search over all of it. */
static size_t
upto(const struct ctx *x, const struct cursor *r, uint64_t t)
{
	size_t lo = 0, hi = 1, mid, len = (size_t)(r->end - r->at);
	uint64_t o = tord(x, t);

	while (hi < len && tord(x, r->at[hi - 1]) <= o) {
		lo = hi;
		hi *= 2;
	}
	if (hi > len)
		hi = len;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (o < tord(x, r->at[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The terms of all runs up to the p-th of run big, each run's in nd. */
static size_t
cutat(struct wk *w, struct hnode *nd, size_t big, size_t p)
{
	uint64_t t = w->cur[big].at[p - 1];
	size_t i, n = 0;

	for (i = 0; i < w->ncur; i++)
		n += nd[i].n = upto(w->x, &w->cur[i], t);
	return n;
}

/* Where to cut the runs, at a term of the longest (big): about SEGMENT
 * terms of all of them up to it, the place found by doubling and halving
 * from a guess (a run's share of the others' terms).  Not just halved
 * from the guess: where the longest run spans the others (a column's
 * own coboundary against the short ones it was reduced by), its first
 * few terms cut off a few of theirs, and a segment of a thousand terms
 * cost a search of each of the thousands of runs. */
static size_t
cut(struct wk *w, struct hnode *nd, size_t big)
{
	size_t len = (size_t)(w->cur[big].end - w->cur[big].at);
	size_t lo = 0, hi = len + 1, p = SEGMENT / w->ncur + 1, n;

	for (;;) {
		if (p > len)
			p = len;
		n = cutat(w, nd, big, p);
		if (n > 2 * SEGMENT && p > 1)
			hi = p;
		else if (n < SEGMENT / 2 && p < len)
			lo = p;
		else
			return n;
		if (hi - lo <= 1)	/* between too few and too many */
			return lo > 0 ? cutat(w, nd, big, lo) : n;
		p = hi > len ? 2 * p : lo + (hi - lo) / 2;
	}
}

/* The next terms of the runs, SEGMENT or so, merged and appended to
 * w->kept (equal terms summed, zeros dropped), *np of them: the terms up
 * to a term of the longest run, every run cut there, merged two at a
 * time by Huffman's tree over their lengths, the two shortest first (a
 * long run is merged once or twice, not in every round of pairs, which
 * takes fewer merge steps when runs are of very unequal lengths).  The
 * pieces are
 * read where they are, and the merges' outputs laid out in the order of
 * the tree's leaves, every left child's in sc->ta and right child's in
 * sc->tb at the same places, so that the two runs of every merge are
 * neighbours in two buffers and merge where they are; the root's is
 * written to w->kept. */
static int
segment(struct wk *w, size_t *np)
{
	struct scratch *sc = w->sc;
	uint64_t *out;
	struct hnode *nd;
	size_t i, j, k, m, n = 0, len, big = 0, *h;

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
		n = cut(w, nd, big);
	if (rt_grow(&sc->ta, &sc->capta, n + 1, sizeof *sc->ta) ||
	    rt_grow(&sc->tb, &sc->captb, n + 1, sizeof *sc->tb) ||
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
	 * child's in sc->ta and a right one's in sc->tb (the root's in sc->ta) */
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
		rt_ph_scopy(w->x, out, nd[0].src, nd[0].src + nd[0].n, nd[0].f);
		*np = nd[0].n;
		return 0;
	}
	/* merged in the order the tree was built, children first, a subtree
	 * perhaps by another thread */
	if (share(w, k, m)) {
		rt_ph_merges(w, k, m, 0, out);
		helped(w, k, m);
		rt_ph_merges(w, k, m, 2, out);
	} else
		rt_ph_merges(w, k, m, 0, out);
	*np = nd[m - 1].n;
	return 0;
}

/* A long column's sorting buffer freed, and its heap, now a packed run
 * of n terms, shrunk to it: held while the runs are merged (kept grows
 * then), they were most of persist's peak on Ripser's o3_2048 beside the
 * pool (bench/RESULTS.persist).  Shorter columns keep theirs: freed for
 * every column, they cost i.i.d. windows a third more time. */
static void
shrink(struct wk *w, size_t n)
{
	size_t cap = (n * sizeof(uint64_t) + sizeof *w->heap - 1) / sizeof *w->heap + 1;
	void *v;

	if (n < BIG)
		return;
	free(w->sc->b);
	w->sc->b = NULL;
	w->sc->capb = 0;
	if (cap < w->capheap && (v = realloc(w->heap, cap * sizeof *w->heap)) != NULL) {
		w->heap = v;
		w->capheap = cap;
	}
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
int
rt_ph_keepr(struct wk *w)
{
	struct hentry *h;
	const uint64_t *t;
	size_t n;

	if (rt_ph_spill(w, 0))
		return -1;
	h = w->heap;
	n = w->nheap;
	w->nheap = 0;
	if (rt_ph_sortrun(w, h, &n) ||
	    rt_grow(&w->cur, &w->capcur, w->ncur + 1, sizeof *w->cur))
		return -1;
	shrink(w, n);
	t = (const uint64_t *)(void *)w->heap;
	w->cur[w->ncur++] = (struct cursor){ .f = 1, .at = t, .end = t + n };
	if (rt_grow(&w->kept, &w->capkept, 1, sizeof *w->kept))
		return -1;
	w->kept[0] = 0;		/* the pivot's place, not read */
	w->nkept = 1;
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
	return 1;
}
