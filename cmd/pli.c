/* pli: model an integer sequence as nested loops (periodic-linear interpolation). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "reftrace.h"
#include "util.h"

/*
 * Clauss and Kenmei's periodic-linear model, built bottom-up as Ketterlin
 * and Clauss's nested loop recognition does: every value is appended as a
 * term; at the tail, k terms that repeat three times with parameters that
 * change by a constant become a loop, and a loop absorbs the next k terms
 * that continue it.  Loops of loops follow, so a pattern of any period is
 * found as a nest of short ones.  A parameter (a value, a loop count) is a
 * multilinear polynomial in the indices of the loops around it; arithmetic
 * is modulo 2^64, so the model reproduces every value exactly.
 */

struct term {
	uint64_t hash;		/* shape: structure without the numbers */
	uint64_t *c;		/* value (leaf) or count (loop): 1 << levels coefs */
	struct term **body;
	uint64_t nval;		/* values it emits, as a root term */
	uint32_t nbody;		/* 0: a leaf */
	uint8_t levels;		/* loops around it inside its root term */
	uint8_t depth;		/* loops in it, itself included */
	uint64_t c0;		/* c when levels is 0: no allocation */
	struct term *next;	/* on the free list */
};

static struct term *freelist;

static uint64_t pflag = 16, dflag = 8, Bflag = 1, fflag = 1, wflag;
static int xflag, sflag, kflag, series, Iflag = RT_FMT_AUTO;
static const char *oflag;

static FILE *fo, *mf;		/* output; the model (a temporary file for -s) */

/* the terms not yet written: the tail where loops can still form */
static struct term **tail;
static size_t ntail, captail;
static uint64_t nvalues, looped, nterms, maxdepth, nloops;

enum { O_DEPTH = U_LONG, O_LOOKBACK, O_PERIOD, O_STATS };
static const struct u_opt opts[] = {
	{ 'B', "block", "bytes", "model addresses as block numbers" },
	{ 'f', "field", "n", "a series: the integers of field n (1)" },
	{ 'I', "format", "format", "a trace format, or series: integers a line" },
	U_OPT_KEEP,
	U_OPT_OUTPUT,
	{ 'x', "expand", NULL, "expand models back into their values" },
	{ O_DEPTH, "depth", "n", "loops nested at most n deep (8)" },
	{ O_LOOKBACK, "lookback", "n", "terms kept where loops can still form (3 * period + 2)" },
	{ O_PERIOD, "period", "n", "loop bodies of at most n terms (16)" },
	{ O_STATS, "stats", NULL, "the model's size beside gzip and xz, not the model" },
	{ 0 }
};
static const struct u_prog prog = { "pli", "[file ...]", opts, "-x [-o file] [model ...]" };

/* Terms are recycled: one is made for every value. */
static struct term *
newterm(uint32_t nbody)
{
	struct term *t;

	if ((t = freelist) != NULL)
		freelist = t->next;
	else if ((t = malloc(sizeof *t)) == NULL)
		u_die(1, "out of memory");
	memset(t, 0, sizeof *t);
	t->c = &t->c0;
	if (nbody && (t->body = calloc(nbody, sizeof *t->body)) == NULL)
		u_die(1, "out of memory");
	t->nbody = nbody;
	return t;
}

static void
freeterm(struct term *t)
{
	uint32_t i;

	for (i = 0; i < t->nbody; i++)
		freeterm(t->body[i]);
	free(t->body);
	if (t->c != &t->c0)
		free(t->c);
	t->next = freelist;
	freelist = t;
}

static uint64_t
mix(uint64_t h, uint64_t v)
{
	return rt_hash64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* Do the shapes of a[0..k) and b[0..k) agree, and by how much do the
 * parameters differ?  Returns 1 and writes the differences (b - a, in DFS
 * order) to *d (or compares with it when check). */
static int
diff(const struct term *a, const struct term *b, uint64_t **d, int check)
{
	size_t m, n;
	uint32_t i;

	if (a->hash != b->hash || a->nbody != b->nbody || a->levels != b->levels)
		return 0;
	n = (size_t)1 << a->levels;
	for (m = 0; m < n; m++, (*d)++) {
		if (check) {
			if (b->c[m] - a->c[m] != **d)
				return 0;
		} else
			**d = b->c[m] - a->c[m];
	}
	for (i = 0; i < a->nbody; i++)
		if (!diff(a->body[i], b->body[i], d, check))
			return 0;
	return 1;
}

static size_t
ncoef(const struct term *t)
{
	size_t n = (size_t)1 << t->levels;
	uint32_t i;

	for (i = 0; i < t->nbody; i++)
		n += ncoef(t->body[i]);
	return n;
}

/* a gets one more loop around it: a + t * delta, t the new top level */
static void
wrap(struct term *a, const uint64_t **d)
{
	size_t m, n = (size_t)1 << a->levels;
	uint64_t *c;
	uint32_t i;

	if ((c = malloc(2 * n * sizeof *c)) == NULL)
		u_die(1, "out of memory");
	for (m = 0; m < n; m++) {
		c[m] = a->c[m];
		c[n + m] = *(*d)++;
	}
	if (a->c != &a->c0)
		free(a->c);
	a->c = c;
	a->levels++;
	for (i = 0; i < a->nbody; i++)
		wrap(a->body[i], d);
}

/* Does b (a root term) equal body term a evaluated at top index t? */
static int
continues(const struct term *a, const struct term *b, uint64_t t)
{
	size_t m, n;
	uint32_t i;

	if (a->hash != b->hash || a->nbody != b->nbody || a->levels != b->levels + 1)
		return 0;
	n = (size_t)1 << b->levels;
	for (m = 0; m < n; m++)
		if (a->c[m] + t * a->c[n + m] != b->c[m])
			return 0;
	for (i = 0; i < a->nbody; i++)
		if (!continues(a->body[i], b->body[i], t))
			return 0;
	return 1;
}

static uint64_t *scratch;
static size_t capscratch;

/* Can the last 3k terms become a loop?  They must have one shape and
 * parameters in arithmetic progression.  The newest terms are checked
 * first, values of leaves directly: most tries fail at once. */
static int
create(size_t k)
{
	struct term **g = tail + ntail - 3 * k, *loop;
	size_t j, need = 0, at[4096 + 1];
	uint64_t *d;
	const uint64_t *dc;
	uint8_t depth = 0;

	for (j = k; j-- > 0;) {
		if (g[j]->hash != g[k + j]->hash || g[j]->hash != g[2 * k + j]->hash)
			return 0;
		if (g[j]->nbody == 0 &&
		    g[2 * k + j]->c0 - g[k + j]->c0 != g[k + j]->c0 - g[j]->c0)
			return 0;
	}
	for (j = 0; j < k; j++) {
		at[j] = need;
		need += ncoef(g[j]);
		if (g[j]->depth > depth)
			depth = g[j]->depth;
	}
	if (depth + 1 > dflag)
		return 0;
	if (need > capscratch) {
		capscratch = 2 * need;
		if ((scratch = realloc(scratch, capscratch * sizeof *scratch)) == NULL)
			u_die(1, "out of memory");
	}
	for (j = k; j-- > 0;) {
		if (g[j]->nbody == 0) {
			scratch[at[j]] = g[k + j]->c0 - g[j]->c0;
			continue;
		}
		d = scratch + at[j];
		if (!diff(g[j], g[k + j], &d, 0))
			return 0;
		d = scratch + at[j];
		if (!diff(g[k + j], g[2 * k + j], &d, 1))
			return 0;
	}
	loop = newterm((uint32_t)k);
	loop->c[0] = 3;
	for (j = 0; j < 3 * k; j++)
		loop->nval += g[j]->nval;
	loop->hash = mix(0x4c4f4f50, k);
	loop->depth = depth + 1;
	for (dc = scratch, j = 0; j < k; j++) {
		wrap(g[j], &dc);
		loop->body[j] = g[j];
		loop->hash = mix(loop->hash, g[j]->hash);
		freeterm(g[k + j]);
		freeterm(g[2 * k + j]);
	}
	ntail -= 3 * k;
	tail[ntail++] = loop;
	return 1;
}

/* Does the loop before the last k terms go on with them? */
static int
extend(size_t k)
{
	struct term *loop = tail[ntail - k - 1], **g = tail + ntail - k;
	size_t j;

	if (loop->nbody != k || loop->levels != 0)
		return 0;
	for (j = 0; j < k; j++)
		if (!continues(loop->body[j], g[j], loop->c[0]))
			return 0;
	for (j = 0; j < k; j++) {
		loop->nval += g[j]->nval;
		freeterm(g[j]);
	}
	loop->c[0]++;
	ntail -= k;
	return 1;
}

/* Print a polynomial: the coefficient of mask m multiplies the indices of
 * its bits; bit b is the loop b levels out from the innermost, named
 * t(depth - b).  With minus1, the polynomial less one (a loop's last index). */
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
print(FILE *f, const struct term *t, int depth)
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

/* Literals are written a line of up to 16 values. */
static uint64_t lit[16];
static int nlit;

static void
flushlit(void)
{
	int i;

	if (nlit == 0)
		return;
	fputs("values", mf);
	for (i = 0; i < nlit; i++)
		fprintf(mf, " %" PRId64, (int64_t)lit[i]);
	fputc('\n', mf);
	nlit = 0;
}

static void
flush1(struct term *t)
{
	nterms++;
	if (t->nbody == 0) {
		lit[nlit++] = t->c[0];
		if (nlit == 16)
			flushlit();
	} else {
		flushlit();
		print(mf, t, 0);
		looped += t->nval;
		nloops++;
		if (t->depth > maxdepth)
			maxdepth = t->depth;
	}
	freeterm(t);
}

/* --stats: the model against the sequence and against gzip and xz. */
static uint64_t rawbytes, gzbytes;
static z_stream gz;
static FILE *seqf;		/* the sequence as text, for xz */

static void
statvalue(uint64_t v)
{
	char b[32], o[4096];
	int n = snprintf(b, sizeof b, "%" PRId64 "\n", (int64_t)v);

	rawbytes += (uint64_t)n;
	gz.next_in = (Bytef *)b;
	gz.avail_in = (uInt)n;
	do {
		gz.next_out = (Bytef *)o;
		gz.avail_out = sizeof o;
		deflate(&gz, Z_NO_FLUSH);
		gzbytes += sizeof o - gz.avail_out;
	} while (gz.avail_out == 0);
	if (seqf != NULL)
		fputs(b, seqf);
}

static void
stats(void)
{
	char o[4096], cmd[64];
	uint64_t xzbytes = 0, model;
	FILE *p;
	int xzok = 0;

	do {
		gz.next_out = (Bytef *)o;
		gz.avail_out = sizeof o;
		deflate(&gz, Z_FINISH);
		gzbytes += sizeof o - gz.avail_out;
	} while (gz.avail_out == 0);
	deflateEnd(&gz);
	fflush(mf);
	model = (uint64_t)ftell(mf);
	if (seqf != NULL && fflush(seqf) == 0) {
		/* xz is not a library we link: use the program where there is one */
		rewind(seqf);
		snprintf(cmd, sizeof cmd, "xz -c </dev/fd/%d 2>/dev/null | wc -c", fileno(seqf));
		if ((p = popen(cmd, "r")) != NULL) {
			xzok = fscanf(p, "%" SCNu64, &xzbytes) == 1 && xzbytes > 0;
			pclose(p);
		}
	}
	fprintf(fo, "#reftrace pli-stats 1 values phases loops depth coverage "
	    "text_bytes model_bytes gzip_bytes xz_bytes model_ratio gzip_ratio xz_ratio\n");
	fprintf(fo, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %.4f %" PRIu64
	    " %" PRIu64 " %" PRIu64 " ", nvalues, nterms, nloops, maxdepth,
	    nvalues ? (double)looped / nvalues : 0, rawbytes, model, gzbytes);
	if (xzok)
		fprintf(fo, "%" PRIu64, xzbytes);
	else
		fputc('-', fo);
	fprintf(fo, " %.1f %.1f ", model ? (double)rawbytes / model : 0,
	    gzbytes ? (double)rawbytes / gzbytes : 0);
	if (xzok)
		fprintf(fo, "%.1f\n", (double)rawbytes / xzbytes);
	else
		fputs("-\n", fo);
}

static void
value(uint64_t v)
{
	struct term *t;
	size_t k, window = wflag;
	int again;

	nvalues++;
	if (sflag)
		statvalue(v);
	t = newterm(0);
	t->c[0] = v;
	t->nval = 1;
	t->hash = 0x4c454146;
	if (ntail == captail) {
		captail = captail ? 2 * captail : 4 * window;
		if ((tail = realloc(tail, captail * sizeof *tail)) == NULL)
			u_die(1, "out of memory");
	}
	tail[ntail++] = t;
	do {
		again = 0;
		for (k = 1; k <= pflag && !again; k++) {
			if (ntail >= k + 1 && extend(k))
				again = 1;
			else if (ntail >= 3 * k && create(k))
				again = 1;
		}
	} while (again);
	/* terms this far back can no longer join a loop: write them */
	if (ntail > 2 * window) {
		for (k = 0; k < ntail - window; k++)
			flush1(tail[k]);
		memmove(tail, tail + ntail - window, window * sizeof *tail);
		ntail = window;
	}
}

static int
item(void *ctx, struct rt_rec *rec)
{
	(void)ctx;
	if (rec->kind == RT_ACCESS)
		value(rec->addr / Bflag);
	return 0;
}

/* A series: integers (decimal or 0x hex, signed) in field fflag. */
static void
readseries(const char *file)
{
	char ebuf[1024], *s, *end;
	struct rt_reader *r;
	uint64_t u;
	int nd, base;

	if ((r = rt_ropen(file, RT_FMT_LINES, ebuf, sizeof ebuf)) == NULL) {
		u_warn("%s", ebuf);
		u_status = 1;
		return;
	}
	while ((s = rt_rfield(r, (unsigned)fflag)) != NULL) {
		/* plain decimal, the common case, without strtoull */
		for (u = 0, nd = 0, end = s; *end >= '0' && *end <= '9' && nd < 19; end++, nd++)
			u = u * 10 + (uint64_t)(*end - '0');
		if (nd > 0 && *end == '\0' && (s[0] != '0' || nd == 1)) {
			value(u / Bflag);
			continue;
		}
		/* decimal, or hex after 0x: never octal */
		base = s[*s == '-'] == '0' && (s[(*s == '-') + 1] | 0x20) == 'x' ? 16 : 10;
		errno = 0;
		if (*s == '-')
			u = (uint64_t)strtoll(s, &end, base);
		else	/* up to 2^64 - 1, kept modulo 2^64 */
			u = strtoull(s, &end, base);
		if (end == s || errno == ERANGE || *end != '\0') {
			u_warn("%s", rt_rbad(r, "field %" PRIu64 ": not an integer", fflag));
			if (kflag)
				continue;
			u_status = 1;
			break;
		}
		value(u / Bflag);
	}
	if (*rt_rerror(r)) {
		u_warn("%s", rt_rerror(r));
		u_status = 1;
	}
	rt_rclose(r);
}

/* Expansion: parse the pseudo-code back into terms, then run them. */
struct prog {
	int kind;		/* 0 emit, 1 loop, 2 values */
	int depth;		/* the loop's index number, for a loop */
	uint64_t *c;		/* polynomial over t1..t(depth) as masks of bits */
	int nt;			/* indices it may use */
	struct prog **body;
	size_t nbody, cap;
	uint64_t *vals;
	size_t nvals;
	uint64_t base, step;	/* an emit, inside the current loop entry */
};

static char outbuf[(1 << 16) + 48];
static size_t outn;

static void
outflush(void)
{
	if (outn && fwrite(outbuf, 1, outn, fo) != outn) {
		u_wfail(oflag);
	}
	outn = 0;
}

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* A value as a decimal line, two digits at a time: expansion is bound by
 * this. */
static inline void
out(uint64_t u)
{
	char b[48], *e = b + 24, *p = e;
	uint64_t a = (int64_t)u < 0 ? -u : u;
	unsigned d;

	*--p = '\n';
	while (a >= 100) {
		d = (unsigned)(a % 100) * 2;
		a /= 100;
		p -= 2;
		memcpy(p, digits2 + d, 2);
	}
	if (a >= 10) {
		p -= 2;
		memcpy(p, digits2 + a * 2, 2);
	} else
		*--p = (char)('0' + a);
	if ((int64_t)u < 0)
		*--p = '-';
	if (outn + 24 > sizeof outbuf - 48)
		outflush();
	memcpy(outbuf + outn, p, 24);	/* a fixed-size copy is cheaper */
	outn += (size_t)(e - p);
}

static uint64_t
evalp(const struct prog *p, const uint64_t *t)
{
	uint64_t s = 0, v;
	size_t m;
	int b;

	for (m = 0; m < ((size_t)1 << p->nt); m++) {
		if ((v = p->c[m]) == 0)
			continue;
		for (b = 0; b < p->nt; b++)
			if (m & ((size_t)1 << b))
				v *= t[b];
		s += v;
	}
	return s;
}

static void
run(const struct prog *p, uint64_t *t)
{
	uint64_t n, i, base, step;
	size_t j;
	struct prog *e;
	int b;

	switch (p->kind) {
	case 0:
		out(evalp(p, t));
		return;
	case 2:
		for (j = 0; j < p->nvals; j++)
			out(p->vals[j]);
		return;
	}
	n = evalp(p, t) + 1;
	b = p->depth - 1;
	/* the emits of this loop are affine in its index: base + i * step,
	 * found once per entry instead of a polynomial per value */
	for (j = 0; j < p->nbody; j++) {
		e = p->body[j];
		if (e->kind != 0)
			continue;
		t[b] = 0;
		base = evalp(e, t);
		t[b] = 1;
		step = evalp(e, t) - base;
		e->base = base;
		e->step = step;
	}
	if (p->nbody == 1 && p->body[0]->kind == 0) {
		e = p->body[0];
		for (i = 0, base = e->base; i < n; i++, base += e->step)
			out(base);
		return;
	}
	for (i = 0; i < n; i++) {
		t[b] = i;
		for (j = 0; j < p->nbody; j++) {
			e = p->body[j];
			if (e->kind == 0)
				out(e->base + i * e->step);
			else
				run(e, t);
		}
	}
}

static void
freeprog(struct prog *p)
{
	size_t j;

	for (j = 0; j < p->nbody; j++)
		freeprog(p->body[j]);
	free(p->body);
	free(p->c);
	free(p->vals);
	free(p);
}

static int
parsepoly(char *s, struct prog *p, int nt)
{
	char *end;
	uint64_t coef;
	size_t mask;
	int neg, idx, have;

	p->nt = nt;
	if ((p->c = calloc((size_t)1 << nt, sizeof *p->c)) == NULL)
		u_die(1, "out of memory");
	for (;;) {
		s += strspn(s, " ");
		if (*s == '\0' || *s == '{')
			return 0;
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
			mask |= (size_t)1 << (idx - 1);
			s = end;
			have = 1;
		}
		if (!have)
			return -1;
		p->c[mask] += neg ? -coef : coef;
	}
}

static void
expand(const char *file)
{
	char ebuf[1024], *s, *end;
	struct rt_reader *r;
	struct prog *stack[70], *top, *q;
	uint64_t t[64] = { 0 };
	size_t len;
	int sp = 0, d;

	if ((r = rt_ropen(file, RT_FMT_LINES, ebuf, sizeof ebuf)) == NULL) {
		u_warn("%s", ebuf);
		u_status = 1;
		return;
	}
	if ((top = calloc(1, sizeof *top)) == NULL)
		u_die(1, "out of memory");
	top->kind = 1;
	stack[0] = top;
	while ((s = rt_rgetline(r, &len)) != NULL) {
		s += strspn(s, " \t");
		if (*s == '#' || *s == '\0')
			continue;
		if (*s == '}') {
			if (sp == 0)
				u_die(1, "%s", rt_rbad(r, "'}' without a loop"));
			q = stack[sp--];
			if (sp == 0) {	/* a whole root loop: run it, free it */
				run(q, t);
				top->nbody--;
				freeprog(q);
			}
			continue;
		}
		if ((q = calloc(1, sizeof *q)) == NULL)
			u_die(1, "out of memory");
		if (strncmp(s, "values", 6) == 0) {
			q->kind = 2;
			for (s += 6; *(s += strspn(s, " ")); s = end) {
				if ((q->vals = realloc(q->vals, (q->nvals + 1) * sizeof *q->vals)) == NULL)
					u_die(1, "out of memory");
				errno = 0;
				q->vals[q->nvals++] = (uint64_t)strtoll(s, &end, 10);
				if (end == s || errno)
					u_die(1, "%s", rt_rbad(r, "bad value"));
			}
		} else if (strncmp(s, "emit ", 5) == 0) {
			q->kind = 0;
			if (parsepoly(s + 5, q, sp))
				u_die(1, "%s", rt_rbad(r, "bad expression"));
		} else if (strncmp(s, "for t", 5) == 0) {
			q->kind = 1;
			d = (int)strtol(s + 5, &end, 10);
			if (d != sp + 1 || strncmp(end, " = 0 to ", 8) != 0 || sp >= 63)
				u_die(1, "%s", rt_rbad(r, "want 'for t%d = 0 to ...'", sp + 1));
			q->depth = d;
			if (parsepoly(end + 8, q, sp) || strchr(end, '{') == NULL)
				u_die(1, "%s", rt_rbad(r, "bad loop bound"));
		} else
			u_die(1, "%s", rt_rbad(r, "not a loop model line"));
		if (sp == 0 && q->kind != 1) {
			run(q, t);
			freeprog(q);
			continue;
		}
		if (stack[sp]->nbody == stack[sp]->cap) {
			stack[sp]->cap = stack[sp]->cap ? 2 * stack[sp]->cap : 4;
			if ((stack[sp]->body = realloc(stack[sp]->body,
			    stack[sp]->cap * sizeof *stack[sp]->body)) == NULL)
				u_die(1, "out of memory");
		}
		stack[sp]->body[stack[sp]->nbody++] = q;
		if (q->kind == 1)
			stack[++sp] = q;
	}
	if (*rt_rerror(r))
		u_die(1, "%s", rt_rerror(r));
	if (sp != 0)
		u_die(1, "%s: a loop is not closed", rt_rpath(r));
	freeprog(top);
	rt_rclose(r);
}

int
main(int argc, char *argv[])
{
	int c, i;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'B':
			if (rt_parse_size(optarg, &Bflag) || Bflag == 0)
				u_bad("-B %s: bad block size", optarg);
			break;
		case O_DEPTH:
			if (rt_parse_u64(optarg, &dflag) || dflag < 1 || dflag > 16)
				u_bad("--depth %s: want a depth from 1 to 16", optarg);
			break;
		case 'f':
			if (rt_parse_u64(optarg, &fflag) || fflag == 0)
				u_bad("-f %s: bad field", optarg);
			series = 1;
			break;
		case 'I':
			if (strcmp(optarg, "series") == 0)
				series = 1;
			else if ((Iflag = rt_fmt_parse(optarg)) < 0 || Iflag == RT_FMT_LINES)
				u_bad("-I %s: unknown format", optarg);
			break;
		case 'k': kflag = 1; break;
		case 'o': oflag = optarg; break;
		case O_PERIOD:
			if (rt_parse_u64(optarg, &pflag) || pflag < 1 || pflag > 4096)
				u_bad("--period %s: want a period from 1 to 4096", optarg);
			break;
		case O_STATS: sflag = 1; break;
		case O_LOOKBACK:
			if (rt_parse_u64(optarg, &wflag) || wflag < 5 || wflag > 1 << 20)
				u_bad("--lookback %s: want 5 to 2^20 terms", optarg);
			break;
		case 'x': xflag = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (wflag == 0)
		wflag = 3 * pflag + 2;
	if (pflag > (wflag - 2) / 3)	/* a loop forms from 3 periods in the window */
		pflag = (wflag - 2) / 3;
	fo = u_open(oflag);
	if (xflag) {
		if (argc == 0)
			expand("-");
		for (i = 0; i < argc; i++)
			expand(argv[i]);
		outflush();
		goto done;
	}
	mf = fo;
	if (sflag) {
		if ((mf = tmpfile()) == NULL || (seqf = tmpfile()) == NULL)
			u_die(1, "a temporary file:");
		if (deflateInit2(&gz, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			u_die(1, "zlib: cannot initialise");
	}
	fprintf(mf, "# pli: a loop model (pli -x expands it)\n");
	if (series) {
		if (argc == 0)
			readseries("-");
		for (i = 0; i < argc; i++)
			readseries(argv[i]);
	} else if (rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag))
		u_status = 1;
	for (i = 0; (size_t)i < ntail; i++)
		flush1(tail[i]);
	ntail = 0;
	flushlit();
	if (sflag)
		stats();
done:
	u_close(fo, oflag);
	return u_status;
}
