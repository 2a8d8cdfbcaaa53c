/* cats.c: what an access map is coloured by when not by op: regions,
 * source lines or functions.  Counted in the first pass; the most
 * frequent are named and coloured, the rest are one class, "other", so
 * that twenty colours and a legend say what every pixel is. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "map.h"

struct rt_mapcats {
	int key;			/* RT_KEY_REGION, RT_KEY_LOC, RT_KEY_FUNC */
	struct rt_tally *count;		/* per key id: a uint64_t, its accesses */
	uint32_t *cls;			/* per key id: its class (after choosing) */
	size_t cap;			/* key ids with a count and a class */
	size_t n;			/* classes named */
	uint64_t *ncls;			/* per class (and other, at n): accesses */
	size_t *rank;			/* per class: its rank by accesses, from 0 */
	char **name;			/* per class named */
	size_t nother;			/* keys in other */
};

struct rt_mapcats *
rt_mapcats_new(int key)
{
	struct rt_mapcats *c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	if ((c->count = rt_tally_new(sizeof(uint64_t))) == NULL) {
		free(c);
		return NULL;
	}
	c->key = key;
	return c;
}

void
rt_mapcats_free(struct rt_mapcats *c)
{
	size_t k;

	if (c == NULL)
		return;
	for (k = 0; k < c->n; k++)
		free(c->name[k]);
	free(c->name);
	rt_tally_free(c->count);
	free(c->cls);
	free(c->ncls);
	free(c->rank);
	free(c);
}

uint64_t
rt_mapcats_key(const struct rt_mapcats *c, const struct rt_rec *r, const struct rt_regions *g)
{
	return rt_key_of(c->key, r, r->addr, g, NULL);
}

int
rt_mapcats_add(struct rt_mapcats *c, uint64_t k)
{
	uint64_t *n = rt_tally_row(c->count, k);

	if (n == NULL)
		return RT_ENOMEM;
	(*n)++;
	return 0;
}

struct counted { uint64_t n; uint32_t id; };

static int
bycount(const void *a, const void *b)
{
	const struct counted *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The max - 1 most frequent keys named (all of them when they are max
 * or fewer), in the legend's order: by file and line, or by name. */
int
rt_mapcats_choose(struct rt_mapcats *c, size_t max)
{
	const uint64_t *count;
	struct counted *v;
	uint32_t *ids;
	const char **label = NULL;
	size_t i, k, nk = 0, *order = NULL;
	char buf[512];
	int e = RT_ENOMEM;

	if (max < 2)
		return RT_EUSAGE;
	c->cap = (size_t)rt_tally_keys(c->count);
	count = c->cap ? rt_tally_get(c->count, 0) : NULL;
	v = malloc((c->cap + 1) * sizeof *v);
	ids = malloc((c->cap + 1) * sizeof *ids);
	if (v == NULL || ids == NULL ||
	    (c->cls = malloc((c->cap + 1) * sizeof *c->cls)) == NULL)
		goto out;
	for (i = 0; i < c->cap; i++)
		if (count[i])
			v[nk++] = (struct counted){ count[i], (uint32_t)i };
	qsort(v, nk, sizeof *v, bycount);
	for (k = 0; k < nk; k++)
		ids[k] = v[k].id;
	c->n = nk <= max ? nk : max - 1;
	c->nother = nk - c->n;
	if ((label = calloc(c->n + 1, sizeof *label)) == NULL ||
	    (order = malloc((c->n + 1) * sizeof *order)) == NULL ||
	    (c->name = calloc(c->n + 1, sizeof *c->name)) == NULL ||
	    (c->ncls = calloc(c->n + 1, sizeof *c->ncls)) == NULL ||
	    (c->rank = calloc(c->n + 1, sizeof *c->rank)) == NULL)
		goto out;
	for (k = 0; k < c->n; k++)
		if (ids[k] == 0)
			label[k] = c->key == RT_KEY_REGION ? "(no region)" : "(unknown)";
		else if ((label[k] = strdup(rt_key_label(c->key, ids[k], buf, sizeof buf))) == NULL)
			goto out;
	if (rt_label_sort(label, c->n, order))
		goto out;
	for (i = 0; i < c->cap; i++)
		c->cls[i] = (uint32_t)c->n;
	for (k = 0; k < c->n; k++) {
		c->cls[ids[order[k]]] = (uint32_t)k;
		c->ncls[k] = count[ids[order[k]]];
		c->rank[k] = order[k];	/* ids are by accesses */
		if ((c->name[k] = strdup(rt_label_short(label, c->n, order[k]))) == NULL)
			goto out;
	}
	for (k = c->n; k < nk; k++)
		c->ncls[c->n] += count[ids[k]];
	e = 0;
out:
	for (k = 0; label != NULL && k < c->n; k++)
		if (ids[k] != 0)
			free((char *)label[k]);
	free(label);
	free(order);
	free(ids);
	free(v);
	return e;
}

/* A key's class: 0 to n - 1 named, n other (and a key the first pass
 * did not see). */
uint32_t
rt_mapcats_class(const struct rt_mapcats *c, uint64_t k)
{
	return k < c->cap ? c->cls[k] : (uint32_t)c->n;
}

size_t
rt_mapcats_count(const struct rt_mapcats *c, size_t *nother)
{
	if (nother != NULL)
		*nother = c->nother;
	return c->n;
}

const char *
rt_mapcats_name(const struct rt_mapcats *c, size_t k)
{
	return k < c->n ? c->name[k] : "other";
}

/* The rank of class k by accesses (other: n), for colours that go to
 * the classes that fill the picture first. */
size_t
rt_mapcats_rank(const struct rt_mapcats *c, size_t k)
{
	return k < c->n ? c->rank[k] : c->n;
}

uint64_t
rt_mapcats_accesses(const struct rt_mapcats *c, size_t k)
{
	return k <= c->n ? c->ncls[k] : 0;
}

int
rt_mapcats_keykind(const struct rt_mapcats *c)
{
	return c->key;
}
