/* input.h: the input layer under every reader: bytes (a file or standard
 * input, gzip inflated), lines, fields, numbers and errors with their
 * place.  The trace formats (fmt_*.c) decode from here. */
#ifndef RT_INPUT_H
#define RT_INPUT_H

#include <string.h>
#include <zlib.h>

#include "reftrace.h"

#ifndef RT_IN_BUFSZ		/* the fuzz build makes it small: inputs cross it */
#define RT_IN_BUFSZ (256u << 10)
#endif
#define RT_IN_MAXLINE (1u << 20)
#define RT_IN_QLEN 256		/* items decoded at a time, at most */
/* Bytes past buf[len] that are always inside the buffer (every allocation
 * of it adds them): decoders may read that far past what came in before
 * they check.  The most is a version 1 binary record's (fmt_binary.c). */
#define RT_IN_SLACK 80

struct rt_format;

struct rt_reader {
	/* the byte source */
	int fd;
	int gz;			/* input is gzip: inflate through zs; 2 between members */
	z_stream zs;
	unsigned char *in;	/* compressed input */
	int inend;		/* no more compressed input */
	char *path;		/* as named in diagnostics */
	char *buf;		/* buf[len] is always writable, RT_IN_SLACK after it readable */
	size_t cap, pos, len;
	int eof;		/* 1 at the end, 2 after an error that ends the stream */
	size_t ready;		/* buf[ready - 1] is a newline at or after pos, or 0 */
	int nul;		/* a NUL byte came in: lines must be checked */
	int bad;		/* the last line had one */
	uint64_t line;		/* number of the line last returned */
	char err[512];

	/* the format and its decoder's own state */
	int fmt;
	const struct rt_format *f;
	void *st;
	struct rt_part part;	/* the header's, n 0 if none */

	/* the items the decoder put here at its last call, handed out by
	 * rt_readp one at a time without a call into the decoder */
	int qi, qn;
	int qerr;		/* what the decoder said after the queue's items */
	int started;		/* records have come: rt_on_records told */
	struct rt_rec q[RT_IN_QLEN];
};

/* The byte source: open path (NULL or "-": standard input), gzip or not;
 * NULL with the reason in errbuf.  rt_in_close frees what rt_in_open made. */
struct rt_reader *rt_in_open(const char *path, char *errbuf, size_t errlen);
void rt_in_close(struct rt_reader *r);
/* At least n unread bytes if the input has them; the count there is. */
size_t rt_in_need(struct rt_reader *r, size_t n);
/* The next line, NUL-terminated, without its newline (or \r\n); NULL at
 * the end or on an error (r->eof == 2).  Inline while the line is in the
 * buffer: text decoders call it once a record. */
char *rt_in_morelines(struct rt_reader *r, size_t *len);
/* A line with a NUL byte in it is malformed: rt_in_line returns NULL with
 * the reason in r->err and r->bad set, so that RT_IN_END says RT_EBAD. */
char *rt_in_nul(struct rt_reader *r);
/* A line longer than RT_IN_MAXLINE ends the input with an error (counted
 * as line line). */
char *rt_in_long(struct rt_reader *r);

static inline char *
rt_in_line(struct rt_reader *r, size_t *len)
{
	char *s = r->buf + r->pos, *nl;

	if ((nl = memchr(s, '\n', r->len - r->pos)) == NULL)
		return rt_in_morelines(r, len);
	if ((size_t)(nl - s) > RT_IN_MAXLINE)	/* whole in a buffer grown for it */
		return rt_in_long(r);
	*nl = '\0';
	r->pos = nl + 1 - r->buf;
	r->line++;
	if (nl > s && nl[-1] == '\r')
		*--nl = '\0';
	*len = nl - s;
	if (r->nul && memchr(s, '\0', *len) != NULL)
		return rt_in_nul(r);
	return s;
}

/* Whether a whole line is in the buffer at pos: the next can be read
 * without waiting for input. */
static inline int
rt_in_ready(struct rt_reader *r)
{
	const char *nl;

	if (r->pos < r->ready)
		return 1;
	if ((nl = memrchr(r->buf + r->pos, '\n', r->len - r->pos)) == NULL)
		return 0;
	r->ready = (size_t)(nl - r->buf) + 1;
	return 1;
}

/* The next line that is neither blank nor a # comment, leading blanks
 * skipped; NULL at the end or on an error. */
char *rt_in_data(struct rt_reader *r);
/* What a decoder returns when rt_in_line gives NULL: 0 at the end,
 * RT_EIO after an error that ends the stream, RT_EBAD for a line with a
 * NUL (the next call goes on after it). */
#define RT_IN_END(r) ((r)->eof == 2 ? RT_EIO : (r)->bad ? ((r)->bad = 0, RT_EBAD) : 0)


/* Errors, in r->err: "path:line: reason" for a malformed line (RT_EBAD:
 * the caller may go on), "path: reason" for one that ends the stream
 * (RT_EIO), "path:line: out of memory" (RT_EIO). */
#define rt_in_bad(r, ...) (rt_rbad((r), __VA_ARGS__), RT_EBAD)
int rt_in_fail(struct rt_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int rt_in_nomem(struct rt_reader *r);

/* Fields: blanks part them.  rt_in_split cuts p into at most max fields in
 * place and returns their count (max + 1 if there are more). */
static inline int
rt_in_blank(int c)
{
	return c == ' ' || c == '\t';
}

static inline char *
rt_in_skipws(char *p)
{
	if (*p == ' ' && !rt_in_blank(p[1]))	/* the usual single blank */
		return p + 1;
	while (rt_in_blank(*p))
		p++;
	return p;
}

static inline int
rt_in_fieldend(const char *p)
{
	return *p == '\0' || rt_in_blank(*p);
}

int rt_in_split(char *p, char **f, int max);
/* Text fields may hold %XX escapes for blanks and percent signs: decoded
 * in place, the new length returned. */
size_t rt_in_unescape(char *s, size_t n);

/* Numbers (the scanners of rt_scan_u64 and its kin): they move *pp past
 * the digits and stop at the first character that is not one, leaving it
 * to the caller; -1, *pp unmoved, if there is none or it overflows. */
extern const signed char rt_hexval[256];	/* digit value + 1, 0 if none */

static inline int
rt_in_hex(char **pp, uint64_t *v)
{
	unsigned char *p = (unsigned char *)*pp, *q;
	uint64_t x = 0;
	unsigned d;

	while (p[0] == '0' && rt_hexval[p[1]])
		p++;	/* lackey pads addresses with zeros */
	q = p;
	while ((d = (unsigned)rt_hexval[*p]) != 0) {
		x = x << 4 | (d - 1);
		p++;
	}
	if (p == q || p - q > 16)
		return -1;
	*v = x;
	*pp = (char *)p;
	return 0;
}

static inline int
rt_in_dec(char **pp, uint64_t *v)
{
	unsigned char *p = (unsigned char *)*pp, *q = p;
	uint64_t x = 0;
	unsigned d;

	while ((d = *p - (unsigned)'0') <= 9) {
		x = x * 10 + d;
		p++;
	}
	if (p == q)
		return -1;
	if (p - q > 19) {	/* only 20 digits can overflow: check them */
		uint64_t y = 0;

		for (q = (unsigned char *)*pp; q < p; q++) {
			d = *q - '0';
			if (y > (UINT64_MAX - d) / 10)
				return -1;
			y = y * 10 + d;
		}
	}
	*v = x;
	*pp = (char *)p;
	return 0;
}

/* An address: 0x hex or decimal. */
static inline int
rt_in_addr(char **pp, uint64_t *v)
{
	char *p = *pp + 2;

	if ((*pp)[0] == '0' && ((*pp)[1] == 'x' || (*pp)[1] == 'X')) {
		if (rt_in_hex(&p, v))
			return -1;
		*pp = p;
		return 0;
	}
	return rt_in_dec(pp, v);
}

/* Interning with its failure turned into the reader's error: 0, or
 * RT_EIO with "path:line: out of memory". */
int rt_in_str(struct rt_reader *r, const char *s, size_t n, uint32_t *id);
int rt_in_locid(struct rt_reader *r, uint32_t file, uint32_t line, uint32_t func,
    uint32_t *loc);
/* "file:line" (a line that is not a number is part of the file) and a
 * function: a location id.  %XX escapes are decoded. */
int rt_in_loc(struct rt_reader *r, char *s, size_t n, uint32_t func, uint32_t *loc);
/* The text a field held last time and its id, to skip the hash when a
 * field repeats (as functions and variables do, line after line). */
struct rt_in_last {
	char s[256];	/* "\1" when too long to keep */
	uint32_t id;
};
int rt_in_same(const struct rt_in_last *c, const char *s, size_t n);
void rt_in_keep(struct rt_in_last *c, const char *s, size_t n);
void rt_in_forget(struct rt_in_last *c);
/* A field's string id, %XX escapes decoded, through the cache c. */
int rt_in_field(struct rt_reader *r, struct rt_in_last *c, char *s, size_t n,
    uint32_t *id);

/* An access's size and its place: 0, or RT_EBAD if it is over
 * RT_MAXSIZE or runs past the top of the address space. */
static inline int
rt_in_fits(struct rt_reader *r, uint64_t addr, uint64_t size)
{
	if (size > RT_MAXSIZE)
		return rt_in_bad(r, "size %llu over the limit of %u bytes",
		    (unsigned long long)size, RT_MAXSIZE);
	if (rt_wraps(addr, size))
		return rt_in_bad(r, "access runs past the top of the address space");
	return 0;
}

/* Records as the decoders make them: all else unknown. */
static inline void
rt_in_access(struct rt_rec *rec, uint64_t seq, int op, uint64_t addr, uint64_t size)
{
	memset(rec, 0, sizeof *rec);
	rec->kind = RT_ACCESS;
	rec->seq = seq;
	rec->op = (uint8_t)op;
	rec->addr = addr;
	rec->size = size;
	rec->tid = RT_NOTID;
}

static inline void
rt_in_event(struct rt_rec *rec, int kind, uint64_t seq, uint32_t name)
{
	memset(rec, 0, sizeof *rec);
	rec->kind = (uint8_t)kind;
	rec->seq = seq;
	rec->name = name;
	rec->tid = RT_NOTID;
}

#endif
