/* idtab.c: a table of ids by key, open addressing with linear probing:
 * the caller keeps the keys (rows, streams), numbered from 1, and gives
 * their hashes; the table keeps only the ids. */
#include <stdint.h>
#include <stdlib.h>

#include "reftrace.h"

uint32_t
rt_idtab_find(const struct rt_idtab *t, uint64_t h, const void *key, rt_ideq_fn *eq,
    const void *ctx)
{
	size_t j;

	if (t->slot == NULL)
		return 0;
	for (j = (size_t)h & t->mask; t->slot[j]; j = (j + 1) & t->mask)
		if (eq(ctx, t->slot[j], key))
			return t->slot[j];
	return 0;
}

/* Doubled at half full, the ids put back by their hashes. */
int
rt_idtab_add(struct rt_idtab *t, uint64_t h, uint32_t id, rt_idhash_fn *hash, const void *ctx)
{
	uint32_t *old = t->slot;
	size_t i, j, cap;

	if (old == NULL || 2 * (t->n + 1) > t->mask + 1) {
		cap = old ? 2 * (t->mask + 1) : 64;
		if ((t->slot = calloc(cap, sizeof *t->slot)) == NULL) {
			t->slot = old;
			return RT_ENOMEM;
		}
		for (i = 0; old && i <= t->mask; i++)
			if (old[i]) {
				for (j = (size_t)hash(ctx, old[i]) & (cap - 1); t->slot[j];
				    j = (j + 1) & (cap - 1))
					;
				t->slot[j] = old[i];
			}
		free(old);
		t->mask = cap - 1;
	}
	for (j = (size_t)h & t->mask; t->slot[j]; j = (j + 1) & t->mask)
		;
	t->slot[j] = id;
	t->n++;
	return 0;
}

void
rt_idtab_free(struct rt_idtab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->mask = t->n = 0;
}
