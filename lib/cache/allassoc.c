/* allassoc.c: every LRU cache of one block size in one pass.
 *
 * LRU is a stack algorithm: one stack per set, most recent first, holds
 * the contents of every associativity at once, a cache of A ways being
 * its top A (Mattson et al., IBM Systems Journal 9(2), 1970).  With
 * bit-selected sets a block's depth can only fall as the sets double (the
 * finer set's blocks are among the coarser one's; Hill and Smith, IEEE
 * Trans. Computers 38(12), 1989), so the set counts are searched coarsest
 * first, each search bounded by the depth found in the one before, and a
 * block found on top stops the walk: it is on top in every finer set too,
 * where the move to the front changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "ens.h"

struct aalevel {
	uint64_t mask;		/* sets - 1 */
	uint32_t ways;		/* the stack's depth: the most ways asked */
	uint64_t *tag;		/* per set, ways tags, most recent first */
	uint64_t *hist;		/* [kind][depth 1 .. ways]: ways is deeper */
};

struct rt_aa {
	uint32_t block;
	int bshift, n;
	struct aalevel lv[64];	/* by set count, fewest first */
	uint64_t acc[3];
};

int
rt_aa_fits(const struct rt_cache_cfg *c)
{
	uint64_t sets = c->size / c->block / c->assoc;

	return c->policy == RT_LRU && !c->nwa && (sets & (sets - 1)) == 0 &&
	    c->assoc <= RT_AA_MAXWAYS;
}

static struct aalevel *
level(const struct rt_aa *a, const struct rt_cache_cfg *c)
{
	uint64_t mask = c->size / c->block / c->assoc - 1;
	int i;

	for (i = 0; i < a->n; i++)
		if (a->lv[i].mask == mask)
			return (struct aalevel *)&a->lv[i];
	return NULL;
}

void
rt_aa_free(struct rt_aa *a)
{
	int i;

	if (a == NULL)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->lv[i].tag);
		free(a->lv[i].hist);
	}
	free(a);
}

/* The configurations (each rt_aa_fits, all of one block size): a stack
 * per set count, as deep as its most ways. */
struct rt_aa *
rt_aa_new(const struct rt_cache_cfg *const *c, int n)
{
	struct rt_aa *a = calloc(1, sizeof *a);
	struct aalevel *l, t;
	int i, j;

	if (a == NULL)
		return NULL;
	a->block = c[0]->block;
	a->bshift = __builtin_ctz(a->block);
	for (i = 0; i < n; i++) {
		if ((l = level(a, c[i])) == NULL) {
			l = &a->lv[a->n++];	/* at most 64 powers of two */
			l->mask = c[i]->size / c[i]->block / c[i]->assoc - 1;
		}
		if (c[i]->assoc > l->ways)
			l->ways = c[i]->assoc;
	}
	for (i = 1; i < a->n; i++)	/* fewest sets first */
		for (j = i; j > 0 && a->lv[j - 1].mask > a->lv[j].mask; j--) {
			t = a->lv[j];
			a->lv[j] = a->lv[j - 1];
			a->lv[j - 1] = t;
		}
	for (i = 0; i < a->n; i++) {
		l = &a->lv[i];
		l->tag = calloc((l->mask + 1) * l->ways, sizeof *l->tag);
		l->hist = calloc(3 * ((size_t)l->ways + 1), sizeof *l->hist);
		if (l->tag == NULL || l->hist == NULL) {
			rt_aa_free(a);
			return NULL;
		}
	}
	return a;
}

/* Where t is in s[1 .. n), or n: four ways at a time, without a branch
 * on each (a search's depth is as random as the trace, and a branch a way
 * mispredicted at the end of every search). */
static uint32_t
depth(const uint64_t *s, uint32_t n, uint64_t t)
{
	uint32_t p, m;

	for (p = 1; p + 4 <= n; p += 4) {
		m = (uint32_t)(s[p] == t) | (uint32_t)(s[p + 1] == t) << 1 |
		    (uint32_t)(s[p + 2] == t) << 2 | (uint32_t)(s[p + 3] == t) << 3;
		if (m)
			return p + (uint32_t)__builtin_ctz(m);
	}
	for (; p < n && s[p] != t; p++)
		;
	return p;
}

/* One block: to the front of its stack at every set count. */
static void
access1(struct rt_aa *a, uint64_t block, int kind)
{
	const uint64_t t = TAG(block);
	uint64_t *s;
	uint32_t bound = UINT32_MAX, p, w;
	struct aalevel *l, *end = a->lv + a->n;

	a->acc[kind]++;
	for (l = a->lv; l < end; l++) {
		w = l->ways;
		s = l->tag + (block & l->mask) * w;
		if (s[0] == t)
			return;
		/* it is there no deeper than before, if it was there */
		p = depth(s, bound < w ? bound + 1 : w, t);
		l->hist[kind * (w + 1) + p]++;
		bound = p < w ? p : UINT32_MAX;
		if (p == w)	/* not there: the least recent leaves */
			p--;
		memmove(s + 1, s, p * sizeof *s);
		s[0] = t;
	}
}

void
rt_aa_access(struct rt_aa *a, uint64_t addr, uint64_t last, int op)
{
	int kind = op == RT_WRITE ? 1 : op == RT_IFETCH ? 2 : 0;
	struct rt_span s;

	if (((addr ^ last) >> a->bshift) == 0) {	/* most do not cross a block */
		access1(a, addr >> a->bshift, kind);
		a->acc[1] += op == RT_MODIFY;	/* its write finds the block on top */
		return;
	}
	for (rt_span_start(&s, addr, last, a->block); rt_span_next(&s);) {
		access1(a, s.block, kind);
		a->acc[1] += op == RT_MODIFY;
	}
}

/* The accesses and misses of configuration c; the rest is not known. */
void
rt_aa_stats(const struct rt_aa *a, const struct rt_cache_cfg *c, struct rt_cache_stats *s)
{
	const struct aalevel *l = level(a, c);
	uint32_t d;
	int k;

	memset(s, 0, sizeof *s);
	for (k = 0; k < 3; k++) {
		s->acc[k] = a->acc[k];
		for (d = c->assoc; d <= l->ways; d++)
			s->miss[k] += l->hist[k * (l->ways + 1) + d];
	}
}

/* What configuration c holds in a set, most recent first; the count. */
uint32_t
rt_aa_set(const struct rt_aa *a, const struct rt_cache_cfg *c, uint64_t set, uint64_t *blocks)
{
	const struct aalevel *l = level(a, c);
	const uint64_t *s = l->tag + set * l->ways;
	uint32_t i;

	for (i = 0; i < c->assoc && s[i] != 0; i++)
		blocks[i] = TAG(s[i]);
	return i;
}
