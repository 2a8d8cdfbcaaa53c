/* prefetch.c: what a level prefetches after a demand read or fetch:
 * Dinero IV's fetch policies (its ref.c, d4prefetch_*, without
 * sub-blocks; -Tpfabort as its d4ref draws), a stride prefetcher indexed by pc (Chen and Baer's
 * reference prediction table, IEEE TC 44(5), 1995) and a next-N-lines
 * stream prefetcher. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hier.h"

/* a stride table entry: the pc it is for, its last block, the stride
 * and a 2-bit confidence */
struct pfent { uint64_t pc, last; int64_t stride; int conf, used; };

struct rt_pf {
	struct rt_pf_cfg c;
	struct pfent *t;	/* stride: c.entries */
	int drawn;		/* abort: a miss's draw, made before it went below: 1 go, 2 abort */
};

#define PF_MAXN 64
#define PF_MAXENT 65536

static const char *const kinds[] = { "d", "a", "m", "t", "l", "s", "stride", "stream" };

int
rt_pf_parse(const char *spec, int *level, struct rt_pf_cfg *c, char *why, size_t whylen)
{
	char buf[64], *f[5], *p, *save = NULL, *end;
	unsigned long v;
	uint64_t w;
	int n = 0, i = 0, more;
	size_t j;

	memset(c, 0, sizeof *c);
	*level = 0;
	if (strlen(spec) >= sizeof buf) {
		snprintf(why, whylen, "too long");
		return RT_EUSAGE;
	}
	strcpy(buf, spec);
	for (p = strtok_r(buf, ":", &save); p && n < 5; p = strtok_r(NULL, ":", &save))
		f[n++] = p;
	more = p != NULL;
	if (n > 1 && strncasecmp(f[n - 1], "abort=", 6) == 0) {
		p = f[--n] + 6;
		v = strtoul(p, &end, 10);
		if (end == p || *end != '\0' || *p == '-' || v > 100) {
			snprintf(why, whylen, "bad abort '%s': a percentage, 0 to 100", p);
			return RT_EUSAGE;
		}
		c->abort = (int)v;
	}
	if (n > 0 && (strcasecmp(f[0], "i") == 0 || (f[0][0] >= '1' && f[0][0] <= '9'))) {
		v = strcasecmp(f[0], "i") == 0 ? 0 : strtoul(f[0], &end, 10);
		if (v == 0 ? strcasecmp(f[0], "i") != 0 : *end != '\0' || v > RT_MAXLEVEL) {
			snprintf(why, whylen, "bad level '%s': 1 to %d, or i", f[0], RT_MAXLEVEL);
			return RT_EUSAGE;
		}
		*level = (int)v - 1;
		i = 1;
	}
	for (j = 0; n > i && j < sizeof kinds / sizeof kinds[0]; j++)
		if (strcasecmp(f[i], kinds[j]) == 0)
			break;
	if (more || n <= i || j == sizeof kinds / sizeof kinds[0] || n > i + 3 ||
	    (n > i + 2 && j != RT_PF_STRIDE)) {
		snprintf(why, whylen, "want [LEVEL:]d|a|m|t|l|s[:DISTANCE][:abort=P], "
		    "[LEVEL:]stream[:DEGREE] or [LEVEL:]stride[:DEGREE[:ENTRIES]]");
		return RT_EUSAGE;
	}
	if (c->abort && (j == RT_PF_DEMAND || j >= RT_PF_STRIDE)) {
		snprintf(why, whylen, "abort is Dinero IV's, for a m t l s");
		return RT_EUSAGE;
	}
	c->kind = (int)j;
	c->n = 1;
	c->entries = 64;
	if (n > i + 1 && (rt_parse_size(f[i + 1], &w) || w == 0 || w > PF_MAXN)) {
		snprintf(why, whylen, "bad %s '%s': 1 to %d", j >= RT_PF_STRIDE ? "degree" :
		    "distance", f[i + 1], PF_MAXN);
		return RT_EUSAGE;
	} else if (n > i + 1)
		c->n = (uint32_t)w;
	if (n > i + 2 && (rt_parse_size(f[i + 2], &w) || w == 0 || w > PF_MAXENT || (w & (w - 1)))) {
		snprintf(why, whylen, "bad number of entries '%s': a power of two up to %d",
		    f[i + 2], PF_MAXENT);
		return RT_EUSAGE;
	} else if (n > i + 2)
		c->entries = (uint32_t)w;
	return 0;
}

/* Level l's prefetcher of c, its state new, and the level's twin that
 * never prefetches (tags only, its random draws seeded by seed): 0 or
 * RT_ENOMEM. */
static int
pfnew(struct level *l, const struct rt_pf_cfg *c, uint64_t seed)
{
	rt_pf_free(l->pf);
	free(l->pfb);
	l->pfb = NULL;
	if (l->nopf == NULL && (l->nopf = malloc(sizeof *l->nopf)) != NULL &&
	    rt_level_init(l->nopf, &l->c)) {
		rt_level_free(l->nopf);
		free(l->nopf);
		l->nopf = NULL;
	}
	if (l->nopf == NULL || (l->pf = calloc(1, sizeof *l->pf)) == NULL ||
	    (l->pfb = calloc((size_t)(l->nsets * l->ways), 1)) == NULL ||
	    (c->kind == RT_PF_STRIDE && (l->pf->t = calloc(c->entries, sizeof *l->pf->t)) == NULL))
		return RT_ENOMEM;
	l->pf->c = *c;
	rt_rng_seed(&l->nopfrng, seed);
	return 0;
}

int
rt_hier_prefetch(struct rt_hier *h, int k, const struct rt_pf_cfg *c, char *why, size_t whylen)
{
	struct level *l;

	if (k >= h->n || (k < 0 && h->i1 == NULL)) {
		snprintf(why, whylen, "no level %d to prefetch into", k + 1);
		return RT_EUSAGE;
	}
	l = rt_hier_lvl(h, k);
	if (l->c.policy == RT_OPT || l->c.policy == RT_PES || l->tlb) {
		snprintf(why, whylen, "a %s level does not prefetch", l->tlb ? "TLB" : "OPT or PES");
		return RT_EUSAGE;
	}
	if (h->sb != NULL && rt_sb_prefetch(h, k, c, why, whylen) != 0)
		return RT_EUSAGE;
	if ((c->kind == RT_PF_LOADFW || c->kind == RT_PF_SUBBLOCK) && c->n > 1 && h->sb == NULL) {
		snprintf(why, whylen, "%s: a distance of one block at most without sub-blocks",
		    kinds[c->kind]);
		return RT_EUSAGE;
	}
	if (c->kind == RT_PF_DEMAND)
		return 0;
	if (l->nopf == NULL && 2 * rt_cache_bytes(&l->c) + (double)(l->nsets * l->ways) >
	    rt_memory()) {	/* the level's tags again in its twin, a byte a way */
		snprintf(why, whylen, "a prefetching level of %llu bytes and its twin without "
		    "prefetches need %.1f GiB for their tags, more than the %.1f GiB of memory "
		    "here", (unsigned long long)l->c.size,
		    (2 * rt_cache_bytes(&l->c) + (double)(l->nsets * l->ways)) / 1073741824.0,
		    rt_memory() / 1073741824.0);
		return RT_EUSAGE;
	}
	if (pfnew(l, c, h->seed)) {
		snprintf(why, whylen, "out of memory");
		return RT_ENOMEM;
	}
	h->pfon = h->pfon == 2 || c->abort ? 2 : 1;
	return 0;
}

int
rt_pf_copy(struct level *l, const struct level *t)
{
	int k = pfnew(l, &t->pf->c, 0);

	l->nopfrng = t->nopfrng;
	return k;
}

/* The twin loses the blocks of ev's range (every block for size 0), as
 * the level does. */
void
rt_pf_inval(struct level *l, const struct rt_rec *ev)
{
	struct level *t = l->nopf;
	struct rt_span s;
	uint64_t i;

	if (ev->size == 0) {
		for (i = 0; i < t->nsets * t->ways; i++)
			rt_level_drop(t, i / t->ways, i);
		return;
	}
	for (rt_span_start(&s, ev->addr, rt_last(ev), l->c.block); rt_span_next(&s);)
		rt_pf_forget(l, s.block);
}

void
rt_pf_forget(struct level *l, uint64_t block)
{
	uint64_t set = rt_level_set(l->nopf, block);
	int64_t i = rt_level_lookup(l->nopf, block, set);

	if (i >= 0)
		rt_level_drop(l->nopf, set, (uint64_t)i);
}

int
rt_ens_prefetch(struct rt_ens *e, const char *spec, char *why, size_t whylen)
{
	if (e->npf == 2 * RT_MAXLEVEL) {
		snprintf(why, whylen, "more than %d prefetchers", 2 * RT_MAXLEVEL);
		return RT_EUSAGE;
	}
	if (rt_pf_parse(spec, &e->pflv[e->npf], &e->pf[e->npf], why, whylen))
		return RT_EUSAGE;
	e->npf++;
	return 0;
}

/* rt_ens_build's: the prefetchers put in every configuration */
int
rt_ens_pfbuild(struct rt_ens *e, char *why, size_t whylen)
{
	int i, j, k;

	for (j = 0; j < e->nh; j++)
		for (i = 0; i < e->npf; i++)
			if ((k = rt_hier_prefetch(e->h[j], e->pflv[i], &e->pf[i], why, whylen)) != 0)
				return k;
	return 0;
}

int
rt_hier_prefetching(const struct rt_hier *h)
{
	return !h->pfon ? 0 : (h->incl == RT_NINE ? 1 : 3) | (h->pfon == 2 ? 4 : 0);
}

int
rt_hier_pfat(const struct rt_hier *h, int k)
{
	const struct level *l = k < 0 ? h->i1 : k < h->n ? &h->lv[k] : NULL;

	return l != NULL && l->pf != NULL;
}

void
rt_hier_pc(struct rt_hier *h, uint64_t pc)
{
	h->pc = pc;
}

void
rt_pf_free(struct rt_pf *p)
{
	if (p != NULL)
		free(p->t);
	free(p);
}

/* block + d, if it is a block of the address space */
static void
ahead(struct rt_hier *h, int k, uint64_t block, int64_t d, int op)
{
	uint64_t b = block + (uint64_t)d;

	if (d > 0 ? b < block : b > block)
		return;
	if (b > UINT64_MAX >> rt_hier_lvl(h, k)->bshift)
		return;
	rt_hier_pfetch(h, k, b, op);
}

/* Train the pc's entry on block; its stride once confident (two
 * strides the same in a row raise the confidence, a different one
 * lowers it and replaces the stride at zero), else 0. */
static int64_t
stride(struct rt_pf *p, uint64_t pc, uint64_t block)
{
	struct pfent *e = &p->t[pc & (p->c.entries - 1)];
	int64_t d;

	if (!e->used || e->pc != pc) {
		*e = (struct pfent){ pc, block, 0, 0, 1 };
		return 0;
	}
	if ((d = (int64_t)(block - e->last)) == 0)
		return 0;
	if (d == e->stride)
		e->conf += e->conf < 3;
	else if (e->conf > 0)
		e->conf--;
	else
		e->stride = d;
	e->last = block;
	return e->conf >= 2 ? e->stride : 0;
}

/* Dinero IV's draw for abort (ref.c: its random() is a minstd generator
 * from 1, one for every cache and random replacement; random()/(INT_MAX/100)
 * < percent throws the prefetch away): 1 if it does, counted. */
static int
aborted(struct rt_hier *h, int k)
{
	struct level *l = rt_hier_lvl(h, k);

	if (!rt_pf_draw(&h->pfrnd, l->pf->c.abort))
		return 0;
	l->s.pf_aborted++;
	return 1;
}

int
rt_pf_draw(uint64_t *state, int percent)
{
	*state = *state * 48271 % 2147483647;
	return *state / (2147483647 / 100) < (uint64_t)percent;
}

/* Dinero draws before the miss goes below, and the levels below draw in
 * turn: this miss's draw is made then, its prefetch issued after the fill.
 * Every kind with abort prefetches on a miss but l, which never does. */
void
rt_pf_miss(struct rt_hier *h, int k)
{
	struct rt_pf *p = rt_hier_lvl(h, k)->pf;

	if (p->c.abort && p->c.kind != RT_PF_LOADFW)
		p->drawn = 1 + aborted(h, k);
}

/* A prefetch of Dinero's kinds, distance d, unless aborted */
static void
dinero(struct rt_hier *h, int k, uint64_t block, int64_t d, int op)
{
	struct rt_pf *p = rt_hier_lvl(h, k)->pf;
	int drawn = p->drawn;

	p->drawn = 0;
	if (p->c.abort && (drawn ? drawn == 2 : aborted(h, k)))
		return;
	ahead(h, k, block, d, op);
}

void
rt_pf_demand(struct rt_hier *h, int k, uint64_t block, int op, int miss, int first)
{
	struct rt_pf *p = rt_hier_lvl(h, k)->pf;
	int64_t d;
	uint32_t j;

	switch (p->c.kind) {
	case RT_PF_MISS:
		if (!miss)
			return;
		/* FALLTHROUGH */
	case RT_PF_ALWAYS:
		dinero(h, k, block, p->c.n, op);
		return;
	case RT_PF_TAGGED:
		if (first)
			dinero(h, k, block, p->c.n, op);
		return;
	case RT_PF_SUBBLOCK:	/* the distance wraps around within the block */
		dinero(h, k, block, 0, op);
		return;
	case RT_PF_STREAM:
		if (first)
			for (j = 1; j <= p->c.n; j++)
				ahead(h, k, block, (int64_t)j, op);
		return;
	case RT_PF_STRIDE:
		if ((d = stride(p, h->pc, block)) != 0 && d < INT64_MAX / PF_MAXN &&
		    d > -INT64_MAX / PF_MAXN)
			for (j = 1; j <= p->c.n; j++)
				ahead(h, k, block, d * (int64_t)j, op);
		return;
	}
}
