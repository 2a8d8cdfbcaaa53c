/* model.c: the loop-model stream, "#reftrace loops 1": its writer and its
 * reader (reftrace(5) has the grammar). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loopint.h"

#define NLIT 16		/* literals a "values" line */

struct rt_loopw {
	FILE *f;
	uint64_t lit[NLIT];	/* literals not yet written */
	int nlit;
};

struct rt_loopw *
rt_loopw_open(FILE *f)
{
	struct rt_loopw *w;
	char magic[64];

	if ((w = calloc(1, sizeof *w)) == NULL)
		return NULL;
	w->f = f;
	fprintf(f, "%s\n# pli: a loop model (pli -x expands it)\n",
	    rt_stream_magic(RT_STREAM_LOOPS, magic, sizeof magic));
	if (ferror(f)) {
		free(w);
		return NULL;
	}
	return w;
}

/* A polynomial: the coefficient of mask m multiplies the indices of its
 * bits; bit b is the loop b levels out from the innermost, named
 * t(depth - b).  With minus1, the polynomial less one (a loop's last
 * index). */
static void
poly(FILE *f, const uint64_t *c, int levels, int depth, int minus1)
{
	size_t m, n = (size_t)1 << levels;
	int b, any = 0, first;
	uint64_t u, a;

	for (m = n; m-- > 0;) {
		u = c[m] - (uint64_t)(m == 0 && minus1);
		if (u == 0 && (m || any))
			continue;
		a = (int64_t)u < 0 ? -u : u;
		if (any)
			fputs((int64_t)u < 0 ? " - " : " + ", f);
		else if ((int64_t)u < 0)
			fputc('-', f);
		first = 1;
		if (m == 0 || a != 1) {
			fprintf(f, "%" PRIu64, a);
			first = 0;
		}
		for (b = levels - 1; b >= 0; b--)
			if (m & ((size_t)1 << b)) {
				fprintf(f, "%st%d", first ? "" : "*", depth - b);
				first = 0;
			}
		any = 1;
	}
}

static void
indent(FILE *f, int d)
{
	while (d-- > 0)
		fputs("  ", f);
}

static void
print(FILE *f, const struct rt_term *t, int depth)
{
	uint32_t j;

	indent(f, depth);
	if (t->nbody == 0) {
		fputs("emit ", f);
		poly(f, t->c, t->levels, depth, 0);
		fputc('\n', f);
		return;
	}
	fprintf(f, "for t%d = 0 to ", depth + 1);
	poly(f, t->c, t->levels, depth, 1);
	fputs(" {\n", f);
	for (j = 0; j < t->nbody; j++)
		print(f, t->body[j], depth + 1);
	indent(f, depth);
	fputs("}\n", f);
}

static void
flushlit(struct rt_loopw *w)
{
	int i;

	if (w->nlit == 0)
		return;
	fputs("values", w->f);
	for (i = 0; i < w->nlit; i++)
		fprintf(w->f, " %" PRId64, (int64_t)w->lit[i]);
	fputc('\n', w->f);
	w->nlit = 0;
}

int
rt_loopw_term(struct rt_loopw *w, const struct rt_term *t)
{
	if (t->nbody == 0) {
		w->lit[w->nlit++] = t->c[0];
		if (w->nlit < NLIT)
			return 0;
		flushlit(w);
	} else {
		flushlit(w);
		print(w->f, t, 0);
	}
	return ferror(w->f) ? -1 : 0;
}

int
rt_loopw_close(struct rt_loopw *w)
{
	int rc;

	flushlit(w);
	rc = ferror(w->f) ? -1 : 0;
	free(w);
	return rc;
}

/* The reader: statements are parsed into a tree, a root loop whole. */
struct rt_loopr {
	struct rt_reader *r;
	struct rt_stmt *stack[RT_LOOP_MAXDEPTH + 1];	/* the loops open */
	int sp;
	struct rt_stmt *last;	/* returned last: freed at the next call */
	uint64_t line, rootline;	/* lines read; where the root loop opened */
	const char *err;
	char ebuf[1024];
};

static void
freestmt(struct rt_stmt *p)
{
	size_t j;

	if (p == NULL)
		return;
	for (j = 0; j < p->nbody; j++)
		freestmt(p->body[j]);
	free(p->body);
	free(p->poly);
	free(p->vals);
	free(p);
}

struct rt_loopr *
rt_loopr_open(struct rt_reader *r, char *err, size_t errlen)
{
	struct rt_loopr *lr;

	if (rt_rexpect(r, RT_STREAM_LOOPS)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		return NULL;
	}
	if ((lr = calloc(1, sizeof *lr)) == NULL) {
		snprintf(err, errlen, "%s: %s", rt_rpath(r), strerror(ENOMEM));
		return NULL;
	}
	lr->r = r;
	lr->err = "";
	return lr;
}

const char *
rt_loopr_error(const struct rt_loopr *lr)
{
	return lr->err;
}

void
rt_loopr_close(struct rt_loopr *lr)
{
	if (lr == NULL)
		return;
	freestmt(lr->last);
	if (lr->sp > 0)
		freestmt(lr->stack[1]);
	free(lr);
}

static int
bymask(const void *a, const void *b)
{
	uint32_t x = ((const struct rt_mono *)a)->mask, y = ((const struct rt_mono *)b)->mask;

	return (x > y) - (x < y);
}

/* A monomial more for p: 0, or -1 out of memory. */
static int
addmono(struct rt_stmt *p, uint64_t coef, uint32_t mask)
{
	if (rt_grow(&p->poly, &p->cappoly, p->npoly + 1, sizeof *p->poly))
		return -1;
	p->poly[p->npoly].coef = coef;
	p->poly[p->npoly++].mask = mask;
	return 0;
}

/* The monomials of p in the order of their masks, those of one mask
 * summed, none that is 0: a polynomial takes one form however it is
 * written. */
static void
canon(struct rt_stmt *p)
{
	size_t i, k = 0;

	qsort(p->poly, p->npoly, sizeof *p->poly, bymask);
	for (i = 0; i < p->npoly; i++) {
		if (k > 0 && p->poly[k - 1].mask == p->poly[i].mask)
			p->poly[k - 1].coef += p->poly[i].coef;
		else
			p->poly[k++] = p->poly[i];
		if (p->poly[k - 1].coef == 0)
			k--;
	}
	p->npoly = k;
}

/* "3*t1*t2 - t1 + 7" into p->poly over t1..t(nt): 0, -1 if malformed,
 * -2 out of memory. */
static int
parsepoly(char *s, struct rt_stmt *p, int nt)
{
	char *end;
	uint64_t coef;
	uint32_t mask;
	int neg, idx, have;

	for (;;) {
		s += strspn(s, " ");
		if (*s == '\0' || *s == '{') {
			canon(p);
			return 0;
		}
		neg = 0;
		if (*s == '+' || *s == '-') {
			neg = *s == '-';
			s++;
			s += strspn(s, " ");
		}
		coef = 1;
		have = 0;
		mask = 0;
		if (*s >= '0' && *s <= '9') {
			errno = 0;
			coef = strtoull(s, &end, 10);
			if (errno)
				return -1;
			s = end;
			have = 1;
		}
		while (*s == '*' || *s == 't') {
			if (*s == '*')
				s++;
			if (*s != 't')
				return -1;
			idx = (int)strtol(s + 1, &end, 10);
			if (end == s + 1 || idx < 1 || idx > nt)
				return -1;
			mask |= (uint32_t)1 << (idx - 1);
			s = end;
			have = 1;
		}
		if (!have)
			return -1;
		if (addmono(p, neg ? -coef : coef, mask))
			return -2;
	}
}

static int
parsevalues(char *s, struct rt_stmt *q)
{
	char *end;
	uint64_t *v;

	for (; *(s += strspn(s, " ")); s = end) {
		if (q->nvals == q->capvals) {
			q->capvals = q->capvals ? 2 * q->capvals : 16;
			if ((v = reallocarray(q->vals, q->capvals, sizeof *v)) == NULL)
				return -2;
			q->vals = v;
		}
		errno = 0;
		q->vals[q->nvals++] = (uint64_t)strtoll(s, &end, 10);
		if (end == s || errno)
			return -1;
	}
	return 0;
}

/* One statement line, after its indentation: a new statement, or NULL
 * with the error set. */
static struct rt_stmt *
parseline(struct rt_loopr *lr, char *s)
{
	struct rt_stmt *q;
	char *end;
	int d, rc;

	if ((q = calloc(1, sizeof *q)) == NULL) {
		lr->err = rt_rbad(lr->r, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (strncmp(s, "values", 6) == 0) {
		q->kind = RT_STMT_VALUES;
		if ((rc = parsevalues(s + 6, q)) != 0)
			goto bad;
	} else if (strncmp(s, "emit ", 5) == 0) {
		q->kind = RT_STMT_EMIT;
		if ((rc = parsepoly(s + 5, q, lr->sp)) != 0)
			goto bad;
	} else if (strncmp(s, "for t", 5) == 0) {
		q->kind = RT_STMT_LOOP;
		if (lr->sp == RT_LOOP_MAXDEPTH) {
			freestmt(q);
			lr->err = rt_rbad(lr->r, "loops nested more than %d deep",
			    RT_LOOP_MAXDEPTH);
			return NULL;
		}
		d = (int)strtol(s + 5, &end, 10);
		if (d != lr->sp + 1 || strncmp(end, " = 0 to ", 8) != 0) {
			freestmt(q);
			lr->err = rt_rbad(lr->r, "want 'for t%d = 0 to ...'", lr->sp + 1);
			return NULL;
		}
		q->depth = d;
		if ((rc = parsepoly(end + 8, q, lr->sp)) == 0 && strchr(end, '{') == NULL)
			rc = -1;
		if (rc)
			goto bad;
	} else {
		freestmt(q);
		lr->err = rt_rbad(lr->r, "not a loop model line");
		return NULL;
	}
	return q;
bad:
	lr->err = rt_rbad(lr->r, "%s", rc == -2 ? strerror(ENOMEM) :
	    q->kind == RT_STMT_VALUES ? "bad value" :
	    q->kind == RT_STMT_EMIT ? "bad expression" : "bad loop bound");
	freestmt(q);
	return NULL;
}

/* Add q to the body of the innermost open loop. */
static int
append(struct rt_loopr *lr, struct rt_stmt *q)
{
	struct rt_stmt *p = lr->stack[lr->sp], **b;

	if (p->nbody == p->cap) {
		if ((b = reallocarray(p->body, p->cap ? 2 * p->cap : 4, sizeof *b)) == NULL)
			return -1;
		p->body = b;
		p->cap = p->cap ? 2 * p->cap : 4;
	}
	p->body[p->nbody++] = q;
	return 0;
}

int
rt_loopr_next(struct rt_loopr *lr, struct rt_stmt **sp)
{
	struct rt_stmt *q;
	char *s;

	freestmt(lr->last);
	lr->last = NULL;
	while ((s = rt_rgetline(lr->r, NULL)) != NULL) {
		lr->line++;
		s += strspn(s, " \t");
		if (*s == '#' || *s == '\0')
			continue;
		if (*s == '}') {
			if (lr->sp == 0) {
				lr->err = rt_rbad(lr->r, "'}' without a loop");
				return -1;
			}
			if (--lr->sp > 0)
				continue;
			*sp = lr->last = lr->stack[1];	/* a whole root loop */
			return 1;
		}
		if ((q = parseline(lr, s)) == NULL)
			return -1;
		if (lr->sp == 0 && q->kind != RT_STMT_LOOP) {
			*sp = lr->last = q;
			return 1;
		}
		if (lr->sp == 0)
			lr->rootline = lr->line;
		else if (append(lr, q)) {
			freestmt(q);
			lr->err = rt_rbad(lr->r, "%s", strerror(ENOMEM));
			return -1;
		}
		if (q->kind == RT_STMT_LOOP)
			lr->stack[++lr->sp] = q;
	}
	if (*rt_rerror(lr->r)) {
		lr->err = rt_rerror(lr->r);
		return -1;
	}
	if (lr->sp != 0) {
		snprintf(lr->ebuf, sizeof lr->ebuf, "%s:%" PRIu64 ": the loop opened here is not closed",
		    rt_rpath(lr->r), lr->rootline);
		lr->err = lr->ebuf;
		return -1;
	}
	return 0;
}
