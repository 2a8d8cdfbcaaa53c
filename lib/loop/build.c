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

void
rt_loopb_freeterm(struct rt_loopb *b, struct rt_term *t)
{
	uint32_t i;

	for (i = 0; i < t->nbody; i++)
		rt_loopb_freeterm(b, t->body[i]);
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
struct rt_term *
rt_loopb_instance(struct rt_loopb *b, const struct rt_term *a, uint64_t i)
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
		rt_loopb_freeterm(b, t);
		return NULL;
	}
	for (m = 0; m < n; m++)
		t->c[m] = a->c[m] + i * a->c[n + m];
	for (j = 0; j < a->nbody; j++, t->nbody++)
		if ((t->body[j] = rt_loopb_instance(b, a->body[j], i)) == NULL) {
			rt_loopb_freeterm(b, t);
			return NULL;
		}
	return t;
}

/* Body term a of a root loop, its loop's index t becoming t + s. */
void
rt_term_shift(struct rt_term *a, uint64_t s)
{
	size_t m, n = (size_t)1 << (a->levels - 1);
	uint32_t j;

	for (m = 0; m < n; m++)
		a->c[m] += s * a->c[n + m];
	for (j = 0; j < a->nbody; j++)
		rt_term_shift(a->body[j], s);
}

uint64_t
rt_term_mixbody(const struct rt_term *loop)
{
	uint64_t h = mix(0x4c4f4f50, loop->nbody);
	uint32_t j;

	for (j = 0; j < loop->nbody; j++)
		h = mix(h, loop->body[j]->hash);
	return h;
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
			rt_loopb_freeterm(b, loop);
			return -1;
		}
	loop->c[0] = 3;
	for (j = 0; j < 3 * k; j++)
		loop->nval += g[j]->nval;
	loop->depth = depth + 1;
	for (j = 0; j < k; j++) {
		loop->body[j] = g[j];
		rt_loopb_freeterm(b, g[k + j]);
		rt_loopb_freeterm(b, g[2 * k + j]);
	}
	loop->hash = rt_term_mixbody(loop);
	b->ntail -= 3 * k;
	b->tail[b->ntail++] = loop;
	return rt_loopb_settle(b) ? -1 : 1;
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
		rt_loopb_freeterm(b, g[j]);
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
		rt_loopb_freeterm(b, b->tail[k]);
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
	if (reduce(b))
		return -1;
	/* settle.c's work, called when it has some: the count of values at
	 * which an armed loop's next iteration ends, a loop at the end */
	if (b->total == b->due &&
	    ((rc = rt_loopb_predictall(b)) < 0 || (rc > 0 && reduce(b))))
		return -1;
	if (b->tail[b->ntail - 1]->depth > 1)
		rt_loopb_arm(b);
	return 0;
}

int
rt_loopb_add(struct rt_loopb *b, uint64_t v)
{
	int rc;

	if (b->broken || step(b, v)) {
		b->broken = 1;
		return RT_ENOMEM;
	}
	/* terms this far back can no longer join a loop */
	if (b->ntail > 2 * b->window && (rc = handover(b, b->ntail - b->window)) != 0)
		return rc;
	return 0;
}

int
rt_loopb_end(struct rt_loopb *b)
{
	if (b->broken)
		return RT_ENOMEM;
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
		rt_loopb_freeterm(b, b->tail[k]);
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
