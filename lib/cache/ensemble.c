/* ensemble.c: many cache configurations over one pass of the trace: -c
 * levels and presets, -E specs expanded, the LRU ones of a block size
 * simulated together (allassoc.c), the others' accesses batched or split
 * per block size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ens.h"

struct rt_ens *
rt_ens_new(void)
{
	struct rt_ens *e = calloc(1, sizeof *e);

	if (e != NULL)
		e->uniform = 1;
	return e;
}

void
rt_ens_free(struct rt_ens *e)
{
	int i;

	if (e == NULL)
		return;
	for (i = 0; i < e->nh; i++)
		rt_hier_free(e->h[i]);
	for (i = 0; i < e->naa; i++)
		rt_aa_free(e->aa[i]);
	for (i = 0; i < e->nh; i++)
		rt_pl_free(e->pl[i]);
	for (i = 0; i < e->nname; i++)
		free(e->name[i]);
	for (i = 0; i <= RT_MAXLEVEL; i++)
		free(e->fut[i]);
	rt_tlb_free(e);
	free(e);
}

/* -c: a level, or a preset of several. */
int
rt_ens_level(struct rt_ens *e, const char *spec, char *why, size_t whylen)
{
	static const struct { const char *name, *levels[3]; } presets[] = {
		/* the Core i7 of Choudhury's dissertation */
		{ "i7", { "32K:8:64:lru", "256K:8:64:lru", "8M:16:64:lru" } },
	};
	size_t p, i;

	for (p = 0; p < sizeof presets / sizeof presets[0]; p++)
		if (strcmp(spec, presets[p].name) == 0) {
			for (i = 0; i < 3 && presets[p].levels[i]; i++)
				if (rt_ens_level(e, presets[p].levels[i], why, whylen))
					return RT_EUSAGE;
			return 0;
		}
	if (e->nlv == RT_MAXLEVEL) {
		snprintf(why, whylen, "at most %d levels", RT_MAXLEVEL);
		return RT_EUSAGE;
	}
	if (rt_cache_parse(spec, &e->lv[e->nlv], why, whylen))
		return RT_EUSAGE;
	e->nlv++;
	return 0;
}

/* A size or an associativity: "lo..hi", lo and each power of two times
 * it up to hi; or a size.  A lone associativity ("8", "full") is left as
 * written: *lo 0. */
static int
range(const char *f, const char *what, uint64_t *lo, uint64_t *hi, char *why, size_t whylen)
{
	char buf[128];
	char *p;

	snprintf(buf, sizeof buf, "%s", f);
	*lo = *hi = 0;
	if ((p = strstr(buf, "..")) != NULL) {
		*p = '\0';
		if (rt_parse_size(buf, lo) || rt_parse_size(p + 2, hi) || *lo == 0 || *hi < *lo) {
			snprintf(why, whylen, "bad %s range %s..%s", what, buf, p + 2);
			return RT_EUSAGE;
		}
	} else if (strcmp(what, "size") == 0) {
		if (rt_parse_size(buf, lo) || *lo == 0) {	/* 0 doubles forever */
			snprintf(why, whylen, "bad %s %s", what, buf);
			return RT_EUSAGE;
		}
		*hi = *lo;
	}
	return 0;
}

/* Every combination of "1K..8M" sizes, "1..16" associativities and
 * "lru,fifo" policies, level by level ('/' parts them), appended to
 * prefix. */
int
rt_ens_names(char **names, int *nnames, const char *prefix, const char *rest, char *why,
    size_t whylen)
{
	char lvl[128], *f[6], *save = NULL, *p, buf[512], alt[128];
	char *pols[16], *psave = NULL;
	const char *slash;
	uint64_t lo, hi, sz, alo, ahi, a, blo, bhi, b;
	char as[32], bs[32];
	int n = 0, np = 0, i, rc;

	if (rest == NULL || *rest == '\0') {
		if (*nnames == MAXH) {
			snprintf(why, whylen, "at most %d configurations", MAXH);
			return RT_EUSAGE;
		}
		if ((names[*nnames] = strdup(prefix)) == NULL) {
			snprintf(why, whylen, "out of memory");
			return RT_ENOMEM;
		}
		(*nnames)++;
		return 0;
	}
	slash = strchr(rest, '/');
	snprintf(lvl, sizeof lvl, "%.*s", slash ? (int)(slash - rest) : (int)strlen(rest), rest);
	for (p = strtok_r(lvl, ":", &save); p && n < 6; p = strtok_r(NULL, ":", &save))
		f[n++] = p;
	if (n < 3) {
		snprintf(why, whylen, "%s: want SIZE:ASSOC:BLOCK[:POLICY...] per level", rest);
		return RT_EUSAGE;
	}
	if (range(f[0], "size", &lo, &hi, why, whylen) ||
	    range(f[1], "associativity", &alo, &ahi, why, whylen) ||
	    range(f[2], "block", &blo, &bhi, why, whylen))
		return RT_EUSAGE;
	if (n > 3)
		for (p = strtok_r(f[3], ",", &psave); p && np < 16; p = strtok_r(NULL, ",", &psave))
			pols[np++] = p;
	if (np == 0)
		pols[np++] = "lru";
	for (sz = lo; sz <= hi; sz *= 2)
		for (a = alo; a <= ahi; a = a ? 2 * a : 1)
			for (b = blo; b <= bhi; b = b ? 2 * b : 1)
				for (i = 0; i < np; i++) {
					snprintf(as, sizeof as, "%llu", (unsigned long long)a);
					snprintf(bs, sizeof bs, "%llu", (unsigned long long)b);
					snprintf(alt, sizeof alt, "%llu:%s:%s:%s%s%s%s%s",
					    (unsigned long long)sz, alo ? as : f[1], blo ? bs : f[2],
					    pols[i], n > 4 ? ":" : "", n > 4 ? f[4] : "",
					    n > 5 ? ":" : "", n > 5 ? f[5] : "");
					snprintf(buf, sizeof buf, "%s%s%s", prefix, *prefix ? "/" : "",
					    alt);
					if ((rc = rt_ens_names(names, nnames, buf, slash ? slash + 1 :
					    NULL, why, whylen)) != 0)
						return rc;
				}
	return 0;
}

int
rt_ens_expand(struct rt_ens *e, const char *spec, char *why, size_t whylen)
{
	if (*spec == '\0') {	/* not a configuration of no levels */
		snprintf(why, whylen, "want SIZE:ASSOC:BLOCK[:POLICY...] per level");
		return RT_EUSAGE;
	}
	return rt_ens_names(e->name, &e->nname, "", spec, why, whylen);
}

const struct rt_cache_cfg *
rt_ens_levels(const struct rt_ens *e, int *n)
{
	*n = e->nlv;
	return e->lv;
}

/* One configuration's levels: "size:assoc:block:policy/...", each read
 * by fn (rt_cache_parse, rt_tlb_parse). */
int
rt_ens_parse(const char *name, rt_level_parse_fn *fn, struct rt_cache_cfg *lv, int *nlv,
    char *why, size_t whylen)
{
	char spec[512], r[160], *p, *save = NULL;

	*nlv = 0;
	snprintf(spec, sizeof spec, "%s", name);
	for (p = strtok_r(spec, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (*nlv == RT_MAXLEVEL) {
			snprintf(why, whylen, "at most %d levels", RT_MAXLEVEL);
			return RT_EUSAGE;
		}
		if (fn(p, &lv[*nlv], r, sizeof r)) {
			snprintf(why, whylen, "%s: %s", p, r);
			return RT_EUSAGE;
		}
		if (lv[*nlv].policy >= RT_OPT && *nlv > 0) {
			snprintf(why, whylen, "OPT and PES are simulated at the first level only");
			return RT_EUSAGE;
		}
		(*nlv)++;
	}
	return 0;
}

/* Whether a batch is the one hierarchy's alone (rt_hier_run), the plain
 * path: one test a batch. */
static void
solo(struct rt_ens *e)
{
	e->solo = e->plain && e->naa == 0 && e->nown == 1 && e->nt == 0 && !e->cores;
}

/* The configurations that have a hierarchy of their own to simulate,
 * and whether they split accesses alike. */
static void
owners(struct rt_ens *e)
{
	int i;

	for (e->nown = 0, i = 0; i < e->nh; i++)
		if (e->grp[i] == 0)
			e->own[e->nown++] = i;
	if (e->nown == 0)
		return;
	e->bsi = rt_hier_block(e->h[e->own[0]], RT_IFETCH);
	e->bsd = rt_hier_block(e->h[e->own[0]], RT_READ);
	for (e->uniform = 1, i = 1; i < e->nown; i++)
		e->uniform &= rt_hier_block(e->h[e->own[i]], RT_IFETCH) == e->bsi &&
		    rt_hier_block(e->h[e->own[i]], RT_READ) == e->bsd;
}

/* The one-level configurations that rt_aa_fits, two or more of a block
 * size: one rt_aa each block size.  -1 out of memory. */
static int
group(struct rt_ens *e)
{
	const struct rt_cache_cfg *c[MAXH], *ci, *cj;
	int i, j, n;

	for (i = 0; i < e->nh && e->naa < MAXAA; i++) {
		if (e->grp[i] || rt_hier_levels(e->h[i]) != 1)
			continue;
		rt_hier_stats(e->h[i], 0, &ci);
		for (n = 0, j = i; j < e->nh; j++) {
			if (e->grp[j] || rt_hier_levels(e->h[j]) != 1)
				continue;
			rt_hier_stats(e->h[j], 0, &cj);
			if (rt_aa_fits(cj) && cj->block == ci->block) {
				c[n++] = cj;
				e->grp[j] = e->naa + 1;
			}
		}
		if (n < 2) {	/* alone it gains nothing */
			for (j = i; j < e->nh; j++)
				if (e->grp[j] == e->naa + 1)
					e->grp[j] = 0;
			continue;
		}
		if ((e->aa[e->naa] = rt_aa_new(c, n)) == NULL)
			return RT_ENOMEM;
		e->naa++;
	}
	for (i = 0; i < e->nh; i++) {
		rt_hier_stats(e->h[i], 0, &ci);
		if (e->grp[i] == 0 && rt_hier_levels(e->h[i]) == 1 && rt_pl_fits(ci) &&
		    (e->pl[i] = rt_pl_new(ci)) == NULL)
			return RT_ENOMEM;
	}
	return 0;
}

/* Configuration i's counts, where a table reads them. */
static void
counts(struct rt_ens *e, int i)
{
	const struct rt_cache_cfg *c;
	struct rt_cache_stats s;

	rt_hier_stats(e->h[i], 0, &c);
	if (e->grp[i])
		rt_aa_stats(e->aa[e->grp[i] - 1], c, &s);
	else
		rt_pl_stats(e->pl[i], &s);
	rt_hier_setstats(e->h[i], 0, &s);
}

/* An access within one block to configuration i. */
static void
access1(struct rt_ens *e, int i, uint64_t addr, int op, uint32_t bytes)
{
	if (e->pl[i] == NULL)
		rt_hier_access(e->h[i], addr, op, bytes);
	else if (!(op == RT_IFETCH && e->hasi))	/* the I-cache's */
		rt_pl_access(e->pl[i], addr, op);
}

/* An invalidation is no stack operation (it leaves an empty way in some
 * caches and not in others): each configuration of an rt_aa gets its
 * hierarchy filled with what it holds, least recent first, and its
 * counts, and is simulated on its own from then on. */
static void
ungroup(struct rt_ens *e)
{
	uint64_t b[RT_AA_MAXWAYS], set;
	const struct rt_cache_cfg *c;
	struct rt_aa *a;
	uint32_t n;
	int i;

	for (i = 0; i < e->nh; i++) {
		if (e->grp[i] == 0)
			continue;
		a = e->aa[e->grp[i] - 1];
		rt_hier_stats(e->h[i], 0, &c);
		for (set = 0; set < c->size / c->block / c->assoc; set++)
			for (n = rt_aa_set(a, c, set, b); n-- > 0;)
				rt_hier_access(e->h[i], b[n] * c->block, RT_READ, c->block);
		counts(e, i);
		e->grp[i] = 0;
	}
	for (i = 0; i < e->naa; i++)
		rt_aa_free(e->aa[i]);
	e->naa = 0;
	owners(e);
	solo(e);
}

int
rt_ens_build(struct rt_ens *e, const struct rt_cache_cfg *icache, int inclusion,
    uint64_t seed, int threec, int observed, char *why, size_t whylen)
{
	struct rt_cache_cfg other[RT_MAXLEVEL];
	const struct rt_cache_cfg *c;
	struct rt_hier *h;
	int k, j, nlv;

	e->hasi = icache != NULL;
	if (icache != NULL)
		e->icache = *icache;
	e->incl = inclusion;
	e->seed = seed;
	if (e->nname == 0) {
		if ((h = rt_hier_new(e->lv, e->nlv, icache, inclusion, seed)) == NULL ||
		    (threec && (k = rt_hier_3c(h, threec)) != 0)) {
			rt_hier_free(h);
			snprintf(why, whylen, h != NULL && k == RT_EUSAGE ? "Dinero IV's 3C keeps "
			    "the policy of a level in its reference cache: lru, fifo or random" :
			    "cannot allocate the caches");
			return h != NULL && k == RT_EUSAGE ? RT_EUSAGE : RT_ENOMEM;
		}
		e->h[e->nh++] = h;
		e->depth = e->nlv;
	}
	for (k = 0; k < e->nname; k++) {
		if (rt_ens_parse(e->name[k], rt_cache_parse, k == 0 ? e->lv : other, &nlv, why,
		    whylen))
			return RT_EUSAGE;
		if (k == 0)
			e->nlv = nlv;
		if ((h = rt_hier_new(k == 0 ? e->lv : other, nlv, icache, inclusion, seed)) == NULL) {
			snprintf(why, whylen, "cannot allocate the caches");
			return RT_ENOMEM;
		}
		e->h[e->nh++] = h;
		if (nlv > e->depth)
			e->depth = nlv;
	}
	e->plain = e->nh == 1 && !observed;
	e->batched = e->nh > 1 && !observed && !e->cores && !e->npf;	/* a prefetcher wants pcs */
	if (e->batched && group(e)) {
		snprintf(why, whylen, "cannot allocate the caches");
		return RT_ENOMEM;
	}
	owners(e);
	if (!e->uniform && observed) {
		snprintf(why, whylen, "comparing configurations, mapping events and OPT "
		    "need one first-level block size");
		return RT_EUSAGE;
	}
	for (k = 0; k < e->nh; k++)
		for (j = 1; j < rt_hier_levels(e->h[k]); j++) {
			rt_hier_stats(e->h[k], j, &c);
			/* Belady below the first level needs that level's own
			 * future: the levels above decide it, unless the lower
			 * levels reach back up (inclusion) or there are many
			 * configurations to foresee. */
			if (c->policy >= RT_OPT && (inclusion != RT_NINE || e->nh > 1)) {
				snprintf(why, whylen, "OPT and PES below the first level: one non-inclusive configuration only");
				return RT_EUSAGE;
			}
		}
	if ((k = rt_tlb_build(e, threec, why, whylen)) != 0 || (k = rt_ens_pfbuild(e, why, whylen)) != 0)
		return k;
	for (k = 0; k < e->nh && e->cores; k++)	/* each core's prefetchers made as the first's */
		if ((j = rt_hier_cores(e->h[k], e->cores, why, whylen)) != 0)
			return j;
	for (k = 0; k < e->nh; k++)
		if ((j = rt_sb_check(e->h[k], threec || observed || e->cores || e->nt || e->nh > 1, why,
		    whylen)) != 0)
			return j;
	solo(e);
	return 0;
}

void
rt_ens_cores(struct rt_ens *e, int n)
{
	e->cores = n;
}

int
rt_ens_count(const struct rt_ens *e)
{
	return e->nh ? e->nh : e->nname;
}

int
rt_ens_depth(const struct rt_ens *e)
{
	return e->depth;
}

struct rt_hier *
rt_ens_hier(const struct rt_ens *e, int i)
{
	return e->h[i];
}

const char *
rt_ens_name(const struct rt_ens *e, int i)
{
	return i < e->nname ? e->name[i] : NULL;
}

void
rt_ens_observe(struct rt_ens *e, rt_served_fn *fn, void *ctx)
{
	e->fn = fn;
	e->ctx = ctx;
}

/* Each configuration takes a batch in turn: 24 interleaved access by
 * access would evict each other from the machine's own caches. */
void
rt_ens_flush(struct rt_ens *e)
{
	struct rt_hier *h;
	int i, j;

	for (i = 0; i < e->nown; i++)
		if (e->pl[e->own[i]] != NULL)
			rt_pl_run(e->pl[e->own[i]], e->batch, e->nbatch, e->hasi);
		else
			for (h = e->h[e->own[i]], j = 0; j < e->nbatch; j++)
				rt_hier_access(h, e->batch[j].addr, e->batch[j].op,
				    e->batch[j].bytes);
	e->nbatch = 0;
	for (i = 0; i < e->nh; i++)
		if (e->grp[i] || e->pl[i] != NULL)
			counts(e, i);
}

void
rt_ens_event(struct rt_ens *e, const struct rt_rec *ev)
{
	int i;

	if (ev->kind != RT_FLUSH && ev->kind != RT_INVAL)
		return;
	rt_ens_flush(e);	/* the accesses before it first */
	if (ev->kind == RT_INVAL && e->naa)
		ungroup(e);
	/* a flush changes no configuration of an rt_aa: its blocks stay */
	for (i = 0; i < e->nown; i++)
		if (e->pl[e->own[i]] != NULL)
			rt_pl_event(e->pl[e->own[i]], ev);
		else
			rt_hier_event(e->h[e->own[i]], ev);
}

/* An access to the caches (the TLBs apart). */
static void
caches(struct rt_ens *e, const struct rt_rec *rec)
{
	uint64_t last = rt_last(rec), bs = rec->op == RT_IFETCH ? e->bsi : e->bsd;
	struct rt_span s;
	int i;

	if (e->naa && !(rec->op == RT_IFETCH && e->hasi))	/* fetches: the I-cache's */
		for (i = 0; i < e->naa; i++)
			rt_aa_access(e->aa[i], rec->addr, last, rec->op);
	if (e->nown == 0)
		return;
	for (i = 0; i < e->nown && e->npf; i++)	/* a stride prefetcher's */
		rt_hier_pc(e->h[e->own[i]], rec->pc);
	if (e->plain && ((rec->addr ^ last) & ~(bs - 1)) == 0) {
		/* one configuration, nothing per access, one block */
		rt_hier_access(e->h[0], rec->addr, rec->op, (uint32_t)(last - rec->addr + 1));
		return;
	}
	if (!e->uniform) {	/* an ensemble of block sizes: each splits its own way */
		for (i = 0; i < e->nown; i++)
			for (rt_span_start(&s, rec->addr, last,
			    rt_hier_block(e->h[e->own[i]], rec->op)); rt_span_next(&s);)
				access1(e, e->own[i], s.addr, rec->op, (uint32_t)s.len);
		return;
	}
	for (rt_span_start(&s, rec->addr, last, bs); rt_span_next(&s);) {
		if (e->batched) {
			if (e->nbatch == NBATCH)
				rt_ens_flush(e);
			e->batch[e->nbatch].addr = s.addr;
			e->batch[e->nbatch].op = rec->op;
			e->batch[e->nbatch++].bytes = (uint32_t)s.len;
			continue;
		}
		for (i = 0; i < e->nh; i++)
			e->served[i] = rt_hier_access(e->h[i], s.addr, rec->op, (uint32_t)s.len);
		if (e->fn != NULL)
			e->fn(e->ctx, rec, s.addr, e->served);
	}
}

/* With cores, the record's core in each configuration, then caches. */
static void
threads(struct rt_ens *e, const struct rt_rec *rec)
{
	int i;

	for (i = 0; i < e->nh; i++)
		rt_hier_thread(e->h[i], rec->tid);
	caches(e, rec);
}

void
rt_ens_access(struct rt_ens *e, const struct rt_rec *rec)
{
	if (e->cores)
		threads(e, rec);
	else
		caches(e, rec);
	if (e->nt)
		rt_tlb_run(e, rec, 1);
}

int
rt_ens_run(struct rt_ens *e, const struct rt_rec *v, int n)
{
	int i;

	if (e->solo)
		return (int)rt_hier_run(e->h[0], v, (size_t)n);
	if (e->cores)
		for (i = 0; i < n && v[i].kind == RT_ACCESS; i++)
			threads(e, &v[i]);
	else if (e->plain && e->naa == 0 && e->nown == 1)
		i = (int)rt_hier_run(e->h[0], v, (size_t)n);
	else
		for (i = 0; i < n && v[i].kind == RT_ACCESS; i++)
			caches(e, &v[i]);
	if (e->nt)	/* beside the caches, a batch at a time */
		rt_tlb_run(e, v, i);
	return i;
}

double
rt_amat(const struct rt_cache_stats *const *s, int n, const double *lat)
{
	double t, a, m;
	int k;

	t = lat[n];
	for (k = n - 1; k >= 0; k--) {
		a = (double)s[k]->acc[0] + (double)s[k]->acc[1] + (double)s[k]->acc[2];
		m = (double)s[k]->miss[0] + (double)s[k]->miss[1] + (double)s[k]->miss[2];
		t = lat[k] + (a ? m / a : 0) * t;
	}
	return t;
}

double
rt_hier_amat(const struct rt_hier *h, const double *lat)
{
	const struct rt_cache_stats *s[RT_MAXLEVEL];
	const struct rt_cache_cfg *c;
	int k, n = rt_hier_levels(h);

	for (k = 0; k < n; k++)
		s[k] = rt_hier_stats(h, k, &c);
	return rt_amat(s, n, lat);
}
