/* hist.c: sparse weighted histograms over 64-bit keys (distances, sizes). */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

struct rt_hist {
	uint64_t *key;
	double *w;
	unsigned char *used;
	size_t cap, n;
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
	free(h->key);
	free(h->w);
	free(h->used);
	free(h);
}

static int
hgrow(struct rt_hist *h)
{
	struct rt_hist n = { 0 };
	size_t i, j;

	n.cap = h->cap * 2;
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
		j = rt_hash64(h->key[i]) & (n.cap - 1);
		while (n.used[j])
			j = (j + 1) & (n.cap - 1);
		n.used[j] = 1;
		n.key[j] = h->key[i];
		n.w[j] = h->w[i];
	}
	free(h->key);
	free(h->w);
	free(h->used);
	h->key = n.key;
	h->w = n.w;
	h->used = n.used;
	h->cap = n.cap;
	return 0;
}

int
rt_hist_add(struct rt_hist *h, uint64_t key, double w)
{
	size_t j;

	if ((h->n + 1) * 2 > h->cap && hgrow(h))
		return -1;
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
rt_hist_scale(struct rt_hist *h, double f)
{
	size_t i;

	for (i = 0; i < h->cap; i++)
		if (h->used[i])
			h->w[i] *= f;
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
	struct rt_bin *v = malloc((h->n + 1) * sizeof *v);
	size_t i, k = 0;

	if (v == NULL)
		return NULL;
	for (i = 0; i < h->cap; i++)
		if (h->used[i]) {
			v[k].key = h->key[i];
			v[k++].w = h->w[i];
		}
	qsort(v, k, sizeof *v, bykey);
	*n = k;
	return v;
}
