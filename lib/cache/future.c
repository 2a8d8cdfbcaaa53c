/* future.c: OPT and PES need the future.  A pass through the levels
 * above an OPT level records what arrives there; rt_future turns that
 * into each arrival's next use.  Standard input is read twice through a
 * temporary file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ens.h"

static int rt_future(uint64_t *v, size_t n);

struct pass {
	struct rt_hier *pre;		/* the levels above, and the one foreseen */
	uint64_t *arr;			/* the blocks arriving there, in order */
	size_t n, cap;
	int nomem;
	struct rt_writer *spool;
};

int
rt_ens_needs_future(const struct rt_ens *e)
{
	const struct rt_cache_cfg *c;
	int i, k;

	for (i = 0; i < e->nh; i++)
		for (k = -1; k < rt_hier_levels(e->h[i]); k++)
			if (rt_hier_stats(e->h[i], k, &c) && c != NULL && c->policy >= RT_OPT)
				return 1;
	return 0;
}

static void
arrived(void *ctx, uint64_t block)
{
	struct pass *p = ctx;
	uint64_t *v;

	if (p->n == p->cap) {
		if (p->nomem || (v = realloc(p->arr, (p->cap ? p->cap * 2 : 1 << 16) *
		    sizeof *v)) == NULL) {
			p->nomem = 1;
			return;
		}
		p->arr = v;
		p->cap = p->cap ? p->cap * 2 : 1 << 16;
	}
	p->arr[p->n++] = block;
}

static int
prepass(void *ctx, struct rt_rec *rec)
{
	struct pass *p = ctx;
	struct rt_span s;

	if (rec->kind != RT_ACCESS) {
		rt_hier_event(p->pre, rec);	/* its write-backs arrive below */
		return p->nomem ? -1 : 0;
	}
	for (rt_span_start(&s, rec->addr, rt_last(rec), rt_hier_block(p->pre, rec->op));
	    rt_span_next(&s);)
		rt_hier_access(p->pre, s.addr, rec->op, (uint32_t)s.len);
	return p->nomem ? -1 : 0;
}

static int
spool(void *ctx, struct rt_rec *rec)
{
	struct pass *p = ctx;

	return rt_write(p->spool, rec) ? -1 : 0;
}

/* Standard input to a temporary file, in the binary format. */
static int
tospool(char **files, int nfiles, int fmt, int skipbad, rt_diag_fn *diag, char *tmp,
    size_t tmplen, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	struct pass p = { 0 };
	int st;

	/* made as a spool: removed if the program is interrupted */
	snprintf(tmp, tmplen, "%s/cachesimXXXXXX", dir && *dir ? dir : "/tmp");
	if (rt_ofile_spool(tmp) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		*tmp = '\0';
		return RT_EIO;
	}
	if ((p.spool = rt_wopen(tmp, RT_FMT_BINARY2, 0)) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return RT_EIO;
	}
	st = rt_foreach(files, nfiles, fmt, skipbad, spool, &p, diag);
	if (st < 0) {
		snprintf(err, errlen, "spooling standard input: %s", strerror(errno));
		rt_wclose(p.spool);
		return RT_EIO;
	}
	if (rt_wclose(p.spool)) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return RT_EIO;
	}
	return st;
}

int
rt_ens_foresee(struct rt_ens *e, char **files, int nfiles, int fmt, int skipbad,
    rt_diag_fn *diag, char *tmp, size_t tmplen, char *err, size_t errlen)
{
	char *one[1] = { tmp };
	const struct rt_cache_cfg *c;
	struct pass p = { 0 };
	int i, k, j, h, st = 0, spooled = nfiles == 0;

	*tmp = '\0';
	for (i = 0; i < nfiles; i++)
		spooled |= strcmp(files[i], "-") == 0;
	if (spooled) {
		if ((st = tospool(files, nfiles, fmt, skipbad, diag, tmp, tmplen, err, errlen)) < 0)
			return st;
		files = one;
		nfiles = 1;
		fmt = RT_FMT_BINARY;
	}
	/* Top down: what reaches level k is decided by the levels above it
	 * (their own OPT futures already known), never by k or below. */
	for (k = e->hasi ? -1 : 0; k < e->depth; k++) {
		for (h = 0, j = 0; h < e->nh; h++) {
			rt_hier_stats(e->h[h], k, &c);
			if (c != NULL && c->policy >= RT_OPT) {
				if (c->block != (k < 0 ? e->icache.block : e->lv[k].block)) {
					snprintf(err, errlen, "OPT and PES in an ensemble need one first-level block size");
					return RT_EUSAGE;
				}
				j = 1;
			}
		}
		if (!j)
			continue;
		if ((p.pre = rt_hier_new(e->lv, k < 0 ? 1 : k + 1, e->hasi ? &e->icache : NULL,
		    e->incl, e->seed)) == NULL) {
			snprintf(err, errlen, "cannot allocate the caches");
			return RT_ENOMEM;
		}
		for (j = e->hasi ? -1 : 0; j < k; j++)
			if (e->fut[j + 1] != NULL)
				rt_hier_future(p.pre, j, e->fut[j + 1], e->nfut[j + 1]);
		p.n = 0;
		rt_hier_arrivals(p.pre, k, arrived, &p);
		i = rt_foreach(files, nfiles, fmt, skipbad, prepass, &p, diag);
		rt_hier_free(p.pre);
		if (p.nomem || (p.n && rt_future(p.arr, p.n))) {
			snprintf(err, errlen, "OPT/PES: no memory for %zu accesses", p.n);
			free(p.arr);
			return RT_ENOMEM;
		}
		if (i)
			st = 1;
		e->fut[k + 1] = p.arr;
		e->nfut[k + 1] = p.n;
		p.arr = NULL;
		p.cap = 0;
		for (h = 0; h < e->nh; h++)
			rt_hier_future(e->h[h], k, e->fut[k + 1], e->nfut[k + 1]);
	}
	return st;
}

/* Turn a sequence of block numbers into, at each position, the position
 * of the same block's next appearance (UINT64_MAX: none), scanning back. */
static int
rt_future(uint64_t *v, size_t n)
{
	size_t cap = 1024, i, j;
	uint64_t *key, *at, b;

	while (cap < 2 * n + 2)
		cap *= 2;
	if ((key = malloc(cap * sizeof *key)) == NULL || (at = malloc(cap * sizeof *at)) == NULL) {
		free(key);
		return -1;
	}
	memset(at, 0xff, cap * sizeof *at);	/* at: UINT64_MAX = empty */
	for (i = n; i-- > 0;) {
		b = v[i];
		j = rt_hash64(b) & (cap - 1);
		while (at[j] != UINT64_MAX && key[j] != b)
			j = (j + 1) & (cap - 1);
		if (at[j] == UINT64_MAX) {
			key[j] = b;
			v[i] = UINT64_MAX;
		} else
			v[i] = at[j];
		at[j] = i;
	}
	free(key);
	free(at);
	return 0;
}
