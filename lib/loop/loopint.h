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

/* A parsed statement.  Its polynomial is over t1..t(nt): bit b of a mask
 * stands for t(b + 1). */
enum { RT_STMT_EMIT, RT_STMT_LOOP, RT_STMT_VALUES };
struct rt_stmt {
	int kind;
	int depth;		/* a loop's index number: t(depth) */
	uint64_t *c;		/* emit: the value; loop: the last index */
	int nt;
	struct rt_stmt **body;
	size_t nbody, cap;
	uint64_t *vals;		/* values */
	size_t nvals, capvals;
	uint64_t base, step;	/* an emit, inside the current loop entry */
};

#define RT_LOOP_MAXDEPTH 63	/* loops a model may nest */

#endif
