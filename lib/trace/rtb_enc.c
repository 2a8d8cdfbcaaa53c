/* rtb_enc.c: the binary trace's writer (rtint.h has the layout): items
 * go into a block, the block out (deflated where that makes it smaller,
 * for "binary") when full; each record coded against version 2's model
 * as a run of predictions or its control byte and residuals. */
#include <errno.h>
#include <string.h>

#include "output.h"
#include "rtb.h"

struct buf {
	unsigned char *b;
	size_t len, cap;
};

struct enc {
	int deflate;		/* deflate the blocks */
	struct buf blk;		/* the residual stream */
	struct buf ctl;		/* the control stream */
	uint32_t bcount;
	struct model m;
	uint64_t run;		/* records as predicted, not yet in ctl */
	struct buf z;		/* a deflated block */
	unsigned char *sdone, *ldone;	/* ids already defined in the stream */
	uint32_t nsdone, nldone;
	uint64_t items;		/* records and events written */
	uint32_t crc;		/* CRC-32 of the bytes written */
	int flat;		/* records in flat blocks (version 4) */
	struct rt_rec *fv;	/* the flat block's records */
	uint32_t fn;
};

/* n bytes at p out, in the checksum crc. */
static int
put(struct rt_writer *w, uint32_t *crc, const void *p, size_t n)
{
	*crc = rt_crc32(*crc, p, n);
	return rt_out(w, p, n);
}

/* A block's end: its checksum (bcrc, of its len bytes), the stream's
 * taken past it. */
static int
footer(struct rt_writer *w, struct enc *e, uint32_t bcrc, size_t len)
{
	unsigned char f[RTB3_CRCLEN];

	le32put(f, bcrc);
	e->crc = (uint32_t)crc32_combine(e->crc, bcrc, (z_off_t)len);
	e->crc = (uint32_t)crc32(e->crc, f, sizeof f);
	return rt_out(w, f, sizeof f);
}

/* The trace's end: the count of its items and the checksum of its bytes
 * before this. */
static int
trailer(struct rt_writer *w, struct enc *e)
{
	unsigned char t[RTB2_BLKHDR + RTB3_TRAILER] = { 0 };
	uint32_t bcrc = 0;

	le32put(t, RTB3_TRAILER);
	le32put(t + 16, RTB3_END);
	le32put(t + 20, (uint32_t)e->items);
	le32put(t + 24, (uint32_t)(e->items >> 32));
	le32put(t + 28, e->crc);
	return put(w, &bcrc, t, sizeof t) || footer(w, e, bcrc, sizeof t) ? -1 : 0;
}

static int
bufgrow(struct rt_writer *w, struct buf *b, size_t n)
{
	unsigned char *nb;
	size_t nc;

	nc = b->cap ? b->cap : 1u << 20;
	while (nc < b->len + n)
		nc *= 2;
	if ((nb = realloc(b->b, nc)) == NULL)
		return rt_out_fail(w, ENOMEM);
	b->b = nb;
	b->cap = nc;
	return 0;
}

/* Room for n more bytes in b. */
static inline int
room(struct rt_writer *w, struct buf *b, size_t n)
{
	return b->len + n <= b->cap ? 0 : bufgrow(w, b, n);
}

/* The pending run into the control stream. */
static int
flushrun(struct rt_writer *w, struct enc *e)
{
	unsigned char *p;

	if (e->run == 0)
		return 0;
	if (room(w, &e->ctl, 16))
		return -1;
	p = e->ctl.b + e->ctl.len;
	if (e->run < RTB2_LONGRUN - RTB2_RUN + 1)
		*p++ = (unsigned char)(RTB2_RUN + e->run - 1);
	else {
		*p++ = RTB2_LONGRUN;
		p = putvar(p, e->run);
	}
	e->ctl.len = p - e->ctl.b;
	e->run = 0;
	return 0;
}

/* An item's first byte (its RTB_ number), then room for n bytes
 * of its fields at e->blk. */
static int
itemstart(struct rt_writer *w, struct enc *e, unsigned h, size_t n)
{
	struct buf *b = &e->ctl;

	if (flushrun(w, e))
		return -1;
	h += RTB2_ITEM;
	if (room(w, b, 1))
		return -1;
	b->b[b->len++] = (unsigned char)h;
	e->bcount++;
	return room(w, &e->blk, n);
}

/* deflate's level for a block of raw bytes coding n records: 6 where the
 * records are few bytes each (they followed their predictions: what is
 * left is little, and level 6 finds in it what level 1 misses), 1 where
 * they are more than two (they did not: level 6 takes far longer over
 * such bytes for little less; see bench/RESULTS.trace.history). */
static int
level(size_t raw, uint32_t n)
{
	return raw > 2 * (size_t)n ? 1 : 6;
}

/* The block out, and the state restarted for the next. */
static int
endblock(struct rt_writer *w, struct enc *e)
{
	unsigned char h[RTB2_BLKHDR];
	const unsigned char *pay = e->blk.b;
	size_t plen = e->blk.len, raw;
	uint32_t bcrc = 0;
	uLongf zn;

	if (flushrun(w, e))
		return -1;
	if (e->bcount == 0)
		return 0;
	raw = e->ctl.len + e->blk.len;
	le32put(h + 4, e->bcount);
	le32put(h + 8, (uint32_t)e->ctl.len);
	le32put(h + 12, (uint32_t)e->blk.len);
	le32put(h + 16, 0);
	if (e->deflate) {
		/* the two streams one after the other, deflated if that is smaller */
		zn = compressBound(raw);
		if (room(w, &e->ctl, e->blk.len) || room(w, &e->z, zn))
			return -1;
		if (e->blk.len)	/* an empty stream may have no buffer */
			memcpy(e->ctl.b + e->ctl.len, e->blk.b, e->blk.len);
		if (compress2(e->z.b, &zn, e->ctl.b, raw, level(raw, e->bcount)) != Z_OK)
			return rt_out_fail(w, ENOMEM);
		if (zn < raw) {
			le32put(h + 16, RTB2_DEFLATE);
			pay = e->z.b;
			plen = zn;
		}
	}
	if (pay == e->blk.b) {
		le32put(h, (uint32_t)raw);
		if (put(w, &bcrc, h, sizeof h) || put(w, &bcrc, e->ctl.b, e->ctl.len) ||
		    (e->blk.len && put(w, &bcrc, e->blk.b, e->blk.len)) ||
		    footer(w, e, bcrc, sizeof h + raw))
			return -1;
	} else {
		le32put(h, (uint32_t)plen);
		if (put(w, &bcrc, h, sizeof h) || put(w, &bcrc, pay, plen) ||
		    footer(w, e, bcrc, sizeof h + plen))
			return -1;
	}
	e->blk.len = e->ctl.len = 0;
	e->bcount = 0;
	if (model_start(&e->m))
		return rt_out_fail(w, ENOMEM);
	return 0;
}

/* Whether id is to be defined now: 1 the first time, 0 after or for id 0
 * (nothing), -1 on an error.  Definitions are never repeated: a reader
 * meets them in stream order before any use. */
static int
first(struct rt_writer *w, unsigned char **done, uint32_t *n, uint32_t id)
{
	uint32_t nn;
	unsigned char *nd;

	if (id == 0)
		return 0;
	if (id >= *n) {
		nn = *n ? *n : 1024;
		while (nn <= id)
			nn *= 2;
		if ((nd = realloc(*done, nn)) == NULL)
			return rt_out_fail(w, ENOMEM);
		memset(nd + *n, 0, nn - *n);
		*done = nd;
		*n = nn;
	}
	if ((*done)[id])
		return 0;
	(*done)[id] = 1;
	return 1;
}

/* Define a string in the stream before its first use. */
static int
defstr(struct rt_writer *w, struct enc *e, uint32_t id)
{
	const char *s;
	size_t n;
	unsigned char *p;
	int k;

	if ((k = first(w, &e->sdone, &e->nsdone, id)) <= 0)
		return k;
	s = rt_str(id);
	n = strlen(s);
	if (itemstart(w, e, RTB_STRDEF, n + 32))
		return -1;
	p = e->blk.b + e->blk.len;
	p = putvar(p, id);
	p = putvar(p, n);
	memcpy(p, s, n);
	e->blk.len = p + n - e->blk.b;
	return 0;
}

static int
defloc(struct rt_writer *w, struct enc *e, uint32_t id)
{
	const struct rt_loc *l;
	unsigned char *p;
	int k;

	if ((k = first(w, &e->ldone, &e->nldone, id)) <= 0)
		return k;
	l = rt_loc_get(id);
	if (defstr(w, e, l->file) || defstr(w, e, l->func) ||
	    itemstart(w, e, RTB_LOCDEF, 64))
		return -1;
	p = e->blk.b + e->blk.len;
	p = putvar(p, id);
	p = putvar(p, l->file);
	p = putvar(p, l->line);
	p = putvar(p, l->func);
	e->blk.len = p - e->blk.b;
	return 0;
}

static int
open_enc(struct rt_writer *w, int deflate, int flat)
{
	struct enc *e;

	if ((e = calloc(1, sizeof *e)) == NULL)
		return rt_out_fail(w, ENOMEM);
	e->deflate = deflate;
	e->flat = flat;
	if (model_start(&e->m) || (flat && (e->fv = malloc(RTB4_BLOCK * sizeof *e->fv)) == NULL)) {
		free(e->m.tab);
		free(e);
		return rt_out_fail(w, ENOMEM);
	}
	w->st = e;
	return 0;
}

int
rt_bin_wopen(struct rt_writer *w)
{
	return open_enc(w, 0, 0);
}

int
rt_bin_wopenz(struct rt_writer *w)
{
	return open_enc(w, 1, 0);
}

int
rt_bin_wopenf(struct rt_writer *w)
{
	return open_enc(w, 0, 1);
}

/* The stream's first bytes: the file header. */
static int
start(struct rt_writer *w)
{
	unsigned char hdr[RTB_HDRLEN + RTB_HDRFPLEN] = { 0 };
	const struct rt_part *p = &w->part;
	size_t n = RTB_HDRLEN;
	int i;

	w->started = 1;
	memcpy(hdr, RTB_MAGIC, 8);
	hdr[8] = ((struct enc *)w->st)->flat ? RTB_VERSION4 : RTB_VERSION;
	if (p->n) {	/* rt_wpart saw that it fits */
		hdr[9] = (unsigned char)__builtin_ctzll(p->bytes);
		for (i = 0; i < 3; i++) {
			hdr[10 + i] = (unsigned char)(p->k >> 8 * i);
			hdr[13 + i] = (unsigned char)(p->n >> 8 * i);
		}
	}
	if (p->n && p->fp) {	/* the extension: the fingerprint */
		hdr[9] |= RTB_HDRFP;
		for (i = 0; i < 8; i++)
			hdr[n++] = (unsigned char)(p->fp >> 8 * i);
	}
	((struct enc *)w->st)->crc = (uint32_t)crc32(0, hdr, (uInt)n);
	return rt_out(w, hdr, n);
}

/* An event (mark, region, object, flush, invalidate);
 * seq is the last record's seq, the event's seq - 1 after. */
static int
event(struct rt_writer *w, struct enc *e, const struct rt_rec *r, uint64_t *seq)
{
	static const unsigned char byte[] = { 0, RTB_MARK, RTB_REGION, RTB_OBJECT,
		RTB_FLUSH, RTB_INVAL };
	int named = r->kind <= RT_OBJECT;	/* a flush has no name */
	int objid = r->kind == RT_OBJECT && r->var != 0;
	unsigned char *p;

	if ((named && defstr(w, e, r->name)) || (objid && defstr(w, e, r->var)) ||
	    itemstart(w, e, objid ? RTB_OBJID : byte[r->kind <= RT_INVAL ? r->kind :
	    RT_MARK], 64))
		return -1;
	p = e->blk.b + e->blk.len;
	p = putvar(p, zig(r->seq - (*seq + 1)));
	if (named)
		p = putvar(p, r->name);
	if (r->kind != RT_MARK)
		p = putvar(p, r->addr);
	if (objid)
		p = putvar(p, r->var);
	if (r->kind == RT_REGION || !named)
		p = putvar(p, r->size);
	if (r->kind == RT_REGION)
		p = putvar(p, r->elem);
	*seq = r->seq - 1;
	e->blk.len = p - e->blk.b;
	return 0;
}

/* Version 2: a record as the model predicts it joins the run; one that
 * is not goes out as its control byte and the residuals of what missed. */
static int
write_v2(struct rt_writer *w, struct enc *e, const struct rt_rec *r)
{
	struct model *m = &e->m;
	struct slot *ps, *s;
	unsigned char *p, *c;
	unsigned j, b = 0, x;
	uint32_t k;

	if (e->bcount >= RTB2_BLOCK_ITEMS || e->blk.len >= (4u << 20) ||
	    e->ctl.len >= (4u << 20)) {
		if (endblock(w, e))
			return -1;
	}
	if (r->kind != RT_ACCESS)
		return event(w, e, r, &m->seq);
	ps = &m->tab[m->k];
	if (r->pc == ps->npc) {
		k = ps->nk;
		j = ps->nj;
	} else {
		b |= RTB2_PC;
		j = place(m->pc, m->j, r->pc);
		k = slotof(r->pc, j);
	}
	s = &m->tab[k];
	if (r->size != s->size)
		b |= RTB2_SIZE;
	if (r->seq != m->seq + 1)
		b |= RTB2_SEQ;
	x = (r->tid != m->tid) | (r->loc != s->loc) << 1 | (r->var != s->var) << 2;
	if (x)
		b |= RTB2_XTRA;
	if (b == 0 && (r->op & 3) == s->op && r->addr == s->addr + s->stride)
		e->run++;
	else {
		if (r->addr != apred(s, r->op & 3, r->pc))
			b |= RTB2_ADDR;
		if (((x & 2) && defloc(w, e, r->loc)) || ((x & 4) && defstr(w, e, r->var)) ||
		    flushrun(w, e) || room(w, &e->ctl, 1) || room(w, &e->blk, 64))
			return -1;
		c = e->ctl.b + e->ctl.len++;
		*c = (unsigned char)(b | (r->op & 3));
		p = e->blk.b + e->blk.len;
		if (b & RTB2_PC)
			p = putvar(p, zig(r->pc - pcbase(m->tab, m->pc, r->op & 3)));
		if (b & RTB2_ADDR)
			p = putvar(p, zig(r->addr - apred(s, r->op & 3, r->pc)));
		if (b & RTB2_SIZE)
			p = putvar(p, r->size);
		if (b & RTB2_SEQ)
			p = putvar(p, zig(r->seq - (m->seq + 1)));
		if (x) {
			*p++ = (unsigned char)x;
			if (x & 1)
				p = putvar(p, r->tid == RT_NOTID ? 0 : (uint64_t)r->tid + 1);
			if (x & 2)
				p = putvar(p, r->loc);
			if (x & 4)
				p = putvar(p, r->var);
		}
		e->blk.len = p - e->blk.b;
	}
	e->bcount++;
	if (b & RTB2_PC) {
		ps->npc = r->pc;
		ps->nk = k;
		ps->nj = (uint8_t)j;
	}
	learn(s, r->addr, (uint32_t)r->size, r->op & 3, r->loc, r->var);
	m->k = k;
	m->j = j;
	m->pc = r->pc;

	m->seq = r->seq;
	m->tid = r->tid;
	return 0;
}

/* The flat block's records out as one block. */
static int
endflat(struct rt_writer *w, struct enc *e)
{
	unsigned char h[RTB2_BLKHDR];
	uint32_t bcrc = 0;
	size_t n;

	if (e->fn == 0)
		return 0;
	if (room(w, &e->blk, FLATMAX(e->fn)))
		return -1;
	n = rt_bin_flatput(e->fv, e->fn, h, e->blk.b);
	e->fn = 0;
	return put(w, &bcrc, h, sizeof h) || put(w, &bcrc, e->blk.b, n) ||
	    footer(w, e, bcrc, sizeof h + n) ? -1 : 0;
}

/* Whether id is not yet defined in the stream. */
static int
undefined(const unsigned char *done, uint32_t n, uint32_t id)
{
	return id != 0 && (id >= n || !done[id]);
}

/* Version 4: records into flat blocks, events and the definitions of
 * strings and locations into version 2 blocks between them, so that the
 * items keep their order and a definition comes before its use. */
static int
write_flat(struct rt_writer *w, struct enc *e, const struct rt_rec *r)
{
	int def = r->kind == RT_ACCESS && (undefined(e->ldone, e->nldone, r->loc) ||
	    undefined(e->sdone, e->nsdone, r->var));

	if ((r->kind != RT_ACCESS || def) && endflat(w, e))
		return -1;
	if (r->kind != RT_ACCESS)
		return write_v2(w, e, r);
	if ((def && (defloc(w, e, r->loc) || defstr(w, e, r->var))) ||
	    (e->bcount && endblock(w, e)))
		return -1;
	e->fv[e->fn++] = *r;
	return e->fn == RTB4_BLOCK ? endflat(w, e) : 0;
}

int
rt_bin_write(struct rt_writer *w, const struct rt_rec *r)
{
	struct enc *e = w->st;

	if (!w->started && start(w))
		return RT_EIO;
	e->items++;
	return e->flat ? write_flat(w, e, r) : write_v2(w, e, r);
}

int
rt_bin_wclose(struct rt_writer *w)
{
	struct enc *e = w->st;
	int k;

	/* even an empty trace; one discarded (a failed run's standard output)
	 * without the trailer, so that it reads as cut short */
	k = (!w->started && start(w)) || endflat(w, e) || endblock(w, e) ||
	    (!w->discard && trailer(w, e));
	free(e->blk.b);
	free(e->ctl.b);
	free(e->z.b);
	free(e->m.tab);
	free(e->sdone);
	free(e->ldone);
	free(e->fv);
	free(e);
	return k ? -1 : 0;
}
