/* fmt_lackey.c: valgrind --tool=lackey --trace-mem=yes, with the -v -v
 * lines that give objects' load biases and VALGRIND_PRINTF client
 * requests "reftrace mark|region ...". */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "rtint.h"

struct lackey {
	uint64_t seq;		/* of the next record */
	uint64_t pc;		/* the last instruction fetched */
	uint32_t objpath;	/* "Reading syms from" awaiting its svma line */
	uint32_t idpath, id;	/* rttrace's "reftrace object ID PATH" */
};

/* The PID prefix of valgrind's own lines: ==123==, --123--, **123**. */
static const char *
vgprefix(const char *p, int c)
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
sniff(const struct rt_sniff *s)
{
	const char *l = s->line;

	return vgprefix(l, '=') || vgprefix(l, '-') || vgprefix(l, '*') ||
	    (l[0] == 'I' && l[1] == ' ' && l[2] == ' ') ||
	    (l[0] == ' ' && l[1] && strchr("LSM", l[1]) && l[2] == ' ' &&
	    strchr(l, ','));
}

/* **PID** lines: "reftrace mark NAME", "reftrace region NAME BASE COUNT
 * ELEM", and rttrace's "reftrace object ID PATH" (the identity of the
 * program it runs, for the object event valgrind's lines make later);
 * other client requests are no business of ours. */
static int
client(struct rt_reader *r, struct lackey *k, char *p, struct rt_rec *rec)
{
	char *f[8];
	int n;
	uint64_t base, count, elem;
	uint32_t name;

	n = rt_in_split(p, f, 7);
	if (n < 2 || strcmp(f[0], "reftrace") != 0)
		return 0;	/* some other VALGRIND_PRINTF */
	if (n == 3 && strcmp(f[1], "mark") == 0) {
		if (rt_in_str(r, f[2], strlen(f[2]), &name))
			return RT_EIO;
		rt_in_event(rec, RT_MARK, k->seq, name);
		return 1;
	}
	if (n == 6 && strcmp(f[1], "region") == 0) {
		if (rt_parse_addr(f[3], &base) || rt_parse_u64(f[4], &count) ||
		    rt_parse_u64(f[5], &elem) || elem > UINT32_MAX ||
		    (elem && count > UINT64_MAX / elem) || rt_wraps(base, count * elem))
			return rt_in_bad(r, "bad reftrace region request");
		if (rt_in_str(r, f[2], strlen(f[2]), &name))
			return RT_EIO;
		rt_in_event(rec, RT_REGION, k->seq, name);
		rec->addr = base;
		rec->size = count * elem;
		rec->elem = (uint32_t)elem;
		return 1;
	}
	if (n == 4 && strcmp(f[1], "object") == 0) {
		if (rt_in_str(r, f[2], strlen(f[2]), &k->id) ||
		    rt_in_str(r, f[3], strlen(f[3]), &k->idpath))
			return RT_EIO;
		return 0;
	}
	return rt_in_bad(r, "unknown reftrace client request '%s'", f[1]);
}

/* rttrace names the program as it was given, valgrind by its absolute
 * path. */
static int
samebase(const char *a, const char *b)
{
	const char *s = strrchr(a, '/'), *t = strrchr(b, '/');

	return strcmp(s ? s + 1 : a, t ? t + 1 : b) == 0;
}

/* --PID-- lines: "Reading syms from PATH" then "svma 0x.., avma 0x..":
 * the object and its load bias. */
static int
tool(struct rt_reader *r, struct lackey *k, char *p, struct rt_rec *rec)
{
	char *q;
	uint64_t svma, avma;

	p = rt_in_skipws(p);
	if (strncmp(p, "Reading syms from ", 18) == 0) {
		p += 18;
		q = p + strlen(p);
		while (q > p && rt_in_blank(q[-1]))
			q--;
		return rt_in_str(r, p, q - p, &k->objpath) ? RT_EIO : 0;
	}
	if (k->objpath && strncmp(p, "svma 0x", 7) == 0) {
		p += 7;
		if (rt_in_hex(&p, &svma) || strncmp(p, ", avma 0x", 9) != 0)
			return rt_in_bad(r, "bad svma/avma line");
		p += 9;
		if (rt_in_hex(&p, &avma))
			return rt_in_bad(r, "bad svma/avma line");
		rt_in_event(rec, RT_OBJECT, k->seq, k->objpath);
		rec->addr = avma - svma;
		if (k->idpath && samebase(rt_str(k->objpath), rt_str(k->idpath)))
			rec->var = k->id;
		k->objpath = 0;
		return 1;
	}
	return 0;
}

static int
read_lackey(struct rt_reader *r, struct rt_rec *rec)
{
	struct lackey *k = r->st;
	char *p, *q;
	size_t n;
	uint64_t addr, size;
	int op, e;

	for (;;) {
		if ((p = rt_in_line(r, &n)) == NULL)
			return RT_IN_END(r);
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
		if ((q = (char *)vgprefix(p, '-')) != NULL) {
			if ((e = tool(r, k, q, rec)) != 0)
				return e;
			continue;
		}
		if ((q = (char *)vgprefix(p, '*')) != NULL) {
			if ((e = client(r, k, q, rec)) != 0)
				return e;
			continue;
		}
		/* valgrind -v -v continues some diagnostics (CFI summaries)
		 * on lines of their own: "0x30a: [0]={ ...". */
		if (p[0] == '0' && p[1] == 'x' && strstr(p, ": [") != NULL)
			continue;
		return rt_in_bad(r, "not a lackey line");
	}
	if (rt_in_hex(&p, &addr) || *p != ',')
		return rt_in_bad(r, "bad address");
	p++;
	if (rt_in_dec(&p, &size) || *rt_in_skipws(p) != '\0')
		return rt_in_bad(r, "bad size");
	if (rt_in_fits(r, addr, size))
		return RT_EBAD;
	rt_in_access(rec, k->seq++, op, addr, size);
	if (op == RT_IFETCH)
		k->pc = addr;
	rec->pc = k->pc;
	return 1;
}

const struct rt_format rt_fmt_lackey = {
	.name = "lackey", .sure = 1, .sniff = sniff,
	.size = sizeof(struct lackey), .next = read_lackey,
};
