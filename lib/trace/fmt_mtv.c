/* fmt_mtv.c: the plain text of the MTV tools: R 0xADDR [size],
 * W 0xADDR [size], and L file:line for the records after it. */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "rtint.h"

struct mtv {
	uint64_t seq;
	uint32_t loc;		/* set by the last L line */
};

static int
sniff(const struct rt_sniff *s)
{
	return s->nf > 0 && s->f[0][1] == '\0' && (s->f[0][0] == 'R' ||
	    s->f[0][0] == 'W' || (s->f[0][0] == 'L' && s->nf == 2 && strchr(s->f[1], ':')));
}

static int
read_mtv(struct rt_reader *r, struct rt_rec *rec)
{
	struct mtv *m = r->st;
	char *p;
	size_t n;
	uint64_t addr, size = 1;
	int op;

	for (;;) {
		if ((p = rt_in_data(r)) == NULL)
			return RT_IN_END(r);
		if (p[0] == 'L' && rt_in_blank(p[1])) {
			p = rt_in_skipws(p + 1);
			n = strlen(p);
			while (n > 0 && rt_in_blank(p[n - 1]))
				n--;
			if (n == 0)
				return rt_in_bad(r, "empty source location");
			if (rt_in_loc(r, p, n, 0, &m->loc))
				return RT_EIO;
			continue;
		}
		break;
	}
	if ((p[0] != 'R' && p[0] != 'W') || !rt_in_blank(p[1]))
		return rt_in_bad(r, "not an MTV line (want R, W or L)");
	op = p[0] == 'R' ? RT_READ : RT_WRITE;
	p = rt_in_skipws(p + 1);
	if (rt_in_addr(&p, &addr) || !rt_in_fieldend(p))
		return rt_in_bad(r, "bad address");
	p = rt_in_skipws(p);
	if (*p && (rt_in_dec(&p, &size) || *rt_in_skipws(p) != '\0'))
		return rt_in_bad(r, "bad size");
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	rt_in_access(rec, m->seq++, op, addr, size);
	rec->loc = m->loc;
	return 1;
}

const struct rt_format rt_fmt_mtv = {
	.name = "mtv", .sniff = sniff,
	.size = sizeof(struct mtv), .next = read_mtv,
};
