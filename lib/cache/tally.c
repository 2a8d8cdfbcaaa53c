/* tally.c: per-key tables (cachesim -g, reusedist -g): the key of an
 * access (set, region, source line, function), its label, and rows by
 * key grown on demand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char *keynames[] = { "set", "region", "loc", "func" };

struct rt_tally {
	unsigned char *row;
	size_t size;
	uint64_t n;
	int known;		/* a row of a key other than 0, the unknown */
};

int
rt_key_parse(const char *name)
{
	int k;

	for (k = 0; k < 4; k++)
		if (strcmp(name, keynames[k]) == 0)
			return k;
	return -1;
}

const char *
rt_key_name(int key)
{
	return keynames[key];
}

uint64_t
rt_key_of(int key, const struct rt_rec *rec, uint64_t addr, const struct rt_regions *g,
    const struct rt_hier *h)
{
	switch (key) {
	case RT_KEY_SET: return rt_hier_set(h, addr, rec->op);
	case RT_KEY_REGION: return rec->var ? rec->var : rt_regions_find(g, addr);
	case RT_KEY_LOC: return rec->loc;
	default: return rt_loc_get(rec->loc)->func;
	}
}

const char *
rt_key_label(int key, uint64_t k, char *buf, size_t len)
{
	const struct rt_loc *l;

	if (key == RT_KEY_SET)
		snprintf(buf, len, "%llu", (unsigned long long)k);
	else if (k == 0)
		snprintf(buf, len, "-");
	else if (key != RT_KEY_LOC)
		snprintf(buf, len, "%s", rt_str((uint32_t)k));
	else if ((l = rt_loc_get((uint32_t)k))->file || l->line)
		snprintf(buf, len, "%s:%u", *rt_str(l->file) ? rt_str(l->file) : "?", l->line);
	else
		snprintf(buf, len, "%s", rt_str(l->func));
	return buf;
}

struct rt_tally *
rt_tally_new(size_t rowsize)
{
	struct rt_tally *t = calloc(1, sizeof *t);

	if (t != NULL)
		t->size = rowsize;
	return t;
}

void
rt_tally_free(struct rt_tally *t)
{
	if (t == NULL)
		return;
	free(t->row);
	free(t);
}

void *
rt_tally_row(struct rt_tally *t, uint64_t key)
{
	unsigned char *p;
	uint64_t n;

	if (key >= t->n) {
		for (n = t->n ? t->n : 64; n <= key; n *= 2)
			;
		if (key > (1u << 28) || (p = realloc(t->row, n * t->size)) == NULL)
			return NULL;
		memset(p + t->n * t->size, 0, (n - t->n) * t->size);
		t->row = p;
		t->n = n;
	}
	t->known |= key != 0;
	return t->row + key * t->size;
}

const char *
rt_key_missing(int key, const struct rt_tally *t)
{
	if (key == RT_KEY_SET || t->known || t->n == 0)
		return NULL;
	if (key == RT_KEY_REGION)
		return "no access is to a registered region: every row is '-'";
	return "no record has a source location: every row is '-' (trfilter -l adds "
	    "them, with -e the traced program)";
}

uint64_t
rt_tally_keys(const struct rt_tally *t)
{
	return t->n;
}

const void *
rt_tally_get(const struct rt_tally *t, uint64_t key)
{
	return t->row + key * t->size;
}

int
rt_tally_access(struct rt_tally *t, uint64_t key, int op, int served, int n)
{
	uint64_t *r = rt_tally_row(t, key);
	int k;

	if (r == NULL)
		return RT_ENOMEM;
	r[0] += op == RT_MODIFY ? 2 : 1;	/* a read and a write */
	for (k = 0; k < served && k < n; k++)
		r[1 + k]++;
	if (op == RT_IFETCH)
		r[n + 1]++;
	if (op != RT_IFETCH && op != RT_WRITE)
		r[n + 2]++;
	if (op == RT_WRITE || op == RT_MODIFY)
		r[n + 3]++;
	return 0;
}

/* The directory that the absolute paths of the files of a table's rows
 * share ("" if none), for labels relative to it. */
size_t
rt_tally_root(int key, const struct rt_tally *t, size_t rowsize, char *root, size_t len)
{
	const struct rt_loc *l;
	const unsigned char *row;
	const char *f;
	size_t n = 0, i, j;
	uint64_t k;
	int any = 0;

	*root = '\0';
	if (key != RT_KEY_LOC || len == 0)
		return 0;
	for (k = 1; k < t->n; k++) {
		row = t->row + k * t->size;
		for (j = 0; j < rowsize && row[j] == 0; j++)
			;
		if (j == rowsize || !(l = rt_loc_get((uint32_t)k))->file ||
		    *(f = rt_str(l->file)) != '/')
			continue;
		if (!any) {
			snprintf(root, len, "%s", f);
			n = strlen(root);
			any = 1;
		}
		for (i = 0; i < n && f[i] == root[i]; i++)
			;
		n = i;
	}
	while (n > 0 && root[n - 1] != '/')
		n--;
	root[n] = '\0';
	return n;
}
