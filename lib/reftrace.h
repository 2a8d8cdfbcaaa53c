/* reftrace.h: the trace model, its readers and writers, and shared helpers. */
#ifndef REFTRACE_H
#define REFTRACE_H

#include <stddef.h>
#include <stdint.h>

#define RT_VERSION "0.2"

/* Errors.  A fallible function returns 0 (or a count, or an object) on
 * success, else one of these (or NULL); its message, where it has one, is
 * in the object it works on or in the buffer its caller gave, and says
 * what is wrong with the data or the request, never which option asked
 * (the program adds that).  A program maps a usage error to status 2,
 * the others to 1 (u_fail). */
#define RT_EIO (-1)	/* reading or writing failed; a stream ends there */
#define RT_EBAD (-2)	/* the data are malformed (a reader may go on after) */
#define RT_ENOMEM (-3)	/* out of memory */
#define RT_EUSAGE (-4)	/* the request cannot be met: an argument, a combination */
#define RT_ELIMIT (-5)	/* the data exceed a limit the caller set */
#define RT_WUR __attribute__((warn_unused_result))

/* Kinds of stream item.  Events travel in band, in order, with the seq of
 * the record that follows them. */
enum rt_kind {
	RT_ACCESS = 0,	/* a load, store, modify or instruction fetch */
	RT_MARK,	/* named phase boundary: name */
	RT_REGION,	/* data structure registration: name, addr, size, elem */
	RT_OBJECT,	/* loaded object: name = path, addr = load bias */
	/* Dinero IV's copy-back and invalidate, for caches: the blocks of
	 * addr .. addr+size-1, every block when size is 0 */
	RT_FLUSH,	/* write the dirty blocks back, keep them */
	RT_INVAL	/* drop the blocks, dirty or not */
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
	uint32_t var;	/* variable / region name string id, 0 = none; an
			 * object's identity (rt_objid) */
	uint32_t name;	/* events: name or path string id */
	uint32_t elem;	/* region element size */
	uint8_t kind;	/* enum rt_kind */
	uint8_t op;	/* enum rt_op */
};

/* Readers refuse an access of more than RT_MAXSIZE bytes (no load or
 * store is that big; the limit bounds the work one record can make) and
 * an access or region whose bytes run past the top of the address space. */
#define RT_MAXSIZE (1u << 20)

static inline int
rt_wraps(uint64_t addr, uint64_t size)
{
	return size > 0 && addr + (size - 1) < addr;
}

/* The last byte of an access: a size of 0 counts as one byte. */
static inline uint64_t
rt_last(const struct rt_rec *r)
{
	return r->addr + (r->size ? r->size - 1 : 0);
}

/* The pieces of an access in blocks of bs bytes, in address order:
 *	for (rt_span_start(&s, addr, last, bs); rt_span_next(&s);)
 *		use s.block, s.addr, s.len
 * last is the access's last byte (rt_last). */
struct rt_span {
	uint64_t block, addr, len;	/* this piece */
	uint64_t at, last, bs;
	int more;
};

static inline void
rt_span_start(struct rt_span *s, uint64_t addr, uint64_t last, uint64_t bs)
{
	s->bs = bs;
	s->at = addr;
	s->last = last;
	s->block = addr / bs - 1;
	s->more = 1;
}

static inline int
rt_span_next(struct rt_span *s)
{
	uint64_t end;

	if (!s->more)
		return 0;
	s->block++;
	s->addr = s->at;
	end = (s->block + 1) * s->bs - 1;	/* wraps only past the top */
	if (end < s->addr || end >= s->last) {
		end = s->last;
		s->more = 0;
	}
	s->len = end - s->addr + 1;
	s->at = end + 1;
	return 1;
}

/* Strings and source locations are interned once per process so that
 * records carry small ids and every reader and writer agrees on them.
 * Out of memory, interning returns RT_NOMEM (rt_str of it is ""). */
#define RT_NOMEM UINT32_MAX
uint32_t rt_str_intern(const char *s, size_t len);	/* id 0 is "" */
const char *rt_str(uint32_t id);
uint32_t rt_str_count(void);

struct rt_loc {
	uint32_t file;	/* string id */
	uint32_t line;	/* 0 = unknown */
	uint32_t func;	/* string id */
};
uint32_t rt_loc_intern(uint32_t file, uint32_t line, uint32_t func);
/* Between rt_str_shared(1) and rt_str_shared(0), called on one thread,
 * readers on several threads may intern strings and locations (a lock);
 * none may look one up meanwhile. */
void rt_str_shared(int on);
const struct rt_loc *rt_loc_get(uint32_t id);	/* id 0: all unknown */
uint32_t rt_loc_count(void);	/* ids given so far, 0 included */

/* Stream kinds.  A text stream's first line is "#reftrace KIND 1" and
 * then its columns; a reader given another kind says what it got, what
 * it wanted and which program makes that. */
enum rt_stream {
	RT_STREAM_TRACE, RT_STREAM_POINTS, RT_STREAM_PERSISTENCE,
	RT_STREAM_COORDINATES, RT_STREAM_HIST, RT_STREAM_MRC, RT_STREAM_REUSE,
	RT_STREAM_REUSE_WINDOW, RT_STREAM_REUSE_BY, RT_STREAM_CACHE,
	RT_STREAM_CACHE_ENSEMBLE, RT_STREAM_CACHE_BY, RT_STREAM_CACHE_RECORDS,
	RT_STREAM_CACHE_TEMPERATURE, RT_STREAM_CACHE_DIFF, RT_STREAM_CACHEGRIND,
	RT_STREAM_LOOPS, RT_STREAM_PLI_STATS, RT_STREAM_CACHE_STATE,
	RT_STREAM_REUSE_STATE
};
#define RT_STREAM_NONE (-1)	/* not a reftrace stream: numbers, text */
const char *rt_stream_name(int kind);	/* "points" */
const char *rt_stream_what(int kind);	/* "a points stream" */
const char *rt_stream_maker(int kind);	/* "tswindow" */
int rt_stream_kind(const char *line, size_t n);	/* of a header line, or -1 */
const char *rt_stream_magic(int kind, char *buf, size_t len);	/* "#reftrace points 1" */

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
	RT_FMT_PIN,	/* Intel Pin's pinatrace */
	RT_FMT_BINARY2,	/* reftrace binary version 2, written not deflated */
	RT_FMT_BINFLAT	/* reftrace binary version 4: flat blocks */
};
int rt_fmt_parse(const char *name);	/* -1 if unknown */
int rt_fmt_parse_out(const char *name);	/* -1 unless a writer has it */
const char *rt_fmt_name(int fmt);

/* Reading.  rt_read returns 1 with an item, 0 at the end, RT_EBAD for a
 * malformed line (the caller may go on: the line is consumed), RT_EIO for
 * an error that ends the stream.  rt_rerror says which, with file:line. */
struct rt_reader;
struct rt_reader *rt_ropen(const char *path, int fmt, char *errbuf, size_t errlen);
/* Any text stream, not a trace: read with rt_rgetline (below). */
struct rt_reader *rt_lopen(const char *path, char *errbuf, size_t errlen);
int rt_read(struct rt_reader *r, struct rt_rec *rec);
/* The same without a copy: *pp points at the item, valid (and free to
 * change) until the next call. */
int rt_readp(struct rt_reader *r, struct rt_rec **pp);
/* Items by the array: *v points at the n items decoded and not yet
 * handed out (n >= 1, valid and free to change until the next call), or
 * 0 and the errors as rt_read.  Hot loops take a batch at a time. */
int rt_readv(struct rt_reader *r, struct rt_rec **v);
const char *rt_rerror(const struct rt_reader *r);
int rt_rformat(const struct rt_reader *r);	/* the format read, detected for auto */
void rt_rclose(struct rt_reader *r);
/* Streams other than traces (points, persistence, coordinates, series),
 * opened with rt_lopen: the next line without its newline, NULL at
 * the end or on an error (then rt_rerror is not empty).  rt_rbad formats
 * "path:line: reason" for the line last returned. */
char *rt_rgetline(struct rt_reader *r, size_t *len);
int rt_rpeek(struct rt_reader *r, const char *prefix);	/* 1 if it starts so */
/* Columns of numbers: the field-th field (from 1; blanks or commas part
 * them) of the next line that is neither blank nor a # comment, "" if the
 * line is shorter; NULL at the end or on an error. */
char *rt_rfield(struct rt_reader *r, unsigned field);
/* After NULL from rt_rgetline or rt_rfield: 1 if it stands for a malformed
 * line (a NUL byte in it: the reason is in rt_rerror, and reading goes on
 * after it), 0 at the end or after an error that ends the stream (then
 * rt_rfailed is 1). */
int rt_rmalformed(struct rt_reader *r);
int rt_rfailed(const struct rt_reader *r);
const char *rt_rpath(const struct rt_reader *r);
/* The kind of the stream, from its first line: a reftrace stream's kind,
 * RT_STREAM_TRACE for a trace in any format recognised for sure, or
 * RT_STREAM_NONE. */
int rt_rkind(struct rt_reader *r);
/* 0 if the stream is of this kind; else -1, with "path: a trace, not a
 * points stream (tswindow makes one)" as the error. */
int rt_rexpect(struct rt_reader *r, int kind);
/* The same for a program that takes either of two kinds: "path: a trace,
 * not a coordinates stream or a persistence stream (circcoord or persist
 * makes one)". */
int rt_rexpect2(struct rt_reader *r, int kind, int kind2);
const char *rt_rbad(struct rt_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Scanners for stream readers: each reads a number at *pp and moves *pp
 * past it, stopping at the first character that is not part of it (the
 * caller checks what follows); -1, *pp unmoved, if there is none there
 * or it does not fit.  No blanks are skipped, no sign taken but by
 * rt_scan_double. */
int rt_scan_u64(const char **pp, uint64_t *v);	/* decimal */
int rt_scan_hex(const char **pp, uint64_t *v);	/* hex digits, no 0x */
int rt_scan_addr(const char **pp, uint64_t *v);	/* 0x hex, or decimal */
int rt_scan_double(const char **pp, double *v);	/* strtod's syntax, finite */

/* Read every item of the named files in order (none or "-": standard
 * input), calling fn for each.  Malformed lines end a file with diag
 * called, or with skipbad are reported through diag and skipped.  fn
 * returns 0 to go on, -1 to stop everything.  Returns 0 when all input
 * was read cleanly, -1 if fn stopped, 1 if some input failed before fn
 * saw an item of it, 2 if one failed after (fn saw part of it) or none
 * was read: then what fn made of them stands for no input whole, and a
 * program that writes a summary at the end writes none. */
typedef int rt_item_fn(void *ctx, struct rt_rec *rec);
typedef void rt_diag_fn(const char *msg, int fatal);
int rt_foreach(char **files, int nfiles, int fmt, int skipbad,
    rt_item_fn *fn, void *ctx, rt_diag_fn *diag);
/* For a program that takes other streams too: a reader opened with
 * rt_lopen, nothing read from it yet (rt_rkind may have looked),
 * made a trace reader of format fmt (RT_FMT_AUTO: detected): 0, or
 * RT_EBAD (not a trace), RT_EIO or RT_ENOMEM with the reason in errbuf
 * (the reader is still the caller's to close);
 * then rt_foreach's loop over it, with its return values. */
int rt_rtrace(struct rt_reader *r, int fmt, char *errbuf, size_t errlen);
/* fn is called each time an input is recognised as a trace (rt_rtrace,
 * rt_ropen), with its reader: the programs write what they held back
 * until then, and may ask what its header says (rt_rpart). */
void rt_on_trace(void (*fn)(const struct rt_reader *r));
/* fn is called when a trace input's first records are decoded: a first
 * record that is malformed never gets there. */
void rt_on_records(void (*fn)(const struct rt_reader *r));
int rt_foreach_reader(struct rt_reader *r, int skipbad, rt_item_fn *fn, void *ctx,
    rt_diag_fn *diag);

/* A trace's partition (trfilter -P): the blocks of bytes bytes whose
 * number modulo n is k; n 0 for a whole trace.  fp is the fingerprint of
 * the trace that was split (rt_fp), the same in its n partitions; 0 when
 * unknown (written before it was recorded).  The stream's header records
 * it: the text format in a "#partition k/n:bytes fp=HEX" line, the
 * binary format in its header's spare bytes (bytes a power of two, n
 * below 2^24) and an extension; the other formats do not. */
struct rt_part { uint64_t k, n, bytes, fp; };
/* The fingerprint of a trace: FNV-1a (64 bits) of the op, address and
 * size of the accesses among its first RT_FPITEMS items (records and
 * events), so that it is known before the rest is read and is the same
 * in any encoding (text, binary, gzip) of the trace; never 0.  rt_fp_add
 * takes the trace's next n items: 1 once the fingerprint is complete. */
#define RT_FPITEMS 65536
struct rt_fp { uint64_t h, items; };
void rt_fp_init(struct rt_fp *f);
int rt_fp_add(struct rt_fp *f, const struct rt_rec *v, size_t n);
uint64_t rt_fp_value(const struct rt_fp *f);
/* Two partitions the same (fingerprints: the same, or one unknown). */
int rt_samepart(const struct rt_part *a, const struct rt_part *b);
/* A partition as the streams' #partition lines write it, "k/n:bytes" and
 * " fp=HEX" (16 digits) when fp is known; rt_part_read reads "k/n[:bytes]"
 * (bytes 64 unless said) and an optional " fp=HEX" from s, the whole of
 * it: 0 or -1. */
char *rt_part_str(char *buf, size_t len, const struct rt_part *p);
int rt_part_read(const char *s, struct rt_part *p);
/* The partition the stream's header records (known once it is open):
 * 1 with *p, 0 with p->n 0 when it records none. */
int rt_rpart(const struct rt_reader *r, struct rt_part *p);
/* Read slice k of n (0 <= k < n) of the open binary trace file r, before
 * its first item: the blocks whose items begin at or after k/n of the
 * trace's items and before (k+1)/n, found by seeking; concatenated,
 * the slices are the trace.  Ids of strings and locations defined before
 * the slice read as none.  0, RT_EUSAGE (not a binary trace file, or
 * compressed), RT_EBAD, RT_EIO or RT_ENOMEM, the reason in rt_rerror.
 * rt_slice_all(k, n) makes every rt_ropen after it do so (n 0: none). */
int rt_rslice(struct rt_reader *r, uint64_t k, uint64_t n) RT_WUR;
void rt_slice_all(uint64_t k, uint64_t n);
/* The partition the headers of the named files record, read before
 * the files are: the one they all record, else none (n 0); or -1 when it
 * is known only once read (standard input, a pipe or FIFO, or a file
 * that does not open: its reading says why). */
int rt_files_part(char **files, int nfiles, int fmt, struct rt_part *p);
/* rt_foreach that also says, in *part, the partition the files' headers
 * record: the one they all record, else none (n 0). */
int rt_foreach_part(char **files, int nfiles, int fmt, int skipbad,
    rt_item_fn *fn, void *ctx, rt_diag_fn *diag, struct rt_part *part);
/* The same with fn called for arrays of items (rt_readv's), not one by
 * one: a hot loop over records without a call per record. */
typedef int rt_batch_fn(void *ctx, struct rt_rec *v, int n);
int rt_foreach_batch(char **files, int nfiles, int fmt, int skipbad,
    rt_batch_fn *fn, void *ctx, rt_diag_fn *diag, struct rt_part *part);

/* Files made safely: rt_ofile_open makes a temporary file (mode 0666
 * under the umask, or the existing file's) in the directory of path (of
 * the file it names, if a symbolic link) and gives its descriptor in
 * *fd; rt_ofile_end, once fd is closed, renames it to path (keep) or
 * removes it.  A path that is not a regular file (a device, a FIFO) or
 * names one by descriptor (/dev/stdout, /proc/self/fd/N) is opened in
 * place: rt_ofile_inplace says so, and the file is not the run's to
 * remove.  rt_ofile_spool makes a temporary file from a
 * mkstemp template (its name written into tmpl), removed by
 * rt_ofile_end.  rt_ofile_cleanup removes every file made and not yet
 * ended: it is async-signal-safe, for a program's exit and signal
 * handlers.  NULL or RT_EIO with errno. */
struct rt_ofile;
struct rt_ofile *rt_ofile_open(const char *path, int *fd);
struct rt_ofile *rt_ofile_spool(char *tmpl);
int rt_ofile_end(struct rt_ofile *o, int keep);
void rt_ofile_cleanup(void);
int rt_ofile_inplace(const char *path);

/* Writing.  Calls return 0 or RT_EIO with errno set (EPIPE on a closed pipe).
 * A file is written as rt_ofile_open makes it and is renamed to path by
 * an rt_wclose that succeeds; a failed one, or rt_wdiscard, removes it
 * (on standard output, rt_wdiscard ends a binary trace without its
 * trailer: it reads as truncated). */
struct rt_writer;
struct rt_writer *rt_wopen(const char *path, int fmt, int gzip);
int rt_write(struct rt_writer *w, const struct rt_rec *rec);
int rt_wclose(struct rt_writer *w);
void rt_wdiscard(struct rt_writer *w);
/* Record a partition in the header, before the first item: 0, or
 * RT_EUSAGE (errno EINVAL) when the format cannot record it. */
int rt_wpart(struct rt_writer *w, const struct rt_part *p);	/* 1: no header to hold it */
/* Partition writers (trfilter -P): rt_wparts_write cuts an access at
 * the blocks of p->bytes bytes it touches and writes each piece (its
 * address a block number of B bytes when B is not 0, else clipped to
 * its block) to its block's partition, number modulo p->n; an event
 * goes to every output.  rt_wparts_open writes all p->n partitions,
 * partition k to output k named by pattern with its one %d as k
 * (rt_partname), opened as rt_wopen does; rt_wparts_one writes
 * partition p->k alone to w (the set's from then on; path names it).
 * With rec, each header records its partition where the format has
 * room (rt_wparts_unrecorded: 1 when one had none) and the fingerprint of
 * the trace written (rt_fp): the first RT_FPITEMS items are held until
 * it is known, and written by rt_wparts_flush (or by the first close).  open gives *wsp
 * and 0, or RT_EUSAGE (a pattern rt_partname refuses), RT_EIO or
 * RT_ENOMEM with "name: reason" in err (the outputs opened before are
<<<<<<< HEAD
 * closed); one NULL with ENOMEM.  write and flush return 0, or -1 with
 * errno and the output in rt_wparts_failed (B the same at every write);
 * close closes output i as rt_wclose does; free
=======
 * closed); one NULL with ENOMEM.  write returns 0, or RT_EIO with errno and the output
 * in rt_wparts_failed; close closes output i as rt_wclose does; free
>>>>>>> main
 * discards those still open (rt_wdiscard), reporting nothing. */
struct rt_wparts;
RT_WUR int rt_wparts_open(struct rt_wparts **wsp, const char *pattern, const struct rt_part *p,
    int rec, int fmt, int gzip, char *err, size_t errlen);
struct rt_wparts *rt_wparts_one(struct rt_writer *w, const char *path, const struct rt_part *p,
    int rec);
int rt_wparts_unrecorded(const struct rt_wparts *ws);
uint64_t rt_wparts_outputs(const struct rt_wparts *ws);
const char *rt_wparts_name(const struct rt_wparts *ws, uint64_t i);	/* NULL: stdout */
int rt_wparts_write(struct rt_wparts *ws, const struct rt_rec *rec, uint64_t B);
int rt_wparts_flush(struct rt_wparts *ws);
uint64_t rt_wparts_failed(const struct rt_wparts *ws);
int rt_wparts_close(struct rt_wparts *ws, uint64_t i);
void rt_wparts_free(struct rt_wparts *ws);

/* Symbolization: pc -> source location through the objects' debug info. */
struct rt_sym;
struct rt_sym *rt_sym_new(void);
/* Register an object at a load bias; bias UINT64_MAX means guess (0 for
 * ET_EXEC, valgrind's amd64 PIE base 0x108000 for ET_DYN).  Given the
 * identity the trace recorded (rt_objid; NULL or "" for none), a file that
 * is not that object is refused with RT_EBAD; RT_EIO for a file that
 * cannot be read as ELF, RT_ENOMEM. */
int rt_sym_add(struct rt_sym *s, const char *path, uint64_t bias, const char *id);
uint32_t rt_sym_lookup(struct rt_sym *s, uint64_t pc);	/* loc id or 0 */
/* The object whose loaded extent holds pc (no debug info asked): its
 * index in the order added and its path, or -1. */
int rt_sym_object(const struct rt_sym *s, uint64_t pc, const char **path);
const char *rt_sym_error(const struct rt_sym *s);
/* An object file's identity, as traces record it: "build-id:HEX" from its
 * GNU build-id note, else "cksum:CRC:SIZE" as POSIX cksum(1) computes. */
int rt_objid(const char *path, char *id, size_t idlen);
void rt_sym_free(struct rt_sym *s);

/* The dominant period of a trace, from its first limit records: the
 * distance at which the same instruction (without one: the same op and
 * address) most often comes again, 2 to 4096 records; 0 if none does. */
struct rt_period;
struct rt_period *rt_period_new(uint64_t limit);
void rt_period_add(struct rt_period *p, const struct rt_rec *r);
uint64_t rt_period_get(const struct rt_period *p);
void rt_period_free(struct rt_period *p);

/* Regions registered in the stream: the latest registration of a name
 * replaces the earlier one. */
struct rt_regions;
struct rt_regions *rt_regions_new(void);
int rt_regions_add(struct rt_regions *g, const struct rt_rec *region_event);
uint32_t rt_regions_find(const struct rt_regions *g, uint64_t addr);	/* name id or 0 */
int rt_regions_overlap(const struct rt_regions *g, const char *name, uint64_t lo, uint64_t hi);
void rt_regions_free(struct rt_regions *g);

/* A record predicate (trfilter's selections, lib/trace/select.c) of
 * kinds: ops ("RW"), seq and address and pc ranges, thread ids, regions
 * (registered in regs, or a variable's name), functions, file[:lines],
 * marks from[,to]; a record passes all the kinds given, one of each kind.
 * The strings are kept, not copied (lines and marks cut theirs).
 * rt_sel_add: 0, or RT_EUSAGE with why.  Functions and lines need the
 * record's location: rt_sel_test asks locate for it where it has none.
 * rt_sel_event follows the marks.  rt_sel_unmatched calls fn for each
 * selection (a mark, function, line or region) no record matched. */
enum { RT_SEL_OPS, RT_SEL_SEQ, RT_SEL_ADDR, RT_SEL_PC, RT_SEL_TID, RT_SEL_REGION,
	RT_SEL_FUNC, RT_SEL_LINE, RT_SEL_MARK };
struct rt_sel;
typedef void rt_locate_fn(void *ctx, struct rt_rec *rec);
typedef void rt_sel_miss_fn(void *ctx, int kind, const char *arg, const char *why);
struct rt_sel *rt_sel_new(const struct rt_regions *regs);
int rt_sel_add(struct rt_sel *s, int kind, char *arg, char *why, size_t whylen);
void rt_sel_locate(struct rt_sel *s, rt_locate_fn *fn, void *ctx);
int rt_sel_locations(const struct rt_sel *s);	/* functions or lines given */
void rt_sel_event(struct rt_sel *s, const struct rt_rec *rec);
int rt_sel_test(struct rt_sel *s, struct rt_rec *rec);
void rt_sel_unmatched(const struct rt_sel *s, rt_sel_miss_fn *fn, void *ctx);
void rt_sel_free(struct rt_sel *s);

/* Command-line values: sizes with K/M/G suffixes, ranges lo-hi or lo+len
 * (hi inclusive), op sets like "RW".  Numbers are decimal (a leading 0 is
 * not octal); addresses (_addr, _arange) may be 0x hex.  Return 0 or -1
 * (not a value of that kind: the caller says whose). */
int rt_parse_u64(const char *s, uint64_t *v);
int rt_parse_addr(const char *s, uint64_t *v);
int rt_parse_size(const char *s, uint64_t *v);
int rt_parse_range(const char *s, uint64_t *lo, uint64_t *hi);
int rt_parse_arange(const char *s, uint64_t *lo, uint64_t *hi);
int rt_parse_ops(const char *s, unsigned *mask);
/* "k/n" or, where bytes is not NULL, "k/n:bytes": partition k of n;
 * with k NULL, "n" or "n:bytes": every partition. */
int rt_parse_part(const char *s, uint64_t *k, uint64_t *n, uint64_t *bytes);
/* fmt's one %d (%Nd, %0Nd) replaced by partition k: trfilter -P n -o. */
int rt_partname(char *buf, size_t len, const char *fmt, uint64_t k);
int rt_parse_double(const char *s, double *v);	/* finite */
/* An integer of a series: decimal or 0x hex (never octal), up to 2^64 - 1
 * or down to -2^63, a negative one modulo 2^64. */
int rt_parse_int(const char *s, uint64_t *v);
/* A finite number, or with the bits of special "inf" and "nan" too. */
#define RT_REAL_INF 1
#define RT_REAL_NAN 2
int rt_parse_real(const char *s, double *v, int special);
/* x as printf's %.6g writes it, into buf of RT_G6LEN bytes; its length.
 * Counting tables write millions of such fractions, which printf finds
 * in multiple precision. */
#define RT_G6LEN 16
int rt_fmt_g6(char *buf, double x);
int rt_fmt_u64(char *buf, uint64_t v);	/* decimal, as %llu; buf of 21 */
int rt_fmt_x64(char *buf, uint64_t v);	/* hexadecimal, as %llx; buf of 17 */
extern const char rt_opchar[4];	/* "RWMI" */

/* Growing arrays: room for need items of size bytes in *(T **)p, the
 * capacity doubling; 0, or RT_ENOMEM with *p untouched. */
int rt_grow(void *p, size_t *cap, size_t need, size_t size);
/* n bytes for a table probed at random, on huge pages where the system
 * gives them on request; freed by free. */
void *rt_bigalloc(size_t n);
/* Whether path names a regular file, which can be opened and read more
 * than once: not "-", a pipe, a FIFO or a terminal (read once, they are
 * spent, and a FIFO opened again waits for a writer that has gone). */
int rt_rereadable(const char *path);
/* A table of ids by key (lib/base/idtab.c): the caller keeps the keys,
 * numbered from 1, and gives their hashes; rt_idtab_find gives the id
 * whose key eq says is key (0: none), rt_idtab_add adds an id not in the
 * table (0, or RT_ENOMEM), growing it by hash.  Zeroed is empty. */
struct rt_idtab { uint32_t *slot; size_t mask, n; };	/* slot: id, 0 empty */
typedef int rt_ideq_fn(const void *ctx, uint32_t id, const void *key);
typedef uint64_t rt_idhash_fn(const void *ctx, uint32_t id);
uint32_t rt_idtab_find(const struct rt_idtab *t, uint64_t h, const void *key, rt_ideq_fn *eq,
    const void *ctx);
int rt_idtab_add(struct rt_idtab *t, uint64_t h, uint32_t id, rt_idhash_fn *hash,
    const void *ctx);
void rt_idtab_free(struct rt_idtab *t);
/* The memory a process may have here, in bytes: physical memory, or less
 * under a limit on the address space or data (setrlimit). */
double rt_memory(void);

/* Randomness and hashing, the same in every program so results repeat.
 * rt_hash64 is the splitmix64 finaliser: a bijection with good avalanche,
 * inline as spatial sampling and hash tables call it for every record. */
static inline uint64_t
rt_hash64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}
struct rt_rng { uint64_t s[4]; };
void rt_rng_seed(struct rt_rng *g, uint64_t seed);
uint64_t rt_rng_next(struct rt_rng *g);
double rt_rng_unit(struct rt_rng *g);		/* [0, 1) */
uint64_t rt_rng_below(struct rt_rng *g, uint64_t n);	/* [0, n) */

#endif
