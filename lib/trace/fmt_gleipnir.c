/* fmt_gleipnir.c: Gleipnir traces (Janjusic and Kavi), one access a line:
 * Op Addr Size Tid Scope Function [VarKind VarName]. */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "rtint.h"

struct gleipnir {
	uint64_t seq;
	struct rt_in_last func, var;
};

static int
sniff(const struct rt_sniff *s)
{
	return strncmp(s->line, "START PID", 9) == 0 ||
	    (s->nf >= 4 && s->f[0][1] == '\0' && strchr("LSMIX", s->f[0][0]));
}

static int
read_gleipnir(struct rt_reader *r, struct rt_rec *rec)
{
	struct gleipnir *g = r->st;
	char *p, *f[9];
	uint64_t addr, size, tid;
	uint32_t func;
	int nf, op;

	for (;;) {
		if ((p = rt_in_data(r)) == NULL)
			return RT_IN_END(r);
		if (strncmp(p, "START PID", 9) == 0 || (p[0] == 'X' && rt_in_blank(p[1])))
			continue;	/* header and keyword lines */
		break;
	}
	nf = rt_in_split(p, f, 8);
	if (nf < 4 || nf > 8 || f[0][1] != '\0')
		return rt_in_bad(r, "not a Gleipnir line");
	switch (f[0][0]) {
	case 'L': op = RT_READ; break;
	case 'S': op = RT_WRITE; break;
	case 'M': op = RT_MODIFY; break;
	case 'I': op = RT_IFETCH; break;
	default: return rt_in_bad(r, "bad op '%s'", f[0]);
	}
	p = f[1];
	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	if (rt_in_hex(&p, &addr) || *p)
		return rt_in_bad(r, "bad address");
	p = f[2];
	if (rt_in_dec(&p, &size) || *p)
		return rt_in_bad(r, "bad size");
	p = f[3];
	if (rt_in_dec(&p, &tid) || *p || tid >= RT_NOTID)
		return rt_in_bad(r, "bad thread id");
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	rt_in_access(rec, g->seq++, op, addr, size);
	rec->tid = (uint32_t)tid;
	if (nf >= 6 && (rt_in_field(r, &g->func, f[5], strlen(f[5]), &func) ||
	    rt_in_locid(r, 0, 0, func, &rec->loc)))
		return RT_EIO;
	if (nf >= 8 && rt_in_field(r, &g->var, f[7], strlen(f[7]), &rec->var))
		return RT_EIO;
	return 1;
}

const struct rt_format rt_fmt_gleipnir = {
	.name = "gleipnir", .sure = 1, .sniff = sniff,
	.size = sizeof(struct gleipnir), .next = read_gleipnir,
};
