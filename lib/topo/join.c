/* join.c: the pairs of windows within a distance, without all pairs.
 *
 * Two windows of w symbols within edit distance tau share at least
 * w - tau of their symbols, counted with multiplicity (an edit changes one
 * symbol); within Hamming distance tau, w - tau (position, symbol) pairs.
 * So this is an overlap join on tokens: order the tokens from the rarest,
 * and two windows that overlap in w - tau tokens share one among the
 * first tau + 1 of each (the prefix filter of Bayardo, Ma and Srikant,
 * "Scaling up all pairs similarity search", 2007), with the positional
 * bound of PPJoin (Xiao et al., 2008) to drop candidates early; each
 * candidate left is measured exactly. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

#define OCCBITS 11		/* w <= 1024: an occurrence or a position */

struct post { uint32_t v, pos; };	/* a vertex and where the token is in it */

struct job {
	const struct rt_cloud *c;
	int metric, tau, w;
	const uint32_t *tok;	/* vertex * w token ranks, sorted */
	const size_t *off;	/* token rank -> postings */
	const struct post *post;
	uint32_t first, step;	/* the vertices of this thread */
	struct rt_edge *e;
	size_t ne, cape, maxedges;
	uint64_t candidates;
	int err;		/* -1 out of memory, -2 past maxedges */
};

static uint64_t
tokenkey(int metric, uint32_t sym, unsigned occ)
{
	return (uint64_t)sym << OCCBITS | occ | (metric == RT_HAMMING ? 1ULL << 63 : 0);
}

/* Token keys -> dense ids, with their frequencies. */
struct tokmap {
	uint64_t *key;		/* key + 1, 0 empty */
	uint32_t *id;
	size_t mask, n;
	uint32_t *freq;
	uint64_t *keys;		/* by id */
	size_t cap;
};

static int
tokid(struct tokmap *t, uint64_t key, uint32_t *id)
{
	size_t i;

	if (2 * (t->n + 1) > t->mask + 1) {
		struct tokmap u = { .mask = t->mask ? 2 * t->mask + 1 : 4095 };

		if ((u.key = calloc(u.mask + 1, sizeof *u.key)) == NULL ||
		    (u.id = malloc((u.mask + 1) * sizeof *u.id)) == NULL) {
			free(u.key);
			return -1;
		}
		for (i = 0; i <= t->mask && t->key; i++)
			if (t->key[i]) {
				size_t j = rt_hash64(t->key[i]) & u.mask;

				while (u.key[j])
					j = (j + 1) & u.mask;
				u.key[j] = t->key[i];
				u.id[j] = t->id[i];
			}
		free(t->key);
		free(t->id);
		t->key = u.key;
		t->id = u.id;
		t->mask = u.mask;
	}
	for (i = rt_hash64(key + 1) & t->mask; t->key[i]; i = (i + 1) & t->mask)
		if (t->key[i] == key + 1) {
			*id = t->id[i];
			t->freq[*id]++;
			return 0;
		}
	if (rt_grow(&t->freq, &t->cap, t->n + 1, sizeof *t->freq) ||
	    (t->cap > 0 && (t->keys = realloc(t->keys, t->cap * sizeof *t->keys)) == NULL))
		return -1;
	t->key[i] = key + 1;
	t->id[i] = *id = (uint32_t)t->n;
	t->freq[t->n] = 1;
	t->keys[t->n++] = key;
	return 0;
}

static int
byfreq(const void *a, const void *b, void *ctx)
{
	const struct tokmap *t = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (t->freq[x] != t->freq[y])
		return t->freq[x] < t->freq[y] ? -1 : 1;
	return t->keys[x] < t->keys[y] ? -1 : t->keys[x] > t->keys[y];
}

static int
byrank(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Every vertex's tokens as ranks (rarest 0), sorted. */
static uint32_t *
tokens(const struct rt_cloud *c, int metric, size_t *ntok)
{
	struct tokmap t = { 0 };
	size_t v, k, i, w = (size_t)c->dim;
	uint32_t *tok = NULL, *order = NULL, *rank = NULL;
	const uint32_t *s;

	if ((tok = malloc((c->nv * w + 1) * sizeof *tok)) == NULL)
		goto fail;
	for (v = 0; v < c->nv; v++) {
		s = c->sym + v * w;
		for (k = 0; k < w; k++) {
			unsigned occ = 0;

			if (metric == RT_HAMMING)
				occ = (unsigned)k;
			else
				for (i = 0; i < k; i++)
					occ += s[i] == s[k];
			if (tokid(&t, tokenkey(metric, s[k], occ), &tok[v * w + k]))
				goto fail;
		}
	}
	/* rank tokens by frequency, rarest first, ties by key: repeatable */
	if ((order = malloc((t.n + 1) * sizeof *order)) == NULL ||
	    (rank = malloc((t.n + 1) * sizeof *rank)) == NULL)
		goto fail;
	for (i = 0; i < t.n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, t.n, sizeof *order, byfreq, &t);
	for (i = 0; i < t.n; i++)
		rank[order[i]] = (uint32_t)i;
	for (v = 0; v < c->nv; v++) {
		for (k = 0; k < w; k++)
			tok[v * w + k] = rank[tok[v * w + k]];
		qsort(tok + v * w, w, sizeof *tok, byrank);
	}
	*ntok = t.n;
	free(order);
	free(rank);
	free(t.key);
	free(t.id);
	free(t.freq);
	free(t.keys);
	return tok;
fail:
	free(tok);
	free(order);
	free(rank);
	free(t.key);
	free(t.id);
	free(t.freq);
	free(t.keys);
	return NULL;
}

static int
distance(const struct job *j, uint32_t a, uint32_t b, struct rt_lev *lev)
{
	const uint32_t *x = j->c->sym + (size_t)a * j->w, *y = j->c->sym + (size_t)b * j->w;
	int k, d = 0;

	if (j->metric == RT_HAMMING) {
		for (k = 0; k < j->w; k++)
			d += x[k] != y[k];
		return d;
	}
	return rt_edit(x, y, j->w, lev);
}

static void *
work(void *arg)
{
	struct job *j = arg;
	size_t n = j->c->nv, w = (size_t)j->w, p = (size_t)j->tau + 1, t = w - (size_t)j->tau;
	int16_t *count = NULL;
	uint32_t *touched = NULL, x, y;
	size_t ntouched, i, k, pre;
	struct rt_lev *lev = NULL;
	int d;
	const struct post *q, *end;

	if ((count = calloc(n + 1, sizeof *count)) == NULL ||
	    (touched = malloc((n + 1) * sizeof *touched)) == NULL ||
	    (lev = rt_lev_new(j->w)) == NULL) {
		j->err = -1;
		goto out;
	}
	pre = p < w ? p : w;
	for (x = j->first; x < n && !j->err; x += j->step) {
		const uint32_t *tx = j->tok + x * w;

		ntouched = 0;
		if ((size_t)j->tau >= w)	/* every pair: no token need be shared */
			for (y = 0; y < x; y++) {
				touched[ntouched++] = y;
				count[y] = 1;
			}
		else for (i = 0; i < pre; i++)
			for (q = j->post + j->off[tx[i]], end = j->post + j->off[tx[i] + 1];
			    q < end && (y = q->v) < x; q++) {
				if (count[y] < 0)
					continue;	/* pruned */
				if (count[y] == 0)
					touched[ntouched++] = y;
				/* the positional bound: what can still match */
				k = w - 1 - (i > q->pos ? i : q->pos);
				if ((size_t)count[y] + 1 + k >= t)
					count[y]++;
				else
					count[y] = -1;
			}
		j->candidates += ntouched;
		for (i = 0; i < ntouched; i++) {
			y = touched[i];
			if (count[y] > 0 && (d = distance(j, x, y, lev)) <= j->tau) {
				if (j->ne == j->maxedges) {
					j->err = -2;
					break;
				}
				if (rt_grow(&j->e, &j->cape, j->ne + 1, sizeof *j->e)) {
					j->err = -1;
					break;
				}
				j->e[j->ne++] = (struct rt_edge){ y, x, (float)d };
			}
			count[y] = 0;
		}
		for (; i < ntouched; i++)
			count[touched[i]] = 0;
	}
out:
	free(count);
	free(touched);
	rt_lev_free(lev);
	return NULL;
}

int
rt_join(const struct rt_cloud *c, int metric, int tau, unsigned threads,
    size_t maxedges, struct rt_edge **ep, size_t *mp, uint64_t *candidates)
{
	size_t w = (size_t)c->dim, n = c->nv, ntok = 0, i, k, p, m = 0;
	uint32_t *tok;
	size_t *off = NULL;
	struct post *post = NULL;
	struct job job[8];
	pthread_t th[8];
	struct rt_edge *e = NULL;
	int err = 0;

	*ep = NULL;
	*mp = 0;
	if (threads < 1)
		threads = 1;
	if (threads > 8)
		threads = 8;
	if (c->numeric || tau < 0 || w == 0 || w >= 1u << OCCBITS ||
	    (metric != RT_LEVENSHTEIN && metric != RT_HAMMING) || n >= UINT32_MAX)
		return RT_EUSAGE;
	if ((size_t)tau >= w)
		tau = (int)w;
	if ((tok = tokens(c, metric, &ntok)) == NULL)
		return RT_ENOMEM;
	p = (size_t)tau + 1 < w ? (size_t)tau + 1 : w;
	/* postings of every vertex's prefix, by token, vertices increasing */
	if ((off = calloc(ntok + 2, sizeof *off)) == NULL ||
	    (post = malloc((n * p + 1) * sizeof *post)) == NULL)
		goto nomem;
	for (i = 0; i < n; i++)
		for (k = 0; k < p; k++)
			off[tok[i * w + k] + 2]++;
	for (i = 0; i < ntok; i++)
		off[i + 2] += off[i + 1];
	for (i = 0; i < n; i++)
		for (k = 0; k < p; k++)
			post[off[tok[i * w + k] + 1]++] = (struct post){ (uint32_t)i, (uint32_t)k };
	memset(job, 0, sizeof job);
	for (i = 0; i < threads; i++) {
		job[i] = (struct job){ .c = c, .metric = metric, .tau = tau, .w = (int)w,
		    .tok = tok, .off = off, .post = post, .first = (uint32_t)i,
		    .step = threads, .maxedges = maxedges / threads + 1 };
		if (threads > 1 && pthread_create(&th[i], NULL, work, &job[i]))
			goto nomem;
	}
	if (threads == 1)
		work(&job[0]);
	else
		for (i = 0; i < threads; i++)
			pthread_join(th[i], NULL);
	*candidates = 0;
	for (i = 0; i < threads; i++) {
		m += job[i].ne;
		*candidates += job[i].candidates;
		if (job[i].err && !err)
			err = job[i].err;
	}
	if (!err && m > maxedges)
		err = -2;
	if (!err && (e = malloc((m + 1) * sizeof *e)) == NULL)
		err = -1;
	for (m = 0, i = 0; i < threads; i++) {
		if (!err && job[i].ne)
			memcpy(e + m, job[i].e, job[i].ne * sizeof *e);
		m += job[i].ne;
		free(job[i].e);
	}
	free(tok);
	free(off);
	free(post);
	if (err)
		return err == -1 ? RT_ENOMEM : RT_ELIMIT;
	*ep = e;
	*mp = m;
	return 0;
nomem:
	free(tok);
	free(off);
	free(post);
	return RT_ENOMEM;
}
