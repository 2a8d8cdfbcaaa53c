/* hist.c: sparse weighted histograms over 64-bit keys (distances, sizes). */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* Keys below DENSE live in a plain array, the rest in an open-addressed
 * map: small distances are the common case and a map would cost a cache
 * miss each.  The array grows (to the power of two above a key) only as
 * far as 8 entries a weight added so far: a few bins far apart, as in a
 * histogram read back, stay in the map, where one bin far out would take
 * an array up to it and a scan of all of it for each read (as fuzzing
 * found: a histogram of a few bytes costing hundreds of MB).  Every key
 * in the map is at or above
 * the array's end: those it grows over move into it. */
#define DENSE (1u << 24)

struct rt_hist {
	double *d;		/* keys below nd */
	size_t nd;
	uint64_t *key;
	double *w;
	unsigned char *used;
	size_t cap, n;
	uint64_t adds;		/* weights added */
};

struct rt_hist *
rt_hist_new(void)
{
	struct rt_hist *h = calloc(1, sizeof *h);

	if (h == NULL)
		return NULL;
	h->cap = 256;
	h->key = malloc(h->cap * sizeof *h->key);
	h->w = malloc(h->cap * sizeof *h->w);
	h->used = calloc(h->cap, 1);
	if (h->key == NULL || h->w == NULL || h->used == NULL) {
		rt_hist_free(h);
		return NULL;
	}
	return h;
}

void
rt_hist_free(struct rt_hist *h)
{
	if (h == NULL)
		return;
	free(h->d);
	free(h->key);
	free(h->w);
	free(h->used);
	free(h);
}

/* The map again with cap slots, its keys below the array's end moved
 * into the array. */
static int
rehash(struct rt_hist *h, size_t cap)
{
	struct rt_hist n = { 0 };
	size_t i, j;

	n.cap = cap;
	n.key = malloc(n.cap * sizeof *n.key);
	n.w = malloc(n.cap * sizeof *n.w);
	n.used = calloc(n.cap, 1);
	if (n.key == NULL || n.w == NULL || n.used == NULL) {
		free(n.key);
		free(n.w);
		free(n.used);
		return -1;
	}
	for (i = 0; i < h->cap; i++) {
		if (!h->used[i])
			continue;
		if (h->key[i] < h->nd) {
			h->d[h->key[i]] += h->w[i];
			continue;
		}
		j = rt_hash64(h->key[i]) & (n.cap - 1);
		while (n.used[j])
			j = (j + 1) & (n.cap - 1);
		n.used[j] = 1;
		n.key[j] = h->key[i];
		n.w[j] = h->w[i];
		n.n++;
	}
	free(h->key);
	free(h->w);
	free(h->used);
	h->key = n.key;
	h->w = n.w;
	h->used = n.used;
	h->cap = n.cap;
	h->n = n.n;
	return 0;
}

int
rt_hist_add(struct rt_hist *h, uint64_t key, double w)
{
	size_t j;

	h->adds++;
	if (key < h->nd) {
		h->d[key] += w;
		return 0;
	}
	if (key < DENSE) {
		size_t n = h->nd ? h->nd : 4096;
		double *d;

		while (n <= key)
			n *= 2;
		if (n / 8 <= h->adds + 512) {
			/* counts at random distances: huge pages, as the
			 * engine's tables, past 2 MB */
			if ((d = rt_bigalloc(n * sizeof *d)) == NULL)
				return RT_ENOMEM;
			if (h->nd)
				memcpy(d, h->d, h->nd * sizeof *d);
			free(h->d);
			memset(d + h->nd, 0, (n - h->nd) * sizeof *d);
			h->d = d;
			j = h->nd;
			h->nd = n;	/* the map's keys it grows over move */
			if (h->n > 0 && rehash(h, h->cap)) {
				h->nd = j;	/* (the longer array is harmless) */
				return RT_ENOMEM;
			}
			h->d[key] += w;
			return 0;
		}
	}

	if ((h->n + 1) * 2 > h->cap && rehash(h, 2 * h->cap))
		return RT_ENOMEM;
	j = rt_hash64(key) & (h->cap - 1);
	while (h->used[j] && h->key[j] != key)
		j = (j + 1) & (h->cap - 1);
	if (!h->used[j]) {
		h->used[j] = 1;
		h->key[j] = key;
		h->w[j] = 0;
		h->n++;
	}
	h->w[j] += w;
	return 0;
}

void
rt_hist_prefetch(const struct rt_hist *h, uint64_t key)
{
	if (key < h->nd)
		__builtin_prefetch(&h->d[key], 1);
}

void
rt_hist_scale(struct rt_hist *h, double f)
{
	size_t i;

	for (i = 0; i < h->nd; i++)
		h->d[i] *= f;
	for (i = 0; i < h->cap; i++)
		if (h->used[i])
			h->w[i] *= f;
}

size_t
rt_hist_memory(const struct rt_hist *h)
{
	return sizeof *h + h->nd * sizeof *h->d +
	    h->cap * (sizeof *h->key + sizeof *h->w + sizeof *h->used);
}

static int
bykey(const void *a, const void *b)
{
	const struct rt_bin *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The bins in key order; the caller frees the array. */
struct rt_bin *
rt_hist_sorted(const struct rt_hist *h, size_t *n)
{
	struct rt_bin *v;
	size_t i, k = 0, nz = 0;

	for (i = 0; i < h->nd; i++)
		nz += h->d[i] != 0;
	if ((v = malloc((h->n + nz + 1) * sizeof *v)) == NULL)
		return NULL;
	for (i = 0; i < h->nd; i++)
		if (h->d[i] != 0) {
			v[k].key = i;
			v[k++].w = h->d[i];
		}
	for (i = 0; i < h->cap; i++)
		if (h->used[i] && (h->w[i] != 0 || h->key[i] >= DENSE)) {
			/* (a 0 below DENSE was not a bin when it was in the array) */
			v[k].key = h->key[i];
			v[k++].w = h->w[i];
		}
	qsort(v + nz, k - nz, sizeof *v, bykey);	/* the dense part is in order */
	*n = k;
	return v;
}
