/* metric.c: distances between windows: edit (Levenshtein), Hamming and
 * Euclidean. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

static const char *const metrics[] = { "levenshtein", "hamming", "euclidean" };

int
rt_metric_parse(const char *name)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(name, metrics[i]) == 0)
			return i;
	return -1;
}

const char *
rt_metric_name(int m)
{
	return m >= 0 && m < 3 ? metrics[m] : "unknown";
}

/* Long windows: Myers's blocks of 64 rows, each column's eq masks looked
 * up by symbol (the distinct symbols of a, hashed), so that a pair costs
 * w * ceil(w / 64) word steps, not the w * w cells of the rows below
 * (bench/RESULTS.editdist has what that saves). */
struct rt_lev {
	int w, nb;		/* the length it was made for; 64-row blocks */
	uint32_t cap;		/* hash slots, a power of two >= 2w */
	uint32_t *key, *at;	/* a symbol, and its eq row + 1 (0: empty) */
	uint64_t *eq;		/* rows of nb words; row 0 stays zero */
	uint64_t *pv, *mv;	/* the block's vertical deltas */
};

struct rt_lev *
rt_lev_new(int w)
{
	struct rt_lev *s = calloc(1, sizeof *s);

	if (s == NULL || w < 1)
		goto fail;
	s->w = w;
	s->nb = (w + 63) / 64;
	for (s->cap = 16; s->cap < 2u * (uint32_t)w; s->cap *= 2)
		;
	s->key = malloc(s->cap * sizeof *s->key);
	s->at = malloc(s->cap * sizeof *s->at);
	s->eq = calloc((size_t)(w + 1) * s->nb, sizeof *s->eq);
	s->pv = malloc(s->nb * sizeof *s->pv);
	s->mv = malloc(s->nb * sizeof *s->mv);
	if (s->key && s->at && s->eq && s->pv && s->mv)
		return s;
fail:
	rt_lev_free(s);
	return NULL;
}

void
rt_lev_free(struct rt_lev *s)
{
	if (s == NULL)
		return;
	free(s->key);
	free(s->at);
	free(s->eq);
	free(s->pv);
	free(s->mv);
	free(s);
}

/* The slot of symbol c: its own, or the empty one where it would go. */
static uint32_t
slot(const struct rt_lev *s, uint32_t c)
{
	uint32_t k = (uint32_t)rt_hash64(c) & (s->cap - 1);

	while (s->at[k] != 0 && s->key[k] != c)
		k = (k + 1) & (s->cap - 1);
	return k;
}

/* One block of a column (Myers 1999, advance_block): hin is the
 * horizontal delta into its top row, the result the one out of its
 * last, at bit top. */
static inline int
block(uint64_t *pvp, uint64_t *mvp, uint64_t eq, int hin, uint64_t top)
{
	uint64_t pv = *pvp, mv = *mvp, xv, xh, ph, mh;
	int hout;

	xv = eq | mv;
	if (hin < 0)
		eq |= 1;
	xh = (((eq & pv) + pv) ^ pv) | eq;
	ph = mv | ~(xh | pv);
	mh = pv & xh;
	hout = (int)((ph & top) != 0) - (int)((mh & top) != 0);	/* no branch */
	ph <<= 1;
	mh <<= 1;
	if (hin < 0)
		mh |= 1;
	else if (hin > 0)
		ph |= 1;
	*pvp = mh | ~(xv | ph);
	*mvp = ph & xv;
	return hout;
}

/* Edit distance of two symbol strings of length w <= 64, bit-parallel
 * (Myers 1999, in Hyyro's form for the global distance): one block a
 * column.  Bits above row w hold garbage that carries never bring down. */
static int
rt_levenshtein(const uint32_t *a, const uint32_t *b, int w)
{
	uint64_t top = 1ULL << (w - 1), pv = ~0ULL, mv = 0, eq;
	int i, k, score = w;

	for (k = 0; k < w; k++) {
		eq = 0;
		for (i = 0; i < w; i++)
			eq |= (uint64_t)(a[i] == b[k]) << i;
		score += block(&pv, &mv, eq, 1, top);
	}
	return score;
}

int
rt_edit(const uint32_t *a, const uint32_t *b, int w, struct rt_lev *s)
{
	uint32_t i, k, r, nrow = 0, nb;
	uint64_t last = 1ULL << ((w - 1) % 64);
	const uint64_t *e;
	int j, h, score = w;

	if (w <= 64)	/* one word: s may be NULL */
		return rt_levenshtein(a, b, w);
	nb = (uint32_t)s->nb;
	memset(s->at, 0, s->cap * sizeof *s->at);
	for (i = 0; i < (uint32_t)w; i++) {	/* a's symbols: their rows of eq */
		k = slot(s, a[i]);
		if (s->at[k] == 0) {
			s->key[k] = a[i];
			s->at[k] = ++nrow + 1;
			memset(s->eq + (size_t)nrow * nb, 0, nb * sizeof *s->eq);
		}
		s->eq[(size_t)(s->at[k] - 1) * nb + i / 64] |= 1ULL << (i % 64);
	}
	for (j = 0; j < (int)nb; j++) {
		s->pv[j] = ~0ULL;	/* down the first column: +1 a row */
		s->mv[j] = 0;
	}
	for (i = 0; i < (uint32_t)w; i++) {
		k = slot(s, b[i]);
		r = s->at[k] ? s->at[k] - 1 : 0;
		e = s->eq + (size_t)r * nb;
		h = 1;	/* along the first row: +1 a column */
		for (j = 0; j < (int)nb - 1; j++)
			h = block(&s->pv[j], &s->mv[j], e[j], h, 1ULL << 63);
		score += block(&s->pv[j], &s->mv[j], e[j], h, last);
	}
	return score;
}

/* Edit distance for windows longer than a machine word: two DP rows,
 * the plain algorithm the others are checked against. */
int
rt_levenshtein_long(const uint32_t *a, const uint32_t *b, int w, int *row)
{
	int i, k, diag, up, best;

	for (i = 0; i <= w; i++)
		row[i] = i;
	for (k = 1; k <= w; k++) {
		diag = row[0];
		row[0] = k;
		for (i = 1; i <= w; i++) {
			up = row[i];
			best = diag + (a[i - 1] != b[k - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[i - 1] + 1 < best)
				best = row[i - 1] + 1;
			row[i] = best;
			diag = up;
		}
	}
	return row[w];
}

/* Myers's columns over NT texts at once (t, t + w, ...) with the
 * pattern's eq masks by symbol id in peq: the edit distances of windows
 * of w <= 64 symbols into d.  The texts' columns are independent chains
 * of dependent steps: NT of them keep the core's units busy.  When none
 * can be within cap, all NT are given as infinite. */
#define NT 4
static void
myers(const uint64_t *peq, const uint32_t *t, int w, float cap, float *d)
{
	uint64_t top = 1ULL << (w - 1), pv[NT], mv[NT];
	int k, l, score[NT], near = 0;

	/* a text's symbols not in the pattern are edits, at least: none of
	 * the NT within cap, none is measured */
	for (l = 0; l < NT && !near; l++) {
		for (score[l] = w, k = 0; k < w; k++)
			score[l] -= peq[t[l * w + k]] != 0;
		near = score[l] <= cap;
	}
	if (!near) {
		for (l = 0; l < NT; l++)
			d[l] = INFINITY;
		return;
	}
	for (l = 0; l < NT; l++) {
		pv[l] = ~0ULL;
		mv[l] = 0;
		score[l] = w;
	}
	for (k = 0; k < w; k++)
#pragma GCC unroll 4
		for (l = 0; l < NT; l++)
			score[l] += block(&pv[l], &mv[l], peq[t[l * w + k]], 1, top);
	for (l = 0; l < NT; l++)
		d[l] = (float)score[l];
}

/* Where rows() puts the distances: the triangle, or else the pairs
 * within cap as edges. */
struct sink {
	float *tri;
	struct rt_edge *e;
	size_t m, cap;
};

/* Pairs (i + l, j) for l < nd, their distances d, to k. */
static int
sink(struct sink *k, size_t i, size_t j, const float *d, size_t nd, float cap)
{
	size_t l;

	if (k->tri != NULL) {
		memcpy(k->tri + RT_TRI(i, j), d, nd * sizeof *d);
		return 0;
	}
	for (l = 0; l < nd; l++)
		if (d[l] <= cap) {
			if (rt_grow(&k->e, &k->cap, k->m + 1, sizeof *k->e))
				return -1;
			k->e[k->m++] = (struct rt_edge){ (uint32_t)(i + l), (uint32_t)j, d[l] };
		}
	return 0;
}

/* All pairs' edit distances of windows of w <= 64 symbols: window j the
 * pattern of its row, its eq masks set once in a table by symbol id, so
 * that a pair costs w steps and w loads where rt_levenshtein compared
 * every symbol with every other (w * w); -1 out of memory. */
static int
rows(const struct rt_cloud *c, float cap, struct sink *to)
{
	size_t i, j, n = c->nv, nsym = 0;
	int k, w = c->dim, e = 0;
	uint64_t *peq;
	uint32_t tail[NT * 64];
	float d[NT];
	const uint32_t *b;

	for (i = 0; i < n * (size_t)w; i++)
		nsym = c->sym[i] >= nsym ? (size_t)c->sym[i] + 1 : nsym;
	if ((peq = calloc(nsym, sizeof *peq)) == NULL)
		return -1;
	for (j = 1; j < n && e == 0; j++) {
		b = c->sym + j * (size_t)w;
		for (k = 0; k < w; k++)
			peq[b[k]] |= 1ULL << k;
		for (i = 0; i + NT <= j && e == 0; i += NT) {
			myers(peq, c->sym + i * (size_t)w, w, cap, d);
			e = sink(to, i, j, d, NT, cap);
		}
		if (i < j && e == 0) {	/* the last texts, and copies of the first to make NT */
			for (k = 0; k < NT * w; k++)
				tail[k] = c->sym[(i + (size_t)k / w < j ? i * (size_t)w + (size_t)k :
				    (size_t)k % w)];
			myers(peq, tail, w, cap, d);
			e = sink(to, i, j, d, j - i, cap);
		}
		for (k = 0; k < w; k++)
			peq[b[k]] = 0;
	}
	free(peq);
	return e;
}

int
rt_cloud_pairs(const struct rt_cloud *c, float cap, struct rt_edge **e, size_t *m)
{
	struct sink k = { NULL, NULL, 0, 0 };

	*e = NULL;
	*m = 0;
	if (c->numeric || c->edge != NULL || c->dim < 1 || c->dim > 64)
		return RT_EUSAGE;
	if (rows(c, cap, &k)) {
		free(k.e);
		return RT_ENOMEM;
	}
	*e = k.e;
	*m = k.m;
	return 0;
}

float *
rt_cloud_distances(const struct rt_cloud *c, int metric, float cap)
{
	size_t i, j, n = c->nv;
	int k, w = c->dim;
	struct rt_lev *lev = NULL;
	float *tri;
	double s, t;
	const uint32_t *a, *b;

	if ((tri = rt_bigalloc((n * (n - 1) / 2 + 1) * sizeof *tri)) == NULL)
		return NULL;
	if (c->edge != NULL) {	/* a sparse matrix made dense (persist -O lower-distance) */
		for (i = 0; i < n * (n - 1) / 2; i++)
			tri[i] = INFINITY;
		for (i = 0; i < c->nedge; i++)
			tri[RT_TRI(c->edge[i].i, c->edge[i].j)] = c->edge[i].d;
		return tri;
	}
	if (!c->numeric && metric == RT_LEVENSHTEIN && w >= 1 && w <= 64 && n > 1) {
		struct sink to = { tri, NULL, 0, 0 };

		if (rows(c, cap, &to) == 0)
			return tri;
	}
	if (!c->numeric && metric == RT_LEVENSHTEIN && (lev = rt_lev_new(w)) == NULL) {
		free(tri);
		return NULL;
	}
	for (j = 1; j < n; j++) {
		float *out = tri + RT_TRI(0, j);

		for (i = 0; i < j; i++) {
			if (c->numeric) {
				s = 0;
				for (k = 0; k < w; k++) {
					t = c->x[i * w + k] - c->x[j * w + k];
					s += metric == RT_HAMMING ? (t != 0) : t * t;
				}
				out[i] = (float)(metric == RT_HAMMING ? s : sqrt(s));
				continue;
			}
			a = c->sym + i * w;
			b = c->sym + j * w;
			if (metric == RT_HAMMING) {
				for (s = 0, k = 0; k < w; k++)
					s += a[k] != b[k];
				out[i] = (float)s;
			} else
				out[i] = (float)rt_edit(a, b, w, lev);
		}
	}
	rt_lev_free(lev);
	return tri;
}
