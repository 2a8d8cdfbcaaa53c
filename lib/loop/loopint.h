/* loopint.h: the loop model's internals, shared by the builder, the
 * stream's writer and reader, and the expander. */
#ifndef LOOPINT_H
#define LOOPINT_H

#include <stdint.h>
#include <stdio.h>


#include "loop.h"

/* A built term.  Its parameter c is a polynomial in the loops around it
 * inside its root term: the coefficient at mask m multiplies the indices
 * of m's bits, bit b the loop b levels out from the innermost. */
struct rt_term {
	uint64_t hash;		/* shape: structure without the numbers */
	uint64_t *c;		/* value (leaf) or count (loop): 1 << levels coefs */
	struct rt_term **body;
	uint64_t nval;		/* values it emits, as a root term */
	uint32_t nbody;		/* 0: a leaf */
	uint8_t levels;		/* loops around it inside its root term */
	uint8_t depth;		/* loops in it, itself included */
	uint64_t c0;		/* c when levels is 0: no allocation */
	struct rt_term *next;	/* on the builder's free list */
};

/* A monomial of a parsed statement: coef times the indices t(b + 1) of
 * the bits b of mask.  A statement keeps only the monomials it has, so
 * its size follows its text, never the depth. */
struct rt_mono {
	uint64_t coef;
	uint32_t mask;
};

/* A parsed statement: an emit's value or a loop's last index is a
 * polynomial over the indices of the loops around it. */
enum { RT_STMT_EMIT, RT_STMT_LOOP, RT_STMT_VALUES, RT_STMT_STREAM, RT_STMT_FETCH, RT_STMT_ORDER };
struct rt_stmt {
	int kind;
	int depth;		/* a loop's index number: t(depth) */
	int live;		/* it or a statement in it emits a value */
	const char *path;	/* its place, for the expander's errors */
	uint64_t line;
	struct rt_mono *poly;	/* emit: the value; loop: the last index */
	size_t npoly, cappoly;
	struct rt_stmt **body;
	size_t nbody, cap;
	uint64_t *vals;		/* values; a fetch line's addresses */
	size_t nvals, capvals;
	uint64_t base, step;	/* an emit, inside the current loop entry */
	uint64_t sn, pc;	/* a stream line: its number, whose it is */
	int fetch;		/* the instruction's fetches, not its data */
	int jumps;		/* an order of jumps, not of stream numbers */
};

/* A term's polynomial at the loop indices t (t[b]: the loop b levels
 * out). */
uint64_t rt_poly_at(const uint64_t *c, int levels, const uint64_t *t);
/* Each value of term u, inside the loops at t (t[0] the innermost), to
 * fn in order (fn NULL: none); how many. */
uint64_t rt_term_walk(const struct rt_term *u, const uint64_t *t,
    void (*fn)(void *, uint64_t), void *ctx);

void rt_stmt_free(struct rt_stmt *s);
/* The bytes of v as a literal of a model: its digits and a blank or a
 * newline (hex digits alone in a model of addresses, where pli -x writes
 * two more). */
size_t rt_loop_litlen(uint64_t v, int hex);
/* The statement rt_loopr_next gave last, now the caller's to free. */
struct rt_stmt *rt_loopr_take(struct rt_loopr *lr);
/* A statement's polynomial at the loop indices t (t[b]: t(b + 1)). */
uint64_t rt_stmt_eval(const struct rt_stmt *p, const uint64_t *t);
/* 1 if loop p's body is emits alone (and not empty). */
int rt_stmt_allemits(const struct rt_stmt *p);
/* Entering loop p: its emits are affine in its index t(depth), base + i *
 * step, found once per entry instead of a polynomial per value; leaves
 * the index 0. */
void rt_stmt_affine(struct rt_stmt *p, uint64_t *t);
/* What a stream's section says of its literals (its writer flushed):
 * firstlen, the digits of its first literal if the section begins with a
 * line of them (else 0), and its value; any, a literal written, and the
 * last (the table writes a section's first literal as a difference from
 * the last of the sections before it, as the reader reads it). */
void rt_loopw_lits(struct rt_loopw *w, size_t *firstlen, uint64_t *first, int *any,
    uint64_t *last);
/* A writer of statements without the header (a stream's section), and
 * the header alone. */
struct rt_loopw *rt_loopw_new(FILE *f, int hex, int header);
int rt_loop_header(FILE *f, int hex);
/* The expander of streams hands its values to rt_expand_put (0, or what
 * the expander's fn returned) and says its errors by rt_expand_fail
 * (RT_EBAD) or rt_expand_nomem (RT_ENOMEM). */
int rt_expand_put(struct rt_expander *x, const uint64_t *v, size_t n);
int rt_expand_fail(struct rt_expander *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int rt_expand_nomem(struct rt_expander *x);

/* The builder's state (build.c), shared with settle.c. */
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

/* build.c: terms recycled through b, body term a of a root loop at its
 * loop's index i (a root term), a's loop index t becoming t + s, the hash
 * of a loop's shape from its body's. */
void rt_loopb_freeterm(struct rt_loopb *b, struct rt_term *t);
struct rt_term *rt_loopb_instance(struct rt_loopb *b, const struct rt_term *a, uint64_t i);
void rt_term_shift(struct rt_term *a, uint64_t s);
uint64_t rt_term_mixbody(const struct rt_term *loop);
/* settle.c: the loop just made at the tail's end takes its iteration at
 * -1 back from the terms before it (0, or -1 out of memory); a loop at
 * the tail's end armed to take its next iteration from the values to
 * come; the first armed loop whose next iteration a value ends takes it
 * (1, 0 if none did, -1 out of memory). */
int rt_loopb_settle(struct rt_loopb *b);
void rt_loopb_arm(struct rt_loopb *b);
int rt_loopb_predictall(struct rt_loopb *b);

/* rt_poly_at, without its loop for a root term or its body's terms */
static inline uint64_t
rt_term_poly(const struct rt_term *u, const uint64_t *t)
{
	if (u->levels == 0)
		return u->c[0];
	if (u->levels == 1)
		return u->c[0] + u->c[1] * t[0];
	return rt_poly_at(u->c, u->levels, t);
}

#endif
