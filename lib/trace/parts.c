/* parts.c: partition writers (trfilter -P): a trace's accesses cut at
 * the blocks they touch, each piece to its block's partition; all n
 * partitions in one read, to outputs named from a pattern with one %d,
 * or partition k alone; each header recording its partition and the
 * fingerprint of the trace split where the format has room. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

#define FNVBASIS 0xcbf29ce484222325ull
#define FNVPRIME 0x100000001b3ull

void
rt_fp_init(struct rt_fp *f)
{
	f->h = FNVBASIS;
	f->items = 0;
}

static uint64_t
fnv(uint64_t h, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		h = (h ^ (v >> 8 * i & 0xff)) * FNVPRIME;
	return h;
}

int
rt_fp_add(struct rt_fp *f, const struct rt_rec *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && f->items < RT_FPITEMS; i++, f->items++)
		if (v[i].kind == RT_ACCESS)
			f->h = fnv(fnv(fnv(f->h, v[i].op, 1), v[i].addr, 8), v[i].size, 8);
	return f->items == RT_FPITEMS;
}

uint64_t
rt_fp_value(const struct rt_fp *f)
{
	return f->h ? f->h : 1;
}

int
rt_samepart(const struct rt_part *a, const struct rt_part *b)
{
	return a->k == b->k && a->n == b->n && a->bytes == b->bytes &&
	    (a->fp == b->fp || a->fp == 0 || b->fp == 0);
}

char *
rt_part_str(char *buf, size_t len, const struct rt_part *p)
{
	int n = snprintf(buf, len, "%llu/%llu:%llu", (unsigned long long)p->k,
	    (unsigned long long)p->n, (unsigned long long)p->bytes);

	if (p->fp && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " fp=%016llx", (unsigned long long)p->fp);
	return buf;
}

int
rt_part_read(const char *s, struct rt_part *p)
{
	char part[64], *e;
	const char *sp = strchr(s, ' ');
	size_t n = sp ? (size_t)(sp - s) : strlen(s);
	int i;

	p->bytes = 64;
	p->fp = 0;
	if (n >= sizeof part)
		return -1;
	memcpy(part, s, n);
	part[n] = '\0';
	if (rt_parse_part(part, &p->k, &p->n, &p->bytes))
		return -1;
	if (sp == NULL)
		return 0;
	if (strncmp(sp, " fp=", 4) != 0)
		return -1;
	for (i = 0, e = (char *)sp + 4; isxdigit((unsigned char)e[i]); i++)
		;
	if (i != 16 || e[i] != '\0')
		return -1;
	p->fp = strtoull(e, NULL, 16);
	return p->fp ? 0 : -1;
}

struct rt_wparts {
	struct rt_part p;	/* p.k: the partition written when one */
	int one;		/* partition p.k alone, to w[0] */
	uint64_t nw;		/* outputs */
	struct rt_writer **w;
	char **name;
	uint64_t bad;		/* the output a write failed on */
	int unrecorded;		/* a header without room for its partition */
	/* the first items, held until the trace's fingerprint is known
	 * (rt_fp): the headers record it, before the first item */
	struct rt_fp fp;
	struct rt_rec *held;
	size_t nheld;
	uint64_t B;
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
	ws->p.fp = 0;
	rt_fp_init(&ws->fp);
	return ws;
}

/* With rec: hold the first items (an allocation that is touched as it
 * fills). */
static int
hold(struct rt_wparts *ws)
{
	return (ws->held = malloc(RT_FPITEMS * sizeof *ws->held)) == NULL ? -1 : 0;
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
	if (rec && hold(ws))
		goto fail;
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

	if ((ws = newparts(p, 1)) == NULL || (rec && hold(ws)) ||
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

static int
cut(struct rt_wparts *ws, const struct rt_rec *rec, uint64_t B)
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
rt_wparts_write(struct rt_wparts *ws, const struct rt_rec *rec, uint64_t B)
{
	if (ws->held == NULL)
		return cut(ws, rec, B);
	ws->B = B;
	ws->held[ws->nheld++] = *rec;
	return rt_fp_add(&ws->fp, rec, 1) ? rt_wparts_flush(ws) : 0;
}

int
rt_wparts_flush(struct rt_wparts *ws)
{
	struct rt_rec *v = ws->held;
	struct rt_part pk;
	size_t i, n = ws->nheld;
	int e;

	if (v == NULL)
		return 0;
	ws->held = NULL;
	ws->p.fp = rt_fp_value(&ws->fp);
	for (i = 0; i < ws->nw; i++) {	/* where record() put the partition */
		pk = ws->p;
		pk.k = ws->one ? ws->p.k : i;
		if (ws->w[i] != NULL)
			(void)rt_wpart(ws->w[i], &pk);
	}
	for (i = 0; i < n && cut(ws, &v[i], ws->B) == 0; i++)
		;
	e = errno;
	free(v);
	errno = e;
	return i < n ? -1 : 0;
}

int
rt_wparts_close(struct rt_wparts *ws, uint64_t i)
{
	struct rt_writer *w = ws->w[i];

	if (rt_wparts_flush(ws))
		return -1;
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
	free(ws->held);
	free(ws->w);
	free(ws->name);
	free(ws);
	errno = e;
}
