/* fmt_text.c: the reftrace text trace: a header line, then one record a
 * line (seq op addr size [tid pc loc func var]) and events as # lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "output.h"
#include "rtint.h"

struct text {
	/* the last location, function and variable texts seen */
	struct rt_in_last loc, func, var;
};

static int
sniff(const struct rt_sniff *s)
{
	return s->lineno == 0 && s->len >= strlen(RT_TEXT_MAGIC) &&
	    memcmp(s->start, RT_TEXT_MAGIC, strlen(RT_TEXT_MAGIC)) == 0;
}

/* A partition is the second line, "#partition k/n:bytes fp=HEX", read here so
 * that it is known once the stream is open (the line is then a comment). */
static int
headpart(struct rt_reader *r)
{
	static const char kw[] = "#partition ";
	char line[96], *p, *e;
	size_t n;

	rt_in_need(r, 4096);
	p = r->buf + r->pos;
	if ((p = memchr(p, '\n', r->len - r->pos)) == NULL)
		return 0;
	p++;
	n = r->buf + r->len - p;
	if (n < sizeof kw - 1 || memcmp(p, kw, sizeof kw - 1) != 0)
		return 0;
	p += sizeof kw - 1;
	n -= sizeof kw - 1;
	if ((e = memchr(p, '\n', n)) == NULL || (size_t)(e - p) >= sizeof line)
		goto bad;
	memcpy(line, p, e - p);
	line[e - p] = '\0';
	if (e > p && line[e - p - 1] == '\r')
		line[e - p - 1] = '\0';
	if (rt_part_read(line, &r->part) == 0)
		return 0;
bad:
	memset(&r->part, 0, sizeof r->part);
	snprintf(r->err, sizeof r->err, "%s:2: bad partition (want #partition k/n:bytes [fp=HEX])",
	    r->path);
	return -1;
}

static int
open_text(struct rt_reader *r)
{
	size_t n = strlen(RT_TEXT_MAGIC);

	if (rt_in_need(r, n) < n || memcmp(r->buf + r->pos, RT_TEXT_MAGIC, n) != 0) {
		snprintf(r->err, sizeof r->err, "%s:1: not a reftrace text trace "
		    "(first line must be '%s')", r->path, RT_TEXT_MAGIC);
		return -1;
	}
	return headpart(r);
}

/* The events' words, and the fields each wants. */
static const char *const kws[] = { "mark", "region", "object", "flush", "inval" };
static const char *const want[] = { "mark seq name", "region seq name addr size elem",
	"object seq path bias [identity]", "flush seq addr size", "inval seq addr size" };

static int
event_kw(const char *w)
{
	int k;

	for (k = 0; k < 5; k++)
		if (strcmp(w, kws[k]) == 0)
			return k;
	return -1;
}

/* A partition line past the header: a trace of a partition concatenated
 * to this one, which is read as one stream (cat p0 p1) and would be
 * taken for the first's partition: refused unless it is the same. */
static int
samepart(struct rt_reader *r, const char *s)
{
	struct rt_part p;

	if (rt_part_read(s, &p))
		return rt_in_bad(r, "bad partition (want #partition k/n:bytes [fp=HEX])");
	if (rt_samepart(&p, &r->part))
		return 0;
	if (p.k == r->part.k && p.n == r->part.n && p.bytes == r->part.bytes)
		return rt_in_bad(r, "partition %llu/%llu of another trace (fp=%016llx, the "
		    "first fp=%016llx): partitions of two traces concatenated", (unsigned long long)p.k,
		    (unsigned long long)p.n, (unsigned long long)p.fp, (unsigned long long)r->part.fp);
	if (r->part.n == 0)
		return rt_in_bad(r, "partition %llu/%llu of a trace whose header records none: "
		    "a partition's trace concatenated to another (give them as files)",
		    (unsigned long long)p.k, (unsigned long long)p.n);
	return rt_in_bad(r, "partition %llu/%llu in a trace of partition %llu/%llu: traces of "
	    "two partitions concatenated (give them as files)", (unsigned long long)p.k,
	    (unsigned long long)p.n, (unsigned long long)r->part.k, (unsigned long long)r->part.n);
}

/* #mark seq name, #region seq name addr size elem, #object seq path bias
 * [identity], #flush seq addr size, #inval seq addr size; 0 for any other
 * comment; an event's word with other fields is a malformed line. */
static int
event(struct rt_reader *r, char *p, struct rt_rec *rec)
{
	char *f[8];
	int n, k, kind;
	uint64_t seq, a = 0, b = 0, c = 0;
	uint32_t name, id = 0;

	n = rt_in_split(p + 1, f, 7);
	if (n == 3 && strcmp(f[0], "mark") == 0) {
		if (rt_parse_u64(f[1], &seq))
			return rt_in_bad(r, "bad seq in mark");
		kind = RT_MARK;
	} else if (n == 6 && strcmp(f[0], "region") == 0) {
		if (rt_parse_u64(f[1], &seq) || rt_parse_addr(f[3], &a) ||
		    rt_parse_u64(f[4], &b) || rt_parse_u64(f[5], &c) ||
		    c > UINT32_MAX || rt_wraps(a, b))
			return rt_in_bad(r, "bad region line");
		kind = RT_REGION;
	} else if ((n == 4 || n == 5) && strcmp(f[0], "object") == 0) {
		if (rt_parse_u64(f[1], &seq) || rt_parse_addr(f[3], &a))
			return rt_in_bad(r, "bad object line");
		if (n == 5 && rt_in_str(r, f[4], strlen(f[4]), &id))
			return RT_EIO;
		kind = RT_OBJECT;
	} else if (n == 4 && (strcmp(f[0], "flush") == 0 || strcmp(f[0], "inval") == 0)) {
		if (rt_parse_u64(f[1], &seq) || rt_parse_addr(f[2], &a) ||
		    rt_parse_u64(f[3], &b) || b > RT_MAXSIZE || rt_wraps(a, b))
			return rt_in_bad(r, "bad %s line", f[0]);
		rt_in_event(rec, f[0][0] == 'f' ? RT_FLUSH : RT_INVAL, seq, 0);
		rec->addr = a;
		rec->size = b;
		return 1;
	} else if ((n == 2 || n == 3) && strcmp(f[0], "partition") == 0 && r->line > 2) {
		char ps[96];

		snprintf(ps, sizeof ps, "%s%s%s", f[1], n == 3 ? " " : "", n == 3 ? f[2] : "");
		return samepart(r, ps);
	} else if (n > 0 && (k = event_kw(f[0])) >= 0)	/* not a comment: lost, else */
		return rt_in_bad(r, "%s line of %d fields: want #%s", f[0], n > 7 ? 7 : n,
		    want[k]);
	else
		return 0;	/* a comment */
	if (strcmp(f[2], "-") == 0)
		name = 0;	/* the writer's empty name ("%2D" is a '-') */
	else if (rt_in_str(r, f[2], rt_in_unescape(f[2], strlen(f[2])), &name))
		return RT_EIO;
	rt_in_event(rec, kind, seq, name);
	rec->addr = a;
	rec->size = b;
	rec->elem = (uint32_t)c;
	rec->var = id;
	return 1;
}

/* An optional field: '-' or a number read by scan. */
static int
optional(char **pp, uint64_t *v, int (*scan)(char **, uint64_t *))
{
	if (**pp == '-' && rt_in_fieldend(*pp + 1)) {
		(*pp)++;
		return 0;
	}
	if (scan(pp, v) || !rt_in_fieldend(*pp))
		return -1;
	return 1;
}

/* The field at *pp (NULL for '-'), its length in *n; *pp moves to the
 * next field. */
static char *
field(char **pp, size_t *n)
{
	char *q = *pp, *p = q;

	while (!rt_in_fieldend(p))
		p++;
	*n = (size_t)(p - q);
	*pp = rt_in_skipws(p);
	return *n == 1 && *q == '-' ? NULL : q;
}

static int
read_text(struct rt_reader *r, struct rt_rec *rec)
{
	struct text *t = r->st;
	char *p, *q, *locs = NULL;
	size_t n, locn = 0;
	uint64_t seq, addr, size, v;
	int op, k;
	uint32_t func = 0;

	for (;;) {
		if ((p = rt_in_line(r, &n)) == NULL)
			return RT_IN_END(r);
		if (*p == '#') {
			if (r->line == 1)
				continue;	/* the header, checked at open */
			if ((k = event(r, p, rec)) != 0)
				return k;
			continue;
		}
		p = rt_in_skipws(p);
		if (*p == '\0')
			continue;
		break;
	}
	if (rt_in_dec(&p, &seq) || !rt_in_blank(*p))
		return rt_in_bad(r, "bad seq");
	p = rt_in_skipws(p);
	switch (*p) {
	case 'R': op = RT_READ; break;
	case 'W': op = RT_WRITE; break;
	case 'M': op = RT_MODIFY; break;
	case 'I': op = RT_IFETCH; break;
	default: return rt_in_bad(r, "bad op '%c' (want R, W, M or I)", *p ? *p : ' ');
	}
	p++;
	if (!rt_in_blank(*p))
		return rt_in_bad(r, "bad op");
	p = rt_in_skipws(p);
	if (rt_in_addr(&p, &addr) || !rt_in_blank(*p))
		return rt_in_bad(r, "bad address");
	p = rt_in_skipws(p);
	if (rt_in_dec(&p, &size) || !rt_in_fieldend(p))
		return rt_in_bad(r, "bad size");
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	rt_in_access(rec, seq, op, addr, size);
	p = rt_in_skipws(p);
	if (*p == '\0')
		return 1;
	if ((k = optional(&p, &v, rt_in_dec)) < 0 || (k && v >= RT_NOTID))
		return rt_in_bad(r, "bad thread id");
	if (k)
		rec->tid = (uint32_t)v;
	p = rt_in_skipws(p);
	if (*p == '\0')
		return 1;
	if (optional(&p, &rec->pc, rt_in_addr) < 0)
		return rt_in_bad(r, "bad pc");
	if (memcmp(p, " - - -", 7) == 0)	/* no location: the usual end */
		return 1;
	p = rt_in_skipws(p);
	if (*p == '\0')
		return 1;
	locs = field(&p, &locn);
	if (*p && (q = field(&p, &n)) != NULL && rt_in_field(r, &t->func, q, n, &func))
		return RT_EIO;
	if (*p && (q = field(&p, &n)) != NULL && rt_in_field(r, &t->var, q, n, &rec->var))
		return RT_EIO;
	if (*p)
		return rt_in_bad(r, "too many fields");
	if (locs != NULL) {
		/* the same file:line with another function is another location */
		if (rt_in_same(&t->loc, locs, locn) && rt_loc_get(t->loc.id)->func == func) {
			rec->loc = t->loc.id;
			return 1;
		}
		rt_in_keep(&t->loc, locs, locn);
		if (rt_in_loc(r, locs, locn, func, &t->loc.id)) {
			rt_in_forget(&t->loc);
			return RT_EIO;
		}
		rec->loc = t->loc.id;
	} else if (func && rt_in_locid(r, 0, 0, func, &rec->loc))
		return RT_EIO;
	return 1;
}

/* The writer.  A text field: '-' when empty; blanks, '%' and controls
 * escaped. */
static int
putfield(struct rt_writer *w, const char *s)
{
	static const char dig[] = "0123456789ABCDEF";
	char t[3];
	const char *c;

	if (*s == '\0')
		return rt_out(w, "-", 1);
	for (c = s; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == '%' || *c == 0x7f)
			break;
	if (*c == '\0' && !(s[0] == '-' && s[1] == '\0'))
		return rt_out(w, s, c - s);
	for (c = s; *c; c++) {
		if ((unsigned char)*c <= ' ' || *c == '%' || *c == 0x7f ||
		    (c == s && *c == '-' && c[1] == '\0')) {
			t[0] = '%';
			t[1] = dig[(unsigned char)*c >> 4];
			t[2] = dig[*c & 15];
			if (rt_out(w, t, 3))
				return -1;
		} else if (rt_out(w, c, 1))
			return -1;
	}
	return 0;
}

static int
start(struct rt_writer *w)
{
	char line[128], ps[96];
	int n;

	w->started = 1;
	if (rt_out(w, RT_TEXT_HEADER "\n", strlen(RT_TEXT_HEADER) + 1))
		return -1;
	if (w->part.n == 0)
		return 0;
	n = snprintf(line, sizeof line, "#partition %s\n", rt_part_str(ps, sizeof ps, &w->part));
	return rt_out(w, line, (size_t)n);
}

static int
write_event(struct rt_writer *w, const struct rt_rec *r)
{
	static const char *kw[] = { "", "#mark ", "#region ", "#object ", "#flush ",
		"#inval " };
	char line[128], *p = line;

	p = stpcpy(p, kw[r->kind <= RT_INVAL ? r->kind : 1]);
	p = rt_out_dec(p, r->seq);
	*p++ = ' ';
	if (r->kind == RT_FLUSH || r->kind == RT_INVAL) {	/* no name */
		p = stpcpy(p, "0x");
		p = rt_out_hex(p, r->addr);
		*p++ = ' ';
		p = rt_out_dec(p, r->size);
		*p++ = '\n';
		return rt_out(w, line, p - line);
	}
	if (rt_out(w, line, p - line) || putfield(w, rt_str(r->name)))
		return -1;
	p = line;
	if (r->kind == RT_REGION || r->kind == RT_OBJECT) {
		p = stpcpy(p, " 0x");
		p = rt_out_hex(p, r->addr);
	}
	if (r->kind == RT_REGION) {
		*p++ = ' ';
		p = rt_out_dec(p, r->size);
		*p++ = ' ';
		p = rt_out_dec(p, r->elem);
	}
	if (r->kind == RT_OBJECT && r->var != 0) {
		*p++ = ' ';
		if (rt_out(w, line, p - line) || putfield(w, rt_str(r->var)))
			return -1;
		p = line;
	}
	*p++ = '\n';
	return rt_out(w, line, p - line);
}

static int
write_text(struct rt_writer *w, const struct rt_rec *r)
{
	char line[128], *p;
	const struct rt_loc *l;

	if (!w->started && start(w))
		return -1;
	if (r->kind != RT_ACCESS)
		return write_event(w, r);
	/* the fixed fields straight into the output buffer */
	if ((p = rt_out_room(w, 128)) == NULL)
		return -1;
	p = rt_out_dec(p, r->seq);
	*p++ = ' ';
	*p++ = rt_opchar[r->op & 3];
	*p++ = ' ';
	*p++ = '0';
	*p++ = 'x';
	p = rt_out_hex(p, r->addr);
	*p++ = ' ';
	p = rt_out_dec(p, r->size);
	*p++ = ' ';
	if (r->tid == RT_NOTID)
		*p++ = '-';
	else
		p = rt_out_dec(p, r->tid);
	*p++ = ' ';
	if (r->pc == RT_NOPC)
		*p++ = '-';
	else {
		*p++ = '0';
		*p++ = 'x';
		p = rt_out_hex(p, r->pc);
	}
	if (r->loc == 0 && r->var == 0) {
		memcpy(p, " - - -\n", 7);
		w->len = p + 7 - w->buf;
		return 0;
	}
	*p++ = ' ';
	w->len = p - w->buf;
	l = rt_loc_get(r->loc);
	if (l->file == 0 && l->line == 0) {
		if (rt_out(w, "-", 1))
			return -1;
	} else {
		if (putfield(w, rt_str(l->file)))
			return -1;
		p = line;
		*p++ = ':';
		p = rt_out_dec(p, l->line);
		if (rt_out(w, line, p - line))
			return -1;
	}
	if (rt_out(w, " ", 1) || putfield(w, rt_str(l->func)) || rt_out(w, " ", 1) ||
	    putfield(w, rt_str(r->var)))
		return -1;
	return rt_out(w, "\n", 1);
}

static int
wclose_text(struct rt_writer *w)
{
	return w->started ? 0 : start(w);	/* an empty trace says what it is */
}

const struct rt_format rt_fmt_text = {
	.name = "text", .sure = 1, .sniff = sniff,
	.size = sizeof(struct text), .open = open_text, .next = read_text,
	.write = write_text, .wclose = wclose_text, .part = 1,
};
