/* period.c: the dominant period of a trace: how many records after an
 * instruction the same instruction most often comes again, over the first
 * records (without instruction addresses: the same op and address).  A
 * loop of p records makes p its period: each of its instructions comes
 * once an iteration. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

#define SLOTS 8192		/* the accesses remembered: a power of two */
#define MAXP 4096		/* the longest period looked for */

struct rt_period {
	uint64_t key[SLOTS], at[SLOTS];	/* access + 1, 0 empty; its last position */
	uint32_t count[MAXP + 1];
	uint64_t n, limit;
};

struct rt_period *
rt_period_new(uint64_t limit)
{
	struct rt_period *p = calloc(1, sizeof *p);

	if (p != NULL)
		p->limit = limit;
	return p;
}

void
rt_period_add(struct rt_period *p, const struct rt_rec *r)
{
	uint64_t key = (r->pc != RT_NOPC ? r->pc << 1 | 1 : r->addr << 3 | r->op << 1) + 1, d;
	size_t i;

	if (p->n >= p->limit)
		return;
	i = rt_hash64(key) & (SLOTS - 1);	/* a cache: a collision forgets */
	if (p->key[i] == key && (d = p->n - p->at[i]) >= 2 && d <= MAXP)
		p->count[d]++;
	p->key[i] = key;
	p->at[i] = p->n++;
}

/* The most frequent recurrence distance, the shortest of equals; 0 when
 * nothing recurred. */
uint64_t
rt_period_get(const struct rt_period *p)
{
	uint64_t best = 0, d;

	for (d = 2; d <= MAXP; d++)
		if (p->count[d] > p->count[best])
			best = d;
	return best;
}

void
rt_period_free(struct rt_period *p)
{
	free(p);
}
