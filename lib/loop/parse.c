/* parse.c: the loop-model stream's reader: statements are parsed into a
 * tree, a root loop whole.  A model of streams has its sections
 * (reftrace-streams(5) has the grammar). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loopint.h"

/* What a model has had at the top level: statements of no stream, stream
 * lines (and their statements), a fetch line last, the order. */
enum { SECT_PLAIN = 1, SECT_STREAMS, SECT_FETCH, SECT_ORDER };

struct rt_loopr {
	struct rt_reader *r;
	struct rt_stmt *stack[RT_LOOP_MAXDEPTH + 1];	/* the loops open */
	int sp;
	struct rt_stmt *last;	/* returned last: freed at the next call */
	uint64_t line, rootline;	/* lines read; where the root loop opened */
	int stmts, hex;		/* a statement read; "#values hex" before it */
	int sect;		/* statements of no stream, streams, the order */
	uint64_t nstream;	/* streams named */
	uint64_t lastpc;	/* the address named last, RT_NOPC before any */
	int haslit;		/* a line of hex literals read, */
	uint64_t lastlit;	/* its last value */
	const char *err;
	int code;		/* of the error: RT_EBAD unless said */
	char ebuf[1024];
};

void
rt_stmt_free(struct rt_stmt *p)
{
	size_t j;

	if (p == NULL)
		return;
	for (j = 0; j < p->nbody; j++)
		rt_stmt_free(p->body[j]);
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

int
rt_loopr_streams(const struct rt_loopr *lr)
{
	return lr->sect == SECT_STREAMS || lr->sect == SECT_FETCH;
}

struct rt_stmt *
rt_loopr_take(struct rt_loopr *lr)
{
	struct rt_stmt *s = lr->last;

	lr->last = NULL;
	return s;
}

int
rt_loopr_hex(const struct rt_loopr *lr)
{
	return lr->hex;
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
	rt_stmt_free(lr->last);
	if (lr->sp > 0)
		rt_stmt_free(lr->stack[1]);
	free(lr);
}

/* The parser.  Tokens may have blanks (spaces, tabs) between them, and a
 * keyword or a number a blank or the end of the line after it; every
 * token of a line must be part of its statement. */
#define BLANKS " \t"

static const char *
blanks(const char *p)
{
	return p + strspn(p, BLANKS);
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* The n bytes at p for a message: shortened, and what is not printable
 * shown as '?'. */
static const char *
token(const char *p, size_t n, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < n && i + 4 < len; i++)
		buf[i] = (unsigned char)p[i] > ' ' && (unsigned char)p[i] < 0x7f ? p[i] : '?';
	if (i < n) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* "path:line: want what, not 'token'" for the token at p: -1. */
static int
want(struct rt_loopr *lr, const char *p, const char *what)
{
	char t[32];

	if (*p == '\0')
		lr->err = rt_rbad(lr->r, "want %s, not the end of the line", what);
	else
		lr->err = rt_rbad(lr->r, "want %s, not '%s'", what,
		    token(p, strcspn(p, BLANKS), t, sizeof t));
	return -1;
}

static int
nomem(struct rt_loopr *lr)
{
	lr->err = rt_rbad(lr->r, "%s", strerror(ENOMEM));
	lr->code = RT_ENOMEM;
	return -1;
}

/* The keyword w at *pp, then a blank or the end of the line: moves past
 * it and the blanks after it. */
static int
keyword(const char **pp, const char *w)
{
	size_t n = strlen(w);
	const char *p = *pp;

	if (strncmp(p, w, n) != 0 || (p[n] != '\0' && p[n] != ' ' && p[n] != '\t'))
		return 0;
	*pp = blanks(p + n);
	return 1;
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

/* An index "t3" at *pp, one of t1..t(nt), the loops around: its number;
 * moves past it.  0, or -1 with the error set. */
static int
ivar(struct rt_loopr *lr, const char **pp, int nt, int *idx)
{
	const char *p = *pp + 1;
	uint64_t i = UINT64_MAX;
	char t[32], around[32];

	if (**pp != 't' || !isdig(*p))
		return want(lr, *pp, "an index");
	rt_scan_u64(&p, &i);	/* too long for 64 bits: out of range */
	p += strspn(p, "0123456789");
	if (i < 1 || i > (uint64_t)nt) {
		if (nt == 0)
			snprintf(around, sizeof around, "there is none");
		else if (nt == 1)
			snprintf(around, sizeof around, "t1");
		else
			snprintf(around, sizeof around, "t1 to t%d", nt);
		lr->err = rt_rbad(lr->r, "'%s' is not the index of a loop around it (%s)",
		    token(*pp, (size_t)(p - *pp), t, sizeof t), around);
		return -1;
	}
	*idx = (int)i;
	*pp = p;
	return 0;
}

/* A polynomial over t1..t(nt) at *pp into q: terms c, c*ti*tj, ti*tj
 * ... joined by + and -, a sign before the first if any; moves past it
 * and the blanks after it.  0, or -1 with the error set. */
static int
polynomial(struct rt_loopr *lr, const char **pp, struct rt_stmt *q, int nt)
{
	const char *p = *pp;
	uint64_t c;
	uint32_t mask;
	int neg = 0, i = 0;
	char t[32];

	if (*p == '+' || *p == '-') {
		neg = *p == '-';
		p = blanks(p + 1);
	}
	for (;;) {
		c = 1;
		mask = 0;
		if (isdig(*p)) {
			if (rt_scan_addr(&p, &c)) {
				lr->err = rt_rbad(lr->r, "'%s' is more than 2^64 - 1",
				    token(p, strspn(p, "0123456789abcdefABCDEFxX"), t, sizeof t));
				return -1;
			}
			p = blanks(p);
			if (*p != '*')
				goto term;
			p = blanks(p + 1);
		} else if (*p != 't')
			return want(lr, p, "a number or an index");
		for (;;) {
			if (ivar(lr, &p, nt, &i))
				return -1;
			if (mask & (uint32_t)1 << (i - 1)) {
				/* t1*t1 was read as t1 */
				lr->err = rt_rbad(lr->r, "'t%d' twice in a term "
				    "(a model is linear in each index)", i);
				return -1;
			}
			mask |= (uint32_t)1 << (i - 1);
			p = blanks(p);
			if (*p != '*')
				break;
			p = blanks(p + 1);
		}
term:
		if (addmono(q, neg ? -c : c, mask))
			return nomem(lr);
		if (*p != '+' && *p != '-')
			break;
		neg = *p == '-';
		p = blanks(p + 1);
	}
	canon(q);
	*pp = p;
	return 0;
}

static int
isxdig(int c)
{
	return isdig(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Are bare literals hex digits: in a model of addresses, but for its
 * order (stream numbers)? */
static int
barehexes(const struct rt_loopr *lr)
{
	return lr->hex && lr->sect != SECT_ORDER;
}

/* A line of literals without a keyword: a number first. */
static int
bare(const struct rt_loopr *lr, const char *p)
{
	return (barehexes(lr) ? isxdig(*p) : isdig(*p)) || *p == '-' || *p == '+';
}

/* Hex digits alone: a 64-bit pattern. */
static int
barehex(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t u = 0;
	int n;

	for (n = 0; isxdig(*p); p++, n++) {
		if (n == 16)
			return -1;
		u = u << 4 | (uint64_t)(isdig(*p) ? *p - '0' : (*p | 0x20) - 'a' + 10);
	}
	*pp = p;
	*v = u;
	return n ? 0 : -1;
}

/* base plus (the token at p starts with '+') or minus d, neither past
 * 2^64 - 1 nor below 0 (what: the kind of number, for the error). */
static int
offset(struct rt_loopr *lr, const char *p, uint64_t base, uint64_t d, uint64_t *v,
    const char *what)
{
	char t[64];

	if (*p == '+' && (*v = base + d) < d) {
		snprintf(t, sizeof t, "%s below 2^64", what);
		return want(lr, p, t);
	}
	if (*p == '-' && (*v = base - d) > base) {
		snprintf(t, sizeof t, "%s not below 0", what);
		return want(lr, p, t);
	}
	return 0;
}

/* The values of a values line: signed 64-bit integers, or 64-bit
 * patterns in 0x hex; of a line of literals in a model of addresses, hex
 * digits alone, or after the first +hex or -hex: the value before it
 * plus or minus that. */
static int
values(struct rt_loopr *lr, const char *p, struct rt_stmt *q, int barex)
{
	const char *s;
	uint64_t u, d;
	int sign, hex;

	for (; *p != '\0'; p = blanks(s)) {
		if (barex && (*p == '+' || *p == '-')) {
			s = p + 1;
			if (!isxdig(*s) || rt_scan_hex(&s, &d) || (*s != '\0' && *s != ' ' && *s != '\t'))
				return want(lr, p, "at most 16 hex digits, or +hex or -hex");
			if (q->nvals == 0 && !lr->haslit)
				return want(lr, p, "a value in hex digits before a difference (none yet)");
			if (offset(lr, p, q->nvals ? q->vals[q->nvals - 1] : lr->lastlit, d, &u, "a value"))
				return -1;
			goto add;
		}
		if (barex) {
			s = p;
			if (barehex(&s, &u) || (*s != '\0' && *s != ' ' && *s != '\t'))
				return want(lr, p, "at most 16 hex digits");
			goto add;
		}
		sign = *p == '-' || *p == '+';
		s = p + sign;
		hex = s[0] == '0' && (s[1] | 0x20) == 'x';
		if (!isdig(*s) || rt_scan_addr(&s, &u) || (*s != '\0' && *s != ' ' && *s != '\t') ||
		    ((sign || !hex) && u > (uint64_t)INT64_MAX + (*p == '-')))
			return want(lr, p, "a signed 64-bit integer or 0x hex");
		if (*p == '-')
			u = -u;
add:
		if (rt_grow(&q->vals, &q->capvals, q->nvals + 1, sizeof *q->vals))
			return nomem(lr);
		q->vals[q->nvals++] = u;
	}
	if (barex && q->nvals > 0) {
		lr->lastlit = q->vals[q->nvals - 1];
		lr->haslit = 1;
	}
	return 0;
}

/* A loop's header after "for": "t3 = 0 to" a polynomial over the loops
 * around, then "{" and the end of the line. */
static int
header(struct rt_loopr *lr, const char *p, struct rt_stmt *q)
{
	const char *s;
	uint64_t d, zero;

	if (lr->sp == RT_LOOP_MAXDEPTH) {
		lr->err = rt_rbad(lr->r, "loops nested more than %d deep", RT_LOOP_MAXDEPTH);
		return -1;
	}
	s = p + 1;
	if (*p != 't' || rt_scan_u64(&s, &d) || d != (uint64_t)lr->sp + 1)
		goto form;
	p = blanks(s);
	if (*p != '=')
		goto form;
	s = blanks(p + 1);
	if (rt_scan_u64(&s, &zero) || zero != 0)
		goto form;
	p = blanks(s);
	if (p == s || !keyword(&p, "to"))
		goto form;
	q->depth = (int)d;
	if (polynomial(lr, &p, q, lr->sp))
		return -1;
	if (*p != '{')
		return want(lr, p, "'+', '-' or '{'");
	p = blanks(p + 1);
	return *p ? want(lr, p, "the end of the line after '{'") : 0;
form:
	lr->err = rt_rbad(lr->r, "want 'for t%d = 0 to ...'", lr->sp + 1);
	return -1;
}

/* A model of streams: "stream N LABEL" lines, N from 1 up, each followed
 * by its statements, then "order" and the statements whose values are
 * stream numbers. */
static int
toplevel(struct rt_loopr *lr, const char *what)
{
	if (lr->sp > 0) {
		lr->err = rt_rbad(lr->r, "'%s' inside a loop", what);
		return -1;
	}
	if (lr->sect == SECT_PLAIN) {
		lr->err = rt_rbad(lr->r, "'%s' after statements of no stream", what);
		return -1;
	}
	return 0;
}

/* An address at *pp, of a stream line or a fetch line: 0x hex, or +hex
 * or -hex from the address named last, not 0 (form, none: what to want
 * instead).  It is named last now; *pp past it.  0, or -1. */
static int
address(struct rt_loopr *lr, const char **pp, uint64_t *pc, const char *form, const char *none)
{
	int diff = *pp[0] == '+' || *pp[0] == '-';
	const char *p = *pp, *s = p + diff;
	uint64_t u;

	if ((diff ? rt_scan_hex(&s, &u) : s[0] != '0' || (s[1] | 0x20) != 'x' ||
	    rt_scan_addr(&s, pc)) || (*s != '\0' && *s != ' ' && *s != '\t'))
		return want(lr, p, form);
	if (diff && lr->lastpc == RT_NOPC)
		return want(lr, p, "an address in 0x hex before a difference (none named yet)");
	if (diff && offset(lr, p, lr->lastpc, u, pc, "an address"))
		return -1;
	if (*pc == RT_NOPC)
		return want(lr, p, none);
	lr->lastpc = *pc;
	*pp = s;
	return 0;
}

static int
streamline(struct rt_loopr *lr, const char *p, struct rt_stmt *q)
{
	const char *s = p;

	if (toplevel(lr, "stream"))
		return -1;
	if (lr->sect == SECT_ORDER) {
		lr->err = rt_rbad(lr->r, "a stream after the order");
		return -1;
	}
	if (lr->nstream >= UINT32_MAX - 1) {
		lr->err = rt_rbad(lr->r, "more than 2^32 - 2 streams");
		return -1;
	}
	/* the number may be left out: it is the next */
	q->sn = lr->nstream + 1;
	if (*s >= '0' && *s <= '9') {
		if (rt_scan_u64(&s, &q->sn) || q->sn != lr->nstream + 1) {
			lr->err = rt_rbad(lr->r, "want 'stream %" PRIu64 "' and what it is",
			    lr->nstream + 1);
			return -1;
		}
		p = blanks(s);
		if (p == s && *p != '\0')
			return want(lr, p, "a blank after the stream's number");
	}
	q->fetch = keyword(&p, "fetch");
	if (keyword(&p, "-"))
		q->pc = RT_NOPC;
	else if (*p == '\0' && lr->lastpc != RT_NOPC)
		q->pc = lr->lastpc;	/* "stream": the address named last */
	else if (address(lr, &p, &q->pc, "an instruction address (0x hex, or +hex or -hex from "
	    "the last) or '-'", "an address other than 0 (none: '-')"))
		return -1;
	else
		p = blanks(p);
	if (*p != '\0')
		return want(lr, p, "the end of the line");
	lr->nstream++;
	lr->sect = SECT_STREAMS;
	return 0;
}

/* "fetch" and addresses: a stream each, the next numbers, of the fetches
 * of that address and no statements.  An address is 0x hex, or +hex or
 * -hex: the address named last (by a stream line with one, or this
 * line) plus or minus that.  0 is no address (RT_NOPC). */
static int
fetchline(struct rt_loopr *lr, const char *p, struct rt_stmt *q)
{
	uint64_t pc;

	if (toplevel(lr, "fetch"))
		return -1;
	if (lr->sect == SECT_ORDER) {
		lr->err = rt_rbad(lr->r, "a stream after the order");
		return -1;
	}
	if (*p == '\0')
		return want(lr, p, "addresses after 'fetch'");
	for (; *p != '\0'; p = blanks(p)) {
		if (lr->nstream + q->nvals >= UINT32_MAX - 1)
			return want(lr, p, "at most 2^32 - 2 streams");
		if (address(lr, &p, &pc, "an address: 0x hex, or +hex or -hex from the last",
		    "an address other than 0 (none: 'stream N fetch -')"))
			return -1;
		if (rt_grow(&q->vals, &q->capvals, q->nvals + 1, sizeof *q->vals))
			return nomem(lr);
		q->vals[q->nvals++] = pc;
	}
	q->sn = lr->nstream + 1;
	q->fetch = 1;
	lr->nstream += q->nvals;
	lr->sect = SECT_FETCH;
	return 0;
}

/* "order" (stream numbers) or "jumps" (counts and stream numbers): the
 * interleaving of the streams, after them. */
static int
orderline(struct rt_loopr *lr, const char *p, const char *what)
{
	if (toplevel(lr, what))
		return -1;
	if (lr->sect != SECT_STREAMS && lr->sect != SECT_FETCH) {
		lr->err = rt_rbad(lr->r, lr->sect == SECT_ORDER ? "a second order ('%s')" :
		    "an order ('%s') before any stream", what);
		return -1;
	}
	if (*p != '\0') {
		char t[64];

		snprintf(t, sizeof t, "the end of the line after '%s'", what);
		return want(lr, p, t);
	}
	lr->sect = SECT_ORDER;
	return 0;
}

/* One statement line, after its indentation: a new statement, or NULL
 * with the error set. */
static struct rt_stmt *
parseline(struct rt_loopr *lr, const char *p)
{
	struct rt_stmt *q;
	int rc;

	if ((q = calloc(1, sizeof *q)) == NULL) {
		nomem(lr);
		return NULL;
	}
	q->path = rt_rpath(lr->r);
	q->line = lr->line;
	if (keyword(&p, "values")) {
		q->kind = RT_STMT_VALUES;
		rc = values(lr, p, q, 0);
		q->live = q->nvals > 0;
	} else if (keyword(&p, "emit")) {
		q->kind = RT_STMT_EMIT;
		q->live = 1;
		if ((rc = polynomial(lr, &p, q, lr->sp)) == 0 && *p != '\0')
			rc = want(lr, p, "'+', '-' or the end of the line");
	} else if (keyword(&p, "for")) {
		q->kind = RT_STMT_LOOP;
		rc = header(lr, p, q);
	} else if (keyword(&p, "stream")) {
		q->kind = RT_STMT_STREAM;
		rc = streamline(lr, p, q);
	} else if (keyword(&p, "fetch")) {
		q->kind = RT_STMT_FETCH;
		rc = fetchline(lr, p, q);
	} else if (keyword(&p, "order")) {
		q->kind = RT_STMT_ORDER;
		rc = orderline(lr, p, "order");
	} else if (keyword(&p, "jumps")) {
		q->kind = RT_STMT_ORDER;
		q->jumps = 1;
		rc = orderline(lr, p, "jumps");
	} else if (bare(lr, p)) {
		q->kind = RT_STMT_VALUES;
		rc = values(lr, p, q, barehexes(lr));
		q->live = 1;
	} else
		rc = want(lr, p, "'values', 'emit', 'for', 'stream', 'fetch', 'order', 'jumps', '}' or numbers");
	if (rc == 0 && q->kind != RT_STMT_STREAM && q->kind != RT_STMT_FETCH &&
	    q->kind != RT_STMT_ORDER) {
		if (lr->sect == 0)
			lr->sect = SECT_PLAIN;
		else if (lr->sect == SECT_FETCH && lr->sp == 0) {
			lr->err = rt_rbad(lr->r, "a statement after a fetch line (its streams have none)");
			rc = -1;
		}
	}
	if (rc) {
		rt_stmt_free(q);
		return NULL;
	}
	return q;
}

/* Add q to the body of the innermost open loop. */
static int
append(struct rt_loopr *lr, struct rt_stmt *q)
{
	struct rt_stmt *p = lr->stack[lr->sp];

	if (rt_grow(&p->body, &p->cap, p->nbody + 1, sizeof *p->body))
		return -1;
	p->body[p->nbody++] = q;
	p->live |= q->live;
	return 0;
}

static int
next(struct rt_loopr *lr, struct rt_stmt **sp)
{
	struct rt_stmt *q;
	char *s;

	rt_stmt_free(lr->last);
	lr->last = NULL;
	while ((s = rt_rgetline(lr->r, NULL)) != NULL) {
		lr->line++;
		s += strspn(s, BLANKS);
		if (*s == '#' && lr->stmts == 0 && strcmp(s, "#values hex") == 0)
			lr->hex = 1;
		if (*s == '#' || *s == '\0')
			continue;
		lr->stmts = 1;
		if (*s == '}') {
			if (lr->sp == 0) {
				lr->err = rt_rbad(lr->r, "'}' without a loop");
				return -1;
			}
			if (*blanks(s + 1) != '\0')
				return want(lr, blanks(s + 1), "the end of the line after '}'");
			/* a loop emits if something in it does */
			if (lr->sp > 1 && lr->stack[lr->sp]->live)
				lr->stack[lr->sp - 1]->live = 1;
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
			rt_stmt_free(q);
			return nomem(lr);
		}
		if (q->kind == RT_STMT_LOOP)
			lr->stack[++lr->sp] = q;
	}
	/* NULL is also a malformed line (a NUL byte in it: the parser would
	 * take the text before it) or an error that ends the stream; a model
	 * is a program, so either ends it */
	if (rt_rmalformed(lr->r) || rt_rfailed(lr->r)) {
		lr->err = rt_rerror(lr->r);
		lr->code = rt_rfailed(lr->r) ? RT_EIO : RT_EBAD;
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

int
rt_loopr_next(struct rt_loopr *lr, struct rt_stmt **sp)
{
	int k;

	lr->code = RT_EBAD;
	return (k = next(lr, sp)) < 0 ? lr->code : k;
}
