/* collapse.c: edge collapse of a flag filtration, and cocycles carried back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* Glisse and Pritam, "Swap, shift and trim to edge collapse a filtration"
 * (SoCG 2022), after Boissonnat and Pritam (2020): take the edges from the
 * last to the first; while the edge is dominated (some common neighbour
 * c is adjacent to all its other common neighbours, so its link is a cone)
 * its appearance can move later without changing the persistence; dominated
 * up to the threshold, it goes.  Rows keep the current value of every edge. */

struct later { float f; uint32_t w; };

/* Up to this many vertices, and with edges between at least an eighth
 * of the pairs, the current values also sit in a square matrix, so that
 * a domination test costs one look-up per neighbour.  On sparser graphs
 * the look-ups miss the cache where merging two lists of neighbours
 * streams, and the matrix costs memory for nothing (see
 * bench/RESULTS.persist.history).  Not beside the rows of bits, which
 * answer every question the matrix would. */
#define DENSE 8192

/* With few distinct values (the edit distances of windows take w + 1),
 * also one adjacency bitset per vertex per value: a domination test is
 * then a few nwords of AND whatever the number of common neighbours.
 * Not with many (Euclidean distances are all distinct): setting up and
 * walking a row a value would then cost more than the tests it saves. */
#define BITSETMAX (256u << 20)
#define MAXLEVELS 256

/* The edges are taken from the last, and the collapse stops when fewer
 * than one in TRYGONE of the last TRY * TRYRUNS of them (of all tried,
 * at first) have gone: the edges left keep their values (each move
 * keeps the persistence, so any prefix of them does).  Where few edges
 * go the tests cost far more than the collapse saves (edges moved later
 * but not gone are columns still), as on Ripser's o3_2048, where almost
 * no edge goes.  Over one run of TRY alone, a poor stretch of a loop
 * nest's windows, where more than half went on either side, stopped it
 * with half the edges left (see bench/RESULTS.persist.history). */
#define TRY 4096
#define TRYGONE 64
#define TRYRUNS 8

/* Without bitsets, only the CENTRAL common neighbours nearest to both
 * ends of the edge are tried as its dominator (any move found is one
 * that keeps the persistence; an edge whose dominator is missed stays):
 * where every vertex is a common neighbour of the longest edges (Ripser's
 * sphere_3_192), trying them all is quadratic. */
#ifndef CENTRAL
#define CENTRAL 16
#endif

/* The common neighbours the last candidates tried were not adjacent
 * to, newest in the place of the oldest: where no common neighbour
 * dominates, most candidates miss one of the same few, and one such
 * vertex alone left most of them to a walk over the words. */
#define NWIT 4
struct wits { uint32_t v[NWIT]; unsigned next; };

struct cx {
	float *dense;		/* n * n values, or NULL */
	float *level;		/* the distinct values, increasing */
	size_t nlevel, nwords;
	uint64_t *lbits;	/* [vertex][level][word]: value <= level */
	uint64_t *ebits;	/* the common neighbours present now, */
	uint64_t *cand;		/* those that may dominate them */
	uint32_t *ew;		/* the words of ebits not zero, */
	size_t new;		/* so many */
	struct wits wit;	/* common neighbours candidates missed */
	float *val;		/* every edge's value now, as the graph's d */
	float *row;		/* without dense or lbits: a row spread */
	uint32_t *e;		/* the common neighbours of an edge, */
	struct later *lat;	/* and those that join it later */
};

static size_t
levelof(const struct cx *x, float f)
{
	size_t lo = 0, hi = x->nlevel, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (x->level[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t *
bitrow(const struct cx *x, uint32_t v, size_t l)
{
	return x->lbits + ((size_t)v * x->nlevel + l) * x->nwords;
}

/* (a, b) now has value f: it leaves the levels below f */
static void
bitmove(struct cx *x, uint32_t a, uint32_t b, float from, float to)
{
	size_t l, end = to == INFINITY ? x->nlevel : levelof(x, to);

	for (l = levelof(x, from); l < end; l++) {
		bitrow(x, a, l)[b / 64] &= ~(1ULL << (b % 64));
		bitrow(x, b, l)[a / 64] &= ~(1ULL << (a % 64));
	}
}

static void
bitsetup(struct cx *x, const struct rt_graph *g)
{
	size_t i, l, n = g->n;
	uint32_t u;

	if ((x->level = malloc((MAXLEVELS + 1) * sizeof *x->level)) == NULL)
		return;
	/* the distinct values, increasing, given up past MAXLEVELS of them
	 * (not every value sorted to count them) */
	for (x->nlevel = 0, i = 0; i < g->off[n] && x->nlevel <= MAXLEVELS; i++)
		if ((l = levelof(x, g->d[i])) == x->nlevel || x->level[l] != g->d[i]) {
			memmove(x->level + l + 1, x->level + l, (x->nlevel - l) * sizeof *x->level);
			x->level[l] = g->d[i];
			x->nlevel++;
		}
	x->nwords = (n + 63) / 64;
	if (x->nlevel == 0 || x->nlevel > MAXLEVELS || n * x->nlevel * x->nwords * 8 > BITSETMAX ||
	    (x->lbits = calloc(n * x->nlevel * x->nwords, sizeof *x->lbits)) == NULL ||
	    (x->ebits = calloc(x->nwords, sizeof *x->ebits)) == NULL ||
	    (x->cand = malloc(x->nwords * sizeof *x->cand)) == NULL ||
	    (x->ew = malloc(x->nwords * sizeof *x->ew)) == NULL) {
		free(x->lbits);
		free(x->ebits);
		free(x->cand);
		free(x->ew);
		free(x->level);
		x->lbits = NULL;
		x->ebits = NULL;
		x->cand = NULL;
		x->ew = NULL;
		x->level = NULL;
		return;
	}
	for (u = 0; u < n; u++)
		for (i = g->off[u]; i < g->off[u + 1]; i++)
			for (l = levelof(x, g->d[i]); l < x->nlevel; l++)
				bitrow(x, u, l)[g->nb[i] / 64] |= 1ULL << (g->nb[i] % 64);
}

static void
cxfree(struct cx *x)
{
	free(x->lbits);
	free(x->ebits);
	free(x->cand);
	free(x->ew);
	free(x->level);
	free(x->dense);
	free(x->val);
	free(x->row);
	free(x->e);
	free(x->lat);
	memset(x, 0, sizeof *x);
}

static float
value(const struct cx *x, const struct rt_graph *g, const float *val, uint32_t a, uint32_t b)
{
	size_t s;

	if (x->dense != NULL)
		return x->dense[(size_t)a * g->n + b];
	s = rt_graph_slot(g, a, b);

	return s == SIZE_MAX ? INFINITY : val[s];
}

/* Are all of e (sorted, excluding c itself) adjacent to c by time t? */
static int
dominates(const struct cx *x, const struct rt_graph *g, const float *val,
    const uint32_t *e, size_t ne, uint32_t c, float t)
{
	size_t i, k = g->off[c], end = g->off[c + 1];
	const float *row;

	if (x->dense != NULL) {
		row = x->dense + (size_t)c * g->n;
		for (i = 0; i < ne; i++)
			if (row[e[i]] > t && e[i] != c)
				return 0;
		return 1;
	}
	for (i = 0; i < ne; i++) {
		if (e[i] == c)
			continue;
		while (k < end && g->nb[k] < e[i])
			k++;
		if (k == end || g->nb[k] != e[i] || val[k] > t)
			return 0;
	}
	return 1;
}

static int
earlier(const struct later *p, const struct later *q)
{
	return p->f < q->f || (p->f == q->f && p->w < q->w);
}

/* The neighbours that join later come off a heap, earliest first: most
 * edges tried take a few of them or none, so sorting them all is wasted. */
static void
latdown(struct later *h, size_t n, size_t i)
{
	struct later e = h[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && earlier(&h[c + 1], &h[c]))
			c++;
		if (!earlier(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

/* w, at value f from the edge's ends, among the CENTRAL nearest */
static void
central(struct later *cen, size_t *n, uint32_t w, float f)
{
	struct later e = { f, w };
	size_t a = *n;

	if (a == CENTRAL) {
		if (!earlier(&e, &cen[a - 1]))
			return;
		a--;
	} else
		++*n;
	for (; a > 0 && earlier(&e, &cen[a - 1]); a--)
		cen[a] = cen[a - 1];
	cen[a] = e;
}

static struct later
latpop(struct later *h, size_t *n)
{
	struct later e = h[0];

	h[0] = h[--*n];
	latdown(h, *n, 0);
	return e;
}

static int
byorder(const void *a, const void *b)
{
	const struct rt_cedge *p = a, *q = b;
	uint64_t kp = (uint64_t)p->v * (p->v - 1) / 2 + p->u;
	uint64_t kq = (uint64_t)q->v * (q->v - 1) / 2 + q->u;

	if (p->f0 != q->f0)
		return p->f0 > q->f0 ? -1 : 1;
	return kp < kq ? -1 : kp > kq;
}

static void
setval(struct cx *x, const struct rt_graph *g, float *val, uint32_t a, uint32_t b, float f)
{
	if (x->lbits != NULL)
		bitmove(x, a, b, val[rt_graph_slot(g, a, b)], f);
	val[rt_graph_slot(g, a, b)] = f;
	val[rt_graph_slot(g, b, a)] = f;
	if (x->dense != NULL) {
		x->dense[(size_t)a * g->n + b] = f;
		x->dense[(size_t)b * g->n + a] = f;
	}
}

static void
witsinit(struct wits *w)
{
	int i;

	for (i = 0; i < NWIT; i++)
		w->v[i] = UINT32_MAX;
	w->next = 0;
}

/* A vertex of set but c not in row (c's neighbours), or UINT32_MAX if
 * there is none.  Only the words of set not zero (sw, nsw of them) are
 * looked at, and first the witnesses. */
static uint32_t
misses(const uint64_t *set, const uint32_t *sw, size_t nsw, const uint64_t *row, uint32_t c,
    struct wits *wit)
{
	uint64_t rest;
	uint32_t w;
	size_t k, i;

	for (k = 0; k < NWIT; k++)
		if ((w = wit->v[k]) != UINT32_MAX && w != c && set[w / 64] >> (w % 64) & 1 &&
		    !(row[w / 64] >> (w % 64) & 1))
			return w;
	for (k = 0; k < nsw; k++) {
		i = sw[k];
		rest = set[i] & ~row[i];
		if (i == c / 64)
			rest &= ~(1ULL << (c % 64));
		if (rest) {
			w = (uint32_t)(i * 64) + (uint32_t)__builtin_ctzll(rest);
			wit->v[wit->next++ % NWIT] = w;
			return w;
		}
	}
	return UINT32_MAX;
}

/* A vertex of set adjacent to all its others (a dominator), first tried
 * first, or UINT32_MAX; v's row is rows + v * stride.  A candidate c
 * that misses w rules out, with c, every candidate not adjacent to w (a
 * dominator is adjacent to both): one AND of w's row, where trying the
 * common neighbours one by one, a cache miss each, was most of the
 * collapse (see bench/RESULTS.persist). */
static uint32_t
dominator(const uint64_t *set, const uint32_t *sw, size_t nsw, uint64_t *cand,
    const uint64_t *rows, size_t stride, uint32_t first, struct wits *wit)
{
	const uint64_t *rw;
	uint32_t c = first, w;
	size_t k, j;

	for (k = 0; k < nsw; k++)
		cand[sw[k]] = set[sw[k]];
	if (c == UINT32_MAX || !(set[c / 64] >> (c % 64) & 1))
		c = UINT32_MAX;
	for (k = 0; k < nsw;) {
		if (c == UINT32_MAX) {
			if (cand[sw[k]] == 0) {
				k++;
				continue;
			}
			c = sw[k] * 64 + (uint32_t)__builtin_ctzll(cand[sw[k]]);
		}
		if ((w = misses(set, sw, nsw, rows + (size_t)c * stride, c, wit)) == UINT32_MAX)
			return c;
		cand[c / 64] &= ~(1ULL << (c % 64));
		for (rw = rows + (size_t)w * stride, j = k; j < nsw; j++)
			cand[sw[j]] &= rw[sw[j]];
		c = UINT32_MAX;
	}
	return UINT32_MAX;
}

/* The edge (u, v) of value t with bitsets: its common neighbours are the
 * AND of two rows, a level at a time, so that an edge costs words, not
 * neighbours.  Returns the value it moves to, INFINITY if it goes; last
 * is the dominator found before, tried first (the edges come in runs
 * that share a vertex and are often dominated alike). */
static float
movebits(struct cx *x, size_t n, uint32_t u, uint32_t v, float t, uint32_t *last)
{
	size_t i, l = levelof(x, t), nw = x->nwords;
	uint64_t *e = x->ebits, any, nn;
	const uint64_t *ru, *rv, *rd;
	uint32_t dom;
	int still;

	ru = bitrow(x, u, l);
	rv = bitrow(x, v, l);
	for (x->new = 0, i = 0; i < nw; i++)
		if ((e[i] = ru[i] & rv[i]) != 0)
			x->ew[x->new++] = (uint32_t)i;
	for (;;) {
		dom = dominator(e, x->ew, x->new, x->cand, bitrow(x, 0, l),
		    x->nlevel * nw, *last < n ? *last : UINT32_MAX, &x->wit);
		if (dom == UINT32_MAX)
			return x->level[l];
		*last = dom;
		do {	/* later while dom stays adjacent to the newcomers */
			do {
				if (++l == x->nlevel)
					return INFINITY;
				ru = bitrow(x, u, l);
				rv = bitrow(x, v, l);
				for (any = 0, i = 0; i < nw; i++)
					any |= ru[i] & rv[i] & ~e[i];
			} while (any == 0);
			rd = bitrow(x, dom, l);
			for (still = 1, i = 0; i < nw; i++) {
				nn = ru[i] & rv[i] & ~e[i];
				if (nn & ~rd[i])
					still = 0;
				if (nn != 0 && e[i] == 0)
					x->ew[x->new++] = (uint32_t)i;
				e[i] |= nn;
			}
		} while (still);
	}
}

/* Edge (u, v) of value t moved as late as a dominating vertex allows,
 * from the lists of neighbours (without rows of bits): its new value,
 * INFINITY if it goes. */
static float
movelists(struct cx *x, const struct rt_graph *k, uint32_t u, uint32_t v, float t, uint32_t *last)
{
	size_t a, b, ea, eb, ne = 0, nl = 0, ncen = 0, n = k->n;
	struct later *lat = x->lat, cen[CENTRAL];
	uint32_t *e = x->e, w;
	float *val = x->val, fw;
	const float *dv;
	int dom, still, heaped = 0;

	/* common neighbours: u's list against v's values in a row, its row
	 * of the matrix or spread over one (merging the two lists
	 * mispredicts a branch a step) */
	dv = x->dense != NULL ? x->dense + (size_t)v * n : x->row;
	if (x->dense == NULL)
		for (b = k->off[v], eb = k->off[v + 1]; b < eb; b++)
			x->row[k->nb[b]] = val[b];
	for (a = k->off[u], ea = k->off[u + 1]; a < ea; a++) {
		w = k->nb[a];
		fw = val[a] > dv[w] ? val[a] : dv[w];
		if (fw <= t) {
			e[ne++] = w;
			central(cen, &ncen, w, fw);
		} else if (fw != INFINITY) {
			lat[nl].f = fw;
			lat[nl++].w = w;
		}
	}
	if (x->dense == NULL)
		for (b = k->off[v], eb = k->off[v + 1]; b < eb; b++)
			x->row[k->nb[b]] = INFINITY;
	for (;;) {
		/* the last dominator found first: the edges come in runs
		 * sharing a vertex, often dominated alike */
		dom = -1;
		if (*last < n && *last != u && *last != v &&
		    value(x, k, val, u, *last) <= t && value(x, k, val, v, *last) <= t &&
		    dominates(x, k, val, e, ne, *last, t))
			dom = (int)*last;
		for (a = 0; dom < 0 && a < ncen; a++)
			if (cen[a].w != *last && dominates(x, k, val, e, ne, cen[a].w, t))
				dom = (int)cen[a].w;
		if (dom < 0)
			return t;
		*last = (uint32_t)dom;
		if (!heaped) {	/* most edges tried have no dominator */
			for (a = nl / 2; a-- > 0;)
				latdown(lat, nl, a);
			heaped = 1;
		}
		do {
			if (nl == 0)
				return INFINITY;
			t = lat[0].f;
			still = 1;
			while (nl > 0 && lat[0].f <= t) {
				struct later j = latpop(lat, &nl);

				w = j.w;
				if (value(x, k, val, (uint32_t)dom, w) > j.f)
					still = 0;
				central(cen, &ncen, w, j.f);
				/* sorted for the walk along a row, the one test
				 * that needs it */
				a = ne++;
				if (x->dense == NULL)
					for (; a > 0 && e[a - 1] > w; a--)
						e[a] = e[a - 1];
				e[a] = w;
			}
		} while (still);
	}
}

/* The working state for k: its values, scratch, and the fastest view of
 * its neighbours that fits (rows of bits, a matrix, or a row spread). */
static int
cxload(struct cx *x, const struct rt_graph *k)
{
	size_t i, n = k->n;
	uint32_t u;

	if ((x->val = malloc((k->off[n] + 1) * sizeof *x->val)) == NULL ||
	    (x->e = malloc((n + 1) * sizeof *x->e)) == NULL ||
	    (x->lat = malloc((n + 1) * sizeof *x->lat)) == NULL)
		return -1;
	memcpy(x->val, k->d, k->off[n] * sizeof *x->val);
	bitsetup(x, k);
	if (x->lbits == NULL && n <= DENSE && k->off[n] >= n * n / 8 &&
	    (x->dense = malloc(n * n * sizeof *x->dense + 1)) != NULL) {
		for (i = 0; i < n * n; i++)
			x->dense[i] = INFINITY;
		for (u = 0; u < n; u++)
			for (i = k->off[u]; i < k->off[u + 1]; i++)
				x->dense[(size_t)u * n + k->nb[i]] = k->d[i];
	}
	if (x->dense == NULL && x->lbits == NULL) {
		if ((x->row = malloc((n + 1) * sizeof *x->row)) == NULL)
			return -1;
		for (i = 0; i < n; i++)
			x->row[i] = INFINITY;
	}
	return 0;
}

/* The collapsed graph l: k's surviving edges at their values val. */
static int
collapsed(const struct rt_graph *k, const float *val, struct rt_graph *l)
{
	size_t a, i, n = k->n;
	uint32_t u;

	l->n = n;
	l->thresh = k->thresh;
	if ((l->off = calloc(n + 1, sizeof *l->off)) == NULL)
		return -1;
	for (u = 0; u < n; u++)
		for (i = k->off[u]; i < k->off[u + 1]; i++)
			l->off[u + 1] += val[i] != INFINITY;
	for (u = 0; u < n; u++)
		l->off[u + 1] += l->off[u];
	if ((l->nb = malloc((l->off[n] + 1) * sizeof *l->nb)) == NULL ||
	    (l->d = malloc((l->off[n] + 1) * sizeof *l->d)) == NULL)
		return -1;
	for (a = 0, u = 0; u < n; u++)
		for (i = k->off[u]; i < k->off[u + 1]; i++)
			if (val[i] != INFINITY) {
				l->nb[a] = k->nb[i];
				l->d[a++] = val[i];
			}
	return 0;
}

int
rt_collapse(const struct rt_graph *k, struct rt_graph *l, struct rt_collapse *c)
{
	size_t i, m = 0, n = k->n, gone = 0, runs = 0, sum = 0, ran[TRYRUNS] = { 0 };
	uint32_t u, v, last = UINT32_MAX;
	struct cx x = { 0 };
	float t;

	memset(c, 0, sizeof *c);
	memset(l, 0, sizeof *l);
	witsinit(&x.wit);
	if ((c->e = malloc((k->off[n] / 2 + 1) * sizeof *c->e)) == NULL || cxload(&x, k))
		goto fail;
	for (u = 0; u < n; u++)
		for (i = k->off[u]; i < k->off[u + 1] && k->nb[i] < u; i++) {
			c->e[m].u = k->nb[i];
			c->e[m].v = u;
			c->e[m++].f0 = k->d[i];
		}
	c->m = m;
	qsort(c->e, m, sizeof *c->e, byorder);
	for (i = 0; i < m; i++) {
		if (i > 0 && i % TRY == 0) {
			sum += gone - ran[runs % TRYRUNS];
			ran[runs++ % TRYRUNS] = gone;
			gone = 0;
			if (sum * TRYGONE < TRY * (runs < TRYRUNS ? runs : TRYRUNS))
				break;
		}
		u = c->e[i].u;
		v = c->e[i].v;
		if (x.lbits != NULL) {
			t = movebits(&x, n, u, v, c->e[i].f0, &last);
			while (x.new > 0)
				x.ebits[x.ew[--x.new]] = 0;
		} else
			t = movelists(&x, k, u, v, c->e[i].f0, &last);
		c->e[i].f1 = t;
		c->e[i].dom = t != c->e[i].f0 ? last : UINT32_MAX;
		if (t != c->e[i].f0)
			setval(&x, k, x.val, u, v, t);
		gone += t == INFINITY;
	}
	for (c->tried = i; i < m; i++) {	/* not worth going on: the rest stay */
		c->e[i].f1 = c->e[i].f0;
		c->e[i].dom = UINT32_MAX;
	}
	if (collapsed(k, x.val, l))
		goto fail;
	cxfree(&x);
	return 0;
fail:
	cxfree(&x);
	rt_graph_free(l);
	rt_collapse_free(c);
	return RT_ENOMEM;
}

void
rt_collapse_free(struct rt_collapse *c)
{
	free(c->e);
	memset(c, 0, sizeof *c);
}

/* Cocycle values by edge, in an open-addressing table. */
struct zmap {
	uint64_t *key;		/* edge key + 1, 0 empty */
	uint32_t *coef;
	size_t mask;
};

static uint32_t *
zslot(struct zmap *z, uint32_t a, uint32_t b, int add)
{
	uint64_t key = a < b ? (uint64_t)b * (b - 1) / 2 + a : (uint64_t)a * (a - 1) / 2 + b;
	size_t i;

	for (i = rt_hash64(key) & z->mask; z->key[i]; i = (i + 1) & z->mask)
		if (z->key[i] == key + 1)
			return &z->coef[i];
	if (!add)
		return NULL;
	z->key[i] = key + 1;
	z->coef[i] = 0;
	return &z->coef[i];
}

/* z(a, b) for an oriented edge: the table holds z(min, max). */
static uint32_t
zget(struct zmap *z, uint32_t a, uint32_t b, unsigned p)
{
	uint32_t *c = zslot(z, a, b, 0);

	if (c == NULL || *c == 0)
		return 0;
	return a < b ? *c : p - *c;
}

/* Put back, last removed first, the edges of K at eps that the collapse
 * delayed past eps or removed.  Each was dominated by a vertex c in the
 * graph it returns to, so z(u, v) = z(u, c) + z(c, v) keeps z a cocycle:
 * every triangle uvw it closes has w adjacent to c, and the triangles
 * ucw and cvw already satisfy the cocycle condition.  The order and the
 * dominators depend on eps alone: a replay serves every cocycle there. */
int
rt_replay_plan(struct rt_replay *r, const struct rt_graph *k, const struct rt_collapse *c,
    float eps)
{
	size_t n = k->n, words = (n + 63) / 64, i, x, ncw;
	uint64_t *adj = NULL, *common = NULL, *cand;
	uint32_t u, v, dom, *cw = NULL;
	struct wits wit;

	memset(r, 0, sizeof *r);
	witsinit(&wit);
	r->eps = eps;
	for (i = 0; i < c->m; i++) {
		r->need += c->e[i].f0 <= eps;
		r->n += c->e[i].f0 <= eps && c->e[i].f1 > eps;
	}
	if ((adj = calloc(n * words + 1, sizeof *adj)) == NULL ||
	    (common = malloc(2 * (words + 1) * sizeof *common)) == NULL ||
	    (cw = malloc((words + 1) * sizeof *cw)) == NULL ||
	    (r->uvd = malloc((r->n + 1) * sizeof *r->uvd)) == NULL)
		goto fail;
	cand = common + words + 1;
#define SET(a, b) (adj[(size_t)(a) * words + (b) / 64] |= 1ULL << ((b) % 64))
	for (i = 0; i < c->m; i++)
		if (c->e[i].f1 <= eps) {
			SET(c->e[i].u, c->e[i].v);
			SET(c->e[i].v, c->e[i].u);
		}
	r->n = 0;
	for (i = c->m; i-- > 0;) {
		if (c->e[i].f0 > eps || c->e[i].f1 <= eps)
			continue;
		u = c->e[i].u;
		v = c->e[i].v;
		for (ncw = 0, x = 0; x < words; x++)
			if ((common[x] = adj[u * words + x] & adj[v * words + x]) != 0)
				cw[ncw++] = (uint32_t)x;
		/* the collapse's graph at eps when it came to this edge is
		 * this one (the edges it tried before at their values then,
		 * those after at f0), so its last dominator mostly serves;
		 * any other gives z the same value: two dominators c, d are
		 * adjacent, and z sums to 0 on the triangles ucd and cdv */
		dom = dominator(common, cw, ncw, cand, adj, words, c->e[i].dom, &wit);
		if (dom == UINT32_MAX)
			goto fail;	/* cannot happen if the collapse was right */
		r->uvd[r->n][0] = u;
		r->uvd[r->n][1] = v;
		r->uvd[r->n++][2] = dom;
		SET(u, v);
		SET(v, u);
	}
#undef SET
	free(adj);
	free(common);
	free(cw);
	return 0;
fail:
	free(adj);
	free(common);
	free(cw);
	rt_replay_free(r);
	return RT_ENOMEM;
}

void
rt_replay_free(struct rt_replay *r)
{
	free(r->uvd);
	memset(r, 0, sizeof *r);
}

int
rt_replay_apply(const struct rt_replay *r, const struct rt_collapse *c, unsigned p,
    const struct rt_cocycle_entry *z, size_t nz, struct rt_cocycle_entry **out,
    size_t *nout)
{
	struct zmap zm = { 0 };
	struct rt_cocycle_entry *o;
	uint32_t u, v, *cf;
	size_t i, x;

	for (x = 1024; x < 2 * (r->need + nz + 1); x *= 2)
		;
	zm.mask = x - 1;
	if ((zm.key = calloc(x, sizeof *zm.key)) == NULL ||
	    (zm.coef = calloc(x, sizeof *zm.coef)) == NULL)
		goto fail;
	for (i = 0; i < nz; i++)
		*zslot(&zm, z[i].i, z[i].j, 1) = z[i].i < z[i].j ? z[i].coef :
		    (p - z[i].coef) % p;
	for (i = 0; i < r->n; i++) {
		u = r->uvd[i][0];
		v = r->uvd[i][1];
		cf = zslot(&zm, u, v, 1);
		*cf = (zget(&zm, u, r->uvd[i][2], p) + zget(&zm, r->uvd[i][2], v, p)) % p;
	}
	if ((o = malloc((r->need + 1) * sizeof *o)) == NULL)
		goto fail;
	*nout = 0;
	for (i = 0; i < c->m; i++) {
		if (c->e[i].f0 > r->eps)
			continue;
		u = c->e[i].u;
		v = c->e[i].v;
		if ((cf = zslot(&zm, u, v, 0)) == NULL || *cf == 0)
			continue;
		o[*nout].i = u;
		o[*nout].j = v;
		o[(*nout)++].coef = *cf;
	}
	*out = o;
	free(zm.key);
	free(zm.coef);
	return 0;
fail:
	free(zm.key);
	free(zm.coef);
	return RT_ENOMEM;
}

