/* settle.c: the loops a builder (build.c) makes, made whole: the first
 * iteration recovered from the terms before a loop, and the next one
 * predicted from the values to come. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loopint.h"

/* The values of loop u's body (values alone) at its index i, inside
 * the loops at in + 1: base + i * step, a value each. */
static void
affine(struct rt_loopb *b, const struct rt_term *u, uint64_t *in)
{
	uint32_t j;

	for (j = 0; j < u->nbody; j++) {
		in[0] = 0;
		b->base[j] = rt_term_poly(u->body[j], in);
		in[0] = 1;
		b->step[j] = rt_term_poly(u->body[j], in) - b->base[j];
	}
}

/* The last value term u makes at t, to *v: 0, or -1 if it makes none
 * (a loop of no iterations last) or its last loop counts past lim. */
static int
lastval(const struct rt_term *u, const uint64_t *t, uint64_t lim, uint64_t *v)
{
	uint64_t n, in[RT_LOOP_MAXDEPTH + 1];

	while (u->nbody > 0) {
		if ((n = rt_term_poly(u, t)) == 0 || n > lim)
			return -1;
		if (u->levels > 0)
			memmove(in + 1, t, u->levels * sizeof *t);	/* t may be in */
		in[0] = n - 1;
		t = in;
		u = u->body[u->nbody - 1];
	}
	*v = rt_term_poly(u, t);
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
		b->vals[b->nv++] = rt_term_poly(u, t);
		return 0;
	}
	if ((n = rt_term_poly(u, t)) > b->budget)
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
		if (b->pos == 0 || b->vals[b->pos - 1] != rt_term_poly(u, t))
			return 1;
		b->pos--;
		return 0;
	}
	if (u->levels > 0)
		memcpy(in + 1, t, u->levels * sizeof *t);
	if (u->depth == 1) {	/* values: each affine in the loop's index */
		affine(b, u, in);
		for (i = rt_term_poly(u, t); i-- > 0;)
			for (j = u->nbody; j-- > 0;) {
				if (b->pos == 0 || b->vals[b->pos - 1] != b->base[j] + i * b->step[j])
					return 1;
				b->pos--;
			}
		return 0;
	}
	for (i = rt_term_poly(u, t); i-- > 0;) {
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
		if ((out[n] = rt_loopb_instance(b, u->body[q % u->nbody], q / u->nbody)) == NULL) {
			while (n-- > (i > 1))
				rt_loopb_freeterm(b, out[n]);
			return -1;
		} else
			out[n]->nval = 1;
	if (i <= 1)
		rt_loopb_freeterm(b, u);
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
/* The iteration at -1 whole in the tail from s on, u = tail[s]'s last p0
 * values beginning it: the loop (at the tail's end, at) takes it.  1 if
 * it did, 0 if u may not be cut, -1 out of memory. */
static int
takewhole(struct rt_loopb *b, size_t at, size_t s, uint64_t p0, uint64_t minus1)
{
	struct rt_term *loop = b->tail[at], *u = b->tail[s], **pre = b->turn + 2 * b->period;
	size_t q, k = loop->nbody;
	uint64_t nv = b->nv;
	long npre = 0;

	if (p0 < u->nval) {
		if (!cuttable(u, p0, loop))
			return 0;
		/* prefix() leaves at most 2 * nbody - 1, then the loop */
		if (room(b, s + 2 * (size_t)u->nbody + 1) ||
		    (npre = prefix(b, u, u->nval - p0, pre)) < 0)
			return -1;
	} else
		rt_loopb_freeterm(b, u);
	for (q = s + 1; q < at; q++)
		rt_loopb_freeterm(b, b->tail[q]);
	memcpy(b->tail + s, pre, (size_t)npre * sizeof *pre);
	b->tail[s + (size_t)npre] = loop;
	b->ntail = s + (size_t)npre + 1;
	for (q = 0; q < k; q++)
		rt_term_shift(loop->body[q], minus1);
	loop->c0++;
	loop->nval += nv;
	return 1;
}

/* Only the last body terms of the iteration at -1 match, begun inside a
 * term: the loop (at the tail's end, at) turns to begin with them, its
 * last iteration's same terms standing after it.  0, or -1 out of
 * memory. */
static int
turnloop(struct rt_loopb *b, size_t at, uint64_t minus1)
{
	struct rt_term *loop = b->tail[at], *u, **body = b->turn;
	struct rt_term **r = body + b->period, **pre = r + b->period;
	size_t s, q, jb, k = loop->nbody;
	uint64_t mb, n, p0, nv = b->nv;
	long npre;

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
		if ((r[q] = rt_loopb_instance(b, loop->body[k - jb + q], n - 1)) == NULL) {
			while (q-- > 0)
				rt_loopb_freeterm(b, r[q]);
			return -1;
		} else
			mb -= (r[q]->nval = rt_term_walk(r[q], NULL, NULL, NULL));
	if ((npre = prefix(b, u, u->nval - p0, pre)) < 0) {
		for (q = 0; q < jb; q++)
			rt_loopb_freeterm(b, r[q]);
		return -1;
	}
	for (q = 0; q < k; q++)
		body[q] = loop->body[(q + k - jb) % k];
	for (q = 0; q < jb; q++)
		rt_term_shift(body[q], minus1);
	memcpy(loop->body, body, k * sizeof *body);
	loop->hash = rt_term_mixbody(loop);
	loop->nval += mb;
	for (q = s + 1; q < at; q++)
		rt_loopb_freeterm(b, b->tail[q]);
	memcpy(b->tail + s, pre, (size_t)npre * sizeof *pre);
	b->tail[s + (size_t)npre] = loop;
	memcpy(b->tail + s + (size_t)npre + 1, r, jb * sizeof *r);
	b->ntail = s + (size_t)npre + 1 + jb;
	return 0;
}

int
rt_loopb_settle(struct rt_loopb *b)
{
	struct rt_term *loop;
	size_t at, s, k, q;
	uint64_t cap, p0, n, v, minus1 = UINT64_MAX;
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
			return RT_ENOMEM;
		b->nv = 0;
		b->budget = 4 * cap;
		for (q = 0; q < k; q++) {
			b->vat[q] = b->nv;
			if ((rc = vals(b, loop->body[q], &minus1, cap)) != 0)
				return rc < 0 ? RT_ENOMEM : 0;
		}
		if (b->nv == 0)
			return 0;
		b->pos = b->nv;
		for (s = at, p0 = 0; s > 0 && b->pos > 0;) {
			p0 = b->pos;
			if (rmatch(b, b->tail[--s], NULL))
				break;
		}
		if (b->pos > 0)
			return turnloop(b, at, minus1);
		if ((rc = takewhole(b, at, s, p0, minus1)) <= 0)
			return rc;
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
	if ((n = rt_term_poly(u, t)) > cap || n > b->budget)
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
 * loop of two where the loop's body has a loop of three).  Arming counts
 * the values of that iteration when a loop comes to end the tail, and
 * keeps the count beside those of the loops before it (NARM, the
 * innermost last); when that many values have come after one of them,
 * predict() compares them with the loop's next iteration value by value,
 * and if they are, the loop takes them.  The loop is read again there,
 * not trusted from the arming.  Loops of loops only: a loop of values takes
 * its next iteration term by term all the same (its body is values), and
 * arming every loop at every iteration would cost work a value for
 * nothing.
 */
void
rt_loopb_arm(struct rt_loopb *b)
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
		rt_loopb_freeterm(b, b->tail[s]);
	b->ntail = a->at + 1;
	loop->c0++;
	loop->nval += b->nv;
	return 1;
}

/* A value has come: the first armed loop whose next iteration it ends,
 * and that has it, takes it.  1 if one did, 0 if none, -1 out of
 * memory. */
int
rt_loopb_predictall(struct rt_loopb *b)
{
	size_t i;
	int rc;

	if (b->total != b->due)
		return 0;
	for (i = 0; i < b->narm; i++)
		if (b->total - b->arms[i].total == b->arms[i].nv &&
		    (rc = predict(b, &b->arms[i])) != 0) {
			b->narm = i;	/* rt_loopb_arm() arms it again */
			setdue(b);
			return rc;
		}
	setdue(b);
	return 0;
}
