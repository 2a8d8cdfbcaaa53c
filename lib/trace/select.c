/* select.c: the record predicate of trfilter's selections: built from
 * the options, tested on each record, told of the marks; afterwards it
 * says which selections matched nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

#define MAXSEL 64

struct range { uint64_t lo, hi; };

struct rt_sel {
	unsigned ops;			/* -t */
	struct range seq;		/* -n */
	struct range a[MAXSEL], p[MAXSEL];
	int na, np;
	const char *r[MAXSEL], *F[MAXSEL];
	int nr, nF;
	struct { const char *file, *lines; uint64_t lo, hi; } L[MAXSEL];	/* lines: as given */
	int nL;
	uint32_t T[MAXSEL];
	int nT;
	const char *mfrom, *mto;
	int others;			/* selections beyond -t and -n */
	int inmark;			/* between -m markers */
	char hitF[MAXSEL], hitL[MAXSEL], hitr[MAXSEL], hitm;	/* matched a record */
	const struct rt_regions *regs;
	rt_locate_fn *locate;
	void *ctx;
};

struct rt_sel *
rt_sel_new(const struct rt_regions *regs)
{
	struct rt_sel *s = calloc(1, sizeof *s);

	if (s != NULL) {
		s->ops = 0xf;
		s->seq.hi = UINT64_MAX;
		s->regs = regs;
	}
	return s;
}

void
rt_sel_free(struct rt_sel *s)
{
	free(s);
}

void
rt_sel_locate(struct rt_sel *s, rt_locate_fn *fn, void *ctx)
{
	s->locate = fn;
	s->ctx = ctx;
}

static int
full(int n, char *why, size_t whylen)
{
	if (n < MAXSEL)
		return 0;
	snprintf(why, whylen, "at most %d of a kind", MAXSEL);
	return RT_EUSAGE;
}

static int
bad(const char *reason, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s", reason);
	return RT_EUSAGE;
}

static int
addrange(struct range *r, int *n, const char *arg, char *why, size_t whylen)
{
	if (*n == MAXSEL)
		return full(*n, why, whylen);
	if (rt_parse_arange(arg, &r[*n].lo, &r[*n].hi))
		return bad("bad range (want lo-hi or lo+len)", why, whylen);
	(*n)++;
	return 0;
}

static int
addstr(const char **v, int *n, const char *arg, char *why, size_t whylen)
{
	if (*n == MAXSEL)
		return full(*n, why, whylen);
	v[(*n)++] = arg;
	return 0;
}

/* file[:lines]: the line range cut off arg */
static int
addloc(struct rt_sel *s, char *arg, char *why, size_t whylen)
{
	char *c = strrchr(arg, ':');

	if (s->nL == MAXSEL)
		return full(s->nL, why, whylen);
	s->L[s->nL].lo = 0;
	s->L[s->nL].hi = UINT64_MAX;
	s->L[s->nL].lines = NULL;
	if (c != NULL && c[1] >= '0' && c[1] <= '9') {
		if (rt_parse_range(c + 1, &s->L[s->nL].lo, &s->L[s->nL].hi))
			return bad("bad line range", why, whylen);
		*c = '\0';
		s->L[s->nL].lines = c + 1;
	}
	s->L[s->nL++].file = arg;
	return 0;
}

int
rt_sel_add(struct rt_sel *s, int kind, char *arg, char *why, size_t whylen)
{
	uint64_t v;
	char *c;

	if (kind != RT_SEL_OPS && kind != RT_SEL_SEQ)
		s->others = 1;
	switch (kind) {
	case RT_SEL_OPS:
		return rt_parse_ops(arg, &s->ops) ? bad("ops are R, W, M, I", why, whylen) : 0;
	case RT_SEL_SEQ:
		return rt_parse_range(arg, &s->seq.lo, &s->seq.hi) ? bad("bad range", why, whylen) : 0;
	case RT_SEL_ADDR:
		return addrange(s->a, &s->na, arg, why, whylen);
	case RT_SEL_PC:
		return addrange(s->p, &s->np, arg, why, whylen);
	case RT_SEL_REGION:
		return addstr(s->r, &s->nr, arg, why, whylen);
	case RT_SEL_FUNC:
		return addstr(s->F, &s->nF, arg, why, whylen);
	case RT_SEL_LINE:
		return addloc(s, arg, why, whylen);
	case RT_SEL_TID:
		if (s->nT == MAXSEL)
			return full(s->nT, why, whylen);
		if (rt_parse_u64(arg, &v) || v >= RT_NOTID)
			return bad("bad thread id", why, whylen);
		s->T[s->nT++] = (uint32_t)v;
		return 0;
	case RT_SEL_MARK:
		s->mfrom = arg;
		if ((c = strchr(arg, ',')) != NULL)
			*c++ = '\0';
		s->mto = c;
		return 0;
	}
	return full(MAXSEL, why, whylen);	/* not a selection */
}

int
rt_sel_locations(const struct rt_sel *s)
{
	return s->nF || s->nL;
}

void
rt_sel_event(struct rt_sel *s, const struct rt_rec *rec)
{
	const char *name;

	if (rec->kind != RT_MARK || s->mfrom == NULL)
		return;
	name = rt_str(rec->name);
	if (strcmp(name, s->mfrom) == 0)
		s->hitm = s->inmark = 1;
	else if (s->mto == NULL || strcmp(name, s->mto) == 0)
		s->inmark = 0;
}

/* "glStrcArray[0].var1" belongs to the region "glStrcArray". */
static int
varis(uint32_t var, const char *name)
{
	const char *v = rt_str(var);
	size_t n = strlen(name);

	return strncmp(v, name, n) == 0 && (v[n] == '\0' || v[n] == '[' || v[n] == '.');
}

/* A path matches a file named by its tail at a '/' boundary. */
static int
fileis(const char *path, const char *want)
{
	size_t n = strlen(path), m = strlen(want);

	if (m > n || strcmp(path + n - m, want) != 0)
		return 0;
	return m == n || path[n - m - 1] == '/' || want[0] == '/';
}

static int
funcis(const char *f, const char *want)
{
	size_t m = strlen(want);

	return strncmp(f, want, m) == 0 && (f[m] == '\0' || f[m] == '(');
}

int
rt_sel_test(struct rt_sel *s, struct rt_rec *rec)
{
	int i, ok;
	const struct rt_loc *l;
	uint64_t end = rec->addr + (rec->size ? rec->size - 1 : 0);

	if (!(s->ops >> rec->op & 1) || rec->seq < s->seq.lo || rec->seq > s->seq.hi)
		return 0;
	if (!s->others)	/* nothing but ops and seqs asked for */
		return 1;
	if (s->mfrom != NULL && !s->inmark)
		return 0;
	if (s->na) {
		for (ok = i = 0; i < s->na && !ok; i++)
			ok = rec->addr <= s->a[i].hi && end >= s->a[i].lo;
		if (!ok)
			return 0;
	}
	if (s->np) {
		for (ok = i = 0; i < s->np && !ok; i++)
			ok = rec->pc >= s->p[i].lo && rec->pc <= s->p[i].hi;
		if (!ok)
			return 0;
	}
	if (s->nT) {
		for (ok = i = 0; i < s->nT && !ok; i++)
			ok = rec->tid == s->T[i];
		if (!ok)
			return 0;
	}
	if (s->nr) {
		for (ok = i = 0; i < s->nr && !ok; i++) {
			ok = (rec->var && varis(rec->var, s->r[i])) ||
			    rt_regions_overlap(s->regs, s->r[i], rec->addr, end);
			s->hitr[i] |= ok;
		}
		if (!ok)
			return 0;
	}
	if (s->nF || s->nL) {
		if (rec->loc == 0 && s->locate != NULL)
			s->locate(s->ctx, rec);
		l = rt_loc_get(rec->loc);
		for (ok = !s->nF, i = 0; i < s->nF && !ok; i++)
			s->hitF[i] |= ok = funcis(rt_str(l->func), s->F[i]);
		if (!ok)
			return 0;
		for (ok = !s->nL, i = 0; i < s->nL && !ok; i++)
			s->hitL[i] |= ok = fileis(rt_str(l->file), s->L[i].file) &&
			    l->line >= s->L[i].lo && l->line <= s->L[i].hi;
		if (!ok)
			return 0;
	}
	return 1;
}

/* A selection that matched nothing is said so: a misspelt function, a
 * trace without locations or the wrong object would otherwise pass as an
 * empty answer. */
void
rt_sel_unmatched(const struct rt_sel *s, rt_sel_miss_fn *fn, void *ctx)
{
	char arg[4096];
	int i;

	if (s->mfrom != NULL && !s->hitm)
		fn(ctx, RT_SEL_MARK, s->mfrom, "no mark of that name in the trace");
	for (i = 0; i < s->nF; i++)
		if (!s->hitF[i])
			fn(ctx, RT_SEL_FUNC, s->F[i], "no record in a function of that name");
	for (i = 0; i < s->nL; i++)
		if (!s->hitL[i]) {
			snprintf(arg, sizeof arg, "%s%s%s", s->L[i].file, s->L[i].lines ? ":" : "",
			    s->L[i].lines ? s->L[i].lines : "");
			fn(ctx, RT_SEL_LINE, arg, s->L[i].lines ?
			    "no record of that file and those lines" : "no record of that file");
		}
	for (i = 0; i < s->nr; i++)
		if (!s->hitr[i])
			fn(ctx, RT_SEL_REGION, s->r[i], "no access to a region of that name");
}
