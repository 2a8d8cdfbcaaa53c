/* model.c: the loop-model stream, "#reftrace loops 1": its writer (the
 * reader is parse.c; reftrace-streams(5) has the grammar). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loopint.h"

#define NLIT 16		/* literals a line */

struct rt_loopw {
	FILE *f;
	int hex;		/* absolute values in hex: a model of addresses */
	uint64_t lit[NLIT];	/* literals not yet written */
	int nlit;
	FILE *loop;		/* a loop phase, printed before it is chosen;
				 * opened at the first */
	char *loopbuf;
	size_t looplen;
	int written;		/* a statement written */
	int haslit;		/* a literal written, */
	uint64_t lastlit;	/* the last */
	size_t firstlen;	/* the text begins with a line of literals:
				 * its first's digits, */
	uint64_t firstlit;	/* and its value */
};

size_t
rt_loop_litlen(uint64_t v, int hex)
{
	size_t n = 2;

	if (hex) {
		while (v >>= 4)
			n++;
		return n;
	}
	if ((int64_t)v < 0) {
		n++;
		v = -v;
	}
	while (v /= 10)
		n++;
	return n;
}

/* The header: its kind, whether the values are addresses. */
int
rt_loop_header(FILE *f, int hex)
{
	char magic[64];

	fprintf(f, "%s\n%s# pli: a loop model (pli -x expands it)\n",
	    rt_stream_magic(RT_STREAM_LOOPS, magic, sizeof magic), hex ? "#values hex\n" : "");
	return ferror(f) ? RT_EIO : 0;
}

/* A writer of statements; with header, of a whole model. */
struct rt_loopw *
rt_loopw_new(FILE *f, int hex, int header)
{
	struct rt_loopw *w;

	if ((w = calloc(1, sizeof *w)) == NULL)
		return NULL;
	w->f = f;
	w->hex = hex;
	if (header && rt_loop_header(f, hex)) {
		free(w);
		return NULL;
	}
	return w;
}

struct rt_loopw *
rt_loopw_open(FILE *f, int hex)
{
	return rt_loopw_new(f, hex, 1);
}

/* A polynomial: the coefficient of mask m multiplies the indices of its
 * bits; bit b is the loop b levels out from the innermost, named
 * t(depth - b).  With minus1, the polynomial less one (a loop's last
 * index).  With hex, the constant is an address: 0x hex, never negative
 * (the slopes stay signed decimal). */
static void
poly(FILE *f, const uint64_t *c, int levels, int depth, int minus1, int hex)
{
	size_t m, n = (size_t)1 << levels;
	int b, any = 0, first;
	uint64_t u, a;

	for (m = n; m-- > 0;) {
		u = c[m] - (uint64_t)(m == 0 && minus1);
		if (u == 0 && (m || any))
			continue;
		if (m == 0 && hex) {
			fprintf(f, "%s0x%" PRIx64, any ? " + " : "", u);
			break;
		}
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
print(FILE *f, const struct rt_term *t, int depth, int hex)
{
	uint32_t j;

	indent(f, depth);
	if (t->nbody == 0) {
		fputs("emit ", f);
		poly(f, t->c, t->levels, depth, 0, hex);
		fputc('\n', f);
		return;
	}
	fprintf(f, "for t%d = 0 to ", depth + 1);
	poly(f, t->c, t->levels, depth, 1, 0);
	fputs(" {\n", f);
	for (j = 0; j < t->nbody; j++)
		print(f, t->body[j], depth + 1, hex);
	indent(f, depth);
	fputs("}\n", f);
}

/* The bytes of literal v on a line of literals, its blank or newline
 * included, prev the literal before it on the line unless first: in hex
 * its difference from prev, its sign in *sign, where that is shorter
 * (else *sign is 0). */
static size_t
litform(uint64_t prev, uint64_t v, int first, int hex, uint64_t *d, int *sign)
{
	size_t n = rt_loop_litlen(v, hex);

	*sign = 0;
	if (hex && !first) {	/* first: no literal before it */
		*d = v >= prev ? v - prev : prev - v;
		if (rt_loop_litlen(*d, 1) + 1 < n) {
			*sign = v >= prev ? '+' : '-';
			return rt_loop_litlen(*d, 1) + 1;
		}
	}
	return n;
}

/* A line of literals: the numbers alone, as many bytes as pli -x writes
 * for them (fewer in hex: no 0x), and in hex each after the first as its
 * difference from the one before where that is shorter (+8 for 4033b88
 * after 4033b80: addresses an instruction touches are near each other). */
static void
flushlit(struct rt_loopw *w)
{
	uint64_t v, d;
	int i, sign;

	if (w->nlit > 0 && !w->written) {	/* the text begins with it */
		w->firstlen = rt_loop_litlen(w->lit[0], w->hex) - 1;
		w->firstlit = w->lit[0];
	}
	for (i = 0; i < w->nlit; i++) {
		v = w->lit[i];
		litform(i ? w->lit[i - 1] : w->lastlit, v, i == 0 && !w->haslit, w->hex, &d, &sign);
		if (sign)
			fprintf(w->f, "%s%c%" PRIx64, i ? " " : "", sign, d);
		else if (w->hex)
			fprintf(w->f, "%s%" PRIx64, i ? " " : "", v);
		else
			fprintf(w->f, "%s%" PRId64, i ? " " : "", (int64_t)v);
	}
	if (w->nlit > 0) {
		fputc('\n', w->f);
		w->lastlit = w->lit[w->nlit - 1];
		w->haslit = w->written = 1;
	}
	w->nlit = 0;
}

static void
literal(void *ctx, uint64_t v)
{
	struct rt_loopw *w = ctx;

	w->lit[w->nlit++] = v;
	if (w->nlit == NLIT)
		flushlit(w);
}

/* A polynomial's value at the indices t (t[b]: the loop b levels out). */
uint64_t
rt_poly_at(const uint64_t *c, int levels, const uint64_t *t)
{
	size_t m, n = (size_t)1 << levels;
	uint64_t v, sum = 0;
	int b;

	for (m = 0; m < n; m++) {
		v = c[m];
		for (b = 0; b < levels && v != 0; b++)
			if (m & ((size_t)1 << b))
				v *= t[b];
		sum += v;
	}
	return sum;
}

uint64_t
rt_term_walk(const struct rt_term *u, const uint64_t *t, void (*fn)(void *, uint64_t), void *ctx)
{
	uint64_t i, n, k = 0, in[RT_LOOP_MAXDEPTH + 1];
	uint32_t j;

	if (u->nbody == 0) {
		if (fn != NULL)
			fn(ctx, rt_poly_at(u->c, u->levels, t));
		return 1;
	}
	n = rt_poly_at(u->c, u->levels, t);
	if (u->levels > 0)
		memcpy(in + 1, t, u->levels * sizeof *t);
	for (i = 0; i < n; i++) {
		in[0] = i;
		for (j = 0; j < u->nbody; j++)
			k += rt_term_walk(u->body[j], in, fn, ctx);
	}
	return k;
}

/* The bytes of literals as flushlit writes them, from the writer's line
 * as it stands. */
struct litcount {
	uint64_t len;
	int hex;
	int at;			/* the place on the line */
	uint64_t prev;		/* the literal before it */
	int has;		/* there is one */
};

static void
litcount(void *ctx, uint64_t v)
{
	struct litcount *lc = ctx;
	uint64_t d;
	int sign;

	lc->len += litform(lc->prev, v, !lc->has, lc->hex, &d, &sign);
	lc->prev = v;
	lc->has = 1;
	lc->at = (lc->at + 1) % NLIT;
}

/* A loop is written only if it is no longer than its values as
 * literals, so that a model is never longer than its values as text.
 * Its values are counted only when it is short enough for that to
 * matter (a literal takes 2 bytes at least).  1 the loop, 0 literals,
 * -1 out of memory. */
static int
loopwins(struct rt_loopw *w, const struct rt_term *t, size_t *len)
{
	struct litcount lc = { 0, w->hex, w->nlit, w->nlit ? w->lit[w->nlit - 1] : w->lastlit,
	    w->nlit > 0 || w->haslit };
	off_t n;

	/* opened at the first loop: most streams of a trace have none */
	if (w->loop == NULL && (w->loop = open_memstream(&w->loopbuf, &w->looplen)) == NULL)
		return -1;
	rewind(w->loop);
	print(w->loop, t, 0, w->hex);
	if (fflush(w->loop) == EOF || (n = ftello(w->loop)) < 0)
		return -1;
	*len = (size_t)n;
	if ((uint64_t)n <= 2 * t->nval)
		return 1;
	rt_term_walk(t, NULL, litcount, &lc);
	return (uint64_t)n <= lc.len;
}

int
rt_loopw_term(struct rt_loopw *w, const struct rt_term *t)
{
	size_t len;
	int rc;

	if (t->nbody == 0)
		literal(w, t->c[0]);
	else if ((rc = loopwins(w, t, &len)) < 0)	/* its memory stream */
		return RT_ENOMEM;
	else if (rc == 0)
		rt_term_walk(t, NULL, literal, w);
	else {
		flushlit(w);
		fwrite(w->loopbuf, 1, len, w->f);
		w->written = 1;
	}
	return ferror(w->f) ? RT_EIO : 0;
}

void
rt_loopw_lits(struct rt_loopw *w, size_t *firstlen, uint64_t *first, int *any, uint64_t *last)
{
	flushlit(w);
	*firstlen = w->firstlen;
	*first = w->firstlit;
	*any = w->haslit;
	*last = w->lastlit;
}

int
rt_loopw_close(struct rt_loopw *w)
{
	int rc;

	flushlit(w);
	rc = ferror(w->f) ? RT_EIO : 0;
	if (w->loop != NULL)
		fclose(w->loop);
	free(w->loopbuf);
	free(w);
	return rc;
}
