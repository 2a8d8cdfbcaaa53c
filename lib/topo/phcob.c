/* phcob.c: the cofacets of a simplex, apparent pairs, and the
 * coboundaries a reduction adds (ph.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phint.h"

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
int
rt_ph_dense(struct ctx *x)
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
int
rt_ph_apparentof(const struct ctx *x, int nv, const uint32_t *t, uint64_t tkey, float d,
    struct simplex *f, int *neg)
{
	uint64_t key;

	return zfacet(x, nv, t, d, f) && zcofacet(x, nv, f, &key, neg) && key == tkey;
}

/* s's first cofacet of its own diameter t (k added, key tkey; s of nv
 * vertices; the caller found it so): is it s's apparent pair (2), another
 * facet's (1), or neither (0)? */
static int
rt_ph_apparent(const struct ctx *x, int nv, const struct simplex *s, uint32_t k, uint64_t tkey)
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
int
rt_ph_apparentup(const struct ctx *x, int nv, const struct simplex *s)
{
	struct cofit it;
	uint64_t key;
	float diam;
	int neg;

	cof_initn(x, &it, s, nv);
	while (cof_next(x, &it, &key, &diam, &neg))
		if (diam == s->diam)
			return rt_ph_apparent(x, nv, s, it.k, key) == 2;
	return 0;
}

/* The column whose apparent pair is the cofacet piv, into *f, and the
 * coefficient of piv in its coboundary; 0 if none.  *j its place among
 * the x->napp after the columns (sorted as they are: by diameter down,
 * key up), or NOCACHE in dimension 2, where onetri did not keep them
 * (in dimension 1 not there cannot be: -1). */
int
rt_ph_apparentcol(const struct ctx *x, const struct hentry *piv, struct simplex *f, uint32_t *coef,
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
	if (!rt_ph_apparentof(x, x->nv, t, piv->key, piv->diam, f, &neg))
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
int
rt_ph_unapparent(struct ctx *x, int nv, struct simplex *col, size_t *ncol, size_t *napp)
{
	struct simplex *a;
	size_t i, n = 0, m = 0;

	if ((a = malloc((*ncol + 1) * sizeof *a)) == NULL)
		return -1;
	for (i = 0; i < *ncol; i++)
		if (rt_ph_apparentup(x, nv, &col[i]))
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
int
rt_ph_coboundary(struct wk *w, const struct simplex *s, uint32_t coef, int check,
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
			int ap = rt_ph_apparent(x, x->nv, s, it.k, key);

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
 * which is their number; made by the thread that adds the column the
 * second time, and kept: such columns are added many times each, and
 * their cofacets found again at every addition cost much of the
 * reduction; kept from the first addition, the many added once would
 * cost memory for nothing.  A column of rlen LAZY (col its reduction
 * column, len > 1 simplices): its reduced coboundary, summed, made at
 * its first addition (a replay there, as for a simplex's, costs as much
 * again as the making).  The first term, the pivot, cancels
 * where the run is added.  *run NULL at the first addition of a
 * simplex's, when MAXCOB terms are kept already, or where terms are not
 * packed: the caller replays the column. */
static uint64_t once;		/* x->cob[j]: added once */

int
rt_ph_cobrun(struct wk *w, uint32_t j, const struct ventry *col, size_t len, const uint64_t **run)
{
	struct ctx *x = w->x;
	struct scratch *sc = w->sc;
	uint64_t *h = atomic_load_explicit(&x->cob[j], memory_order_acquire), *old = h;
	struct cofit it;
	uint64_t key;
	float diam;
	size_t n = 0, t;
	int neg;

	*run = NULL;
	if (!x->packed)
		return 0;
	if (h == NULL && len == 1) {
		atomic_compare_exchange_strong(&x->cob[j], &old, &once);
		return 0;
	}
	if (h == NULL || h == &once) {
		if (atomic_load_explicit(&x->ncob, memory_order_relaxed) >= MAXCOB)
			return 0;
		for (t = 0; t < len; t++) {
			uint32_t c = len == 1 ? 1 : col[t].coef;

			cof_init(x, &it, &col[t].s);
			while (cof_next(x, &it, &key, &diam, &neg)) {
				if (rt_grow(&sc->c, &sc->capc, n + 1, sizeof *sc->c))
					return -1;
				sc->c[n++] = (struct hentry){ key, diam, neg ? x->p - c : c };
			}
		}
		if (atomic_load_explicit(&x->ncob, memory_order_relaxed) + n + 1 > MAXCOB)
			return 0;
		if (len > 1 ? rt_ph_sortrun(w, sc->c, &n) :	/* summed */
		    rt_ph_rsort(sc, sc->c, n, 1) || rt_ph_pack(x, sc->c, n))	/* by key down, then diameter */
			return -1;
		atomic_fetch_add_explicit(&x->ncob, n + 1, memory_order_relaxed);
		if ((h = rt_ph_aalloc(&sc->cpool, (n + 1) * sizeof *h)) == NULL)
			return -1;
		h[0] = n;
		memcpy(h + 1, sc->c, n * sizeof *h);
		if (sc->capc >= BIG) {	/* a long column's: not held */
			free(sc->c);
			sc->c = NULL;
			sc->capc = 0;
		}
		if (!atomic_compare_exchange_strong_explicit(&x->cob[j], &old, h,
		    memory_order_acq_rel, memory_order_acquire))
			h = old;	/* another thread's, made meanwhile */
	}
	*run = h + 1;
	return 0;
}

int
rt_ph_workadd(struct wk *w, const struct simplex *s, uint32_t coef)
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
int
rt_ph_worksum(struct wk *w)
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
	if (rt_ph_rsort(sc, sc->a, n, 0))
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
