/* trace.h: a trace read as a harness reads it: every item kept with
 * what rt_readp said, every item and error checked against the
 * reader's contract (reftrace.h, reftrace(5)). */
#ifndef RT_FUZZ_TRACE_H
#define RT_FUZZ_TRACE_H

#include "fuzz.h"

#define FUZZ_NOOPEN (-3)	/* rt_ropen failed */

/* What one call said: 1 and the item, or an error and its reason with
 * the path taken off (so that two files' errors compare). */
struct fuzz_item {
	int rc;
	struct rt_rec rec;
	char why[160];
};

struct fuzz_trace {
	struct fuzz_item *v;
	size_t n, cap;
	int fmt;		/* the format read (detected for auto) */
	size_t nerr;
};

#define FUZZ_MAXITEMS (1u << 18)

static inline void
fuzz_item_put(struct fuzz_trace *t, int rc, const struct rt_rec *rec, const char *err,
    const char *path)
{
	struct fuzz_item *it;

	if (rt_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v))
		abort();
	it = &t->v[t->n++];
	memset(it, 0, sizeof *it);
	it->rc = rc;
	if (rc == 1) {
		it->rec = *rec;
		return;
	}
	fuzz_err(err, path);
	snprintf(it->why, sizeof it->why, "%s", err + strlen(path));
	t->nerr++;
}

/* What every item is: a known kind and op, interned ids, an access
 * that does not wrap past the top of the address space. */
static inline void
fuzz_check_rec(const struct rt_rec *p)
{
	fuzz_assert(p->kind <= RT_INVAL, "kind %d", p->kind);
	fuzz_assert(p->name < rt_str_count() && p->var < rt_str_count(),
	    "a string id that was not interned");
	fuzz_assert(p->loc < rt_loc_count(), "a location id that was not interned");
	if (p->kind == RT_FLUSH || p->kind == RT_INVAL)
		fuzz_assert(p->size <= RT_MAXSIZE && !rt_wraps(p->addr, p->size),
		    "a flush of %llu bytes at %#llx", (unsigned long long)p->size,
		    (unsigned long long)p->addr);
	if (p->kind != RT_ACCESS)
		return;
	fuzz_assert(p->op <= RT_IFETCH, "op %d", p->op);
	fuzz_assert(rt_last(p) >= p->addr, "an access that wraps: %#llx, %llu bytes",
	    (unsigned long long)p->addr, (unsigned long long)p->size);
}

/* Read the trace at path in format fmt to its end (its first
 * FUZZ_MAXITEMS items), bad items skipped, into t (zeroed before). */
static inline void
fuzz_read_trace(struct fuzz_trace *t, const char *path, int fmt, size_t maxbad)
{
	struct rt_reader *r;
	struct rt_rec *p;
	char err[1024];
	int k;

	memset(t, 0, sizeof *t);
	if ((r = rt_ropen(path, fmt, err, sizeof err)) == NULL) {
		fuzz_item_put(t, FUZZ_NOOPEN, NULL, err, path);
		t->fmt = -1;
		return;
	}
	t->fmt = rt_rformat(r);
	fuzz_assert(t->fmt > RT_FMT_AUTO && t->fmt < RT_FMT_BINARY2, "format %d", t->fmt);
	/* a few bytes can stand for millions of records (binary version 2
	 * codes a run of predicted records as a count, gzip inflates): the
	 * first FUZZ_MAXITEMS are kept and checked */
	while (t->n < FUZZ_MAXITEMS && (k = rt_readp(r, &p)) != 0) {
		fuzz_assert(k == 1 || k == RT_EBAD || k == RT_EIO, "rt_readp gave %d", k);
		if (k == 1)
			fuzz_check_rec(p);
		fuzz_item_put(t, k, p, rt_rerror(r), path);
		if (k == RT_EIO)
			break;
		/* a bad line is consumed: no more of them than lines */
		fuzz_assert(t->nerr <= maxbad, "%zu errors from so little input", t->nerr);
	}
	rt_rclose(r);
}

/* The fields a record of its kind carries (all: every field), equal. */
static inline int
fuzz_same_rec(const struct rt_rec *a, const struct rt_rec *b, int all)
{
	if (a->kind != b->kind || a->seq != b->seq)
		return 0;
	if (all || a->kind == RT_ACCESS)
		return a->op == b->op && a->addr == b->addr && a->size == b->size &&
		    a->tid == b->tid && a->pc == b->pc && a->loc == b->loc &&
		    a->var == b->var && (!all || (a->name == b->name && a->elem == b->elem));
	return a->name == b->name && (a->kind == RT_MARK || a->addr == b->addr) &&
	    (a->kind == RT_MARK || a->kind == RT_OBJECT || a->size == b->size) &&
	    (a->kind != RT_REGION || a->elem == b->elem);
}

/* The harness of a reader: the input read in format fmt.  A line with a
 * NUL byte is a malformed line in every text format (reftrace(5)). */
static inline void
fuzz_trace(const uint8_t *data, size_t size, int fmt)
{
	struct fuzz_trace t;
	fuzz_read_trace(&t, fuzz_file(0, data, size), fmt,
	    fuzz_gzipped(data, size) ? SIZE_MAX : size + 1);
	if (t.fmt != RT_FMT_BINARY && fuzz_nul(data, size))
		fuzz_assert(t.nerr > 0, "a NUL byte read as text without an error");
	free(t.v);
}

#endif
