/* table.h: a cache table written and read back is the table it was
 * (cachetab and cachespec). */
#ifndef RT_FUZZ_TABLE_H
#define RT_FUZZ_TABLE_H

#include "fuzz.h"
#include "cache.h"

static inline int
fuzz_same_cfg(const struct rt_cache_cfg *a, const struct rt_cache_cfg *b)
{
	return a->size == b->size && a->assoc == b->assoc && a->block == b->block &&
	    a->policy == b->policy && a->wt == b->wt && a->nwa == b->nwa;
}

static inline void
fuzz_table_again(const struct rt_cache_table *t)
{
	struct rt_cache_table u;
	struct rt_reader *r;
	char err[512];
	FILE *f;
	int i;

	if ((f = fopen(fuzz_path(1), "w")) == NULL)
		abort();
	fuzz_assert(rt_cachetab_write(f, t) == 0, "the table not written");
	if (fclose(f))
		abort();
	r = rt_lopen(fuzz_path(1), err, sizeof err);
	fuzz_assert(r != NULL, "%s", err);
	fuzz_assert(rt_cachetab_read(r, &u, err, sizeof err) == 0, "written, read back: %s", err);
	rt_rclose(r);
	fuzz_assert(t->n == u.n && t->threec == u.threec, "%d rows read back of %d", u.n, t->n);
	for (i = 0; i < t->n; i++)
		fuzz_assert(strcmp(t->row[i].name, u.row[i].name) == 0 &&
		    t->row[i].hascfg == u.row[i].hascfg && t->row[i].tlb == u.row[i].tlb &&
		    memcmp(&t->row[i].s, &u.row[i].s, sizeof t->row[i].s) == 0 &&
		    (!t->row[i].hascfg || fuzz_same_cfg(&t->row[i].cfg, &u.row[i].cfg)),
		    "row %d (%s) read back otherwise", i, t->row[i].name);
}

#endif
