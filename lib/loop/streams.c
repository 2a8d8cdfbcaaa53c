/* streams.c: a trace's values split by instruction, each instruction's
 * stream modelled on its own and the interleaving modelled as a stream of
 * stream numbers (Ketterlin and Clauss apply nested-loop recognition to
 * traces this way: a load's addresses are a loop nest where the whole
 * trace is not).  The interleaving is modelled as its jumps: each stream
 * predicts the stream that came after it the last time (a stream not yet
 * followed, a new stream), and the jumps are the counts of streams that
 * came as predicted, each followed by the stream that came instead, as
 * its number's difference from the last stream's (a program's
 * instructions follow each other as they did before but at its
 * branches, so jumps are far fewer than values; a branch's target is
 * near it, so differences are short).  The model is written whole at
 * the end: "stream N KEY" and
 * the stream's statements, for each stream, then "jumps" or "order" (the
 * shorter) and its model. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "reftrace.h"
#include "loopint.h"

struct stream {
	struct rt_loopm *m;
	uint64_t key;
	int fetch;
	uint64_t num;		/* 1, 2, ... in the order of first values */
	struct rt_loopb *b;
	struct rt_loopw *w;
	FILE *f;		/* its statements, in memory, from the first */
	char *buf;
	size_t len;
	int hex;
	int order;		/* the stream of stream numbers, or of all
				 * values: not a stream fn sees */
	int other;		/* a fetch of another address than the pc */
	int loops;		/* a phase of it was a loop */
	size_t firstlen;	/* its literals (rt_loopw_lits) */
	uint64_t firstlit, lastlit;
	int anylit;
	struct stream *next;	/* the stream that came after it last: the
				 * jumps' prediction */
};

struct rt_loopm {
	unsigned period, depth;
	size_t lookback;
	int hex;
	rt_term_fn *fn;
	void *ctx;
	struct stream **s;	/* by number - 1 */
	size_t n, cap;
	struct rt_idtab tab;	/* stream numbers by key and fetch */
	struct stream *jumps, *last;	/* the jumps' builder; the last value's */
	uint64_t run;		/* streams as predicted since the last jump */
	/* the other order: the stream numbers, a value each (a loop nest's
	 * few instructions are a nest of stream numbers, where the jumps at
	 * the first iterations of its loops break the nest, as in the
	 * blocked multiply's data); dropped as soon as it is far longer than
	 * the jumps (NULL), as on a whole trace, where building it would be
	 * most of pli's work */
	struct stream *order;
	uint64_t added;
	/* the other hypothesis: all values as one stream, written instead
	 * if shorter (the order costs bytes a value, and one stream finds
	 * loops across instructions) */
	struct stream *one;
};

static int
phase(void *ctx, const struct rt_term *t)
{
	struct stream *s = ctx;
	int rc;

	if (!s->order && s->m->fn != NULL && (rc = s->m->fn(s->m->ctx, t)) != 0)
		return rc;
	s->loops |= rt_term_depth(t) > 0;
	/* a memory stream starts at 8 KB (glibc), shrunk to its text when
	 * closed: opened at a stream's first statement, not with the stream,
	 * the thousands of streams of a whole trace that hand their few
	 * values over at the end take one at a time, not a buffer each */
	if (s->w == NULL) {
		if ((s->f = open_memstream(&s->buf, &s->len)) == NULL)
			return RT_ENOMEM;
		if ((s->w = rt_loopw_new(s->f, s->hex, 0)) == NULL) {
			fclose(s->f);
			s->f = NULL;
			return -1;
		}
	}
	return rt_loopw_term(s->w, t) ? RT_ENOMEM : 0;	/* to memory */
}

static void
freestream(struct stream *s)
{
	if (s == NULL)
		return;
	rt_loopb_free(s->b);
	if (s->w != NULL)
		rt_loopw_close(s->w);
	if (s->f != NULL)
		fclose(s->f);
	free(s->buf);
	free(s);
}

static struct stream *
newstream(struct rt_loopm *m, uint64_t key, int fetch, int order, int hex)
{
	struct stream *s;

	if ((s = calloc(1, sizeof *s)) == NULL)
		return NULL;
	s->m = m;
	s->key = key;
	s->fetch = fetch;
	s->order = order;
	s->hex = hex;
	if ((s->b = rt_loopb_new(m->period, m->depth, m->lookback, phase, s)) == NULL) {
		freestream(s);
		return NULL;
	}
	return s;
}

struct rt_loopm *
rt_loopm_new(unsigned period, unsigned depth, size_t lookback, int hex, int one,
    rt_term_fn *fn, void *ctx)
{
	struct rt_loopm *m;

	if ((m = calloc(1, sizeof *m)) == NULL)
		return NULL;
	m->period = period;
	m->depth = depth;
	m->lookback = lookback;
	m->hex = hex;
	m->fn = fn;
	m->ctx = ctx;
	if ((m->jumps = newstream(m, 0, 0, 1, 0)) == NULL ||
	    (m->order = newstream(m, 0, 0, 1, 0)) == NULL ||
	    (one && (m->one = newstream(m, 0, 0, 1, hex)) == NULL)) {
		rt_loopm_free(m);
		return NULL;
	}
	return m;
}

void
rt_loopm_free(struct rt_loopm *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++)
		freestream(m->s[i]);
	freestream(m->jumps);
	freestream(m->order);
	freestream(m->one);
	free(m->s);
	rt_idtab_free(&m->tab);
	free(m);
}

struct key { uint64_t key; int fetch; };

static uint64_t
keyhash(uint64_t key, int fetch)
{
	return rt_hash64(key ^ (uint64_t)fetch << 63);
}

static uint64_t
streamhash(const void *ctx, uint32_t num)
{
	const struct stream *s = ((const struct rt_loopm *)ctx)->s[num - 1];

	return keyhash(s->key, s->fetch);
}

static int
streamis(const void *ctx, uint32_t num, const void *key)
{
	const struct stream *s = ((const struct rt_loopm *)ctx)->s[num - 1];
	const struct key *k = key;

	return s->key == k->key && s->fetch == k->fetch;
}

static struct stream *
find(struct rt_loopm *m, uint64_t key, int fetch)
{
	struct key k = { key, fetch };
	struct stream *s;
	uint64_t h = keyhash(key, fetch);
	uint32_t num;

	if ((num = rt_idtab_find(&m->tab, h, &k, streamis, m)) != 0)
		return m->s[num - 1];
	if (m->n >= UINT32_MAX - 1 || rt_grow(&m->s, &m->cap, m->n + 1, sizeof *m->s) ||
	    (s = newstream(m, key, fetch, 0, m->hex)) == NULL)
		return NULL;
	s->num = m->n + 1;
	m->s[m->n++] = s;
	if (rt_idtab_add(&m->tab, h, (uint32_t)s->num, streamhash, m))
		return NULL;
	return s;
}

/* The bytes a builder has written so far. */
static uint64_t
written(struct stream *s)
{
	long at;

	return s->f != NULL && (at = ftell(s->f)) > 0 ? (uint64_t)at : 0;
}

int
rt_loopm_add(struct rt_loopm *m, uint64_t pc, int fetch, uint64_t v)
{
	struct stream *last = m->last, *s = NULL;
	uint64_t want = m->n + 1;	/* the prediction: a new stream, */
	int rc;

	if (last != NULL && last->next != NULL)	/* or the one after last before */
		want = (s = last->next)->num;
	/* the prediction is looked at first, then the hash table (the
	 * prediction is right most of the time, a probe a cache miss) */
	if (s == NULL || s->key != pc || s->fetch != fetch) {
		if ((s = find(m, pc, fetch)) == NULL)
			return RT_ENOMEM;
		if (last != NULL)
			last->next = s;
	}
	m->last = s;
	if (s->num == want)
		m->run++;
	else {			/* a jump, from the last stream (0 at the start) */
		if ((rc = rt_loopb_add(m->jumps->b, m->run)) != 0 ||
		    (rc = rt_loopb_add(m->jumps->b, s->num - (last != NULL ? last->num : 0))) != 0)
			return rc;
		m->run = 0;
	}
	s->other |= v != pc;
	if ((m->one != NULL && (rc = rt_loopb_add(m->one->b, v)) != 0) ||
	    (m->order != NULL && (rc = rt_loopb_add(m->order->b, s->num)) != 0) ||
	    (rc = rt_loopb_add(s->b, v)) != 0)
		return rc;
	if (m->order != NULL && ++m->added % 65536 == 0 && written(m->order) >
	    2 * written(m->jumps) + 65536) {
		freestream(m->order);
		m->order = NULL;
	}
	return 0;
}

/* A stream's builder ended and its writer closed: its statements are in
 * s->buf.  0, or RT_ENOMEM (the writer writes to memory). */
static int
finish(struct stream *s)
{
	int rc = 0;

	if (rt_loopb_end(s->b))
		rc = RT_ENOMEM;
	if (s->w == NULL)	/* no statement (the order of no values) */
		return rc;
	rt_loopw_lits(s->w, &s->firstlen, &s->firstlit, &s->anylit, &s->lastlit);
	if (rt_loopw_close(s->w))
		rc = RT_ENOMEM;
	s->w = NULL;
	if (fclose(s->f) == EOF)
		rc = RT_ENOMEM;
	s->f = NULL;
	return rc;
}

/* v as its difference from prev, to *d, where that takes at most n
 * bytes as rt_loop_litlen counts them: its sign, or 0. */
static int
shorter(uint64_t prev, uint64_t v, size_t n, uint64_t *d)
{
	*d = v >= prev ? v - prev : prev - v;
	return rt_loop_litlen(*d, 1) <= n ? (v >= prev ? '+' : '-') : 0;
}

/* The stream table, to f, or with f NULL its bytes.  A stream with
 * statements is its line, "stream N [fetch] 0xKEY", and them.  The
 * fetches of an instruction's own address (as often as the order says)
 * have nothing to write but the address: the next such streams share a
 * fetch line, each address written as its difference from the address
 * written before it where that is not longer (a whole trace's thousands of
 * instructions run once: a stream line each would be most of a model).
 * A stream line's address is such a difference too, and its number is
 * left to count, but for streams with a loop, the ones a reader looks up
 * by their instruction and number; "stream" alone is the data of the
 * address named last (most of a whole trace's stream lines). */
#define FETCHCOLS 72	/* a fetch line ends past this column */
static size_t
table(const struct rt_loopm *m, FILE *f)
{
	char line[96];
	size_t i, len = 0, col = 0;
	uint64_t last = RT_NOPC, d;	/* the address written last */
	uint64_t lastlit = 0;	/* the literal written last, if haslit */
	int haslit = 0, sign, n;
	size_t skip;

	for (i = 0; i < m->n; i++) {
		const struct stream *s = m->s[i];

		if (s->fetch && !s->other && s->key != RT_NOPC) {
			n = col == 0 ? snprintf(line, sizeof line, "fetch") : 0;
			/* "+d" against "0xkey": a sign against two characters */
			if (last != RT_NOPC &&
			    (sign = shorter(last, s->key, rt_loop_litlen(s->key, 1) + 1, &d)))
				n += snprintf(line + n, sizeof line - (size_t)n, " %c%" PRIx64, sign, d);
			else
				n += snprintf(line + n, sizeof line - (size_t)n, " 0x%" PRIx64, s->key);
			last = s->key;
			col += (size_t)n;
			if (col > FETCHCOLS) {
				line[n++] = '\n';
				col = 0;
			}
			if (f != NULL)
				fwrite(line, 1, (size_t)n, f);
			len += (size_t)n;
			continue;
		}
		if (col > 0) {
			if (f != NULL)
				putc('\n', f);
			len++;
			col = 0;
		}
		if (s->key == RT_NOPC)
			n = snprintf(line, sizeof line, "stream %" PRIu64 "%s -\n", s->num,
			    s->fetch ? " fetch" : "");
		else if (!s->loops && s->key == last)	/* the address just named */
			n = snprintf(line, sizeof line, "stream%s\n", s->fetch ? " fetch" : "");
		else if (!s->loops && last != RT_NOPC &&
		    (sign = shorter(last, s->key, rt_loop_litlen(s->key, 1) + 1, &d))) {
			n = snprintf(line, sizeof line, "stream%s %c%" PRIx64 "\n",
			    s->fetch ? " fetch" : "", sign, d);
			last = s->key;
		} else {
			n = snprintf(line, sizeof line, "stream %" PRIu64 "%s 0x%" PRIx64 "\n",
			    s->num, s->fetch ? " fetch" : "", s->key);
			last = s->key;
		}
		/* a section that begins with literals: its first as its
		 * difference from the last literal before it, where shorter */
		skip = 0;
		if (m->hex && s->firstlen > 0 && haslit &&
		    (sign = shorter(lastlit, s->firstlit, s->firstlen - 1, &d))) {
			n += snprintf(line + n, sizeof line - (size_t)n, "%c%" PRIx64, sign, d);
			skip = s->firstlen;
		}
		if (s->anylit) {
			haslit = 1;
			lastlit = s->lastlit;
		}
		if (f != NULL) {
			fwrite(line, 1, (size_t)n, f);
			if (s->len > skip)
				fwrite(s->buf + skip, 1, s->len - skip, f);
		}
		len += (size_t)n + s->len - skip;
	}
	if (col > 0) {
		if (f != NULL)
			putc('\n', f);
		len++;
	}
	return len;
}

int
rt_loopm_end(struct rt_loopm *m, FILE *f)
{
	const struct stream *o;
	uint64_t len = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (finish(m->s[i]))
			return RT_ENOMEM;
	if ((m->n > 0 && rt_loopb_add(m->jumps->b, m->run)) || finish(m->jumps) ||
	    (m->order != NULL && finish(m->order)) || (m->one != NULL && finish(m->one)))
		return RT_ENOMEM;
	if (rt_loop_header(f, m->hex))
		return RT_EIO;
	if (m->n == 0)		/* no values: the header alone */
		return 0;
	/* the shorter order (on a tie the numbers: they read plainly) */
	o = m->order != NULL && m->order->len <= m->jumps->len ? m->order : m->jumps;
	len = table(m, NULL) + 6 + o->len;	/* "order\n", "jumps\n" */
	if (m->one != NULL && len > m->one->len) {
		/* the values as one stream are shorter */
		fwrite(m->one->buf, 1, m->one->len, f);
		return ferror(f) ? RT_EIO : 0;
	}
	table(m, f);
	fputs(o == m->order ? "order\n" : "jumps\n", f);
	fwrite(o->buf, 1, o->len, f);
	return ferror(f) ? RT_EIO : 0;
}
