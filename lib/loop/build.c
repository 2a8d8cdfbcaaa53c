/* build.c: loop models built bottom-up from a sequence of values. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loopint.h"

/*
 * Ketterlin and Clauss's nested loop recognition (CGO 2008): every value
 * is appended as a term; at the tail, k terms that repeat three times with
 * parameters that change by a constant become a loop, and a loop absorbs
 * the next k terms that continue it.  Loops of loops follow, so a pattern
 * of any period is found as a nest of short ones.
 */

#define MAXPERIOD 4096
#define NARM 8		/* loops whose next iteration is awaited */

struct rt_loopb {
	struct rt_term **tail;	/* the terms not yet handed over, where
				 * loops can still form */
	size_t ntail, captail;
	struct rt_term *freelist;	/* terms are recycled: one a value */
	uint64_t *scratch;	/* a loop's parameter differences */
	size_t capscratch;
	size_t *at;		/* where each body term's differences start */
	struct rt_term **turn;	/* a loop's body turning, the terms left
				 * after it, the terms cut before it:
				 * 4 * period */
	uint64_t *vals;		/* settle: an iteration's values */
	size_t nv, capvals, pos;
	size_t *vat;		/* where each body term's values start */
	uint64_t budget;	/* iterations vals may still walk */
	uint64_t *base, *step;	/* affine: a loop's values */
	struct arm {		/* a loop whose next iteration the values
				 * may be (arm, predict) */
		struct rt_term *loop;
		size_t at;	/* its place in the tail */
		uint64_t c, nv, total;	/* its count, its next iteration's
				 * values, the values before them */
	} arms[NARM];
	size_t narm;
	uint64_t due;		/* the next value count at which one is */
	uint64_t total;		/* values added */

	size_t period, depth, window;
	rt_term_fn *fn;
	void *ctx;
	int broken;		/* out of memory once: only free is left */
};

uint64_t
rt_term_values(const struct rt_term *t)
{
	return t->nval;
}

int
rt_term_depth(const struct rt_term *t)
{
	return t->depth;
}

static struct rt_term *
newterm(struct rt_loopb *b, uint32_t nbody)
{
	struct rt_term *t;
	struct rt_term **body = NULL;

	if (nbody && (body = calloc(nbody, sizeof *body)) == NULL)
		return NULL;
	if ((t = b->freelist) != NULL)
		b->freelist = t->next;
	else if ((t = malloc(sizeof *t)) == NULL) {
		free(body);
		return NULL;
	}
	memset(t, 0, sizeof *t);
	t->c = &t->c0;
	t->body = body;
	t->nbody = nbody;
	return t;
}

static void
freeterm(struct rt_loopb *b, struct rt_term *t)
{
	uint32_t i;

	for (i = 0; i < t->nbody; i++)
		freeterm(b, t->body[i]);
	free(t->body);
	if (t->c != &t->c0)
		free(t->c);
	t->next = b->freelist;
	b->freelist = t;
}

static uint64_t
mix(uint64_t h, uint64_t v)
{
	return rt_hash64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* Do the shapes of a and b agree, and by how much do the parameters
 * differ?  Returns 1 and writes the differences (b - a, in DFS order) to
 * *d (or compares with it when check). */
static int
diff(const struct rt_term *a, const struct rt_term *b, uint64_t **d, int check)
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
ncoef(const struct rt_term *t)
{
	size_t n = (size_t)1 << t->levels;
	uint32_t i;

	for (i = 0; i < t->nbody; i++)
		n += ncoef(t->body[i]);
	return n;
}

/* a gets one more loop around it: a + t * delta, t the new top level.
 * Out of memory, some of a's terms are wrapped and some not, each whole. */
static int
wrap(struct rt_term *a, const uint64_t **d)
{
	size_t m, n = (size_t)1 << a->levels;
	uint64_t *c;
	uint32_t i;

	if ((c = malloc(2 * n * sizeof *c)) == NULL)
		return -1;
	for (m = 0; m < n; m++) {
		c[m] = a->c[m];
		c[n + m] = *(*d)++;
	}
	if (a->c != &a->c0)
		free(a->c);
	a->c = c;
	a->levels++;
	for (i = 0; i < a->nbody; i++)
		if (wrap(a->body[i], d))
			return -1;
	return 0;
}

/* Does b (a root term) equal body term a evaluated at top index t? */
static int
continues(const struct rt_term *a, const struct rt_term *b, uint64_t t)
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

/* Can the last 3k terms become a loop?  They must have one shape and
 * parameters in arithmetic progression.  The newest terms are checked
 * first, values of leaves and counts of loops directly: most tries fail
 * at once.  1 if they
 * did, 0 if not, -1 out of memory. */
static inline int
maybe(struct rt_term **g, size_t k)
{
	size_t j;

	for (j = k; j-- > 0;) {
		if (g[j]->hash != g[k + j]->hash || g[j]->hash != g[2 * k + j]->hash)
			return 0;
		/* a leaf's value, a loop's count: the first coefficient of
		 * each (terms of the tail have no loops around them) */
		if (g[2 * k + j]->c0 - g[k + j]->c0 != g[k + j]->c0 - g[j]->c0)
			return 0;
	}
	return 1;
}

/* Body term a of a root loop at the loop's index i: a root term (its
 * nval the caller's). */
static struct rt_term *
instance(struct rt_loopb *b, const struct rt_term *a, uint64_t i)
{
	size_t m, n = (size_t)1 << (a->levels - 1);
	struct rt_term *t;
	uint32_t j;

	if ((t = newterm(b, a->nbody)) == NULL)
		return NULL;
	t->hash = a->hash;
	t->levels = (uint8_t)(a->levels - 1);
	t->depth = a->depth;
	t->nbody = 0;		/* the body terms made so far: freeterm's */
	if (n > 1 && (t->c = malloc(n * sizeof *t->c)) == NULL) {
		t->c = &t->c0;
		freeterm(b, t);
		return NULL;
	}
	for (m = 0; m < n; m++)
		t->c[m] = a->c[m] + i * a->c[n + m];
	for (j = 0; j < a->nbody; j++, t->nbody++)
		if ((t->body[j] = instance(b, a->body[j], i)) == NULL) {
			freeterm(b, t);
			return NULL;
		}
	return t;
}

/* Body term a of a root loop, its loop's index t becoming t + s. */
static void
shift(struct rt_term *a, uint64_t s)
{
	size_t m, n = (size_t)1 << (a->levels - 1);
	uint32_t j;

	for (m = 0; m < n; m++)
		a->c[m] += s * a->c[n + m];
	for (j = 0; j < a->nbody; j++)
		shift(a->body[j], s);
}

static uint64_t
mixbody(const struct rt_term *loop)
{
	uint64_t h = mix(0x4c4f4f50, loop->nbody);
	uint32_t j;

	for (j = 0; j < loop->nbody; j++)
		h = mix(h, loop->body[j]->hash);
	return h;
}

/* rt_poly_at, without its loop for a root term or its body's terms */
static inline uint64_t
poly(const struct rt_term *u, const uint64_t *t)
{
	if (u->levels == 0)
		return u->c[0];
	if (u->levels == 1)
		return u->c[0] + u->c[1] * t[0];
	return rt_poly_at(u->c, u->levels, t);
}

/* The values of loop u's body (values alone) at its index i, inside
 * the loops at in + 1: base + i * step, a value each. */
static void
affine(struct rt_loopb *b, const struct rt_term *u, uint64_t *in)
{
	uint32_t j;

	for (j = 0; j < u->nbody; j++) {
		in[0] = 0;
		b->base[j] = poly(u->body[j], in);
		in[0] = 1;
		b->step[j] = poly(u->body[j], in) - b->base[j];
	}
}

/* The last value term u makes at t, to *v: 0, or -1 if it makes none
 * (a loop of no iterations last) or its last loop counts past lim. */
static int
lastval(const struct rt_term *u, const uint64_t *t, uint64_t lim, uint64_t *v)
{
	uint64_t n, in[RT_LOOP_MAXDEPTH + 1];

	while (u->nbody > 0) {
		if ((n = poly(u, t)) == 0 || n > lim)
			return -1;
		if (u->levels > 0)
			memmove(in + 1, t, u->levels * sizeof *t);	/* t may be in */
		in[0] = n - 1;
		t = in;
		u = u->body[u->nbody - 1];
	}
	*v = poly(u, t);
	return 0;
}

/*
 * The values of body term u of a root loop at the indices t, appended to
 * b->vals: 0; 1 past cap values or past b->budget iterations (a count
 * negative at t reads as a huge one); -1 out of memory.
 */
static int
vals(struct rt_loopb *b, const struct rt_term *u, const uint64_t *t, uint64_t cap)
{
	uint64_t i, n, in[RT_LOOP_MAXDEPTH + 1];
	uint32_t j;
	int rc;

	if (u->nbody == 0) {
		if (b->nv >= cap)
			return 1;
		if (b->nv == b->capvals &&
		    rt_grow(&b->vals, &b->capvals, b->nv + 1, sizeof *b->vals))
			return -1;
		b->vals[b->nv++] = poly(u, t);
		return 0;
	}
	if ((n = poly(u, t)) > b->budget)
		return 1;
	b->budget -= n;
	memcpy(in + 1, t, u->levels * sizeof *t);
	if (u->depth == 1) {	/* values: each affine in the loop's index */
		if (n * u->nbody > cap - b->nv)
			return 1;
		if (b->nv + n * u->nbody > b->capvals &&
		    rt_grow(&b->vals, &b->capvals, b->nv + n * u->nbody, sizeof *b->vals))
			return -1;
		affine(b, u, in);
		for (i = 0; i < n; i++)
			for (j = 0; j < u->nbody; j++)
				b->vals[b->nv++] = b->base[j] + i * b->step[j];
		return 0;
	}
	for (i = 0; i < n; i++) {
		in[0] = i;
		for (j = 0; j < u->nbody; j++)
			if ((rc = vals(b, u->body[j], in, cap)) != 0)
				return rc;
	}
	return 0;
}

/* Term u's values at t, the last first, against b->vals from b->pos
 * down: 1 where they part or b->vals is used up, 0 if all of u matched. */
static int
rmatch(struct rt_loopb *b, const struct rt_term *u, const uint64_t *t)
{
	uint64_t i, in[RT_LOOP_MAXDEPTH + 1];
	uint32_t j;

	if (u->nbody == 0) {
		if (b->pos == 0 || b->vals[b->pos - 1] != poly(u, t))
			return 1;
		b->pos--;
		return 0;
	}
	if (u->levels > 0)
		memcpy(in + 1, t, u->levels * sizeof *t);
	if (u->depth == 1) {	/* values: each affine in the loop's index */
		affine(b, u, in);
		for (i = poly(u, t); i-- > 0;)
			for (j = u->nbody; j-- > 0;) {
				if (b->pos == 0 || b->vals[b->pos - 1] != b->base[j] + i * b->step[j])
					return 1;
				b->pos--;
			}
		return 0;
	}
	for (i = poly(u, t); i-- > 0;) {
		in[0] = i;
		for (j = u->nbody; j-- > 0;)
			if (rmatch(b, u->body[j], in))
				return 1;
	}
	return 0;
}

/* Root term u, a loop of values, keeps its first p values (0 < p <
 * u->nval): its whole iterations, then the values of the one begun, as
 * terms to out (a loop of one iteration as its values: a term the search
 * would have made of them).  How many, or -1 out of memory (u as it
 * was). */
static long
prefix(struct rt_loopb *b, struct rt_term *u, uint64_t p, struct rt_term **out)
{
	uint64_t i = p / u->nbody;
	size_t q, n = i > 1;

	for (q = n ? i * u->nbody : 0; q < p; q++, n++)
		if ((out[n] = instance(b, u->body[q % u->nbody], q / u->nbody)) == NULL) {
			while (n-- > (i > 1))
				freeterm(b, out[n]);
			return -1;
		} else
			out[n]->nval = 1;
	if (i <= 1)
		freeterm(b, u);
	else {
		out[0] = u;
		u->c0 = i;
		u->nval = i * u->nbody;
	}
	return (long)n;
}

/* The buffers settle and predict work in, made at the first loop that
 * needs them: most of a whole trace's thousands of streams make none,
 * and would pay for them with each builder. */
static int
scratch(struct rt_loopb *b)
{
	if ((b->turn = calloc(4 * b->period, sizeof *b->turn)) == NULL ||
	    (b->vat = calloc(b->period, sizeof *b->vat)) == NULL ||
	    (b->base = calloc(2 * b->period, sizeof *b->base)) == NULL) {
		free(b->turn);
		free(b->vat);
		b->turn = NULL;
		b->vat = NULL;
		return -1;
	}
	b->step = b->base + b->period;
	return 0;
}

/* Room for n terms in the tail: 0, or -1 out of memory. */
static int
room(struct rt_loopb *b, size_t n)
{
	return n > b->captail && rt_grow(&b->tail, &b->captail, n, sizeof *b->tail) ? -1 : 0;
}

/* May tail term u give its last p values (p < u->nval) to loop, after
 * it?  A loop of loops may not; a loop of several values may give part
 * of an iteration only to a loop of loops (a run taking the last value
 * of such a loop breaks it and gains a value). */
static int
cuttable(const struct rt_term *u, uint64_t p, const struct rt_term *loop)
{
	return u->depth == 1 && (u->nbody == 1 || p % u->nbody == 0 || loop->depth > 1);
}

/*
 * The loop just made, at the end of the tail, took the first three
 * iterations the tail had in a row as terms; its true first iteration may
 * lie before them, in values the greedy search cut into terms another
 * way: a run 9, 10, ... 27 where the loop's first term is the run 10 ...
 * 27, or a run 0 ... 4 where its body is a run 0 ... 3 and the value 4.
 * Kept as terms, that iteration would stay out of the loop, and out of
 * the outer loops' first iteration too: a copy at every level of a nest.
 * So the search keeps, for every loop it makes, the other readings of the
 * values before it open: those values are compared with the loop's
 * iteration at index -1 value by value, whatever terms hold them, and
 * while a whole iteration matches it joins the loop, the term it begins
 * in cut where it begins.  When only the last whole body terms of an
 * iteration match, begun inside a term, the loop turns to begin with them
 * (its last iteration's same terms then stand after it, for the next
 * iteration to take).  A loop of loops is not cut: a guess that breaks
 * the nest it was found in more often than it helps (the models of
 * fir2dim and the matrix multiplies grew when loops of loops were cut).
 * 0, or -1 out of memory.
 */
static int
settle(struct rt_loopb *b)
{
	struct rt_term *loop, *u, **body, **r, **pre;
	size_t at, s, k, q, jb;
	uint64_t cap, nv, p0, mb, n, v, minus1 = UINT64_MAX;
	long npre;
	int rc;

	for (;;) {
		at = b->ntail - 1;
		loop = b->tail[at];
		k = loop->nbody;
		if (at == 0)
			return 0;
		/* the iteration at -1, not much longer than the loop's
		 * iterations (a count negative at -1 is refused) */
		cap = 2 * (loop->nval / loop->c0) + 64;
		/* most loops made have no match before them: their last
		 * values differ (a loop of no iterations: the long way) */
		if (lastval(loop->body[k - 1], &minus1, cap, &n) == 0 &&
		    lastval(b->tail[at - 1], NULL, UINT64_MAX, &v) == 0 && n != v)
			return 0;
		if (b->turn == NULL && scratch(b))
			return -1;
		body = b->turn;
		r = body + b->period;
		pre = r + b->period;
		b->nv = 0;
		b->budget = 4 * cap;
		for (q = 0; q < k; q++) {
			b->vat[q] = b->nv;
			if ((rc = vals(b, loop->body[q], &minus1, cap)) != 0)
				return rc < 0 ? -1 : 0;
		}
		if ((nv = b->nv) == 0)
			return 0;
		b->pos = nv;
		for (s = at, p0 = 0; s > 0 && b->pos > 0;) {
			p0 = b->pos;
			if (rmatch(b, b->tail[--s], NULL))
				break;
		}
		if (b->pos == 0) {	/* a whole iteration: the loop's first */
			u = b->tail[s];	/* its last p0 values begin it */
			npre = 0;
			if (p0 < u->nval) {
				if (!cuttable(u, p0, loop))
					return 0;
				/* prefix() leaves at most 2 * nbody - 1, then
				 * the loop */
				if (room(b, s + 2 * (size_t)u->nbody + 1) ||
				    (npre = prefix(b, u, u->nval - p0, pre)) < 0)
					return -1;
			} else
				freeterm(b, u);
			for (q = s + 1; q < at; q++)
				freeterm(b, b->tail[q]);
			memcpy(b->tail + s, pre, (size_t)npre * sizeof *pre);
			b->tail[s + (size_t)npre] = loop;
			b->ntail = s + (size_t)npre + 1;
			for (q = 0; q < k; q++)
				shift(loop->body[q], minus1);
			loop->c0++;
			loop->nval += nv;
			continue;
		}
		/* the last jb body terms of an iteration, begun inside a term */
		for (jb = 0; jb < k && b->vat[k - 1 - jb] >= b->pos; jb++)
			;
		if (jb == 0)
			return 0;
		mb = nv - b->vat[k - jb];
		for (s = at, n = 0; n < mb;)
			n += b->tail[--s]->nval;
		u = b->tail[s];
		p0 = mb - (n - u->nval);	/* u's last p0 values begin them */
		if (p0 == u->nval || !cuttable(u, p0, loop))
			return 0;
		if (room(b, s + 2 * (size_t)u->nbody + 1 + jb))
			return -1;
		n = loop->c0;
		for (q = 0; q < jb; q++)
			if ((r[q] = instance(b, loop->body[k - jb + q], n - 1)) == NULL) {
				while (q-- > 0)
					freeterm(b, r[q]);
				return -1;
			} else
				mb -= (r[q]->nval = rt_term_walk(r[q], NULL, NULL, NULL));
		if ((npre = prefix(b, u, u->nval - p0, pre)) < 0) {
			for (q = 0; q < jb; q++)
				freeterm(b, r[q]);
			return -1;
		}
		for (q = 0; q < k; q++)
			body[q] = loop->body[(q + k - jb) % k];
		for (q = 0; q < jb; q++)
			shift(body[q], minus1);
		memcpy(loop->body, body, k * sizeof *body);
		loop->hash = mixbody(loop);
		loop->nval += mb;
		for (q = s + 1; q < at; q++)
			freeterm(b, b->tail[q]);
		memcpy(b->tail + s, pre, (size_t)npre * sizeof *pre);
		b->tail[s + (size_t)npre] = loop;
		memcpy(b->tail + s + (size_t)npre + 1, r, jb * sizeof *r);
		b->ntail = s + (size_t)npre + 1 + jb;
		return 0;
	}
}

/* The values term u makes at t, counted by its loops' counts, or more
 * than cap (or past b->budget iterations). */
static uint64_t
count(struct rt_loopb *b, const struct rt_term *u, const uint64_t *t, uint64_t cap)
{
	uint64_t i, n, sum = 0, in[RT_LOOP_MAXDEPTH + 1];
	uint32_t j;

	if (u->nbody == 0)
		return 1;
	if ((n = poly(u, t)) > cap || n > b->budget)
		return cap + 1;
	if (u->depth == 1)	/* a loop of values */
		return n * u->nbody;
	b->budget -= n;
	if (u->levels > 0)
		memcpy(in + 1, t, u->levels * sizeof *t);
	for (i = 0; i < n; i++) {
		in[0] = i;
		for (j = 0; j < u->nbody; j++)
			if ((sum += count(b, u->body[j], in, cap - sum)) > cap)
				return cap + 1;
	}
	return sum;
}

/* When the next armed loop's values will have come (after the last
 * hypothesis is armed or tried: between, a hypothesis dropped only makes
 * predictall look once for nothing). */
static void
setdue(struct rt_loopb *b)
{
	size_t i;
	uint64_t d;

	b->due = UINT64_MAX;
	for (i = 0; i < b->narm; i++)
		if ((d = b->arms[i].total + b->arms[i].nv) > b->total && d < b->due)
			b->due = d;
}

/*
 * The other hypotheses going forward: the values after a loop in the
 * tail may be its next iteration whatever terms the search makes of them
 * meanwhile (a run that the iteration begins and the last one ended, a
 * loop of two where the loop's body has a loop of three).  arm() counts
 * the values of that iteration when a loop comes to end the tail, and
 * keeps the count beside those of the loops before it (NARM, the
 * innermost last); when that many values have come after one of them,
 * predict() compares them with the loop's next iteration value by value,
 * and if they are, the loop takes them.  The loop is read again there,
 * not trusted from arm().  Loops of loops only: a loop of values takes
 * its next iteration term by term all the same (its body is values), and
 * arming every loop at every iteration would cost work a value for
 * nothing.
 */
static void
arm(struct rt_loopb *b)
{
	struct rt_term *loop = b->tail[b->ntail - 1];
	struct arm *a;
	uint64_t n = 0, cap;
	uint32_t j;

	if (loop->depth < 2 || loop->c0 == 0)
		return;
	/* the hypotheses the tail has not overtaken */
	while (b->narm > 0 && ((a = &b->arms[b->narm - 1])->at >= b->ntail - 1 ||
	    b->total - a->total >= a->nv))
		b->narm--;
	cap = 2 * (loop->nval / loop->c0) + 64;
	b->budget = 4 * cap;
	for (j = 0; j < loop->nbody && n <= cap; j++)
		n += count(b, loop->body[j], &loop->c0, cap - n);
	if (n > 0 && n <= cap) {
		if (b->narm == NARM)
			memmove(b->arms, b->arms + 1, --b->narm * sizeof *b->arms);
		a = &b->arms[b->narm++];
		a->loop = loop;
		a->at = b->ntail - 1;
		a->c = loop->c0;
		a->nv = n;
		a->total = b->total;
	}
	setdue(b);
}

/* The values after armed loop a, as many as its next iteration has: are
 * they that iteration?  1 if they were, taken; 0 if not; -1 out of
 * memory. */
static int
predict(struct rt_loopb *b, const struct arm *a)
{
	struct rt_term *loop = a->loop;
	size_t s;
	uint32_t j;
	int rc;

	/* the term there may not be the loop armed, freed and made again
	 * (the values below are read from it, so a loop is enough); not a
	 * value */
	if (a->at >= b->ntail || b->tail[a->at] != loop || loop->nbody == 0 ||
	    loop->c0 != a->c)
		return 0;
	if (b->turn == NULL && scratch(b))
		return -1;
	b->nv = 0;
	b->budget = 4 * a->nv + 64;
	for (j = 0; j < loop->nbody; j++)
		if ((rc = vals(b, loop->body[j], &loop->c0, a->nv)) != 0)
			return rc < 0 ? -1 : 0;
	if (b->nv != a->nv)
		return 0;
	b->pos = b->nv;
	for (s = b->ntail; s > a->at + 1;)
		if (rmatch(b, b->tail[--s], NULL))
			return 0;
	if (b->pos != 0)
		return 0;
	for (s = a->at + 1; s < b->ntail; s++)
		freeterm(b, b->tail[s]);
	b->ntail = a->at + 1;
	loop->c0++;
	loop->nval += b->nv;
	return 1;
}

/* A value has come: the first armed loop whose next iteration it ends,
 * and that has it, takes it.  1 if one did, 0 if none, -1 out of
 * memory. */
static int
predictall(struct rt_loopb *b)
{
	size_t i;
	int rc;

	if (b->total != b->due)
		return 0;
	for (i = 0; i < b->narm; i++)
		if (b->total - b->arms[i].total == b->arms[i].nv &&
		    (rc = predict(b, &b->arms[i])) != 0) {
			b->narm = i;	/* arm() arms it again */
			setdue(b);
			return rc;
		}
	setdue(b);
	return 0;
}

static int
create(struct rt_loopb *b, size_t k)
{
	struct rt_term **g = b->tail + b->ntail - 3 * k, *loop;
	size_t j, need = 0, *at = b->at;
	uint64_t *d, *s;
	const uint64_t *dc;
	uint8_t depth = 0;

	if (!maybe(g, k))
		return 0;
	for (j = 0; j < k; j++) {
		at[j] = need;
		need += ncoef(g[j]);
		if (g[j]->depth > depth)
			depth = g[j]->depth;
	}
	if (depth + 1 > b->depth)
		return 0;
	if (need > b->capscratch) {
		if ((s = reallocarray(b->scratch, 2 * need, sizeof *s)) == NULL)
			return -1;
		b->scratch = s;
		b->capscratch = 2 * need;
	}
	for (j = k; j-- > 0;) {
		if (g[j]->nbody == 0) {
			b->scratch[at[j]] = g[k + j]->c0 - g[j]->c0;
			continue;
		}
		d = b->scratch + at[j];
		if (!diff(g[j], g[k + j], &d, 0))
			return 0;
		d = b->scratch + at[j];
		if (!diff(g[k + j], g[2 * k + j], &d, 1))
			return 0;
	}
	if ((loop = newterm(b, (uint32_t)k)) == NULL)
		return -1;
	for (dc = b->scratch, j = 0; j < k; j++)
		if (wrap(g[j], &dc)) {
			free(loop->body);	/* empty yet */
			loop->body = NULL;
			loop->nbody = 0;
			freeterm(b, loop);
			return -1;
		}
	loop->c[0] = 3;
	for (j = 0; j < 3 * k; j++)
		loop->nval += g[j]->nval;
	loop->depth = depth + 1;
	for (j = 0; j < k; j++) {
		loop->body[j] = g[j];
		freeterm(b, g[k + j]);
		freeterm(b, g[2 * k + j]);
	}
	loop->hash = mixbody(loop);
	b->ntail -= 3 * k;
	b->tail[b->ntail++] = loop;
	return settle(b) ? -1 : 1;
}

/* Does the loop before the last k terms go on with them? */
static int
extend(struct rt_loopb *b, size_t k)
{
	struct rt_term *loop = b->tail[b->ntail - k - 1], **g = b->tail + b->ntail - k;
	size_t j;

	if (loop->nbody != k || loop->levels != 0)
		return 0;
	for (j = 0; j < k; j++)
		if (!continues(loop->body[j], g[j], loop->c[0]))
			return 0;
	for (j = 0; j < k; j++) {
		loop->nval += g[j]->nval;
		freeterm(b, g[j]);
	}
	loop->c[0]++;
	b->ntail -= k;
	return 1;
}

/* Hand the first n terms of the tail over.  What fn returns when not 0
 * stops it, with the terms handed over gone from the tail. */
static int
handover(struct rt_loopb *b, size_t n)
{
	size_t i, j, k;
	int rc = 0;

	for (k = 0; k < n && rc == 0; k++) {
		rc = b->fn(b->ctx, b->tail[k]);
		freeterm(b, b->tail[k]);
	}
	memmove(b->tail, b->tail + k, (b->ntail - k) * sizeof *b->tail);
	b->ntail -= k;
	for (i = j = 0; i < b->narm; i++)
		if (b->arms[i].at >= k) {
			b->arms[j] = b->arms[i];
			b->arms[j++].at -= k;
		}
	b->narm = j;
	return rc;
}

struct rt_loopb *
rt_loopb_new(unsigned period, unsigned depth, size_t lookback, rt_term_fn *fn, void *ctx)
{
	struct rt_loopb *b;

	if (period < 1 || period > MAXPERIOD || depth < 1 || depth > RT_LOOP_MAXDEPTH) {
		errno = EINVAL;
		return NULL;
	}
	if (lookback == 0)
		lookback = 3 * (size_t)period + 2;
	if (lookback < 5) {
		errno = EINVAL;
		return NULL;
	}
	if ((b = calloc(1, sizeof *b)) == NULL)
		return NULL;
	/* a loop forms from 3 periods in the window */
	b->period = period < (lookback - 2) / 3 ? period : (lookback - 2) / 3;
	b->depth = depth;
	b->window = lookback;
	b->fn = fn;
	b->ctx = ctx;
	/* the tail holds at most 2 * window + 1 terms; it grows to that as
	 * values come (a trace has thousands of streams of a few values) */
	b->captail = 8;
	b->tail = calloc(b->captail, sizeof *b->tail);
	b->at = calloc(b->period, sizeof *b->at);
	if (b->tail == NULL || b->at == NULL) {
		rt_loopb_free(b);
		return NULL;
	}
	return b;
}

/* The loops the last term closes, made and extended: 0, or -1 out of
 * memory. */
static int
reduce(struct rt_loopb *b)
{
	struct rt_term *last;
	size_t k, n, period = b->period;
	int again;

	do {
		again = 0;
		n = b->ntail;
		last = b->tail[n - 1];
		for (k = 1; k <= period && k < n; k++) {
			/* the first tests of each, here: most k fail them */
			if (b->tail[n - k - 1]->nbody == k && (again = extend(b, k)) != 0)
				break;
			if (n >= 3 * k && b->tail[n - k - 1]->hash == last->hash &&
			    (again = create(b, k)) != 0)
				break;
		}
	} while (again > 0);
	return again < 0 ? -1 : 0;
}

/* Value v at the end of the tail, and the loops it closes. */
static int
step(struct rt_loopb *b, uint64_t v)
{
	struct rt_term *t;
	int rc;

	if ((b->ntail == b->captail &&
	    rt_grow(&b->tail, &b->captail, b->ntail + 1, sizeof *b->tail)) ||
	    (t = newterm(b, 0)) == NULL)
		return -1;
	t->c[0] = v;
	t->nval = 1;
	t->hash = 0x4c454146;
	b->tail[b->ntail++] = t;
	b->total++;
	/* the terms first (a loop extended by them is no longer armed),
	 * then the values */
	if (reduce(b) || (rc = predictall(b)) < 0 || (rc > 0 && reduce(b)))
		return -1;
	arm(b);
	return 0;
}

int
rt_loopb_add(struct rt_loopb *b, uint64_t v)
{
	int rc;

	if (b->broken || step(b, v)) {
		b->broken = 1;
		errno = ENOMEM;
		return -1;
	}
	/* terms this far back can no longer join a loop */
	if (b->ntail > 2 * b->window && (rc = handover(b, b->ntail - b->window)) != 0)
		return rc;
	return 0;
}

int
rt_loopb_end(struct rt_loopb *b)
{
	if (b->broken) {
		errno = ENOMEM;
		return -1;
	}
	return handover(b, b->ntail);
}

void
rt_loopb_free(struct rt_loopb *b)
{
	struct rt_term *t;
	size_t k;

	if (b == NULL)
		return;
	for (k = 0; k < b->ntail; k++)
		freeterm(b, b->tail[k]);
	while ((t = b->freelist) != NULL) {
		b->freelist = t->next;
		free(t);
	}
	free(b->tail);
	free(b->at);
	free(b->turn);
	free(b->vat);
	free(b->base);
	free(b->vals);
	free(b->scratch);
	free(b);
}
