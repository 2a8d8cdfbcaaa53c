/* loop.h: loop models of integer sequences (pli): built from values,
 * written and read as the loop-model stream, expanded back to values. */
#ifndef RT_LOOP_H
#define RT_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reftrace.h"

/*
 * Clauss and Kenmei's periodic-linear model, built bottom-up as Ketterlin
 * and Clauss's nested loop recognition does (CGO 2008).  A model is a
 * sequence of phases: literal values and loop nests whose parameters (a
 * value, a loop count) are multilinear polynomials in the indices of the
 * loops around them, modulo 2^64, so a model reproduces every value.
 */

/* A phase: a top-level term of a model, valid during the call that hands
 * it over. */
struct rt_term;
uint64_t rt_term_values(const struct rt_term *t);	/* values it emits */
int rt_term_depth(const struct rt_term *t);	/* loops nested in it; 0: a literal */
/* Called with each phase once no loop can take it in any more; returns 0
 * to go on, anything else to stop the builder with that value. */
typedef int rt_term_fn(void *ctx, const struct rt_term *phase);

/* Loops nest at most this deep, in a model built or read: the papers'
 * nests are 4 deep at most, and a term's parameter has a coefficient for
 * each set of the loops around it. */
#define RT_LOOP_MAXDEPTH 16

/* The builder: values in, phases out in order.  period bounds the terms a
 * loop body may have (1 to 4096), depth the loops of a nest (1 to
 * RT_LOOP_MAXDEPTH),
 * lookback the terms kept open at the tail (at least 5; 0 for 3 * period
 * + 2: a loop forms from three periods, so a shorter lookback lowers the
 * period to fit).  NULL: errno.  rt_loopb_add and rt_loopb_end return
 * 0, RT_ENOMEM (after which the builder can only be freed), or what fn
 * returned.  rt_loopb_end hands over the phases still open. */
struct rt_loopb;
struct rt_loopb *rt_loopb_new(unsigned period, unsigned depth, size_t lookback,
    rt_term_fn *fn, void *ctx);
RT_WUR int rt_loopb_add(struct rt_loopb *b, uint64_t v);
RT_WUR int rt_loopb_end(struct rt_loopb *b);
void rt_loopb_free(struct rt_loopb *b);

/* The loop-model stream, "#reftrace loops 1": pseudo-code, one statement
 * a line (reftrace-streams(5)).  The writer puts the header on f at open, writes
 * literals 16 a line, the numbers alone, and loops as nests, a loop
 * only where it is no longer than its values as literals (a model is
 * never longer than its values as text); it never closes f.  With hex,
 * the model is of addresses (or block numbers): the header says
 * "#values hex", literals and the constants of emits are written in 0x
 * hex, and the model's values are shown in hex (pli -x).  Each call
 * returns 0, or RT_EIO with errno after a write error. */
struct rt_loopw;
struct rt_loopw *rt_loopw_open(FILE *f, int hex);	/* NULL: errno */
int rt_loopw_term(struct rt_loopw *w, const struct rt_term *phase);
int rt_loopw_close(struct rt_loopw *w);
/* A model written gzipped (pli -z): a FILE for the writer, its text
 * deflated at zlib's level (0 to 9) as it comes into one gzip member on
 * out.  fclose ends the member, not out; a write error on out is the
 * FILE's (ferror, fclose's EOF, errno).  NULL: errno. */
FILE *rt_loop_gzopen(FILE *out, int level);
/* A model's size (pli --stats): what is written to the FILE is counted
 * into *bytes, once flushed, and kept nowhere.  NULL: errno. */
FILE *rt_loop_countopen(uint64_t *bytes);

/* The reader: a model's top-level statements (a values line, an emit, a
 * whole root loop) one at a time, parsed.  Open fails, with "path: a
 * trace, not a loop model (pli makes one)" in err, unless the stream is
 * a loop model.  rt_loopr_next gives 1 and a statement valid until the
 * next call, 0 at the end, or RT_EBAD, RT_EIO or RT_ENOMEM with
 * "path:line: reason" in rt_loopr_error.  Closing does not close the
 * rt_reader. */
struct rt_reader;
struct rt_stmt;
struct rt_loopr;
struct rt_loopr *rt_loopr_open(struct rt_reader *r, char *err, size_t errlen);
int rt_loopr_next(struct rt_loopr *lr, struct rt_stmt **s);
const char *rt_loopr_error(const struct rt_loopr *lr);
/* 1 once "#values hex" was read before the first statement: the values
 * are addresses, shown in hex. */
int rt_loopr_hex(const struct rt_loopr *lr);
void rt_loopr_close(struct rt_loopr *lr);

/* A model of a trace split by instruction, as nested-loop recognition is
 * applied to traces: each key's values (an instruction's addresses) are
 * a stream modelled on its own, and which stream comes next is a stream
 * too, the order, so that the model expands back to the very sequence.
 * The model is written "stream N [fetch] PC" and its statements for each
 * stream in the order of their first values, then "order" and a model of
 * the stream numbers (reftrace-streams(5)); it is held in memory until
 * rt_loopm_end writes it.  With one, the values are modelled as one
 * stream too, the other hypothesis, and the shorter model is written:
 * the order costs bytes a value, and one stream finds loops across
 * instructions (never longer than the values as text).  A stream is an instruction's data accesses,
 * or with fetch its fetches (a stream of one address, its order regular
 * where all fetches as one stream make the order a tangle); pc RT_NOPC
 * (0) for values of no instruction.  fn, if not
 * NULL, sees every phase of the streams (not the order's), for counts.
 * rt_loopm_add returns 0 or RT_ENOMEM (then only free is left),
 * rt_loopm_end 0, RT_ENOMEM, or RT_EIO with errno after a write error
 * on f. */
struct rt_loopm;
struct rt_loopm *rt_loopm_new(unsigned period, unsigned depth, size_t lookback, int hex,
    int one, rt_term_fn *fn, void *ctx);	/* NULL: errno */
RT_WUR int rt_loopm_add(struct rt_loopm *m, uint64_t pc, int fetch, uint64_t v);
RT_WUR int rt_loopm_end(struct rt_loopm *m, FILE *f);
void rt_loopm_free(struct rt_loopm *m);

/* The expander runs statements and hands their values to fn a buffer at
 * a time; fn returns 0 to go on, or a positive value that stops the
 * expander.  A loop with nothing in it that emits is not run.  Work
 * without output is bounded: a model that runs RT_LOOP_MAXIDLE
 * statements in a row without a value (inner loops that run 0 times,
 * over and over) is an error at the loop running.  rt_expand returns 0,
 * what fn returned, or RT_EBAD (RT_ENOMEM) with "path:line: reason" in
 * rt_expand_error
 * (the expander can go on with other statements); rt_expand_flush
 * returns 0 or what fn returned. */
#define RT_LOOP_MAXIDLE (1 << 24)
typedef int rt_values_fn(void *ctx, const uint64_t *v, size_t n);
struct rt_expander;
struct rt_expander *rt_expander_new(rt_values_fn *fn, void *ctx);	/* NULL: ENOMEM */
int rt_expand(struct rt_expander *x, struct rt_stmt *s);
int rt_expand_flush(struct rt_expander *x);	/* the values still buffered */
const char *rt_expand_error(const struct rt_expander *x);
/* A model of streams: once rt_loopr_streams says the statement
 * rt_loopr_next gave is a stream line, rt_expand_streams reads the rest
 * of the model, keeps it (its size in memory) and expands the streams in
 * their order through x: 0, what fn returned, or RT_EBAD (RT_ENOMEM) with the error in
 * rt_expand_error (a malformed line, an order naming a stream that is
 * not there or is spent, streams with values the order never takes). */
int rt_loopr_streams(const struct rt_loopr *lr);
int rt_expand_streams(struct rt_expander *x, struct rt_loopr *lr);
void rt_expander_free(struct rt_expander *x);


/* A model's values as text lines, as pli -x writes them: decimal
 * (signed: values are taken modulo 2^64 as int64_t), or with hex 0x hex
 * (a model of addresses).  rt_values_format writes n lines into buf,
 * which has room for n * RT_VALUE_LINEMAX bytes, and returns the bytes
 * written.  The writer buffers lines for f (never closing it): put and
 * flush return 0, or RT_EIO with errno after a write error. */
#define RT_VALUE_LINEMAX 24	/* "-9223372036854775808\n" and room for 8-byte stores */
size_t rt_values_format(char *buf, const uint64_t *v, size_t n, int hex);
struct rt_valw;
struct rt_valw *rt_valw_new(FILE *f);	/* NULL: ENOMEM */
int rt_valw_put(struct rt_valw *w, const uint64_t *v, size_t n, int hex);
int rt_valw_flush(struct rt_valw *w);
void rt_valw_free(struct rt_valw *w);	/* does not flush */

/* pli --stats: a model's size against the sequence as decimal (or, with
 * hex, 0x hex) lines, against gzip -6 of those lines and against the size
 * xz made of them (the caller's measure: rt_loopstat_text is the lines,
 * in a temporary file, from their start).  Hand it every value and every
 * phase; rt_loopstat_write writes the "#reftrace pli-stats 1" stream
 * (reftrace-streams(5)) for a model of model bytes, xz bytes (below 1:
 * unknown): 0, or RT_EIO.  new: NULL with errno. */
struct rt_loopstat;
struct rt_loopstat *rt_loopstat_new(void);
void rt_loopstat_value(struct rt_loopstat *s, uint64_t v, int hex);
void rt_loopstat_term(struct rt_loopstat *s, const struct rt_term *phase);
FILE *rt_loopstat_text(struct rt_loopstat *s);
int rt_loopstat_write(struct rt_loopstat *s, FILE *f, uint64_t model, int64_t xz) RT_WUR;
void rt_loopstat_free(struct rt_loopstat *s);

#endif
