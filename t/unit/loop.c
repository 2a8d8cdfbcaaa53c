/* loop.c: unit tests of the loop-model library (lib/loop.h), as TAP:
 * built, written, read and expanded in memory against the values. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "tap.h"
#include "loop.h"


/* A sequence of phases of several kinds: nests with products of
 * indices, triangles, runs of noise, constants. */
static size_t
sequence(uint64_t *v, size_t cap, uint64_t seed)
{
	struct rt_rng g;
	size_t m = 0, i, j, k, ni, nj;
	uint64_t a, b;

	rt_rng_seed(&g, seed);
	while (m + 4000 < cap) {
		a = rt_rng_next(&g);
		b = rt_rng_below(&g, 64);
		ni = 1 + rt_rng_below(&g, 20);
		nj = 1 + rt_rng_below(&g, 20);
		switch (rt_rng_below(&g, 5)) {
		case 0:	/* a slope that changes with the outer index */
			for (i = 0; i < ni; i++)
				for (j = 0; j < nj; j++)
					v[m++] = a + i * j * b + 8 * j;
			break;
		case 1:	/* triangular */
			for (i = 0; i < ni; i++)
				for (j = 0; j <= i; j++)
					v[m++] = a - 3 * i + j;
			break;
		case 2:	/* noise */
			for (i = 0; i < ni; i++)
				v[m++] = rt_rng_next(&g);
			break;
		case 3:	/* a body of three with a nested loop */
			for (i = 0; i < ni; i++) {
				v[m++] = a + i;
				for (k = 0; k < 4; k++)
					v[m++] = b * k + i;
				v[m++] = UINT64_MAX - i;
			}
			break;
		default:
			for (i = 0; i < ni * nj; i++)
				v[m++] = a;
		}
	}
	return m;
}

struct sink {
	struct rt_loopw *w;
	uint64_t values, phases, looped, stop;
};

static int
phase(void *ctx, const struct rt_term *t)
{
	struct sink *s = ctx;

	s->values += rt_term_values(t);
	if (rt_term_depth(t) > 0)
		s->looped += rt_term_values(t);
	if (++s->phases == s->stop)
		return 7;
	return s->w ? rt_loopw_term(s->w, t) : 0;
}

struct got {
	uint64_t *v;
	size_t n, cap, calls, stop;
};

static int
take(void *ctx, const uint64_t *v, size_t k)
{
	struct got *g = ctx;

	if (++g->calls == g->stop)
		return 5;
	if (g->n + k <= g->cap)
		memcpy(g->v + g->n, v, k * sizeof *v);
	g->n += k;
	return 0;
}

/* Expand the model in path into g: what the values callback returned
 * last, or -1 if the model cannot be read. */
static int
expandfile(const char *path, struct got *g)
{
	struct rt_reader *r;
	struct rt_loopr *lr;
	struct rt_expander *x;
	struct rt_stmt *st;
	char err[1024];
	int k = -1, rc = 0;

	if ((r = rt_lopen(path, err, sizeof err)) == NULL)
		return -1;
	if ((lr = rt_loopr_open(r, err, sizeof err)) != NULL &&
	    (x = rt_expander_new(take, g)) != NULL) {
		while (rc == 0 && (k = rt_loopr_next(lr, &st)) > 0)
			rc = rt_expand(x, st);
		if (rc == 0)
			rc = rt_expand_flush(x);
		rt_expander_free(x);
	}
	rt_loopr_close(lr);
	rt_rclose(r);
	return k < 0 ? -1 : rc;
}

/* Values -> model file -> values, with these builder parameters. */
static int
roundtrip(const uint64_t *v, size_t m, unsigned period, unsigned depth, size_t lookback,
    const char *path, uint64_t *phases, uint64_t *looped)
{
	struct sink s = { 0 };
	struct got g = { 0 };
	struct rt_loopb *b;
	FILE *f;
	size_t i;
	int good = 1;

	if ((f = fopen(path, "w")) == NULL || (s.w = rt_loopw_open(f, 0)) == NULL)
		return 0;
	b = rt_loopb_new(period, depth, lookback, phase, &s);
	for (i = 0; i < m && b != NULL; i++)
		if (rt_loopb_add(b, v[i]))
			good = 0;
	if (b == NULL || rt_loopb_end(b))
		good = 0;
	rt_loopb_free(b);
	if (rt_loopw_close(s.w) || fclose(f) || s.values != m)
		good = 0;
	*phases = s.phases;
	*looped = s.looped;
	g.cap = m;
	if ((g.v = calloc(m, sizeof *g.v)) == NULL || expandfile(path, &g) != 0 ||
	    g.n != m || memcmp(g.v, v, m * sizeof *v) != 0)
		good = 0;
	free(g.v);
	return good;
}

/* A model from text: what the reader says of it. */
static const char *
readerr(const char *path, const char *text)
{
	static char msg[1024];
	struct rt_reader *r;
	struct rt_loopr *lr;
	struct rt_stmt *st;
	FILE *f;
	int k;

	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF || fclose(f))
		return "cannot write";
	if ((r = rt_lopen(path, msg, sizeof msg)) == NULL)
		return msg;
	if ((lr = rt_loopr_open(r, msg, sizeof msg)) == NULL) {
		rt_rclose(r);
		return msg;
	}
	while ((k = rt_loopr_next(lr, &st)) > 0)
		;
	snprintf(msg, sizeof msg, "%s", k < 0 ? rt_loopr_error(lr) : "");
	rt_loopr_close(lr);
	rt_rclose(r);
	return msg;
}

/* The values pli -x writes, against snprintf of each: the edges of the
 * decimal digits and of int64_t, and a spread of others. */
static size_t
edgevalues(uint64_t *v, size_t max)
{
	uint64_t p, x = 88172645463325252u;
	size_t nv = 0;

	v[nv++] = 0;
	v[nv++] = UINT64_MAX;
	v[nv++] = (uint64_t)INT64_MAX;
	v[nv++] = (uint64_t)INT64_MAX + 1;
	for (p = 1; p <= UINT64_MAX / 10; p *= 10) {
		v[nv++] = p - 1;
		v[nv++] = p;
		v[nv++] = p + 1;
		v[nv++] = -p;
		v[nv++] = -p + 1;
	}
	while (nv < max) {	/* xorshift, and numbers of every length */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[nv] = x >> (nv % 64);
		nv++;
	}
	return nv;
}

static int
formatted(const char *got, size_t len, const uint64_t *v, size_t nv, int hex)
{
	char b[32];
	size_t i, at = 0;
	int k;

	for (i = 0; i < nv; i++) {
		k = hex ? snprintf(b, sizeof b, "0x%" PRIx64 "\n", v[i]) :
		    snprintf(b, sizeof b, "%" PRId64 "\n", (int64_t)v[i]);
		if (at + (size_t)k > len || memcmp(got + at, b, (size_t)k) != 0)
			return 0;
		at += (size_t)k;
	}
	return at == len;
}

static void
valuetests(void)
{
	static uint64_t v[20000];
	static char buf[sizeof v / sizeof v[0] * RT_VALUE_LINEMAX];
	size_t nv = edgevalues(v, sizeof v / sizeof v[0]), len, memlen, i, k;
	struct rt_valw *w;
	char *mem = NULL;
	FILE *f;
	int hex, good = 1;

	for (hex = 0; hex < 2; hex++) {
		len = rt_values_format(buf, v, nv, hex);
		ok(formatted(buf, len, v, nv, hex), hex ? "values in hex as snprintf writes them" :
		    "values in decimal as snprintf writes them, the edges of the digits and of int64_t");
	}
	/* the writer: the values in pieces of 1 to 97, then all at once,
	 * across its buffer's flushes */
	if ((f = open_memstream(&mem, &memlen)) == NULL || (w = rt_valw_new(f)) == NULL) {
		ok(0, "the writer");
		return;
	}
	for (i = 0; i < nv; i += k) {
		k = i % 97 + 1 < nv - i ? i % 97 + 1 : nv - i;
		good &= rt_valw_put(w, v + i, k, 0) == 0;
	}
	good &= rt_valw_put(w, v, nv, 0) == 0 && rt_valw_flush(w) == 0 && fclose(f) == 0;
	rt_valw_free(w);
	len = rt_values_format(buf, v, nv, 0);
	ok(good && memlen == 2 * len && formatted(mem, len, v, nv, 0) &&
	    formatted(mem + len, len, v, nv, 0), "the writer writes the lines of every put, in order");
	free(mem);
}

int
main(void)
{
	static const struct { unsigned period, depth; size_t lookback; } par[] = {
		{ 16, 8, 0 }, { 1, 1, 0 }, { 2, 2, 0 }, { 4, 16, 0 }, { 16, 8, 7 }, { 64, 12, 500 },
	};
	static const struct { const char *text, *want, *desc; } bad[] = {
		{ "#reftrace trace 1 seq op addr size\n0 R 0x10 4\n",
		    ": a trace, not a loop model (pli makes one)", "another kind is refused, said what it is" },
		{ "#reftrace loops 1\nfor t1 = 0 to 3 {\n  emit t2\n}\n",
		    ":3: 't2' is not the index of a loop around it (t1)",
		    "an index not in scope: path:line: the index and those in scope" },
		{ "#reftrace loops 1\nemit 1 2\n",
		    ":2: want '+', '-' or the end of the line, not '2'",
		    "two terms without an operator: the token that is left over" },
		{ "#reftrace loops 1\nfor t1 = 0 to 1 2 {\n}\n",
		    ":2: want '+', '-' or '{', not '2'", "a loop bound likewise" },
		{ "#reftrace loops 1\nfor t1 = 0 to 1 {garbage\n}\n",
		    ":2: want the end of the line after '{', not 'garbage'", "garbage after '{'" },
		{ "#reftrace loops 1\nfor t1 = 0 to 1 {\n} junk\n",
		    ":3: want the end of the line after '}', not 'junk'", "garbage after '}'" },
		{ "#reftrace loops 1\nfor t1 = 0 to 1 {\n emit t1*t1\n}\n",
		    ":3: 't1' twice in a term (a model is linear in each index)",
		    "an index squared (read as t1 before)" },
		{ "#reftrace loops 1\nfor t1 = 0 to 1 {\n emit 3t1\n}\n",
		    ":3: want '+', '-' or the end of the line, not 't1'", "a coefficient without '*'" },
		{ "#reftrace loops 1\nemit\n",
		    ":2: want a number or an index, not the end of the line", "an emit of nothing" },
		{ "#reftrace loops 1\nvalues 1 2x\n",
		    ":2: want a signed 64-bit integer or 0x hex, not '2x'", "a value with a tail" },
		{ "#reftrace loops 1\nvalues 9223372036854775808\n",
		    ":2: want a signed 64-bit integer or 0x hex, not '9223372036854775808'", "a value past 2^63 - 1" },
		{ "#reftrace loops 1\nemit 18446744073709551616\n",
		    ":2: '18446744073709551616' is more than 2^64 - 1", "a coefficient past 2^64 - 1" },
		{ "#reftrace loops 1\nvalues1 2\n",
		    ":2: want 'values', 'emit', 'for', 'stream', 'fetch', 'order', 'jumps', '}' or numbers, not 'values1'", "a keyword run into a number" },
		{ "#reftrace loops 1\nfor t1 = 1 to 3 {\n}\n",
		    ":2: want 'for t1 = 0 to ...'", "a loop from 1" },
		{ "#reftrace loops 1\nfor t1 = 0 to 3 {\n  for t2 = 0 to t1 {\n  emit t2\n}\n",
		    ":2: the loop opened here is not closed", "a root loop left open: the line it opens on" },
		{ "#reftrace loops 1\nfor t2 = 0 to 3 {\n}\n",
		    ":2: want 'for t1 = 0 to ...'", "a loop out of order: path:line: want 'for t1 = 0 to ...'" },
		{ "#reftrace loops 1\nvalues -1 2\n  # a comment\n\nfor t1 = 0 to 0 {\n}\n",
		    "", "comments, blank lines and an empty loop are read" },
		{ "#reftrace loops 1\nvalues\t-9223372036854775808 +7 \nfor t1=0 to 1 + 0{\n\temit\t- 3 * t1 +18446744073709551615 \n}\t\n",
		    "", "blanks and tabs anywhere between tokens, a sign before the first term, 2^64 - 1" },
	};
	char path[] = "/tmp/reftrace-loop-XXXXXX", desc[256];
	struct sink s = { 0 };
	struct got g = { 0 };
	struct rt_loopb *b;
	uint64_t *v, phases, looped, nest[12 * 12 * 12];
	size_t m, i, cap = 200000;
	int fd, rc;

	printf("1..31\n");
	if ((fd = mkstemp(path)) < 0 || (v = calloc(cap, sizeof *v)) == NULL) {
		printf("Bail out! no scratch file\n");
		return 1;
	}
	close(fd);
	/* an i, j, k nest of 12 is one phase of one loop nest */
	for (i = 0; i < 12 * 12 * 12; i++)
		nest[i] = 1000 + 96 * (i / 144) + 8 * (i / 12 % 12) - 5 * (i % 12);
	ok(roundtrip(nest, 12 * 12 * 12, 16, 8, 0, path, &phases, &looped) && phases == 1 &&
	    looped == 12 * 12 * 12,
	    "a 12^3 nest: one phase, expanded exactly");
	m = sequence(v, cap, 11);
	for (i = 0; i < sizeof par / sizeof par[0]; i++) {
		snprintf(desc, sizeof desc, "%zu mixed values, 4/5 in loops, through the model and back: period %u, depth %u, lookback %zu",
		    m, par[i].period, par[i].depth, par[i].lookback);
		ok(roundtrip(v, m, par[i].period, par[i].depth, par[i].lookback, path, &phases, &looped) &&
		    looped > m / 5 * 4, desc);
	}
	ok(rt_loopb_new(0, 8, 0, phase, &s) == NULL && errno == EINVAL &&
	    rt_loopb_new(4097, 8, 0, phase, &s) == NULL && rt_loopb_new(16, 17, 0, phase, &s) == NULL &&
	    rt_loopb_new(16, 8, 4, phase, &s) == NULL, "a period, depth or lookback out of range is refused");

	/* the phase callback stops the builder with its value */
	s.stop = 3;
	b = rt_loopb_new(16, 8, 0, phase, &s);
	for (i = 0, rc = 0; i < m && rc == 0; i++)
		rc = rt_loopb_add(b, v[i]);
	ok(rc == 7 && s.phases == 3, "the phase callback's value stops the builder");
	rt_loopb_free(b);

	/* the values callback stops the expander with its value */
	g.stop = 1;
	ok(expandfile(path, &g) == 5 && g.calls == 1 && g.n == 0,
	    "the values callback's value stops the expander");

	/* the reader: the kind, and errors with their place */
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(desc, sizeof desc, "%s%s", *bad[i].want ? path : "", bad[i].want);
		ok(strcmp(readerr(path, bad[i].text), desc) == 0, bad[i].desc);
	}

	valuetests();
	unlink(path);
	free(v);
	return failed != 0;
}
