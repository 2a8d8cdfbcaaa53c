/* parts.c: partition writers (trfilter -P): a trace's accesses cut at
 * the blocks they touch, each piece to its block's partition; all n
 * partitions in one read, to outputs named from a pattern with one %d,
 * or partition k alone; each header recording its partition where the
 * format has room. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

struct rt_wparts {
	struct rt_part p;	/* p.k: the partition written when one */
	int one;		/* partition p.k alone, to w[0] */
	uint64_t nw;		/* outputs */
	struct rt_writer **w;
	char **name;
	uint64_t bad;		/* the output a write failed on */
	int unrecorded;		/* a header without room for its partition */
};

static struct rt_wparts *
newparts(const struct rt_part *p, uint64_t nw)
{
	struct rt_wparts *ws;

	if ((ws = calloc(1, sizeof *ws)) == NULL ||
	    (ws->w = calloc(nw + 1, sizeof *ws->w)) == NULL ||
	    (ws->name = calloc(nw + 1, sizeof *ws->name)) == NULL) {
		rt_wparts_free(ws);
		return NULL;
	}
	ws->p = *p;
	return ws;
}

static void
record(struct rt_wparts *ws, uint64_t i, uint64_t k)
{
	struct rt_part pk = ws->p;

	pk.k = k;
	if (rt_wpart(ws->w[i], &pk) < 0)
		ws->unrecorded = 1;
}

int
rt_wparts_open(struct rt_wparts **wsp, const char *pattern, const struct rt_part *p, int rec,
    int fmt, int gzip, char *err, size_t errlen)
{
	struct rt_wparts *ws;
	size_t len = strlen(pattern) + 32;
	uint64_t k;
	int e = RT_ENOMEM;

	*wsp = NULL;
	*err = '\0';
	if ((ws = newparts(p, p->n)) == NULL)
		goto fail;
	for (k = 0; k < p->n; k++) {
		if ((ws->name[k] = malloc(len)) == NULL)
			goto fail;
		ws->nw = k + 1;
		if (rt_partname(ws->name[k], len, pattern, k)) {
			snprintf(err, errlen, "%s: one %%d, and no other %%", pattern);
			e = RT_EUSAGE;
			goto fail;
		}
		if ((ws->w[k] = rt_wopen(ws->name[k], fmt, gzip)) == NULL) {
			snprintf(err, errlen, "%s: %s", ws->name[k], strerror(errno));
			e = errno == ENOMEM ? RT_ENOMEM : RT_EIO;
			goto fail;
		}
		if (rec)
			record(ws, k, k);
	}
	*wsp = ws;
	return 0;
fail:
	if (*err == '\0')
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	rt_wparts_free(ws);
	return e;
}

struct rt_wparts *
rt_wparts_one(struct rt_writer *w, const char *path, const struct rt_part *p, int rec)
{
	struct rt_wparts *ws;

	if ((ws = newparts(p, 1)) == NULL ||
	    (path != NULL && (ws->name[0] = strdup(path)) == NULL)) {
		rt_wparts_free(ws);
		rt_wdiscard(w);
		errno = ENOMEM;
		return NULL;
	}
	ws->one = 1;
	ws->nw = 1;
	ws->w[0] = w;
	if (rec)
		record(ws, 0, p->k);
	return ws;
}

int
rt_wparts_unrecorded(const struct rt_wparts *ws)
{
	return ws->unrecorded;
}

uint64_t
rt_wparts_outputs(const struct rt_wparts *ws)
{
	return ws->nw;
}

const char *
rt_wparts_name(const struct rt_wparts *ws, uint64_t i)
{
	return ws->name[i];
}

uint64_t
rt_wparts_failed(const struct rt_wparts *ws)
{
	return ws->bad;
}

static int
put(struct rt_wparts *ws, uint64_t i, const struct rt_rec *rec)
{
	if (rt_write(ws->w[i], rec) == 0)
		return 0;
	ws->bad = i;
	return -1;
}

int
rt_wparts_write(struct rt_wparts *ws, const struct rt_rec *rec, uint64_t B)
{
	struct rt_rec piece;
	struct rt_span sp;
	uint64_t k;

	if (rec->kind != RT_ACCESS) {	/* an event, for every partition */
		for (k = 0; k < ws->nw; k++)
			if (put(ws, k, rec))
				return RT_EIO;
		return 0;
	}
	for (rt_span_start(&sp, rec->addr, rt_last(rec), ws->p.bytes); rt_span_next(&sp);) {
		k = sp.block % ws->p.n;
		if (ws->one && k != ws->p.k)
			continue;
		piece = *rec;
		piece.addr = B ? sp.addr / B : sp.addr;
		piece.size = B ? 1 : rec->size ? sp.len : 0;
		if (put(ws, ws->one ? 0 : k, &piece))
			return RT_EIO;
	}
	return 0;
}

int
rt_wparts_close(struct rt_wparts *ws, uint64_t i)
{
	struct rt_writer *w = ws->w[i];

	ws->w[i] = NULL;
	return rt_wclose(w);
}

void
rt_wparts_free(struct rt_wparts *ws)
{
	uint64_t i;
	int e = errno;

	if (ws == NULL)
		return;
	for (i = 0; i < ws->nw; i++) {
		rt_wdiscard(ws->w[i]);
		free(ws->name[i]);
	}
	free(ws->w);
	free(ws->name);
	free(ws);
	errno = e;
}
