/* fmt_din.c: Dinero IV's din format: label address [size]; 0 read,
 * 1 write, 2 fetch, 3 other access (read), 4 flush (a mark "flush"). */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "output.h"
#include "rtint.h"

struct din {
	uint64_t seq;
};

static int
sniff(const struct rt_sniff *s)
{
	return (s->nf == 2 || s->nf == 3) && s->f[0][1] == '\0' &&
	    s->f[0][0] >= '0' && s->f[0][0] <= '4';
}

static int
read_din(struct rt_reader *r)
{
	struct din *d = r->st;
	struct rt_rec *rec = r->q;
	char *p;
	uint64_t label, addr, size = 1;
	uint32_t flush;

	if ((p = rt_in_data(r)) == NULL)
		return RT_IN_END(r);
	if (rt_in_dec(&p, &label) || !rt_in_blank(*p) || label > 4)
		return rt_in_bad(r, "bad din label (want 0-4)");
	p = rt_in_skipws(p);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (rt_in_hex(&p, &addr) || !rt_in_fieldend(p))
		return rt_in_bad(r, "bad address");
	p = rt_in_skipws(p);
	if (*p && (rt_in_dec(&p, &size) || *rt_in_skipws(p) != '\0'))
		return rt_in_bad(r, "bad size");
	if (label == 4) {
		if (rt_in_str(r, "flush", 5, &flush))
			return RT_EIO;
		rt_in_event(rec, RT_MARK, d->seq, flush);
		return 1;
	}
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	rt_in_access(rec, d->seq++,
	    label == 1 ? RT_WRITE : label == 2 ? RT_IFETCH : RT_READ, addr, size);
	return 1;
}

/* The writer: one line per access, a modify a read then a write; events
 * have no place in din. */
static int
write_din(struct rt_writer *w, const struct rt_rec *r)
{
	char line[64], *p = line;

	if (r->kind != RT_ACCESS)
		return 0;
	switch (r->op) {
	case RT_READ: *p++ = '0'; break;
	case RT_WRITE: *p++ = '1'; break;
	case RT_IFETCH: *p++ = '2'; break;
	default:
		*p++ = '0';
		*p++ = ' ';
		p = rt_out_hex(p, r->addr);
		*p++ = ' ';
		p = rt_out_dec(p, r->size);
		*p++ = '\n';
		*p++ = '1';
		break;
	}
	*p++ = ' ';
	p = rt_out_hex(p, r->addr);
	*p++ = ' ';
	p = rt_out_dec(p, r->size);
	*p++ = '\n';
	return rt_out(w, line, p - line);
}

const struct rt_format rt_fmt_din = {
	.name = "din", .sniff = sniff,
	.size = sizeof(struct din), .read = read_din,
	.write = write_din,
};
