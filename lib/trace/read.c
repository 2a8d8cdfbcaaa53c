/* read.c: trace readers for every input format, chosen by content. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "reftrace.h"
#include "rtint.h"

#define BUFSZ (256u << 10)
#define MAXLINE (1u << 20)

struct rt_reader {
	int fd;
	int gz;			/* input is gzip: inflate through zs */
	z_stream zs;
	unsigned char *in;	/* compressed input */
	int inend;		/* no more compressed input */
	char *path;		/* as named in diagnostics */
	int fmt;
	char *buf;		/* buf[len] is always writable for a NUL */
	size_t cap, pos, len;
	int eof;
	uint64_t line;		/* number of the line last returned */
	char err[512];

	uint64_t seq;		/* next seq, for formats without one */
	uint64_t pc;		/* lackey: the last instruction fetched */
	uint32_t loc;		/* mtv: location set by the last L line */
	uint32_t objpath;	/* lackey: "Reading syms from" awaiting svma */

	/* text: the last location, function and variable texts seen */
	char lastloc[256], lastfunc[256], lastvar[256];
	uint32_t lastlocid, lastfuncid, lastvarid;

	/* binary: items are decoded a batch at a time into q */
	struct rt_rec q[256];
	struct rt_rec one;	/* the item of a text format */
	int qi, qn;
	int qerr;		/* an error met after the queued items */
	struct rt_rec prev;	/* the block's running state; addr: of data */
	uint64_t iaddr;		/* the block's last fetch address */
	uint32_t bleft;		/* items left in the current block */
	size_t bend;		/* end of the current block's payload in buf */
	uint32_t *smap, nsmap;	/* file string id -> process id */
	uint32_t *lmap, nlmap;	/* file location id -> process id */
};

static const char *fmtnames[] = {
	"auto", "text", "binary", "lackey", "gleipnir", "din", "mtv", "addr"
};

int
rt_fmt_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof fmtnames / sizeof fmtnames[0]; i++)
		if (strcmp(name, fmtnames[i]) == 0)
			return (int)i;
	return -1;
}

int
rt_fmt_parse_out(const char *name)
{
	int f = rt_fmt_parse(name);

	return f == RT_FMT_TEXT || f == RT_FMT_BINARY || f == RT_FMT_DIN ? f : -1;
}

const char *
rt_fmt_name(int fmt)
{
	if (fmt < 0 || (size_t)fmt >= sizeof fmtnames / sizeof fmtnames[0])
		return "unknown";
	return fmtnames[fmt];
}

static int
bad(struct rt_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof r->err, "%s:%llu: ", r->path,
	    (unsigned long long)r->line);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	va_end(ap);
	return RT_EBAD;
}

static int
ioerr(struct rt_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof r->err, "%s: ", r->path);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	va_end(ap);
	r->eof = 2;	/* nothing more will be read */
	return RT_EIO;
}

static ssize_t
rawread(struct rt_reader *r, void *p, size_t n)
{
	ssize_t k;

	do
		k = read(r->fd, p, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		ioerr(r, "%s", strerror(errno));
	return k;
}

/* Inflate into p; gzip members may follow each other (as cat makes them). */
static ssize_t
gzfill(struct rt_reader *r, unsigned char *p, size_t n)
{
	z_stream *z = &r->zs;
	ssize_t k;
	int e;

	if (n > (1u << 30))
		n = 1u << 30;
	z->next_out = p;
	z->avail_out = (uInt)n;
	while (z->avail_out == n) {
		if (z->avail_in == 0 && !r->inend) {
			if ((k = rawread(r, r->in, BUFSZ)) < 0)
				return -1;
			if (k == 0)
				r->inend = 1;
			z->next_in = r->in;
			z->avail_in = (uInt)k;
		}
		if (r->gz == 2) {	/* between members */
			if (z->avail_in == 0 && r->inend)
				return 0;
			if (z->avail_in == 0)
				continue;
			if (z->next_in[0] == 0) {	/* zero padding, as tar leaves */
				z->next_in++;
				z->avail_in--;
				continue;
			}
			if (z->next_in[0] != 0x1f) {
				ioerr(r, "trailing garbage after gzip data");
				return -1;
			}
			inflateReset(z);
			r->gz = 1;
		}
		if (z->avail_in == 0 && r->inend) {
			ioerr(r, "truncated gzip input");
			return -1;
		}
		e = inflate(z, Z_NO_FLUSH);
		if (e == Z_STREAM_END)
			r->gz = 2;
		else if (e != Z_OK && e != Z_BUF_ERROR) {
			ioerr(r, "gzip: %s", z->msg ? z->msg : "corrupt data");
			return -1;
		}
	}
	return (ssize_t)(n - z->avail_out);
}

/* Read more input behind what is unread; 1 if some came, 0 at the end. */
static int
refill(struct rt_reader *r)
{
	ssize_t n;

	if (r->eof)
		return r->eof == 2 ? -1 : 0;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->len + 1 >= r->cap) {
		char *nb;

		if (r->cap >= RTB_MAXPAYLOAD + 2 * BUFSZ)
			return -1;
		if ((nb = realloc(r->buf, r->cap * 2 + 16)) == NULL)
			return -1;
		r->buf = nb;
		r->cap *= 2;
	}
	if (r->gz)
		n = gzfill(r, (unsigned char *)r->buf + r->len, r->cap - r->len - 1);
	else
		n = rawread(r, r->buf + r->len, r->cap - r->len - 1);
	if (n < 0)
		return -1;
	if (n == 0) {
		r->eof = 1;
		return 0;
	}
	r->len += (size_t)n;
	return 1;
}

/* The next line, NUL-terminated, without its newline; NULL at the end
 * (or on an I/O error, which is then in r->err and r->eof == 2). */
static char *
nextline(struct rt_reader *r, size_t *lenp)
{
	char *s, *nl;
	size_t scanned = 0;
	int k;

	for (;;) {
		s = r->buf + r->pos;
		nl = memchr(s + scanned, '\n', r->len - r->pos - scanned);
		if (nl != NULL)
			break;
		scanned = r->len - r->pos;
		if (scanned > MAXLINE) {
			r->line++;
			bad(r, "line longer than %u bytes", MAXLINE);
			r->eof = 2;
			return NULL;
		}
		k = refill(r);
		if (k < 0)
			return NULL;
		if (k == 0) {
			if (r->pos == r->len || r->eof == 2)
				return NULL;
			s = r->buf + r->pos;
			nl = r->buf + r->len;	/* last line, no newline */
			r->len++;		/* account for the added NUL */
			break;
		}
	}
	*nl = '\0';
	r->pos = nl + 1 - r->buf;
	if (r->pos > r->len)
		r->pos = r->len;
	r->line++;
	if (nl > s && nl[-1] == '\r')
		*--nl = '\0';
	*lenp = nl - s;
	return s;
}

/* Number parsers: they advance *pp past the digits; -1 if none or
 * overflow.  They stop at the first non-digit and leave it to the caller. */
static const signed char hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int
gethex(char **pp, uint64_t *v)
{
	unsigned char *p = (unsigned char *)*pp, *q;
	uint64_t x = 0;
	unsigned d;

	while (p[0] == '0' && hexval[p[1]])
		p++;	/* lackey pads addresses with zeros */
	q = p;
	while ((d = (unsigned)hexval[*p]) != 0) {
		x = x << 4 | (d - 1);
		p++;
	}
	if (p == q || p - q > 16)
		return -1;
	*v = x;
	*pp = (char *)p;
	return 0;
}

static int
getdec(char **pp, uint64_t *v)
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
static int
getaddr(char **pp, uint64_t *v)
{
	if ((*pp)[0] == '0' && ((*pp)[1] == 'x' || (*pp)[1] == 'X')) {
		*pp += 2;
		return gethex(pp, v);
	}
	return getdec(pp, v);
}

static int
isblank_(int c)
{
	return c == ' ' || c == '\t';
}

static char *
skipws(char *p)
{
	if (*p == ' ' && !isblank_(p[1]))	/* the usual single blank */
		return p + 1;
	while (isblank_(*p))
		p++;
	return p;
}

/* The end of a field. */
static int
fieldend(const char *p)
{
	return *p == '\0' || isblank_(*p);
}

/* Split p into at most max whitespace-separated fields, in place. */
static int
split(char *p, char **f, int max)
{
	int n = 0;

	for (;;) {
		p = skipws(p);
		if (*p == '\0')
			return n;
		if (n == max)
			return n + 1;
		f[n++] = p;
		while (*p && !isblank_(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

/* The field at *pp (NULL for '-'), its length in *n; *pp moves to the
 * next field. */
static char *
field(char **pp, size_t *n)
{
	char *q = *pp, *p = q;

	while (!fieldend(p))
		p++;
	*n = (size_t)(p - q);
	*pp = skipws(p);
	return *n == 1 && *q == '-' ? NULL : q;
}

/* The next line that is neither blank nor a comment, leading blanks
 * skipped; NULL at the end or on an error (r->eof == 2). */
static char *
dataline(struct rt_reader *r)
{
	char *p;
	size_t n;

	while ((p = nextline(r, &n)) != NULL) {
		p = skipws(p);
		if (*p != '\0' && *p != '#')
			return p;
	}
	return NULL;
}

static void
access_init(struct rt_rec *rec, uint64_t seq, int op, uint64_t addr, uint64_t size)
{
	memset(rec, 0, sizeof *rec);
	rec->kind = RT_ACCESS;
	rec->seq = seq;
	rec->op = (uint8_t)op;
	rec->addr = addr;
	rec->size = size;
	rec->tid = RT_NOTID;
}

static void
event_init(struct rt_rec *rec, int kind, uint64_t seq, uint32_t name)
{
	memset(rec, 0, sizeof *rec);
	rec->kind = (uint8_t)kind;
	rec->seq = seq;
	rec->name = name;
	rec->tid = RT_NOTID;
}

/* Text fields may hold %XX escapes for blanks and percent signs. */
static size_t
unescape(char *s, size_t n)
{
	size_t i, j;

	for (i = j = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n + 0 + 1 && hexval[(unsigned char)s[i + 1]] &&
		    hexval[(unsigned char)s[i + 2]]) {
			s[j++] = (char)((hexval[(unsigned char)s[i + 1]] - 1) << 4 |
			    (hexval[(unsigned char)s[i + 2]] - 1));
			i += 2;
		} else
			s[j++] = s[i];
	}
	return j;
}

/* Intern a text field, remembering the last one to skip the hash. */
static uint32_t
cached(char *s, size_t n, char *last, uint32_t *lastid)
{
	if (n < 255 && last[n] == '\0' && memcmp(last, s, n) == 0 &&
	    (n > 0 || last[0] == '\0'))
		return *lastid;
	if (n < 255) {
		memcpy(last, s, n);
		last[n] = '\0';
	} else
		last[0] = '\1', last[1] = '\0';
	if (memchr(s, '%', n))
		n = unescape(s, n);
	return *lastid = rt_str_intern(s, n);
}

/* "file:line" -> location id, function string id added later. */
static int
parseloc(char *s, size_t n, uint32_t func, uint32_t *loc)
{
	char *c = NULL, *p;
	uint64_t line = 0;
	size_t i;

	for (i = n; i > 0; i--)
		if (s[i - 1] == ':') {
			c = s + i - 1;
			break;
		}
	if (c != NULL) {
		p = c + 1;
		if (getdec(&p, &line) == 0 && p == s + n && line <= UINT32_MAX)
			n = c - s;
		else
			line = 0;
	}
	if (memchr(s, '%', n))
		n = unescape(s, n);
	*loc = rt_loc_intern(rt_str_intern(s, n), (uint32_t)line, func);
	return 0;
}

static int
text_event(struct rt_reader *r, char *p, struct rt_rec *rec)
{
	char *f[8];
	int n;
	uint64_t seq, a, b, c;

	n = split(p + 1, f, 7);
	if (n == 3 && strcmp(f[0], "mark") == 0) {
		if (rt_parse_u64(f[1], &seq))
			return bad(r, "bad seq in mark");
		event_init(rec, RT_MARK, seq, rt_str_intern(f[2], unescape(f[2], strlen(f[2]))));
		return 1;
	}
	if (n == 6 && strcmp(f[0], "region") == 0) {
		if (rt_parse_u64(f[1], &seq) || rt_parse_u64(f[3], &a) ||
		    rt_parse_u64(f[4], &b) || rt_parse_u64(f[5], &c) ||
		    c > UINT32_MAX)
			return bad(r, "bad region line");
		event_init(rec, RT_REGION, seq, rt_str_intern(f[2], unescape(f[2], strlen(f[2]))));
		rec->addr = a;
		rec->size = b;
		rec->elem = (uint32_t)c;
		return 1;
	}
	if (n == 4 && strcmp(f[0], "object") == 0) {
		if (rt_parse_u64(f[1], &seq) || rt_parse_u64(f[3], &a))
			return bad(r, "bad object line");
		event_init(rec, RT_OBJECT, seq, rt_str_intern(f[2], unescape(f[2], strlen(f[2]))));
		rec->addr = a;
		return 1;
	}
	return 0;	/* a comment */
}

/* seq op addr size [tid pc loc func var] */
static int
read_text(struct rt_reader *r, struct rt_rec *rec)
{
	char *p, *q, *locs = NULL;
	size_t n, locn = 0;
	uint64_t seq, addr, size, v;
	int op, k;
	uint32_t func = 0;

	for (;;) {
		if ((p = nextline(r, &n)) == NULL)
			return r->eof == 2 ? RT_EIO : 0;
		if (*p == '#') {
			if (r->line == 1)
				continue;	/* the header, checked at open */
			if ((k = text_event(r, p, rec)) != 0)
				return k;
			continue;
		}
		p = skipws(p);
		if (*p == '\0')
			continue;
		break;
	}
	if (getdec(&p, &seq) || !isblank_(*p))
		return bad(r, "bad seq");
	p = skipws(p);
	switch (*p) {
	case 'R': op = RT_READ; break;
	case 'W': op = RT_WRITE; break;
	case 'M': op = RT_MODIFY; break;
	case 'I': op = RT_IFETCH; break;
	default: return bad(r, "bad op '%c' (want R, W, M or I)", *p ? *p : ' ');
	}
	p++;
	if (!isblank_(*p))
		return bad(r, "bad op");
	p = skipws(p);
	if (getaddr(&p, &addr) || !isblank_(*p))
		return bad(r, "bad address");
	p = skipws(p);
	if (getdec(&p, &size) || !fieldend(p))
		return bad(r, "bad size");
	access_init(rec, seq, op, addr, size);
	p = skipws(p);
	if (*p == '\0')
		return 1;
	if (*p == '-' && fieldend(p + 1))
		p++;
	else if (getdec(&p, &v) || !fieldend(p) || v >= RT_NOTID)
		return bad(r, "bad thread id");
	else
		rec->tid = (uint32_t)v;
	p = skipws(p);
	if (*p == '\0')
		return 1;
	if (*p == '-' && fieldend(p + 1))
		p++;
	else if (getaddr(&p, &rec->pc) || !fieldend(p))
		return bad(r, "bad pc");
	if (memcmp(p, " - - -", 7) == 0)	/* no location: the usual end */
		return 1;
	p = skipws(p);
	if (*p == '\0')
		return 1;
	locs = field(&p, &locn);
	if (*p && (q = field(&p, &n)) != NULL)
		func = cached(q, n, r->lastfunc, &r->lastfuncid);
	if (*p && (q = field(&p, &n)) != NULL)
		rec->var = cached(q, n, r->lastvar, &r->lastvarid);
	if (*p)
		return bad(r, "too many fields");
	if (locs != NULL) {
		/* the same file:line with another function is another location */
		if (locn < 255 && r->lastloc[locn] == '\0' &&
		    memcmp(r->lastloc, locs, locn) == 0 &&
		    rt_loc_get(r->lastlocid)->func == func)
			rec->loc = r->lastlocid;
		else {
			if (locn < 255) {
				memcpy(r->lastloc, locs, locn);
				r->lastloc[locn] = '\0';
			} else
				r->lastloc[0] = '\1', r->lastloc[1] = '\0';
			parseloc(locs, locn, func, &rec->loc);
			r->lastlocid = rec->loc;
		}
	} else if (func)
		rec->loc = rt_loc_intern(0, 0, func);
	return 1;
}

/* valgrind --tool=lackey --trace-mem=yes, with -v -v symbol lines and
 * VALGRIND_PRINTF client requests "reftrace mark|region ...". */
static int
lackey_client(struct rt_reader *r, char *p, struct rt_rec *rec)
{
	char *f[8];
	int n;
	uint64_t base, count, elem;

	n = split(p, f, 7);
	if (n < 2 || strcmp(f[0], "reftrace") != 0)
		return 0;	/* some other VALGRIND_PRINTF */
	if (n == 3 && strcmp(f[1], "mark") == 0) {
		event_init(rec, RT_MARK, r->seq, rt_str_intern(f[2], strlen(f[2])));
		return 1;
	}
	if (n == 6 && strcmp(f[1], "region") == 0) {
		if (rt_parse_u64(f[3], &base) || rt_parse_u64(f[4], &count) ||
		    rt_parse_u64(f[5], &elem) || elem > UINT32_MAX ||
		    (elem && count > UINT64_MAX / elem))
			return bad(r, "bad reftrace region request");
		event_init(rec, RT_REGION, r->seq, rt_str_intern(f[2], strlen(f[2])));
		rec->addr = base;
		rec->size = count * elem;
		rec->elem = (uint32_t)elem;
		return 1;
	}
	return bad(r, "unknown reftrace client request '%s'", f[1]);
}

static int
lackey_tool(struct rt_reader *r, char *p, struct rt_rec *rec)
{
	char *q;
	uint64_t svma, avma;

	p = skipws(p);
	if (strncmp(p, "Reading syms from ", 18) == 0) {
		p += 18;
		q = p + strlen(p);
		while (q > p && isblank_(q[-1]))
			q--;
		r->objpath = rt_str_intern(p, q - p);
		return 0;
	}
	if (r->objpath && strncmp(p, "svma 0x", 7) == 0) {
		p += 7;
		if (gethex(&p, &svma) || strncmp(p, ", avma 0x", 9) != 0)
			return bad(r, "bad svma/avma line");
		p += 9;
		if (gethex(&p, &avma))
			return bad(r, "bad svma/avma line");
		event_init(rec, RT_OBJECT, r->seq, r->objpath);
		rec->addr = avma - svma;
		r->objpath = 0;
		return 1;
	}
	return 0;
}

/* The PID prefix of valgrind's own lines: ==123==, --123--, **123**. */
static char *
vgprefix(char *p, int c)
{
	if (p[0] != c || p[1] != c)
		return NULL;
	p += 2;
	if (*p - '0' > 9u)
		return NULL;
	while (*p - '0' <= 9u)
		p++;
	if (p[0] != c || p[1] != c)
		return NULL;
	return p + 2;
}

static int
read_lackey(struct rt_reader *r, struct rt_rec *rec)
{
	char *p, *q;
	size_t n;
	uint64_t addr, size;
	int op, k;

	for (;;) {
		if ((p = nextline(r, &n)) == NULL)
			return r->eof == 2 ? RT_EIO : 0;
		if (p[0] == 'I' && p[1] == ' ' && p[2] == ' ') {
			op = RT_IFETCH;
			p += 3;
			break;
		}
		if (p[0] == ' ' && p[2] == ' ' &&
		    (p[1] == 'L' || p[1] == 'S' || p[1] == 'M')) {
			op = p[1] == 'L' ? RT_READ : p[1] == 'S' ? RT_WRITE : RT_MODIFY;
			p += 3;
			break;
		}
		if (*p == '\0' || vgprefix(p, '=') != NULL)
			continue;
		if ((q = vgprefix(p, '-')) != NULL) {
			if ((k = lackey_tool(r, q, rec)) != 0)
				return k;
			continue;
		}
		if ((q = vgprefix(p, '*')) != NULL) {
			if ((k = lackey_client(r, q, rec)) != 0)
				return k;
			continue;
		}
		/* valgrind -v -v continues some diagnostics (CFI summaries)
		 * on lines of their own: "0x30a: [0]={ ...". */
		if (p[0] == '0' && p[1] == 'x' && strstr(p, ": [") != NULL)
			continue;
		return bad(r, "not a lackey line");
	}
	if (gethex(&p, &addr) || *p != ',')
		return bad(r, "bad address");
	p++;
	if (getdec(&p, &size) || *skipws(p) != '\0')
		return bad(r, "bad size");
	access_init(rec, r->seq++, op, addr, size);
	if (op == RT_IFETCH)
		r->pc = addr;
	rec->pc = r->pc;
	return 1;
}

/* Gleipnir: Op Addr Size Tid Scope Function [VarKind VarName] */
static int
read_gleipnir(struct rt_reader *r, struct rt_rec *rec)
{
	char *p, *f[9];
	uint64_t addr, size, tid;
	int nf, op;

	for (;;) {
		if ((p = dataline(r)) == NULL)
			return r->eof == 2 ? RT_EIO : 0;
		if (strncmp(p, "START PID", 9) == 0 || (p[0] == 'X' && isblank_(p[1])))
			continue;	/* header and keyword lines */
		break;
	}
	nf = split(p, f, 8);
	if (nf < 4 || nf > 8 || f[0][1] != '\0')
		return bad(r, "not a Gleipnir line");
	switch (f[0][0]) {
	case 'L': op = RT_READ; break;
	case 'S': op = RT_WRITE; break;
	case 'M': op = RT_MODIFY; break;
	case 'I': op = RT_IFETCH; break;
	default: return bad(r, "bad op '%s'", f[0]);
	}
	p = f[0] + 0;
	p = f[1];
	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	if (gethex(&p, &addr) || *p)
		return bad(r, "bad address");
	p = f[2];
	if (getdec(&p, &size) || *p)
		return bad(r, "bad size");
	p = f[3];
	if (getdec(&p, &tid) || *p || tid >= RT_NOTID)
		return bad(r, "bad thread id");
	access_init(rec, r->seq++, op, addr, size);
	rec->tid = (uint32_t)tid;
	if (nf >= 6)
		rec->loc = rt_loc_intern(0, 0, cached(f[5], strlen(f[5]), r->lastfunc, &r->lastfuncid));
	if (nf >= 8)
		rec->var = cached(f[7], strlen(f[7]), r->lastvar, &r->lastvarid);
	return 1;
}

/* Dinero IV din: label address [size]; 0 read, 1 write, 2 fetch,
 * 3 other access (read), 4 flush (a mark "flush"). */
static int
read_din(struct rt_reader *r, struct rt_rec *rec)
{
	char *p;
	uint64_t label, addr, size = 1;

	if ((p = dataline(r)) == NULL)
		return r->eof == 2 ? RT_EIO : 0;
	if (getdec(&p, &label) || !isblank_(*p) || label > 4)
		return bad(r, "bad din label (want 0-4)");
	p = skipws(p);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (gethex(&p, &addr) || !fieldend(p))
		return bad(r, "bad address");
	p = skipws(p);
	if (*p && (getdec(&p, &size) || *skipws(p) != '\0'))
		return bad(r, "bad size");
	if (label == 4) {
		event_init(rec, RT_MARK, r->seq, rt_str_intern("flush", 5));
		return 1;
	}
	access_init(rec, r->seq++,
	    label == 1 ? RT_WRITE : label == 2 ? RT_IFETCH : RT_READ, addr, size);
	return 1;
}

/* MTV text: R 0xADDR [size], W 0xADDR [size], L file:line */
static int
read_mtv(struct rt_reader *r, struct rt_rec *rec)
{
	char *p;
	size_t n;
	uint64_t addr, size = 1;
	int op;

	for (;;) {
		if ((p = dataline(r)) == NULL)
			return r->eof == 2 ? RT_EIO : 0;
		if (p[0] == 'L' && isblank_(p[1])) {
			p = skipws(p + 1);
			n = strlen(p);
			while (n > 0 && isblank_(p[n - 1]))
				n--;
			if (n == 0)
				return bad(r, "empty source location");
			parseloc(p, n, 0, &r->loc);
			continue;
		}
		break;
	}
	if ((p[0] != 'R' && p[0] != 'W') || !isblank_(p[1]))
		return bad(r, "not an MTV line (want R, W or L)");
	op = p[0] == 'R' ? RT_READ : RT_WRITE;
	p = skipws(p + 1);
	if (getaddr(&p, &addr) || !fieldend(p))
		return bad(r, "bad address");
	p = skipws(p);
	if (*p && (getdec(&p, &size) || *skipws(p) != '\0'))
		return bad(r, "bad size");
	access_init(rec, r->seq++, op, addr, size);
	rec->loc = r->loc;
	return 1;
}

static int
read_addr(struct rt_reader *r, struct rt_rec *rec)
{
	char *p;
	uint64_t addr;

	if ((p = dataline(r)) == NULL)
		return r->eof == 2 ? RT_EIO : 0;
	if (getaddr(&p, &addr) || *skipws(p) != '\0')
		return bad(r, "bad address");
	access_init(rec, r->seq++, RT_READ, addr, 1);
	return 1;
}

/* Binary: LEB128 varints and zigzag deltas, bounds-checked. */
static inline int
varint(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t x = 0;
	int shift = 0;

	do {
		if (p == end || shift > 63)
			return -1;
		x |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
	} while (*p++ & 0x80);
	*v = x;
	*pp = p;
	return 0;
}

/* Unchecked LEB128: the buffer has 16 bytes of slack past any block and
 * the caller checks p against the block's end once per item. */
static inline uint64_t
fastvar(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	uint64_t x = p[0];
	int i;

	if (x < 0x80) {
		*pp = p + 1;
		return x;
	}
	x &= 0x7f;
	if (p[1] < 0x80) {
		*pp = p + 2;
		return x | (uint64_t)p[1] << 7;
	}
	for (i = 1; i < 10; i++) {
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (p[i] < 0x80)
			break;
	}
	*pp = p + i + 1;
	return x;
}

static uint64_t
unzig(uint64_t z)
{
	return (z >> 1) ^ (0 - (z & 1));
}

static int
bincorrupt(struct rt_reader *r, const char *what)
{
	return ioerr(r, "corrupt binary trace: %s", what);
}

static int
mapid(struct rt_reader *r, uint32_t **map, uint32_t *n, uint64_t fileid, uint32_t *out)
{
	(void)r;
	if (fileid == 0) {
		*out = 0;
		return 0;
	}
	if (fileid >= *n || (*map)[fileid] == 0)
		return -1;
	*out = (*map)[fileid];
	return 0;
}

static int
setmap(uint32_t **map, uint32_t *n, uint64_t fileid, uint32_t id)
{
	uint32_t nn;
	uint32_t *nm;

	if (fileid >= (1u << 30))
		return -1;
	if (fileid >= *n) {
		nn = *n ? *n : 256;
		while (nn <= fileid)
			nn *= 2;
		if ((nm = realloc(*map, nn * sizeof *nm)) == NULL)
			return -1;
		memset(nm + *n, 0, (nn - *n) * sizeof *nm);
		*map = nm;
		*n = nn;
	}
	(*map)[fileid] = id;
	return 0;
}

static int
binblock(struct rt_reader *r)
{
	const unsigned char *h;
	uint32_t plen, count;
	int k;

	r->pos = r->bend;
	while (r->len - r->pos < 8) {
		if ((k = refill(r)) < 0)
			return RT_EIO;
		if (k == 0) {
			if (r->len != r->pos)
				return bincorrupt(r, "truncated block header");
			return 0;
		}
	}
	h = (const unsigned char *)r->buf + r->pos;
	if (memcmp(h, RTB_MAGIC, 8) == 0) {	/* concatenated files */
		while (r->len - r->pos < RTB_HDRLEN) {
			if ((k = refill(r)) < 0)
				return RT_EIO;
			if (k == 0)
				return bincorrupt(r, "truncated file header");
		}
		if (r->buf[r->pos + 8] != RTB_VERSION)
			return bincorrupt(r, "another version's header");
		r->bend = r->pos + RTB_HDRLEN;
		return binblock(r);
	}
	plen = h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
	count = h[4] | h[5] << 8 | h[6] << 16 | (uint32_t)h[7] << 24;
	if (plen > RTB_MAXPAYLOAD || (count == 0) != (plen == 0))
		return bincorrupt(r, "bad block header");
	while (r->len - r->pos < 8 + (size_t)plen) {
		if ((k = refill(r)) < 0)
			return RT_EIO;
		if (k == 0)
			return bincorrupt(r, "truncated block");
	}
	r->pos += 8;
	r->bend = r->pos + plen;
	r->bleft = count;
	memset(&r->prev, 0, sizeof r->prev);
	r->iaddr = 0;
	r->prev.seq = UINT64_MAX;	/* so that seq 0 needs no delta */
	r->prev.tid = RT_NOTID;
	return 1;
}

#define NEXT(v) do { if (varint(&p, end, &(v))) goto corrupt; } while (0)

/* Decode up to a batch of items of the current block into r->q, with the
 * block's running state in locals.  Returns the count, 0 at the end of
 * the input, or an error. */
static int
binbatch(struct rt_reader *r)
{
	const unsigned char *p, *end;
	uint64_t v, a, b, c, seq, addr, size, pc, iaddr;
	uint32_t id, tid, loc, var;
	unsigned h;
	int k, n = 0;
	struct rt_rec *pv = &r->prev, *rec;

	while (r->bleft == 0) {
		if ((k = binblock(r)) <= 0)
			return k;
	}
	p = (const unsigned char *)r->buf + r->pos;
	end = (const unsigned char *)r->buf + r->bend;
	seq = pv->seq, addr = pv->addr, size = pv->size, pc = pv->pc;
	tid = pv->tid, loc = pv->loc, var = pv->var, iaddr = r->iaddr;
	while (r->bleft > 0 && n < (int)(sizeof r->q / sizeof r->q[0])) {
		if (p >= end)
			goto corrupt;
		h = *p++;
		r->bleft--;
		if (h < 0x80) {
			seq++;
			if (h & RTB_SEQ)
				seq += unzig(fastvar(&p));
			/* fetches and data each delta against their own last */
			if ((h & 3) == RT_IFETCH)
				iaddr += unzig(fastvar(&p));
			else
				addr += unzig(fastvar(&p));
			if (h & (RTB_SIZE | RTB_PC | RTB_TID | RTB_LOC)) {
				if (h & RTB_SIZE)
					size = fastvar(&p);
				if (h & RTB_TID) {
					v = fastvar(&p);
					if (v > RT_NOTID)
						goto corrupt;
					tid = v ? (uint32_t)(v - 1) : RT_NOTID;
				}
				if (h & RTB_LOC) {
					v = fastvar(&p);
					if (mapid(r, &r->lmap, &r->nlmap, v, &loc))
						goto corrupt;
					v = fastvar(&p);
					if (mapid(r, &r->smap, &r->nsmap, v, &var))
						goto corrupt;
				}
			}
			/* a fetch's pc is its address unless said otherwise */
			if ((h & 3) == RT_IFETCH)
				pc = iaddr;
			if (h & RTB_PC)
				pc += unzig(fastvar(&p));
			if (p > end)
				goto corrupt;
			rec = &r->q[n++];
			rec->seq = seq;
			rec->addr = (h & 3) == RT_IFETCH ? iaddr : addr;
			rec->size = size;
			rec->pc = pc;
			rec->tid = tid;
			rec->loc = loc;
			rec->var = var;
			rec->name = 0;
			rec->elem = 0;
			rec->kind = RT_ACCESS;
			rec->op = h & 3;
			continue;
		}
		switch (h) {
		case RTB_MARK:
		case RTB_REGION:
		case RTB_OBJECT:
			rec = &r->q[n];
			NEXT(v);
			memset(rec, 0, sizeof *rec);
			rec->tid = RT_NOTID;
			rec->seq = seq + 1 + unzig(v);
			NEXT(v);
			if (mapid(r, &r->smap, &r->nsmap, v, &rec->name))
				goto corrupt;
			rec->kind = h == RTB_MARK ? RT_MARK : h == RTB_REGION ? RT_REGION : RT_OBJECT;
			if (h != RTB_MARK)
				NEXT(rec->addr);
			if (h == RTB_REGION) {
				NEXT(rec->size);
				NEXT(v);
				if (v > UINT32_MAX)
					goto corrupt;
				rec->elem = (uint32_t)v;
			}
			seq = rec->seq - 1;
			n++;
			break;
		case RTB_STRDEF:
			NEXT(a);
			NEXT(b);
			if (b > (uint64_t)(end - p))
				goto corrupt;
			id = rt_str_intern((const char *)p, b);
			p += b;
			if (setmap(&r->smap, &r->nsmap, a, id))
				goto corrupt;
			break;
		case RTB_LOCDEF:
			NEXT(a);
			NEXT(b);
			NEXT(c);
			NEXT(v);
			{
				uint32_t f, fn;

				if (mapid(r, &r->smap, &r->nsmap, b, &f) ||
				    mapid(r, &r->smap, &r->nsmap, v, &fn) || c > UINT32_MAX)
					goto corrupt;
				id = rt_loc_intern(f, (uint32_t)c, fn);
			}
			if (setmap(&r->lmap, &r->nlmap, a, id))
				goto corrupt;
			break;
		default:
			goto corrupt;
		}
	}
	pv->seq = seq, pv->addr = addr, pv->size = size, pv->pc = pc;
	pv->tid = tid, pv->loc = loc, pv->var = var, r->iaddr = iaddr;
	r->pos = (const char *)p - r->buf;
	return n ? n : -3;	/* -3: only definitions, go on */
corrupt:
	bincorrupt(r, "bad item");
	if (n > 0) {	/* hand out what was good, then the error */
		r->qerr = 1;
		return n;
	}
	return RT_EIO;
}

static int
read_binary(struct rt_reader *r, struct rt_rec **pp)
{
	int n;

	if (r->qerr)
		return RT_EIO;
	while ((n = binbatch(r)) == -3)
		;	/* a batch of definitions only */
	if (n <= 0)
		return n;
	r->qn = n;
	r->qi = 1;
	*pp = &r->q[0];
	return 1;
}

/* Guess the format from the first lines. */
static int
detect(struct rt_reader *r)
{
	char *p, *e, *f[10], line[512];
	size_t n;
	int nf, lines = 0;

	while (r->len < 4096 && refill(r) > 0)
		;
	if (r->eof == 2)
		return -1;
	if (r->len >= 8 && memcmp(r->buf, RTB_MAGIC, 8) == 0)
		return RT_FMT_BINARY;
	if (r->len >= strlen(RT_TEXT_MAGIC) &&
	    memcmp(r->buf, RT_TEXT_MAGIC, strlen(RT_TEXT_MAGIC)) == 0)
		return RT_FMT_TEXT;
	if (r->len >= 10 && memcmp(r->buf, "#reftrace ", 10) == 0)
		return -1;	/* another kind of stream */
	for (p = r->buf; p < r->buf + r->len && lines < 64; p = e + 1, lines++) {
		e = memchr(p, '\n', r->buf + r->len - p);
		if (e == NULL)
			e = r->buf + r->len;
		n = (size_t)(e - p) < sizeof line - 1 ? (size_t)(e - p) : sizeof line - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (vgprefix(line, '=') || vgprefix(line, '-') || vgprefix(line, '*'))
			return RT_FMT_LACKEY;
		if ((line[0] == 'I' && line[1] == ' ' && line[2] == ' ') ||
		    (line[0] == ' ' && strchr("LSM", line[1]) && line[1] &&
		    line[2] == ' ' && strchr(line, ',')))
			return RT_FMT_LACKEY;
		if (strncmp(line, "START PID", 9) == 0)
			return RT_FMT_GLEIPNIR;
		nf = split(line, f, 9);
		if (nf == 0 || f[0][0] == '#')
			continue;
		if (nf >= 4 && f[0][1] == '\0' && strchr("LSMIX", f[0][0]))
			return RT_FMT_GLEIPNIR;
		if (f[0][1] == '\0' && (f[0][0] == 'R' || f[0][0] == 'W' ||
		    (f[0][0] == 'L' && nf == 2 && strchr(f[1], ':'))))
			return RT_FMT_MTV;
		if ((nf == 2 || nf == 3) && f[0][1] == '\0' && f[0][0] >= '0' && f[0][0] <= '4')
			return RT_FMT_DIN;
		if (nf == 1 && ((f[0][0] >= '0' && f[0][0] <= '9')))
			return RT_FMT_ADDR;
		return -1;
	}
	if (r->len == 0)
		return RT_FMT_ADDR;	/* empty input: nothing to misread */
	return -1;
}

/* The first bytes, at least 4 KB of them if there are so many. */
static void
peekstart(struct rt_reader *r)
{
	while (r->len - r->pos < 4096 && refill(r) > 0)
		;
}

/* What the start of the stream is: its kind (RT_STREAM_NONE for none),
 * and in words. */
static int
classify(struct rt_reader *r, char *buf, size_t len, const char **what)
{
	const char *p, *e;
	int k, fmt;

	peekstart(r);
	p = r->buf + r->pos;
	*what = "not a reftrace stream";
	if (r->len == r->pos) {
		*what = "empty";
		return RT_STREAM_NONE;
	}
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
	else if (r->pos == 0 && (fmt = detect(r)) >= 0 && (fmt == RT_FMT_TEXT ||
	    fmt == RT_FMT_BINARY || fmt == RT_FMT_LACKEY || fmt == RT_FMT_GLEIPNIR)) {
		/* din, MTV and bare addresses look like too much else */
		snprintf(buf, len, "a trace (%s)", rt_fmt_name(fmt));
		*what = buf;
		return RT_STREAM_TRACE;
	}
	return RT_STREAM_NONE;
}

int
rt_rkind(struct rt_reader *r)
{
	char buf[64];
	const char *w;

	return classify(r, buf, sizeof buf, &w);
}

int
rt_rexpect(struct rt_reader *r, int kind)
{
	char buf[64];
	const char *w;

	if (classify(r, buf, sizeof buf, &w) == kind)
		return 0;
	if (strcmp(w, "not a reftrace stream") == 0)
		snprintf(r->err, sizeof r->err, "%s: not %s (%s makes one)", r->path,
		    rt_stream_what(kind), rt_stream_maker(kind));
	else
		snprintf(r->err, sizeof r->err, "%s: %s, not %s (%s makes one)", r->path,
		    w, rt_stream_what(kind), rt_stream_maker(kind));
	return -1;
}

/* Look at the first bytes: gzip input is inflated from here on. */
static int
opengz(struct rt_reader *r)
{
	ssize_t k;

	while (r->len < 2) {
		if ((k = rawread(r, r->buf + r->len, r->cap - r->len - 1)) < 0)
			return -1;
		if (k == 0)
			break;
		r->len += (size_t)k;
	}
	if (r->len < 2 || (unsigned char)r->buf[0] != 0x1f ||
	    (unsigned char)r->buf[1] != 0x8b)
		return 0;
	if ((r->in = malloc(BUFSZ)) == NULL) {
		ioerr(r, "%s", strerror(ENOMEM));
		return -1;
	}
	memcpy(r->in, r->buf, r->len);
	r->zs.next_in = r->in;
	r->zs.avail_in = (uInt)r->len;
	r->len = 0;
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
		ioerr(r, "gzip: cannot initialise");
		return -1;
	}
	r->gz = 1;
	return 0;
}

struct rt_reader *
rt_ropen(const char *path, int fmt, char *errbuf, size_t errlen)
{
	struct rt_reader *r;
	int fd;
	const char *name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;

	if ((r = calloc(1, sizeof *r)) != NULL)
		r->fd = -1;
	if (r == NULL ||
	    (r->path = strdup(name)) == NULL ||
	    (r->buf = malloc(BUFSZ + 16)) == NULL)
		goto nomem;
	r->cap = BUFSZ;
	if (path == NULL || strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(errbuf, errlen, "%s: %s", name, strerror(errno));
		goto fail;
	}
	r->fd = fd;
	if (opengz(r) < 0) {
		snprintf(errbuf, errlen, "%s", r->err);
		goto fail;
	}
	if (fmt == RT_FMT_AUTO && (fmt = detect(r)) < 0) {
		char what[64];
		const char *w;

		if (r->eof == 2)
			snprintf(errbuf, errlen, "%s", r->err);
		else if (classify(r, what, sizeof what, &w) != RT_STREAM_NONE ||
		    strcmp(w, "not a reftrace stream") != 0)
			snprintf(errbuf, errlen, "%s: %s, not a trace", name, w);
		else
			snprintf(errbuf, errlen, "%s: unknown trace format "
			    "(not reftrace, lackey, Gleipnir, din, MTV or addresses)", name);
		goto fail;
	}
	r->fmt = fmt;
	if (fmt == RT_FMT_BINARY) {
		while (r->len < RTB_HDRLEN && refill(r) > 0)
			;
		if (r->len < RTB_HDRLEN || memcmp(r->buf, RTB_MAGIC, 8) != 0) {
			snprintf(errbuf, errlen, "%s: not a reftrace binary trace", name);
			goto fail;
		}
		if (r->buf[8] != RTB_VERSION) {
			snprintf(errbuf, errlen, "%s: binary trace version %d, "
			    "this reader knows %d", name, r->buf[8], RTB_VERSION);
			goto fail;
		}
		r->bend = RTB_HDRLEN;
	} else if (fmt == RT_FMT_TEXT) {
		while (r->len < strlen(RT_TEXT_MAGIC) && refill(r) > 0)
			;
		if (r->len < strlen(RT_TEXT_MAGIC) ||
		    memcmp(r->buf, RT_TEXT_MAGIC, strlen(RT_TEXT_MAGIC)) != 0) {
			snprintf(errbuf, errlen, "%s:1: not a reftrace text trace "
			    "(first line must be '%s')", name, RT_TEXT_MAGIC);
			goto fail;
		}
	}
	return r;
nomem:
	snprintf(errbuf, errlen, "%s: %s", name, strerror(ENOMEM));
fail:
	rt_rclose(r);
	return NULL;
}

/* Kept out of line so that the common case below needs no frame. */
static __attribute__((noinline)) int
readslow(struct rt_reader *r, struct rt_rec **pp)
{
	if (r->eof == 2)
		return RT_EIO;
	*pp = &r->one;
	switch (r->fmt) {
	case RT_FMT_TEXT: return read_text(r, &r->one);
	case RT_FMT_BINARY: return read_binary(r, pp);
	case RT_FMT_LACKEY: return read_lackey(r, &r->one);
	case RT_FMT_GLEIPNIR: return read_gleipnir(r, &r->one);
	case RT_FMT_DIN: return read_din(r, &r->one);
	case RT_FMT_MTV: return read_mtv(r, &r->one);
	case RT_FMT_ADDR: return read_addr(r, &r->one);
	}
	return ioerr(r, "no reader for this format");
}

char *
rt_rgetline(struct rt_reader *r, size_t *len)
{
	size_t n;
	char *s;

	if (r->eof == 2)
		return NULL;
	s = nextline(r, &n);
	if (len != NULL)
		*len = n;
	return s;
}

char *
rt_rfield(struct rt_reader *r, unsigned field)
{
	char *s, *e;
	size_t n;
	unsigned i;

	while ((s = rt_rgetline(r, &n)) != NULL) {
		s += strspn(s, " \t,");
		if (*s == '#' || *s == '\0')
			continue;
		for (i = 1; i < field && *s; i++) {
			s += strcspn(s, " \t,");
			s += strspn(s, " \t,");
		}
		e = s + strcspn(s, " \t,");
		*e = '\0';
		return s;
	}
	return NULL;
}

int
rt_rpeek(struct rt_reader *r, const char *prefix)
{
	size_t n = strlen(prefix);

	while (r->len - r->pos < n && refill(r) > 0)
		;
	return r->len - r->pos >= n && memcmp(r->buf + r->pos, prefix, n) == 0;
}

const char *
rt_rpath(const struct rt_reader *r)
{
	return r->path;
}

const char *
rt_rbad(struct rt_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof r->err, "%s:%llu: ", r->path,
	    (unsigned long long)r->line);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	va_end(ap);
	return r->err;
}

int
rt_readp(struct rt_reader *r, struct rt_rec **pp)
{
	if (r->qi < r->qn) {
		*pp = &r->q[r->qi++];
		return 1;
	}
	return readslow(r, pp);
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

const char *
rt_rerror(const struct rt_reader *r)
{
	return r->err;
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
	if (r->gz)
		inflateEnd(&r->zs);
	if (r->fd >= 0)
		close(r->fd);
	free(r->in);
	free(r->path);
	free(r->buf);
	free(r->smap);
	free(r->lmap);
	free(r);
}
