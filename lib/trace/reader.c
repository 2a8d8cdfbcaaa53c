/* reader.c: the trace formats as a table: names, detection by the rows'
 * sniffs, and reading through the chosen row's decoder; what kind of
 * stream a reader holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "rtint.h"
#include "rtb.h"

/* The formats at their enum rt_fmt numbers.  A new format is a file
 * fmt_NAME.c that defines its row and a line here: its number is its
 * place, rt_fmt_parse finds it by name and detection asks its sniff. */
extern const struct rt_format rt_fmt_text, rt_fmt_binary, rt_fmt_lackey,
    rt_fmt_gleipnir, rt_fmt_din, rt_fmt_mtv, rt_fmt_addr, rt_fmt_pin,
    rt_fmt_binary2, rt_fmt_binflat;
static const struct rt_format *const formats[] = {
	[RT_FMT_AUTO] = NULL,		/* "auto": detection chooses */
	[RT_FMT_TEXT] = &rt_fmt_text,
	[RT_FMT_BINARY] = &rt_fmt_binary,
	[RT_FMT_LACKEY] = &rt_fmt_lackey,
	[RT_FMT_GLEIPNIR] = &rt_fmt_gleipnir,
	[RT_FMT_DIN] = &rt_fmt_din,
	[RT_FMT_MTV] = &rt_fmt_mtv,
	[RT_FMT_ADDR] = &rt_fmt_addr,
	[RT_FMT_PIN] = &rt_fmt_pin,
	[RT_FMT_BINARY2] = &rt_fmt_binary2,	/* binary version 2, not deflated */
	[RT_FMT_BINFLAT] = &rt_fmt_binflat,	/* binary version 4: flat blocks */
};
#define NFORMATS (int)(sizeof formats / sizeof formats[0])

const struct rt_format *
rt_format_row(int fmt)
{
	return fmt >= 0 && fmt < NFORMATS ? formats[fmt] : NULL;
}

int
rt_fmt_parse(const char *name)
{
	int i;

	if (strcmp(name, "auto") == 0)
		return RT_FMT_AUTO;
	for (i = 0; i < NFORMATS; i++)
		if (formats[i] != NULL && strcmp(name, formats[i]->name) == 0)
			return i;
	return -1;
}

int
rt_fmt_parse_out(const char *name)
{
	int f = rt_fmt_parse(name);

	return f > 0 && formats[f]->write != NULL ? f : -1;
}

const char *
rt_fmt_name(int fmt)
{
	if (fmt == RT_FMT_AUTO)
		return "auto";
	return rt_format_row(fmt) != NULL ? formats[fmt]->name : "unknown";
}

/* The first format whose sniff claims one of the first lines; -1 if a
 * line that is neither blank nor a comment is claimed by none. */
static int
rt_format_detect(struct rt_reader *r)
{
	char *p, *e, *f[10], line[512], cut[512];
	struct rt_sniff s;
	size_t n;
	int i;

	rt_in_need(r, 4096);
	if (r->eof == 2)
		return -1;
	if (r->len == 0)
		return RT_FMT_ADDR;	/* empty: any reader reads nothing from it */
	s.start = r->buf;
	s.len = r->len;
	s.line = line;
	s.f = f;
	for (p = r->buf, s.lineno = 0; p < r->buf + r->len && s.lineno < 64;
	    p = e + 1, s.lineno++) {
		e = memchr(p, '\n', r->buf + r->len - p);
		if (e == NULL)
			e = r->buf + r->len;
		n = (size_t)(e - p) < sizeof line - 1 ? (size_t)(e - p) : sizeof line - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		memcpy(cut, line, n + 1);
		s.nf = rt_in_split(cut, f, 9);
		for (i = 0; i < NFORMATS; i++)
			if (formats[i] != NULL && formats[i]->sniff(&s))
				return i;
		if (s.lineno == 0 && strncmp(line, "#reftrace ", 10) == 0)
			return -1;	/* another kind of stream */
		if (s.nf > 0 && f[0][0] != '#')
			return -1;
	}
	return -1;
}

/* "unknown trace format (not text, binary, ... or addr)" */
static void
unknown(char *errbuf, size_t errlen, const char *name)
{
	size_t n;
	int i, k = 0, all = 0;

	for (i = 0; i < NFORMATS; i++)
		all += formats[i] != NULL;
	n = (size_t)snprintf(errbuf, errlen, "%s: unknown trace format (not", name);
	for (i = 0; i < NFORMATS && n < errlen; i++)
		if (formats[i] != NULL)
			n += (size_t)snprintf(errbuf + n, errlen - n, "%s %s",
			    k++ == 0 ? "" : k == all ? " or" : ",", formats[i]->name);
	if (n < errlen)
		snprintf(errbuf + n, errlen - n, ")");
}

static void (*recognised)(const struct rt_reader *);
static void (*started)(const struct rt_reader *);

void
rt_on_trace(void (*fn)(const struct rt_reader *r))
{
	recognised = fn;
}

void
rt_on_records(void (*fn)(const struct rt_reader *r))
{
	started = fn;
}

/* What the start of the stream is: its kind (RT_STREAM_NONE for none),
 * and in words in *what ("a points stream", "a trace (lackey)", "empty",
 * "not a reftrace stream"), which buf may hold; *shape says which of
 * these it is, for the callers' decisions.  din, MTV and bare addresses
 * look like too much else to name a stream by: only a sure format's
 * sniff makes it a trace here. */
enum { RT_DESC_KNOWN, RT_DESC_EMPTY, RT_DESC_FOREIGN };

static int
describe(struct rt_reader *r, char *buf, size_t len, const char **what,
    int *shape)
{
	const char *p, *e;
	int k, fmt;

	rt_in_need(r, 4096);
	p = r->buf + r->pos;
	*what = "not a reftrace stream";
	*shape = RT_DESC_FOREIGN;
	if (r->len == r->pos) {
		*what = "empty";
		*shape = RT_DESC_EMPTY;
		return RT_STREAM_NONE;
	}
	*shape = RT_DESC_KNOWN;
	e = memchr(p, '\n', r->len - r->pos);
	if (e == NULL)
		e = r->buf + r->len;
	if ((k = rt_stream_kind(p, (size_t)(e - p))) >= 0) {
		*what = rt_stream_what(k);
		return k;
	}
	if (e - p >= 10 && memcmp(p, "#reftrace ", 10) == 0)
		*what = "a reftrace stream of another kind";
	else if (r->len - r->pos >= 4 && memcmp(p, "\211PNG", 4) == 0)
		*what = "a PNG picture";
	else if ((e - p >= 5 && memcmp(p, "<?xml", 5) == 0) ||
	    (e - p >= 4 && memcmp(p, "<svg", 4) == 0))
		*what = "an SVG picture";
	else if (r->pos == 0 && (fmt = rt_format_detect(r)) >= 0 &&
	    rt_format_row(fmt)->sure) {
		snprintf(buf, len, "a trace (%s)", rt_fmt_name(fmt));
		*what = buf;
		return RT_STREAM_TRACE;
	} else
		*shape = RT_DESC_FOREIGN;
	return RT_STREAM_NONE;
}

int
rt_rkind(struct rt_reader *r)
{
	char buf[64];
	const char *w;
	int shape;

	return describe(r, buf, sizeof buf, &w, &shape);
}

int
rt_rexpect2(struct rt_reader *r, int kind, int kind2)
{
	char buf[64], what[128], maker[64];
	const char *w;
	int shape, k = describe(r, buf, sizeof buf, &w, &shape);

	if (k == kind || (kind2 != RT_STREAM_NONE && k == kind2))
		return 0;
	if (kind2 == RT_STREAM_NONE) {
		snprintf(what, sizeof what, "%s", rt_stream_what(kind));
		snprintf(maker, sizeof maker, "%s", rt_stream_maker(kind));
	} else {
		snprintf(what, sizeof what, "%s or %s", rt_stream_what(kind), rt_stream_what(kind2));
		snprintf(maker, sizeof maker, "%s or %s", rt_stream_maker(kind),
		    rt_stream_maker(kind2));
	}
	if (shape == RT_DESC_FOREIGN)
		snprintf(r->err, sizeof r->err, "%s: not %s (%s makes one)", r->path, what, maker);
	else if (shape == RT_DESC_EMPTY)
		snprintf(r->err, sizeof r->err, "%s: empty, not %s (%s makes one; a "
		    "stage that failed upstream leaves nothing)", r->path, what, maker);
	else
		snprintf(r->err, sizeof r->err, "%s: %s, not %s (%s makes one)", r->path, w, what,
		    maker);
	return RT_EBAD;
}

int
rt_rexpect(struct rt_reader *r, int kind)
{
	return rt_rexpect2(r, kind, RT_STREAM_NONE);
}

int
rt_rtrace(struct rt_reader *r, int fmt, char *errbuf, size_t errlen)
{
	char what[64];
	const char *w;
	int shape, k;

	if (fmt == RT_FMT_AUTO && (fmt = rt_format_detect(r)) < 0) {
		if (r->eof == 2)
			snprintf(errbuf, errlen, "%s", r->err);
		else if ((k = describe(r, what, sizeof what, &w, &shape)) == RT_STREAM_TRACE)
			snprintf(errbuf, errlen, "%s:1: a trace header of another version "
			    "(reftrace %s reads '%s')", r->path, RT_VERSION, RT_TEXT_MAGIC);
		else if (k != RT_STREAM_NONE || shape != RT_DESC_FOREIGN)
			snprintf(errbuf, errlen, "%s: %s, not a trace", r->path, w);
		else
			unknown(errbuf, errlen, r->path);
		return r->eof == 2 ? RT_EIO : RT_EBAD;
	}
	r->fmt = fmt;
	if ((r->f = rt_format_row(fmt)) == NULL)
		return 0;
	if ((r->st = calloc(1, r->f->size)) == NULL) {
		snprintf(errbuf, errlen, "%s: out of memory", r->path);
		return RT_ENOMEM;
	}
	if (r->f->open != NULL && (k = r->f->open(r)) < 0) {
		snprintf(errbuf, errlen, "%s", r->err);
		return k;
	}
	if (recognised != NULL)
		recognised(r);
	return 0;
}

/* A stream that is not a trace yet: rt_rgetline reads it, rt_rtrace may
 * make it one. */
struct rt_reader *
rt_lopen(const char *path, char *errbuf, size_t errlen)
{
	struct rt_reader *r;

	if ((r = rt_in_open(path, errbuf, errlen)) != NULL)
		r->fmt = RT_FMT_AUTO;
	return r;
}

int
rt_rslice(struct rt_reader *r, uint64_t k, uint64_t n)
{
	if (r->fmt != RT_FMT_BINARY && r->fmt != RT_FMT_BINARY2)
		return rt_in_fail(r, "a slice is of a binary trace, not %s", r->f != NULL ?
		    r->f->name : "this stream"), RT_EUSAGE;
	return rt_bin_slice(r, k, n);
}

/* rt_slice_all's: every trace opened after it is read from slice k of n. */
static uint64_t slicek, slicen;

void
rt_slice_all(uint64_t k, uint64_t n)
{
	slicek = k;
	slicen = n;
}

struct rt_reader *
rt_ropen(const char *path, int fmt, char *errbuf, size_t errlen)
{
	struct rt_reader *r;
	int k;

	if ((r = rt_in_open(path, errbuf, errlen)) == NULL)
		return NULL;
	if ((k = rt_rtrace(r, fmt, errbuf, errlen)) == 0 && slicen &&
	    (k = rt_rslice(r, slicek, slicen)) != 0)
		snprintf(errbuf, errlen, "%s", r->err);
	if (k) {
		rt_rclose(r);
		return NULL;
	}
	return r;
}

/* A decoder of one item a call, called for a queue's worth while the
 * buffer holds a whole line (a pipe's items are not held back waiting
 * for more); an error after some items is kept for the next call, so
 * that the items before it come first and it is said at its line. */
static int
batch(struct rt_reader *r)
{
	int n = 0, k;

	if ((k = r->qerr) != 0) {
		r->qerr = 0;
		return k;
	}
	while ((k = r->f->next(r, &r->q[n])) > 0)
		if (++n == RT_IN_QLEN || !rt_in_ready(r))
			return n;
	if (n == 0)
		return k;
	r->qerr = k;	/* 0 at the end: the decoder says it again */
	return n;
}

/* The decoder's next items into the queue: their count, or 0 or an
 * error.  Kept out of line so that the common case below needs no frame. */
static __attribute__((noinline)) int
refill(struct rt_reader *r)
{
	int k;

	if (r->eof == 2 && r->qerr == 0)
		return RT_EIO;
	if (r->f == NULL)
		return rt_in_fail(r, "no reader for this format");
	if ((k = r->f->read != NULL ? r->f->read(r) : batch(r)) > 0) {
		r->qn = k;
		r->qi = 0;
		if (!r->started) {
			r->started = 1;
			if (started != NULL)
				started(r);
		}
	}
	return k;
}

int
rt_readp(struct rt_reader *r, struct rt_rec **pp)
{
	int k;

	if (r->qi == r->qn && (k = refill(r)) <= 0)
		return k;
	*pp = &r->q[r->qi++];
	return 1;
}

int
rt_readv(struct rt_reader *r, struct rt_rec **v)
{
	int k;

	if (r->qi == r->qn && (k = refill(r)) <= 0)
		return k;
	*v = &r->q[r->qi];
	k = r->qn - r->qi;
	r->qi = r->qn;
	return k;
}

int
rt_read(struct rt_reader *r, struct rt_rec *rec)
{
	struct rt_rec *p;
	int k = rt_readp(r, &p);

	if (k == 1)
		*rec = *p;
	return k;
}

int
rt_rpart(const struct rt_reader *r, struct rt_part *p)
{
	*p = r->part;
	return p->n != 0;
}

int
rt_files_part(char **files, int nfiles, int fmt, struct rt_part *p)
{
	struct rt_reader *r;
	struct rt_part q;
	char err[512];
	int i, e = nfiles > 0 ? 0 : -1;

	memset(p, 0, sizeof *p);
	for (i = 0; i < nfiles; i++) {
		if (!rt_rereadable(files[i]) || (r = rt_ropen(files[i], fmt, err, sizeof err)) == NULL) {
			e = -1;
			break;
		}
		rt_rpart(r, &q);
		rt_rclose(r);
		if (i > 0 && !rt_samepart(&q, p))
			break;	/* not one partition */
		*p = q;
	}
	if (i < nfiles)
		memset(p, 0, sizeof *p);
	return e;
}

int
rt_rformat(const struct rt_reader *r)
{
	return r->fmt;
}

void
rt_rclose(struct rt_reader *r)
{
	if (r == NULL)
		return;
	if (r->f != NULL && r->f->close != NULL && r->st != NULL)
		r->f->close(r->st);
	free(r->st);
	rt_in_close(r);
}
