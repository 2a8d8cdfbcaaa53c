/* iter.c: a model of streams expanded: each stream's statements run as a
 * resumable iterator (its loop indices kept between calls), pulled a
 * buffer at a time in the order the order stream gives. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loopint.h"

/* Values pulled from a stream at a time: small, as a model may have a
 * stream for each of 10^5 instructions (about 1 KB each in all). */
#define NBUF 64

struct frame {
	struct rt_stmt *p;	/* a loop, or a values line */
	uint64_t i, n;		/* the iteration running, how many */
	size_t j;		/* the next statement (value) of the body */
};

struct iter {
	struct rt_stmt root;	/* a loop run once around the statements */
	struct frame f[RT_LOOP_MAXDEPTH + 2];
	int sp;			/* the frame running; -1: spent */
	int fail;		/* ran too long without a value */
	int order;		/* the order's, not a stream's */
	int jumps;		/* an order of jumps */
	int fetch;		/* a stream of fetches, so with no statements, its pc */
	uint64_t pc;
	uint64_t t[RT_LOOP_MAXDEPTH + 1];
	uint64_t idle;		/* statements run since the last value */
	const char *path;	/* the stream line's place */
	uint64_t line;
	uint64_t buf[NBUF];
	size_t bn, bi;		/* values in buf, taken */
};

static struct iter *
newiter(const struct rt_stmt *at)
{
	struct iter *it;

	if ((it = calloc(1, sizeof *it)) == NULL)
		return NULL;
	it->root.kind = RT_STMT_LOOP;
	it->root.live = 1;
	it->path = at->path;
	it->line = at->line;
	it->order = at->kind == RT_STMT_ORDER;
	it->jumps = at->jumps;
	it->fetch = at->fetch;
	it->pc = at->pc;
	it->sp = -1;
	return it;
}

static void
freeiter(struct iter *it)
{
	size_t j;

	if (it == NULL)
		return;
	for (j = 0; j < it->root.nbody; j++)
		rt_stmt_free(it->root.body[j]);
	free(it->root.body);
	free(it);
}

/* Enter loop p, n iterations. */
static void
enter(struct iter *it, struct rt_stmt *p, uint64_t n)
{
	struct frame *f = &it->f[++it->sp];

	f->p = p;
	f->i = 0;
	f->n = n;
	f->j = 0;
	rt_stmt_affine(p, it->t);
}

/* Up to NBUF values into it->buf: how many (0: spent, or it->fail). */
static size_t
fill(struct iter *it)
{
	struct frame *f;
	struct rt_stmt *p, *e;
	uint64_t n, r, *o;
	size_t k = 0, m, j;

	if (it->fetch && it->root.nbody == 0) {	/* its pc, without end */
		for (k = 0; k < NBUF; k++)
			it->buf[k] = it->pc;
		it->bn = k;
		it->bi = 0;
		return k;
	}
	while (k < NBUF && it->sp >= 0) {
		f = &it->f[it->sp];
		p = f->p;
		if (p->kind == RT_STMT_VALUES) {
			m = p->nvals - f->j;
			if (m > NBUF - k)
				m = NBUF - k;
			memcpy(it->buf + k, p->vals + f->j, m * sizeof *it->buf);
			k += m;
			it->idle = 0;
			if ((f->j += m) == p->nvals)
				it->sp--;
			continue;
		}
		if (f->j == p->nbody) {		/* an iteration done */
			if (++f->i >= f->n) {
				it->sp--;
				continue;
			}
			f->j = 0;
			if (p->depth > 0)
				it->t[p->depth - 1] = f->i;
			if ((it->idle += 1 + p->nbody) > RT_LOOP_MAXIDLE) {
				it->fail = 1;
				it->sp = -1;
				break;
			}
		}
		if (f->j == 0 && p->depth > 0 && (r = (NBUF - k) / p->nbody) > 0 &&
		    rt_stmt_allemits(p)) {
			/* whole bodies of emits: most of the values */
			if (r > f->n - f->i)
				r = f->n - f->i;
			for (o = it->buf + k, n = f->i; n < f->i + r; n++)
				for (j = 0; j < p->nbody; j++)
					*o++ = p->body[j]->base + n * p->body[j]->step;
			k = (size_t)(o - it->buf);
			f->i += r - 1;
			f->j = p->nbody;
			it->idle = 0;
			continue;
		}
		e = p->body[f->j++];
		switch (e->kind) {
		case RT_STMT_EMIT:
			it->buf[k++] = e->base + f->i * e->step;
			it->idle = 0;
			break;
		case RT_STMT_VALUES:
			if (e->nvals > 0) {
				f = &it->f[++it->sp];
				f->p = e;
				f->j = 0;
			}
			break;
		case RT_STMT_LOOP:
			/* a bound of 2^64 - 1 wraps to none, as the push
			 * expander's does */
			if (e->live && (n = rt_stmt_eval(e, it->t) + 1) > 0)
				enter(it, e, n);
			break;
		}
	}
	it->bn = k;
	it->bi = 0;
	return k;
}

/* The streams of a model, by number - 1: a stream line's an iterator
 * (1432 bytes), a fetch line's NULL and its address in pc alone (a fetch
 * line costs a few bytes of text a stream). */
struct streams {
	struct iter **s;
	uint64_t *pc;
	size_t n, cap, cappc;
	struct iter *order;
	const char *path;	/* the model's */
};

static void
freestreams(struct streams *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		freeiter(m->s[i]);
	free(m->s);
	free(m->pc);
	freeiter(m->order);
}

static int
idlefail(struct rt_expander *x, const struct iter *it)
{
	return rt_expand_fail(x, "%s:%" PRIu64 ": the %s here runs %d statements without "
	    "a value", it->path, it->line, it->jumps ? "jumps" : it->order ? "order" : "stream",
	    RT_LOOP_MAXIDLE);
}

/* Read the rest of the model: the stream line rt_loopr_next gave, the
 * statements and stream lines after it, the order and its statements. */
static int
readall(struct rt_expander *x, struct rt_loopr *lr, struct streams *m)
{
	struct rt_stmt *st;
	struct iter *cur = NULL;
	size_t i;
	int k;

	st = rt_loopr_take(lr);
	m->path = st->path;
	for (;;) {
		if (st->kind == RT_STMT_FETCH) {
			/* streams of an address's fetches: no statements */
			if (rt_grow(&m->s, &m->cap, m->n + st->nvals, sizeof *m->s) ||
			    rt_grow(&m->pc, &m->cappc, m->n + st->nvals, sizeof *m->pc)) {
				rt_stmt_free(st);
				return rt_expand_nomem(x);
			}
			for (i = 0; i < st->nvals; i++) {
				m->s[m->n] = NULL;
				m->pc[m->n++] = st->vals[i];
			}
			cur = NULL;
			rt_stmt_free(st);
		} else if (st->kind == RT_STMT_STREAM || st->kind == RT_STMT_ORDER) {
			if ((cur = newiter(st)) == NULL ||
			    (st->kind == RT_STMT_STREAM &&
			    rt_grow(&m->s, &m->cap, m->n + 1, sizeof *m->s))) {
				freeiter(cur);
				rt_stmt_free(st);
				return rt_expand_nomem(x);
			}
			if (st->kind == RT_STMT_STREAM)
				m->s[m->n++] = cur;
			else
				m->order = cur;
			rt_stmt_free(st);
		} else if (cur == NULL || rt_grow(&cur->root.body, &cur->root.cap, cur->root.nbody + 1,
		    sizeof *cur->root.body)) {
			rt_stmt_free(st);
			return rt_expand_nomem(x);
		} else {
			cur->root.body[cur->root.nbody++] = st;
			cur->root.live |= st->live;
		}
		if ((k = rt_loopr_next(lr, &st)) < 0)
			return rt_expand_fail(x, "%s", rt_loopr_error(lr));
		if (k == 0)
			break;
		st = rt_loopr_take(lr);
	}
	if (m->order == NULL)
		return rt_expand_fail(x, "%s: a model of %zu streams without an order",
		    m->path, m->n);
	for (i = 0; i < m->n; i++)
		if (m->s[i] != NULL)
			enter(m->s[i], &m->s[i]->root, 1);
	enter(m->order, &m->order->root, 1);
	return 0;
}

/* The next value of stream v (checked: 1 to m->n), the taken'th of the
 * order; 0, or an error said. */
static int
take(struct rt_expander *x, const struct streams *m, uint64_t v, uint64_t taken,
    uint64_t *out)
{
	struct iter *s;

	if ((s = m->s[v - 1]) == NULL) {	/* a fetch line's */
		*out = m->pc[v - 1];
		return 0;
	}
	if (s->bi == s->bn && fill(s) == 0)
		return s->fail ? idlefail(x, s) : rt_expand_fail(x, "%s:%" PRIu64
		    ": stream %" PRIu64 " ends before the order does (at its "
		    "value %" PRIu64 ")", s->path, s->line, v, taken);
	*out = s->buf[s->bi++];
	return 0;
}

/* An order of stream numbers: a value each. */
static int
numbers(struct rt_expander *x, struct streams *m)
{
	struct iter *o = m->order;
	uint64_t out[NBUF], v, taken = 0;
	size_t i, no;
	int rc = 0, k;

	while (rc == 0 && (no = fill(o)) > 0) {
		for (i = 0; i < no; i++) {
			v = o->buf[i];
			if (v < 1 || v > m->n) {
				rc = rt_expand_fail(x, "%s: value %" PRIu64 " of the order is %"
				    PRId64 ", not a stream (1 to %zu)", o->path, taken + i + 1,
				    (int64_t)v, m->n);
				break;
			}
			if ((rc = take(x, m, v, taken + i + 1, &out[i])) != 0)
				break;
		}
		/* the values before an error are written */
		if ((k = rt_expand_put(x, out, i)) != 0 && rc == 0)
			rc = k;
		taken += no;
	}
	return rc;
}

/* An order of jumps: a count of streams that come as predicted, then
 * the stream that comes (its number's difference from the last
 * stream's, 0 at the start), then a count... (the first a count).  A
 * stream predicts the stream that came after it the last time, or if
 * none has, a new one: the stream numbered one past the highest yet. */
static int
jumps(struct rt_expander *x, struct streams *m)
{
	struct iter *o = m->order;
	uint64_t out[NBUF], v, left, cur = 0, hi = 0, taken = 0, nth = 0;
	uint64_t *pred;
	size_t i, no, nout = 0;
	int rc = 0, k;

	/* pred[s]: the stream after stream s last (0 none; 0 is the start) */
	if ((pred = calloc(m->n + 1, sizeof *pred)) == NULL)
		return rt_expand_nomem(x);
	while (rc == 0 && (no = fill(o)) > 0) {
		for (i = 0; i < no && rc == 0; i++) {
			v = o->buf[i];
			if (nth++ % 2 == 0)	/* a count */
				left = v;
			else if ((v = cur + o->buf[i]) < 1 || v > m->n) {
				rc = rt_expand_fail(x, "%s: value %" PRIu64 " of the jumps, %"
				    PRId64 " from stream %" PRIu64 ", is not a stream (1 to %zu)",
				    o->path, nth, (int64_t)o->buf[i], cur, m->n);
				break;
			} else
				left = 1;
			while (left > 0) {
				if (nth % 2 == 1) {
					if ((v = pred[cur] != 0 ? pred[cur] : hi + 1) > m->n) {
						rc = rt_expand_fail(x, "%s: value %" PRIu64 " of the "
						    "jumps counts past the last stream: stream %" PRIu64
						    " predicts a new one, and there are %zu",
						    o->path, nth, cur, m->n);
						break;
					}
				}
				if ((rc = take(x, m, v, ++taken, &out[nout])) != 0)
					break;
				nout++;
				pred[cur] = v;
				cur = v;
				if (v > hi)
					hi = v;
				left--;
				if (nout == NBUF) {
					if ((rc = rt_expand_put(x, out, nout)) != 0)
						break;
					nout = 0;
				}
			}
		}
	}
	/* the values before an error are written */
	if ((k = rt_expand_put(x, out, nout)) != 0 && rc == 0)
		rc = k;
	free(pred);
	return rc;
}

int
rt_expand_streams(struct rt_expander *x, struct rt_loopr *lr)
{
	struct streams m = { 0 };
	struct iter *o, *s;
	size_t i;
	int rc = 0;

	if ((rc = readall(x, lr, &m)) != 0)
		goto done;
	o = m.order;
	rc = o->jumps ? jumps(x, &m) : numbers(x, &m);
	if (rc == 0 && o->fail)
		rc = idlefail(x, o);
	for (i = 0; rc == 0 && i < m.n; i++) {
		s = m.s[i];
		if (s == NULL || (s->fetch && s->root.nbody == 0))	/* its pc, as often as taken */
			continue;
		if (s->bi < s->bn || fill(s) > 0)
			rc = rt_expand_fail(x, "%s:%" PRIu64 ": stream %zu has values the "
			    "order never takes", s->path, s->line, i + 1);
		else if (s->fail)
			rc = idlefail(x, s);
	}
done:
	freestreams(&m);
	return rc;
}
