/* fmt_addr.c: a bare list of addresses, one a line (0x hex or decimal),
 * read as one-byte reads. */
#include <stdlib.h>

#include "input.h"
#include "rtint.h"

struct addr {
	uint64_t seq;
};

static int
sniff(const struct rt_sniff *s)
{
	return s->nf == 1 && s->f[0][0] >= '0' && s->f[0][0] <= '9';
}

static int
read_addr(struct rt_reader *r, struct rt_rec *rec)
{
	struct addr *a = r->st;
	char *p;
	uint64_t addr;

	if ((p = rt_in_data(r)) == NULL)
		return RT_IN_END(r);
	if (rt_in_addr(&p, &addr) || *rt_in_skipws(p) != '\0')
		return rt_in_bad(r, "bad address");
	rt_in_access(rec, a->seq++, RT_READ, addr, 1);
	return 1;
}

const struct rt_format rt_fmt_addr = {
	.name = "addr", .sniff = sniff,
	.size = sizeof(struct addr), .next = read_addr,
};
