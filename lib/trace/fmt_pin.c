/* fmt_pin.c: Intel Pin's pinatrace (ManualExamples/pinatrace.cpp):
 * "PC: R ADDR" or "PC: W ADDR", both as printf's %p writes them (0x hex,
 * "(nil)" for 0), a size after them in some variants (1 when absent),
 * and "#eof" at the end of a complete trace. */
#include <string.h>

#include "input.h"
#include "output.h"
#include "rtint.h"

struct pin {
	uint64_t seq;
};

static int
sniff(const struct rt_sniff *s)
{
	size_t n;

	if (s->nf != 3 && s->nf != 4)
		return 0;
	n = strlen(s->f[0]);
	return n > 3 && s->f[0][0] == '0' && s->f[0][1] == 'x' && s->f[0][n - 1] == ':' &&
	    (s->f[1][0] == 'R' || s->f[1][0] == 'W') && s->f[1][1] == '\0';
}

/* %p: 0x hex, or "(nil)" */
static int
ptr(char **pp, uint64_t *v)
{
	if (strncmp(*pp, "(nil)", 5) == 0) {
		*pp += 5;
		*v = 0;
		return 0;
	}
	if ((*pp)[0] != '0' || (*pp)[1] != 'x')
		return -1;
	*pp += 2;
	return rt_in_hex(pp, v);
}

static int
read_pin(struct rt_reader *r, struct rt_rec *rec)
{
	struct pin *t = r->st;
	char *p;
	uint64_t pc, addr, size = 1;
	int op;

	if ((p = rt_in_data(r)) == NULL)
		return RT_IN_END(r);
	if (ptr(&p, &pc) || *p++ != ':' || !rt_in_blank(*p))
		return rt_in_bad(r, "bad pc (want 0x...: R|W 0x...)");
	p = rt_in_skipws(p);
	if ((*p != 'R' && *p != 'W') || !rt_in_blank(p[1]))
		return rt_in_bad(r, "bad op (want R or W)");
	op = *p == 'R' ? RT_READ : RT_WRITE;
	p = rt_in_skipws(p + 1);
	if (ptr(&p, &addr) || !rt_in_fieldend(p))
		return rt_in_bad(r, "bad address");
	p = rt_in_skipws(p);
	if (*p && (rt_in_dec(&p, &size) || size == 0 || *rt_in_skipws(p) != '\0'))
		return rt_in_bad(r, "bad size");
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	rt_in_access(rec, t->seq++, op, addr, size);
	rec->pc = pc;
	return 1;
}

/* The writer: data accesses with their pc (0 when unknown) and size; a
 * modify is a read and a write, as Pin records it; fetches and events
 * have no place in pinatrace.  "#eof" closes the stream. */
static int
write_pin(struct rt_writer *w, const struct rt_rec *r)
{
	char line[96], *p = line;
	int k, n;

	if (r->kind != RT_ACCESS || r->op == RT_IFETCH)
		return 0;
	n = r->op == RT_MODIFY ? 2 : 1;
	for (k = 0; k < n; k++) {
		*p++ = '0';
		*p++ = 'x';
		p = rt_out_hex(p, r->pc);
		*p++ = ':';
		*p++ = ' ';
		*p++ = r->op == RT_WRITE || k == 1 ? 'W' : 'R';
		*p++ = ' ';
		*p++ = '0';
		*p++ = 'x';
		p = rt_out_hex(p, r->addr);
		*p++ = ' ';
		p = rt_out_dec(p, r->size);
		*p++ = '\n';
	}
	return rt_out(w, line, p - line);
}

static int
wclose_pin(struct rt_writer *w)
{
	return rt_out(w, "#eof\n", 5);
}

const struct rt_format rt_fmt_pin = {
	.name = "pin", .sniff = sniff,
	.size = sizeof(struct pin), .next = read_pin,
	.write = write_pin, .wclose = wclose_pin,
};
