/* rinto.c: rt_rinto's decoding into the caller's buffer.  Every format
 * the readers share a queue in (binary versions 2, 3 and 4, text read a
 * line at a time) hands out, batch by batch, the items it hands out
 * into its own array, at the buffer's address; with items still queued
 * the call changes nothing, and NULL gives the reader its array back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/reftrace.h"
#include "tap.h"

#define NREC 70000	/* more than one block of every binary version */

static void
trace(const char *path, int fmt)
{
	struct rt_writer *w = rt_wopen(path, fmt, 0);
	struct rt_rec r = { 0 };
	size_t i;

	if (w == NULL)
		abort();
	srand(11);
	for (i = 0; i < NREC; i++) {
		r.seq = i;
		r.kind = RT_ACCESS;
		r.op = rand() % 4 == 0 ? RT_WRITE : rand() % 3 == 0 ? RT_IFETCH : RT_READ;
		r.addr = i % 3 ? 0x1000 + 8 * (i % 4096) : (uint64_t)rand() << 6;
		r.size = 1 + (uint64_t)(rand() % 16);
		r.pc = 0x400000 + 4 * (i % 29);
		r.tid = RT_NOTID;
		if (rt_write(w, &r))
			abort();
	}
	if (rt_wclose(w))
		abort();
}

static int
same(const struct rt_rec *a, const struct rt_rec *b)
{
	return a->seq == b->seq && a->addr == b->addr && a->size == b->size &&
	    a->op == b->op && a->pc == b->pc && a->kind == b->kind;
}

/* The items, read with rt_readv into the reader's array (buf NULL) or
 * into buf every batch; *away counts batches not at buf. */
static struct rt_rec *
readall(const char *path, struct rt_rec *buf, size_t *len, size_t *away)
{
	char eb[1024];
	struct rt_reader *r;
	struct rt_rec *all, *v;
	int k;

	*len = *away = 0;
	if ((all = malloc((NREC + RT_RBATCH) * sizeof *all)) == NULL ||
	    (r = rt_ropen(path, RT_FMT_AUTO, eb, sizeof eb)) == NULL)
		abort();
	for (;;) {
		rt_rinto(r, buf);
		if ((k = rt_readv(r, &v)) <= 0 || *len + (size_t)k > NREC + RT_RBATCH)
			break;
		*away += buf != NULL && v != buf;
		memcpy(all + *len, v, (size_t)k * sizeof *v);
		*len += (size_t)k;
		/* what the consumer does with its buffer: the reader keeps nothing there */
		if (buf != NULL)
			memset(buf, 0xa5, RT_RBATCH * sizeof *buf);
	}
	rt_rclose(r);
	return k < 0 ? (free(all), NULL) : all;
}

int
main(void)
{
	const int fmts[] = { RT_FMT_BINARY, RT_FMT_BINARY2, RT_FMT_BINFLAT, RT_FMT_TEXT };
	const char *names[] = { "binary", "binary2", "binary-flat", "text" };
	static struct rt_rec buf[RT_RBATCH];
	struct rt_rec *own, *into, *p;
	struct rt_reader *r;
	char path[256], msg[200], eb[1024];
	size_t n1, n2, away, i;
	int f, eq;

	for (f = 0; f < 4; f++) {
		snprintf(path, sizeof path, "/tmp/rt-rinto-%d.%s", (int)getpid(), names[f]);
		trace(path, fmts[f]);
		own = readall(path, NULL, &n1, &away);
		into = readall(path, buf, &n2, &away);
		for (eq = own != NULL && into != NULL && n1 == NREC && n2 == n1, i = 0; eq && i < n1; i++)
			eq = same(&own[i], &into[i]) && own[i].seq == i;
		snprintf(msg, sizeof msg, "%s: %zu items decoded into the caller's buffer, as into "
		    "the reader's own", names[f], n2);
		ok(eq, msg);
		snprintf(msg, sizeof msg, "%s: every batch at the buffer (%zu not)", names[f], away);
		ok(into != NULL && away == 0, msg);
		free(own);
		free(into);

		/* one item taken of a batch: the rest stay where they are */
		if ((r = rt_ropen(path, RT_FMT_AUTO, eb, sizeof eb)) == NULL)
			abort();
		eq = rt_readp(r, &p) == 1 && p->seq == 0;
		rt_rinto(r, buf);
		eq = eq && rt_readv(r, &p) > 0 && p != buf && p->seq == 1;
		rt_rinto(r, buf);
		eq = eq && rt_readv(r, &p) > 0 && p == buf;
		rt_rinto(r, NULL);
		eq = eq && rt_readp(r, &p) == 1 && (p < buf || p >= buf + RT_RBATCH);
		snprintf(msg, sizeof msg, "%s: no effect while items are queued; NULL: the "
		    "reader's own array again", names[f]);
		ok(eq, msg);
		rt_rclose(r);
		unlink(path);
	}
	printf("1..%d\n", n);
	return failed != 0;
}
