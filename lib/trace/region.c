/* region.c: registered regions (name, extent), the latest registration of
 * a name replacing earlier ones, from the moment it is registered. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

struct rt_regions {
	struct { uint32_t name; uint64_t lo, hi; } *v;
	size_t n, cap;
};

struct rt_regions *
rt_regions_new(void)
{
	return calloc(1, sizeof(struct rt_regions));
}

void
rt_regions_free(struct rt_regions *g)
{
	if (g != NULL)
		free(g->v);
	free(g);
}

int
rt_regions_add(struct rt_regions *g, const struct rt_rec *ev)
{
	size_t i;
	void *nv;

	for (i = 0; i < g->n; i++)
		if (g->v[i].name == ev->name)
			break;
	if (i == g->n) {
		if (g->n == g->cap) {
			g->cap = g->cap ? g->cap * 2 : 16;
			if ((nv = realloc(g->v, g->cap * sizeof *g->v)) == NULL)
				return RT_ENOMEM;
			g->v = nv;
		}
		g->n++;
	}
	g->v[i].name = ev->name;
	g->v[i].lo = ev->addr;
	g->v[i].hi = ev->addr + (ev->size ? ev->size - 1 : 0);
	return 0;
}

/* The name of a region that holds addr, the latest registered first. */
uint32_t
rt_regions_find(const struct rt_regions *g, uint64_t addr)
{
	size_t i;

	for (i = g->n; i-- > 0;)
		if (addr >= g->v[i].lo && addr <= g->v[i].hi)
			return g->v[i].name;
	return 0;
}

/* Does [lo, hi] overlap the region called name? */
int
rt_regions_overlap(const struct rt_regions *g, const char *name, uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (lo <= g->v[i].hi && hi >= g->v[i].lo &&
		    strcmp(rt_str(g->v[i].name), name) == 0)
			return 1;
	return 0;
}
