/* loopint.h: the loop model's internals, shared by the builder, the
 * stream's writer and reader, and the expander. */
#ifndef LOOPINT_H
#define LOOPINT_H

#include <stdint.h>

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
enum { RT_STMT_EMIT, RT_STMT_LOOP, RT_STMT_VALUES };
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
	uint64_t *vals;		/* values */
	size_t nvals, capvals;
	uint64_t base, step;	/* an emit, inside the current loop entry */
};

#endif
