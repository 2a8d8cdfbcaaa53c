/* fmt_din.c: Dinero IV's din formats, read as Dinero IV reads them (its
 * d4.1, TRACE RECORDS), told apart line by line by the label:
 *	extended (-informat D, its default): "r|w|i|m|c|v ADDR SIZE", both
 *	hex with an optional 0x, the size as it is;
 *	traditional (-informat d, Dinero III's): "LABEL ADDR", label 0 read,
 *	1 write, 2 fetch, 3 misc, 4 copy-back, 5 invalidate; every access 4
 *	bytes at the address rounded down to a multiple of 4.
 * Whatever follows those fields is ignored (comments, and the extra
 * columns Dinero's own converters write).  m (misc) is a read; c is a
 * flush (RT_FLUSH: the dirty blocks written back, size 0 for the whole
 * cache), v an invalidate (RT_INVAL). */
#include <string.h>

#include "input.h"
#include "output.h"
#include "rtint.h"

/* Dinero keeps a size in 16 bits: the writer cuts an access in pieces of
 * at most this many bytes. */
#define DINMAX 32768

struct din {
	uint64_t seq;
};

/* The extended format's labels in the order of traditional's numbers. */
static const char xlabel[] = "rwimcv";

/* A hex field with an optional 0x, as the whole of a field. */
static int
hexfield(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!rt_hexval[(unsigned char)*s])
			return 0;
	return 1;
}

/* Lower-case labels only, and upper-case but for R and W: "R 0x10 8" is
 * MTV's, whose size is decimal; a fourth field of I or M is Gleipnir's,
 * which the table asks first. */
static int
sniff(const struct rt_sniff *s)
{
	const char *l = s->nf >= 2 ? s->f[0] : "";

	if (l[0] == '\0' || l[1] != '\0' || !hexfield(s->f[1]))
		return 0;
	if (l[0] >= '0' && l[0] <= '5')
		return 1;
	return s->nf >= 3 && (strchr(xlabel, l[0]) || strchr("IMCV", l[0])) &&
	    hexfield(s->f[2]);
}

/* Hex digits with an optional 0x, ending at a blank or the end. */
static int
hex(char **pp, uint64_t *v)
{
	char *p = *pp;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (rt_in_hex(&p, v) || !rt_in_fieldend(p))
		return -1;
	*pp = rt_in_skipws(p);
	return 0;
}

static int
read_din(struct rt_reader *r, struct rt_rec *rec)
{
	static const int op[] = { RT_READ, RT_WRITE, RT_IFETCH, RT_READ };
	struct din *d = r->st;
	char *p, *l;
	uint64_t label, addr, size = 4;

	if ((p = rt_in_data(r)) == NULL)
		return RT_IN_END(r);
	if (p[0] > '9' && (l = strchr(xlabel, p[0] | 0x20)) != NULL && rt_in_blank(p[1])) {
		label = (uint64_t)(l - xlabel);
		p = rt_in_skipws(p + 1);
		if (hex(&p, &addr))
			return rt_in_bad(r, "bad address");
		if (*p == '\0' || hex(&p, &size))
			return rt_in_bad(r, "bad size (want hex)");
		if (size == 0 && label < 4)
			return rt_in_bad(r, "size 0 (only c and v take it: the whole cache)");
	} else {
		if (p[0] >= '0' && p[0] <= '5' && rt_in_blank(p[1])) {	/* the usual label */
			label = (uint64_t)(p[0] - '0');
			p = rt_in_skipws(p + 1);
		} else if (hex(&p, &label) || label > 5)
			return rt_in_bad(r, "bad din label (want 0-5, or r, w, i, m, c, v)");
		if (hex(&p, &addr))
			return rt_in_bad(r, "bad address");
		addr &= ~(uint64_t)3;	/* Dinero III is word-oriented */
	}
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	if (label >= 4) {
		rt_in_event(rec, label == 4 ? RT_FLUSH : RT_INVAL, d->seq, 0);
		rec->addr = addr;
		rec->size = size;
		return 1;
	}
	rt_in_access(rec, d->seq++, op[label], addr, size);
	return 1;
}

/* The writer: extended din, Dinero IV's default, which keeps sizes: one
 * line per access (a modify a read then a write; pieces of DINMAX bytes
 * at most), c and v for flushes; the other events have no place there. */
static int
write_din(struct rt_writer *w, const struct rt_rec *r)
{
	char line[64], *p;
	uint64_t a = r->addr, left = r->size ? r->size : 1, n;
	int k, label;

	if (r->kind == RT_FLUSH || r->kind == RT_INVAL)
		left = r->size;
	else if (r->kind != RT_ACCESS)
		return 0;
	do {
		n = left < DINMAX ? left : DINMAX;
		for (k = 0; k < 1 + (r->kind == RT_ACCESS && r->op == RT_MODIFY); k++) {
			label = r->kind == RT_FLUSH ? 'c' : r->kind == RT_INVAL ? 'v' :
			    r->op == RT_MODIFY ? "rw"[k] : "rwmi"[r->op & 3];
			p = line;
			*p++ = (char)label;
			*p++ = ' ';
			p = rt_out_hex(p, a);
			*p++ = ' ';
			p = rt_out_hex(p, n);
			*p++ = '\n';
			if (rt_out(w, line, p - line))
				return -1;
		}
		a += n;
		left -= n;
	} while (left > 0);
	return 0;
}

const struct rt_format rt_fmt_din = {
	.name = "din", .sniff = sniff,
	.size = sizeof(struct din), .next = read_din,
	.write = write_din,
};
