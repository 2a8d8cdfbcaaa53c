/* tlb.c: TLBs beside the data caches.  A TLB level is a cache of page
 * numbers (hier.c's levels and policies, a block a page) looked up by
 * every access in parallel with the first level: its misses change
 * nothing the caches see.  Several configurations (ranges of entries and
 * ways, lists of policies) run over one pass, a batch at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hier.h"

/* As drcachesim's: non-inclusive, a miss filled at every level; a
 * lookup, not data: a write dirties no entry, so nothing is written back
 * and no bytes move. */
static struct rt_hier *
tlbnew(const struct rt_cache_cfg *levels, int n, const struct rt_cache_cfg *itlb,
    uint64_t seed)
{
	struct rt_hier *h = rt_hier_new(levels, n, itlb, RT_NINE, seed);
	int k;

	for (k = 0; h != NULL && k < n; k++)
		h->lv[k].tlb = 1;
	if (h != NULL && h->i1 != NULL)
		h->i1->tlb = 1;
	return h;
}

/* A level below the others (each of its configurations read now, so
 * that a bad one is said with its level), or the split instruction TLB. */
int
rt_ens_tlb(struct rt_ens *e, const char *spec, int itlb, char *why, size_t whylen)
{
	struct rt_cache_cfg c;
	char *names[MAXH];
	const char *p, *q;
	size_t len = strlen(e->tlbspec);
	int i, n = 0, rc;

	if (itlb) {
		if (rt_tlb_parse(spec, &e->itlb, why, whylen))
			return RT_EUSAGE;
		e->hasitlb = 1;
		return 0;
	}
	for (p = spec;; p = q + 1) {	/* each level, three fields or more */
		for (q = p, i = 1; *q != '\0' && *q != '/'; q++)
			i += *q == ':';
		if (i < 3) {
			snprintf(why, whylen, "want ENTRIES:ASSOC:PAGE[:POLICY]");
			return RT_EUSAGE;
		}
		if (*q == '\0')
			break;
	}
	rc = rt_ens_names(names, &n, "", spec, why, whylen);
	for (i = 0; i < n; i++) {
		if (rc == 0 && rt_tlb_parse(names[i], &c, why, whylen))
			rc = RT_EUSAGE;
		free(names[i]);
	}
	if (rc == 0 && len + strlen(spec) + 2 > sizeof e->tlbspec) {
		snprintf(why, whylen, "too many levels");
		rc = RT_EUSAGE;
	}
	if (rc == 0)
		snprintf(e->tlbspec + len, sizeof e->tlbspec - len, "%s%s", len ? "/" : "", spec);
	return rc;
}

int
rt_tlb_build(struct rt_ens *e, int threec, char *why, size_t whylen)
{
	struct rt_cache_cfg lv[RT_MAXLEVEL];
	int i, n, k;

	if (*e->tlbspec == '\0') {
		if (!e->hasitlb)
			return 0;
		snprintf(why, whylen, "an instruction TLB wants a TLB beside it");
		return RT_EUSAGE;
	}
	if ((k = rt_ens_names(e->tname, &e->ntname, "", e->tlbspec, why, whylen)) != 0)
		return k;
	for (i = 0; i < e->ntname; i++) {
		if (rt_ens_parse(e->tname[i], rt_tlb_parse, lv, &n, why, whylen))
			return RT_EUSAGE;
		if ((e->t[i] = tlbnew(lv, n, e->hasitlb ? &e->itlb : NULL, e->seed)) == NULL) {
			snprintf(why, whylen, "cannot allocate the TLBs");
			return RT_ENOMEM;
		}
		e->nt++;
		if (threec && (k = rt_hier_3c(e->t[i], threec)) != 0) {
			snprintf(why, whylen, k == RT_EUSAGE ? "Dinero IV's 3C keeps the policy "
			    "of a TLB in its reference cache: lru, fifo or random" :
			    "cannot allocate the TLBs");
			return k;
		}
		/* a TLB is each core's, every level (3C's reference caches too) */
		if (e->cores && rt_coh_new(e->t[i], e->cores, n)) {
			snprintf(why, whylen, "cannot allocate the TLBs of %d cores", e->cores);
			return RT_ENOMEM;
		}
	}
	return 0;
}

/* Accesses v[0..n), each configuration a batch in turn, split into pages
 * as a cache splits them into blocks: an access that spans two pages
 * looks both up. */
void
rt_tlb_run(struct rt_ens *e, const struct rt_rec *v, int n)
{
	int i;

	for (i = 0; i < e->nt; i++)
		rt_hier_run(e->t[i], v, (size_t)n);
}

void
rt_tlb_free(struct rt_ens *e)
{
	int i;

	for (i = 0; i < e->nt; i++)
		rt_hier_free(e->t[i]);
	for (i = 0; i < e->ntname; i++)
		free(e->tname[i]);
}

int
rt_ens_tlbs(const struct rt_ens *e)
{
	return e->nt;
}

struct rt_hier *
rt_ens_tlbh(const struct rt_ens *e, int i)
{
	return e->t[i];
}

const char *
rt_ens_tlbname(const struct rt_ens *e, int i)
{
	return e->tname[i];
}

/* Warm-up's end: the first configuration's counts and every TLB's. */
void
rt_ens_zero(struct rt_ens *e)
{
	int i;

	rt_hier_zero(e->h[0]);
	for (i = 0; i < e->nt; i++)
		rt_hier_zero(e->t[i]);
}
