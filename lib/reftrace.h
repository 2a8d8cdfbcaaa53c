/* reftrace.h: the trace model, its readers and writers, and shared helpers. */
#ifndef REFTRACE_H
#define REFTRACE_H

#include <stddef.h>
#include <stdint.h>

#define RT_VERSION "0.1"

/* Kinds of stream item.  Events travel in band, in order, with the seq of
 * the record that follows them. */
enum rt_kind {
	RT_ACCESS = 0,	/* a load, store, modify or instruction fetch */
	RT_MARK,	/* named phase boundary: name */
	RT_REGION,	/* data structure registration: name, addr, size, elem */
	RT_OBJECT	/* loaded object: name = path, addr = load bias */
};

/* Operations, numbered as the binary format stores them. */
enum rt_op { RT_READ = 0, RT_WRITE, RT_MODIFY, RT_IFETCH };

#define RT_NOTID UINT32_MAX	/* thread unknown */
#define RT_NOPC 0		/* instruction address unknown */

struct rt_rec {
	uint64_t seq;	/* index in the original trace */
	uint64_t addr;	/* access address; region base; object bias */
	uint64_t size;	/* access bytes; region bytes */
	uint64_t pc;	/* instruction address or RT_NOPC */
	uint32_t tid;	/* thread or RT_NOTID */
	uint32_t loc;	/* source location id, 0 = unknown */
	uint32_t var;	/* variable / region name string id, 0 = none */
	uint32_t name;	/* events: name or path string id */
	uint32_t elem;	/* region element size */
	uint8_t kind;	/* enum rt_kind */
	uint8_t op;	/* enum rt_op */
};

/* Strings and source locations are interned once per process so that
 * records carry small ids and every reader and writer agrees on them. */
uint32_t rt_str_intern(const char *s, size_t len);	/* id 0 is "" */
const char *rt_str(uint32_t id);
uint32_t rt_str_count(void);

struct rt_loc {
	uint32_t file;	/* string id */
	uint32_t line;	/* 0 = unknown */
	uint32_t func;	/* string id */
};
uint32_t rt_loc_intern(uint32_t file, uint32_t line, uint32_t func);
const struct rt_loc *rt_loc_get(uint32_t id);	/* id 0: all unknown */
uint32_t rt_loc_count(void);

/* Formats */
enum rt_fmt {
	RT_FMT_AUTO = 0,
	RT_FMT_TEXT,	/* reftrace text */
	RT_FMT_BINARY,	/* reftrace binary */
	RT_FMT_LACKEY,	/* valgrind --tool=lackey --trace-mem=yes */
	RT_FMT_GLEIPNIR,
	RT_FMT_DIN,	/* Dinero IV */
	RT_FMT_MTV,	/* R 0x.. / W 0x.. / L file:line */
	RT_FMT_ADDR,	/* one address a line */
	RT_FMT_LINES	/* not a trace: any text stream, read with rt_rgetline */
};
int rt_fmt_parse(const char *name);	/* -1 if unknown */
int rt_fmt_parse_out(const char *name);	/* -1 unless a writer has it */
const char *rt_fmt_name(int fmt);

/* Reading.  rt_read returns 1 with an item, 0 at the end, RT_EBAD for a
 * malformed line (the caller may go on: the line is consumed), RT_EIO for
 * an error that ends the stream.  rt_rerror says which, with file:line. */
#define RT_EBAD (-2)
#define RT_EIO (-1)
struct rt_reader;
struct rt_reader *rt_ropen(const char *path, int fmt, char *errbuf, size_t errlen);
int rt_read(struct rt_reader *r, struct rt_rec *rec);
/* The same without a copy: *pp points at the item, valid (and free to
 * change) until the next call. */
int rt_readp(struct rt_reader *r, struct rt_rec **pp);
const char *rt_rerror(const struct rt_reader *r);
int rt_rformat(const struct rt_reader *r);
void rt_rclose(struct rt_reader *r);
/* Streams other than traces (points, persistence, coordinates, series),
 * opened with RT_FMT_LINES: the next line without its newline, NULL at
 * the end or on an error (then rt_rerror is not empty).  rt_rbad formats
 * "path:line: reason" for the line last returned. */
char *rt_rgetline(struct rt_reader *r, size_t *len);
int rt_rpeek(struct rt_reader *r, const char *prefix);	/* 1 if it starts so */
/* Columns of numbers: the field-th field (from 1; blanks or commas part
 * them) of the next line that is neither blank nor a # comment, "" if the
 * line is shorter; NULL at the end or on an error. */
char *rt_rfield(struct rt_reader *r, unsigned field);
const char *rt_rpath(const struct rt_reader *r);
const char *rt_rbad(struct rt_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Read every item of the named files in order (none or "-": standard
 * input), calling fn for each.  Malformed lines end a file with diag
 * called, or with skipbad are reported through diag and skipped.  fn
 * returns 0 to go on, -1 to stop everything.  Returns 0 when all input
 * was read cleanly, 1 if some input failed, -1 if fn stopped. */
typedef int rt_item_fn(void *ctx, struct rt_rec *rec);
typedef void rt_diag_fn(const char *msg, int fatal);
int rt_foreach(char **files, int nfiles, int fmt, int skipbad,
    rt_item_fn *fn, void *ctx, rt_diag_fn *diag);

/* Writing.  Calls return 0 or -1 with errno set (EPIPE on a closed pipe). */
struct rt_writer;
struct rt_writer *rt_wopen(const char *path, int fmt, int gzip);
int rt_write(struct rt_writer *w, const struct rt_rec *rec);
int rt_wclose(struct rt_writer *w);

/* Symbolization: pc -> source location through the objects' debug info. */
struct rt_sym;
struct rt_sym *rt_sym_new(void);
/* Register an object at a load bias; bias UINT64_MAX means guess (0 for
 * ET_EXEC, valgrind's amd64 PIE base 0x108000 for ET_DYN). */
int rt_sym_add(struct rt_sym *s, const char *path, uint64_t bias);
uint32_t rt_sym_lookup(struct rt_sym *s, uint64_t pc);	/* loc id or 0 */
const char *rt_sym_error(const struct rt_sym *s);
void rt_sym_free(struct rt_sym *s);

/* Regions registered in the stream: the latest registration of a name
 * replaces the earlier one. */
struct rt_regions;
struct rt_regions *rt_regions_new(void);
int rt_regions_add(struct rt_regions *g, const struct rt_rec *region_event);
uint32_t rt_regions_find(const struct rt_regions *g, uint64_t addr);	/* name id or 0 */
int rt_regions_overlap(const struct rt_regions *g, const char *name, uint64_t lo, uint64_t hi);
void rt_regions_free(struct rt_regions *g);

/* Exact LRU stack distances.  rt_reuse_access sets *dist to the number of
 * distinct other blocks touched since the block's previous access and
 * *tdist (when timed) to the number of accesses between, RT_COLD for a
 * first access; 0, or -1 out of memory. */
#define RT_COLD UINT64_MAX
struct rt_reuse;
struct rt_reuse *rt_reuse_new(int timed);
int rt_reuse_access(struct rt_reuse *r, uint64_t block, uint64_t *dist, uint64_t *tdist);
int rt_reuse_remove(struct rt_reuse *r, uint64_t block);	/* 1 if it was there */
void rt_reuse_prefetch(const struct rt_reuse *r, uint64_t block);	/* an access to come */
void rt_reuse_prefetch2(const struct rt_reuse *r, uint64_t block);	/* nearer: its slot */
uint64_t rt_reuse_blocks(const struct rt_reuse *r);
size_t rt_reuse_memory(const struct rt_reuse *r);
void rt_reuse_free(struct rt_reuse *r);

/* Sparse weighted histograms. */
struct rt_bin { uint64_t key; double w; };
struct rt_hist;
struct rt_hist *rt_hist_new(void);
int rt_hist_add(struct rt_hist *h, uint64_t key, double w);
void rt_hist_scale(struct rt_hist *h, double f);
void rt_hist_prefetch(const struct rt_hist *h, uint64_t key);
struct rt_bin *rt_hist_sorted(const struct rt_hist *h, size_t *n);
void rt_hist_free(struct rt_hist *h);

/* Caches.  A level: size, associativity (ways), block size, replacement
 * policy, write-through (else write-back), no-write-allocate. */
enum { RT_LRU, RT_FIFO, RT_RANDOM, RT_MRU, RT_PLRU, RT_SRRIP, RT_LFU, RT_OPT, RT_PES };
enum { RT_NINE, RT_INCLUSIVE, RT_EXCLUSIVE };	/* inclusion between levels */
#define RT_MAXLEVEL 8
struct rt_cache_cfg {
	uint64_t size;
	uint32_t assoc, block;
	int policy, wt, nwa;
};
struct rt_cache_stats {
	uint64_t acc[3], miss[3];	/* reads, writes, fetches */
	uint64_t evictions, writebacks, invalidations;
	uint64_t compulsory, capacity, conflict;	/* with rt_hier_3c */
	uint64_t bytes_up, bytes_down;	/* filled from below, sent below */
};
int rt_cache_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen);
int rt_policy_parse(const char *name);
const char *rt_policy_name(int policy);

/* A hierarchy: levels[0] is the first (data, or unified), icache a split
 * first-level instruction cache or NULL.  rt_hier_access takes an access
 * within one first-level block (rt_hier_block bytes) and returns the level
 * that held it, 0-based (rt_hier_levels for memory). */
typedef void rt_down_fn(void *ctx, uint64_t addr, int op);
struct rt_hier;
struct rt_hier *rt_hier_new(const struct rt_cache_cfg *levels, int n,
    const struct rt_cache_cfg *icache, int inclusion, uint64_t seed);
int rt_hier_access(struct rt_hier *h, uint64_t addr, int op, uint32_t bytes);
uint32_t rt_hier_block(const struct rt_hier *h, int op);
uint64_t rt_hier_set(const struct rt_hier *h, uint64_t addr, int op);	/* first level's set */
int rt_hier_3c(struct rt_hier *h);	/* classify misses from now on */
/* OPT and PES at level k: for the i-th block that arrives there, the
 * position of that block's next arrival (rt_future of the arrivals). */
void rt_hier_future(struct rt_hier *h, int k, const uint64_t *next, size_t n);
typedef void rt_arrive_fn(void *ctx, uint64_t block);
void rt_hier_arrivals(struct rt_hier *h, int k, rt_arrive_fn *fn, void *ctx);
/* Block numbers in place -> positions of each block's next use. */
int rt_future(uint64_t *v, size_t n);
/* The address of the block the last access evicted at each level, or
 * UINT64_MAX. */
const uint64_t *rt_hier_evicted(const struct rt_hier *h);
int rt_hier_levels(const struct rt_hier *h);
/* Statistics of level k (-1: the split I-cache; rt_hier_levels: memory). */
const struct rt_cache_stats *rt_hier_stats(const struct rt_hier *h, int k,
    const struct rt_cache_cfg **cfg);
/* Call fn with every block level k sends below it (misses, writebacks). */
void rt_hier_watch(struct rt_hier *h, int k, rt_down_fn *fn, void *ctx);
void rt_hier_free(struct rt_hier *h);

/* cachegrind's own model, for exact agreement with its summary line. */
struct rt_cgstats { uint64_t ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw; };
struct rt_cg;
struct rt_cg *rt_cg_new(const struct rt_cache_cfg *i1, const struct rt_cache_cfg *d1,
    const struct rt_cache_cfg *ll);
void rt_cg_access(struct rt_cg *g, const struct rt_rec *rec);
const struct rt_cgstats *rt_cg_stats(const struct rt_cg *g);
void rt_cg_free(struct rt_cg *g);

/* PNG pictures: 8-bit palette (npal RGB triples) or RGB when palette is
 * NULL; rows of w pixels given top to bottom, h of them. */
#include <stdio.h>
struct rt_png;
struct rt_png *rt_png_open(FILE *f, uint32_t w, uint32_t h, const unsigned char *palette, int npal);
int rt_png_row(struct rt_png *p, const unsigned char *pixels);
int rt_png_close(struct rt_png *p);

/* Command-line values: sizes with K/M/G suffixes, ranges lo-hi or lo+len
 * (hi inclusive), op sets like "RW".  Return 0 or -1. */
int rt_parse_u64(const char *s, uint64_t *v);
int rt_parse_size(const char *s, uint64_t *v);
int rt_parse_range(const char *s, uint64_t *lo, uint64_t *hi);
int rt_parse_ops(const char *s, unsigned *mask);	/* bit per enum rt_op */
int rt_parse_double(const char *s, double *v);
extern const char rt_opchar[4];	/* "RWMI" */

/* Randomness and hashing, the same in every program so results repeat. */
uint64_t rt_hash64(uint64_t x);
struct rt_rng { uint64_t s[4]; };
void rt_rng_seed(struct rt_rng *g, uint64_t seed);
uint64_t rt_rng_next(struct rt_rng *g);
double rt_rng_unit(struct rt_rng *g);		/* [0, 1) */
uint64_t rt_rng_below(struct rt_rng *g, uint64_t n);	/* [0, n) */

#endif
