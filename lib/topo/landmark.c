/* landmark.c: landmarks by maxmin (farthest point first, as DREiMac and
 * Perea's sparse circular coordinates take them): each new landmark is
 * the vertex farthest from those before, so that every vertex ends within
 * the cover radius of one, and each vertex learns its nearest. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

struct lm {
	const struct rt_cloud *c;
	int metric;
	uint64_t *sig;		/* per vertex: a bit per symbol hash */
	float *d;		/* per vertex: distance to the nearest landmark */
	uint32_t *near;		/* its index among the landmarks */
	unsigned threads;
	uint32_t l, i;		/* the landmark of this round, its index */
	size_t far[8];		/* each slice's farthest vertex */
};

struct arg { struct lm *m; unsigned t; };

static uint64_t
bit(uint32_t sym)
{
	return 1ULL << (rt_hash64(sym) & 63);
}

/* The distance, or a lower bound of it that is at least cap (when cap
 * cannot be beaten there is no need to measure).  Symbols: an edit
 * changes one symbol, so w less the symbols of v that b may share. */
static float
dist(const struct lm *m, size_t a, size_t b, float cap, struct rt_lev *lev, int *row)
{
	const struct rt_cloud *c = m->c;
	int w = c->dim, k, share = 0;
	const uint32_t *x, *y;
	double s = 0, t;

	if (c->numeric) {
		for (k = 0; k < w; k++) {
			t = c->x[a * w + k] - c->x[b * w + k];
			s += m->metric == RT_HAMMING ? (t != 0) : t * t;
		}
		return (float)(m->metric == RT_HAMMING ? s : sqrt(s));
	}
	x = c->sym + a * w;
	y = c->sym + b * w;
	for (k = 0; k < w; k++)
		share += (m->sig[a] & bit(y[k])) != 0;
	if ((float)(w - share) >= cap)
		return (float)(w - share);
	if (m->metric == RT_HAMMING) {
		for (share = 0, k = 0; k < w; k++)
			share += x[k] != y[k];
		return (float)share;
	}
	return (float)(lev != NULL || w <= 64 ? rt_edit(x, y, w, lev) :
	    rt_levenshtein_long(x, y, w, row));	/* no memory for lev: the plain way */
}

/* One slice of the vertices against this round's landmark. */
static void *
work(void *p)
{
	struct arg *a = p;
	struct lm *m = a->m;
	size_t n = m->c->nv, lo = n * a->t / m->threads, hi = n * (a->t + 1) / m->threads;
	size_t v, best = lo;
	int row[1025];
	struct rt_lev *lev = m->c->dim > 64 && !m->c->numeric ? rt_lev_new(m->c->dim) : NULL;
	float x;

	for (v = lo; v < hi; v++) {
		if ((x = dist(m, v, m->l, m->d[v], lev, row)) < m->d[v]) {
			m->d[v] = x;
			m->near[v] = m->i;
		}
		if (m->d[v] > m->d[best])
			best = v;
	}
	m->far[a->t] = best;
	rt_lev_free(lev);
	return NULL;
}

int
rt_landmarks(const struct rt_cloud *c, int metric, size_t *nlp, size_t least, float target,
    unsigned threads, uint32_t *land, uint32_t *near, float *d, float *cover)
{
	size_t nl = *nlp;
	struct lm m = { .c = c, .metric = metric, .d = d, .near = near };
	struct arg a[8];
	pthread_t th[8];
	size_t v, k;
	unsigned t;

	if (nl > c->nv)
		nl = c->nv;
	if (nl == 0)
		return RT_EUSAGE;
	m.threads = threads < 1 ? 1 : threads > 8 ? 8 : threads;
	if (c->nv < 64 * m.threads)
		m.threads = 1;
	if (!c->numeric) {
		if ((m.sig = calloc(c->nv + 1, sizeof *m.sig)) == NULL)
			return RT_ENOMEM;
		for (v = 0; v < c->nv; v++)
			for (k = 0; k < (size_t)c->dim; k++)
				m.sig[v] |= bit(c->sym[v * c->dim + k]);
	}
	for (v = 0; v < c->nv; v++)
		d[v] = INFINITY;
	/* the first: the vertex of the first point, so that time starts it;
	 * a thread a slice a round, a slice done here when none starts */
	land[0] = c->pm.n ? c->pm.vert[0] : 0;
	for (m.i = 0; m.i < nl; m.i++) {
		size_t best;
		int up[8];

		m.l = land[m.i];
		for (t = 0; t < m.threads; t++) {
			a[t] = (struct arg){ &m, t };
			up[t] = t > 0 && pthread_create(&th[t], NULL, work, &a[t]) == 0;
		}
		work(&a[0]);
		for (t = 1; t < m.threads; t++)
			if (up[t])
				pthread_join(th[t], NULL);
			else
				work(&a[t]);
		for (best = m.far[0], t = 1; t < m.threads; t++)
			if (d[m.far[t]] > d[best])
				best = m.far[t];
		if (d[best] <= target && m.i + 1 >= least) {	/* all near enough */
			m.i++;
			break;
		}
		if (m.i + 1 < nl)
			land[m.i + 1] = (uint32_t)best;
	}
	*nlp = m.i;
	free(m.sig);
	for (*cover = 0, v = 0; v < c->nv; v++)
		if (d[v] > *cover)
			*cover = d[v];
	return 0;
}

/* The cloud reduced to landmarks: their rows, in the order given, and
 * every point's vertex its nearest landmark. */
int
rt_cloud_keep(struct rt_cloud *c, const uint32_t *land, size_t nl, const uint32_t *near)
{
	size_t i, w = (size_t)c->dim, row = w * (c->numeric ? sizeof *c->x : sizeof *c->sym);
	char *keep, *from = c->numeric ? (char *)c->x : (char *)c->sym;

	if ((keep = malloc(nl * row + 1)) == NULL)
		return RT_ENOMEM;
	for (i = 0; i < nl; i++)
		memcpy(keep + i * row, from + (size_t)land[i] * row, row);
	for (i = 0; i < c->pm.n; i++)
		c->pm.vert[i] = near[c->pm.vert[i]];
	free(from);
	if (c->numeric)
		c->x = (double *)(void *)keep;
	else
		c->sym = (uint32_t *)(void *)keep;
	c->nv = nl;
	return 0;
}
