/* expand.c: a loop model run back into its values. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopint.h"

#define NBUF 512	/* values handed over at a time */

struct rt_expander {
	rt_values_fn *fn;
	void *ctx;
	int rc;			/* what fn returned when not 0: stop; -1 an error */
	size_t n;
	uint64_t done;		/* values handed to fn */
	uint64_t seen, idle;	/* done + n when last looked; statements run since */
	char err[1024];
	uint64_t t[RT_LOOP_MAXDEPTH + 1];	/* the loop indices */
	uint64_t buf[NBUF];
};

struct rt_expander *
rt_expander_new(rt_values_fn *fn, void *ctx)
{
	struct rt_expander *x;

	if ((x = calloc(1, sizeof *x)) == NULL)
		return NULL;
	x->fn = fn;
	x->ctx = ctx;
	return x;
}

void
rt_expander_free(struct rt_expander *x)
{
	free(x);
}

int
rt_expand_flush(struct rt_expander *x)
{
	if (x->n && x->rc == 0)
		x->rc = x->fn(x->ctx, x->buf, x->n);
	x->done += x->n;
	x->n = 0;
	return x->rc;
}

const char *
rt_expand_error(const struct rt_expander *x)
{
	return x->err;
}

/* A monomial: coef times the indices of mask's bits. */
static inline uint64_t
mono(uint64_t v, uint32_t m, const uint64_t *t)
{
	for (; m != 0; m &= m - 1)
		v *= t[__builtin_ctz(m)];
	return v;
}

/* An iteration of loop p is about to run: count the statements run since
 * the last value, and stop the expander past the limit.  Loops whose
 * inner loops run 0 times emit nothing however long they run. */
static int
idle(struct rt_expander *x, const struct rt_stmt *p)
{
	uint64_t v = x->done + x->n;

	if (v != x->seen) {
		x->seen = v;
		x->idle = 0;
	}
	x->idle += 1 + p->nbody;
	if (x->idle <= RT_LOOP_MAXIDLE)
		return 0;
	snprintf(x->err, sizeof x->err, "%s:%" PRIu64 ": the loop here runs %d statements "
	    "without a value", p->path, p->line, RT_LOOP_MAXIDLE);
	x->rc = RT_EBAD;
	return 1;
}

static inline void
out(struct rt_expander *x, uint64_t v)
{
	if (x->n == NBUF)
		rt_expand_flush(x);
	x->buf[x->n++] = v;
}

uint64_t
rt_stmt_eval(const struct rt_stmt *p, const uint64_t *t)
{
	uint64_t s = 0;
	size_t j;

	for (j = 0; j < p->npoly; j++)
		s += mono(p->poly[j].coef, p->poly[j].mask, t);
	return s;
}

/* base, base + step, ... n values */
static void
arith(struct rt_expander *x, uint64_t base, uint64_t step, uint64_t n)
{
	uint64_t *o;
	size_t k, m;

	while (n > 0 && x->rc == 0) {
		if (x->n == NBUF)
			rt_expand_flush(x);
		m = NBUF - x->n;
		if (m > n)
			m = (size_t)n;
		for (o = x->buf + x->n, k = 0; k < m; k++, base += step)
			o[k] = base;
		x->n += m;
		n -= m;
	}
}

int
rt_stmt_allemits(const struct rt_stmt *p)
{
	size_t j;

	for (j = 0; j < p->nbody; j++)
		if (p->body[j]->kind != RT_STMT_EMIT)
			return 0;
	return p->nbody > 0;
}

void
rt_stmt_affine(struct rt_stmt *p, uint64_t *t)
{
	struct rt_stmt *e;
	size_t j, k;
	int b = p->depth - 1;

	for (j = 0; j < p->nbody; j++) {
		e = p->body[j];
		if (e->kind != RT_STMT_EMIT)
			continue;
		if (b < 0) {	/* a root: no index */
			e->base = rt_stmt_eval(e, t);
			e->step = 0;
			continue;
		}
		/* one pass: the monomials with t(depth) make the step, the
		 * others the base */
		e->base = e->step = 0;
		for (k = 0; k < e->npoly; k++)
			if (e->poly[k].mask >> b & 1)
				e->step += mono(e->poly[k].coef, e->poly[k].mask & ~(1u << b), t);
			else
				e->base += mono(e->poly[k].coef, e->poly[k].mask, t);
	}
	if (b >= 0)
		t[b] = 0;
}

/* n iterations of a body of k emits (k <= NBUF), as many at a time as
 * the buffer holds: the innermost loops, most of the values */
static void
bodies(struct rt_expander *x, struct rt_stmt **body, size_t k, uint64_t n)
{
	uint64_t i = 0, end, *o;
	size_t j;

	while (i < n && x->rc == 0) {
		if (x->n + k > NBUF)
			rt_expand_flush(x);
		end = i + (NBUF - x->n) / k;
		if (end > n)
			end = n;
		for (o = x->buf + x->n; i < end; i++, o += k)
			for (j = 0; j < k; j++)
				o[j] = body[j]->base + i * body[j]->step;
		x->n = (size_t)(o - x->buf);
	}
}

static void
run(struct rt_expander *x, struct rt_stmt *p)
{
	uint64_t n, i, *t = x->t;
	size_t j;
	struct rt_stmt *e;
	int b;

	switch (p->kind) {
	case RT_STMT_EMIT:
		out(x, rt_stmt_eval(p, t));
		return;
	case RT_STMT_VALUES:
		for (j = 0; j < p->nvals; j++)
			out(x, p->vals[j]);
		return;
	case RT_STMT_STREAM:
	case RT_STMT_FETCH:
	case RT_STMT_ORDER:	/* rt_expand_streams' */
		snprintf(x->err, sizeof x->err, "%s:%" PRIu64 ": a model of streams, "
		    "expanded whole", p->path, p->line);
		x->rc = RT_EBAD;
		return;
	}
	if (!p->live)
		return;
	n = rt_stmt_eval(p, t) + 1;
	b = p->depth - 1;
	rt_stmt_affine(p, t);
	if (p->nbody == 1 && p->body[0]->kind == RT_STMT_EMIT) {
		arith(x, p->body[0]->base, p->body[0]->step, n);
		return;
	}
	if (p->nbody <= NBUF && rt_stmt_allemits(p)) {
		bodies(x, p->body, p->nbody, n);
		return;
	}
	for (i = 0; i < n && x->rc == 0 && !idle(x, p); i++) {
		t[b] = i;
		for (j = 0; j < p->nbody; j++) {
			e = p->body[j];
			if (e->kind == RT_STMT_EMIT)
				out(x, e->base + i * e->step);
			else {
				run(x, e);
				if (x->rc)	/* nothing after an error */
					return;
			}
		}
	}
}

/* For the expander of streams: n values out; 0, or what fn returned. */
int
rt_expand_put(struct rt_expander *x, const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && x->rc == 0; i++)
		out(x, v[i]);
	return x->rc;
}

/* The error of a model of streams: RT_EBAD. */
int
rt_expand_fail(struct rt_expander *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, sizeof x->err, fmt, ap);
	va_end(ap);
	return RT_EBAD;
}

int
rt_expand_nomem(struct rt_expander *x)
{
	rt_expand_fail(x, "%s", strerror(ENOMEM));
	return RT_ENOMEM;
}

int
rt_expand(struct rt_expander *x, struct rt_stmt *s)
{
	int rc;

	if (x->rc == 0)
		run(x, s);
	if (x->rc < 0) {	/* the error is this statement's */
		rc = x->rc;
		x->rc = 0;
		x->idle = 0;
		return rc;
	}
	return x->rc;
}
