/* slice.c: slices of a binary trace (rt_rslice), concatenated, are the
 * trace, for several counts of slices, more than its blocks among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/reftrace.h"
#include "tap.h"

static struct rt_rec *
readall(const char *path, uint64_t k, uint64_t ns_, size_t *len, int *err)
{
	char eb[1024];
	struct rt_reader *r;
	struct rt_rec *v = NULL, *p;
	size_t cap = 0;
	int s;

	*len = 0;
	*err = 0;
	if ((r = rt_ropen(path, RT_FMT_AUTO, eb, sizeof eb)) == NULL)
		return *err = 1, NULL;
	if (ns_ && (*err = rt_rslice(r, k, ns_)) != 0) {
		rt_rclose(r);
		return NULL;
	}
	while ((s = rt_readp(r, &p)) > 0) {
		if (*len == cap && (v = realloc(v, (cap = cap ? 2 * cap : 4096) * sizeof *v)) == NULL)
			abort();
		v[(*len)++] = *p;
	}
	*err = s;
	rt_rclose(r);
	return v;
}

static int
same(const struct rt_rec *a, const struct rt_rec *b)
{
	return a->seq == b->seq && a->addr == b->addr && a->size == b->size &&
	    a->op == b->op && a->pc == b->pc && a->kind == b->kind;
}

/* The slices of path, for n of them, concatenated equal the whole (v, len)
 * and no slice fails. */
static int
sliced(const char *path, const struct rt_rec *v, size_t len, uint64_t nsl, uint64_t *empty)
{
	struct rt_rec *s;
	size_t at = 0, m, i;
	uint64_t k;
	int err;

	*empty = 0;
	for (k = 0; k < nsl; k++) {
		s = readall(path, k, nsl, &m, &err);
		if (err)
			return free(s), 0;
		*empty += m == 0;
		for (i = 0; i < m; i++)
			if (at + i >= len || !same(&s[i], &v[at + i]))
				return free(s), 0;
		at += m;
		free(s);
	}
	return at == len;
}

static void
trace(const char *path, int fmt, int gz, size_t nrec)
{
	struct rt_writer *w = rt_wopen(path, fmt, gz);
	struct rt_rec r = { 0 };
	size_t i;

	if (w == NULL)
		abort();
	srand(7);
	for (i = 0; i < nrec; i++) {
		r.seq = i;
		r.kind = RT_ACCESS;
		r.op = rand() % 3 == 0 ? RT_WRITE : RT_READ;
		r.addr = i % 5 ? 0x1000 + 8 * (i % 4096) : (uint64_t)rand() << 6;
		r.size = 8;
		r.pc = 0x400000 + 4 * (i % 17);
		r.tid = RT_NOTID;
		if (rt_write(w, &r))
			abort();
	}
	if (rt_wclose(w))
		abort();
}

int
main(void)
{
	static const uint64_t ns[] = { 1, 2, 3, 5, 7, 64 };
	const char *fmts[] = { "binary", "binary2" };
	char path[256], msg[200];
	struct rt_rec *v;
	size_t len, i, j;
	uint64_t empty;
	int err, f;

	for (f = 0; f < 2; f++) {
		snprintf(path, sizeof path, "/tmp/rt-slice-%d-%s.rtb", (int)getpid(), fmts[f]);
		trace(path, f ? RT_FMT_BINARY2 : RT_FMT_BINARY, 0, 5 * 262144 + 1000);
		v = readall(path, 0, 0, &len, &err);
		ok(err == 0 && len == 5 * 262144 + 1000, "the whole trace reads");
		for (i = 0; i < sizeof ns / sizeof *ns; i++) {
			j = sliced(path, v, len, ns[i], &empty);
			snprintf(msg, sizeof msg, "%s: %llu slices are the trace (%llu empty)",
			    fmts[f], (unsigned long long)ns[i], (unsigned long long)empty);
			ok(j && (ns[i] < 6 ? empty == 0 : empty >= ns[i] - 6), msg);
		}
		free(v);
		unlink(path);
	}
	snprintf(path, sizeof path, "/tmp/rt-slice-%d.rtb.gz", (int)getpid());
	trace(path, RT_FMT_BINARY, 1, 10);
	readall(path, 0, 1, &len, &err);
	ok(err == RT_EUSAGE, "a compressed trace: refused");
	unlink(path);
	printf("1..%d\n", n);
	return failed != 0;
}
