/* fmt_binary.c: the reftrace binary trace: blocks of delta and varint
 * coded items (rtint.h has the layout), decoded a batch at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "output.h"
#include "rtint.h"

/* File ids (the writing process's own: sparse, up to 2^30) to this
 * process's ids: the first IDDIRECT directly, as most files have only
 * these, the others hashed, so that memory follows the definitions a file
 * holds and not the largest id it names (one definition of id 2^30 - 1
 * made a direct map of 4 GiB). */
#define IDDIRECT (1u << 16)
struct idmap {
	uint32_t *direct, ndirect;	/* 0: not defined */
	struct idslot {
		uint32_t file, id;	/* file 0: an empty slot */
	} *slot;
	uint32_t n, bits;	/* n < 2^bits / 2 */
};

struct dec {
	int qerr;		/* an error met after the queued items */
	struct rt_rec prev;	/* the block's running state; addr: of data */
	uint64_t iaddr;		/* the block's last fetch address */
	uint32_t bleft;		/* items left in the current block */
	size_t bend;		/* end of the current block's payload in r->buf */
	struct idmap smap;	/* file string id -> process id */
	struct idmap lmap;	/* file location id -> process id */
};

static int
sniff(const struct rt_sniff *s)
{
	return s->lineno == 0 && s->len >= 8 && memcmp(s->start, RTB_MAGIC, 8) == 0;
}

static uint32_t
le24(const unsigned char *h)
{
	return h[0] | h[1] << 8 | (uint32_t)h[2] << 16;
}

/* The header's partition (rtint.h): 0, or -1 when it cannot be one. */
static int
part(struct rt_part *p, const unsigned char *h)
{
	p->k = le24(h + 10);
	p->n = le24(h + 13);
	p->bytes = p->n ? (uint64_t)1 << (h[9] & 63) : 0;
	if (p->n == 0)
		return h[9] || p->k ? -1 : 0;
	return h[9] > 63 || p->k >= p->n ? -1 : 0;
}

static int
open_binary(struct rt_reader *r)
{
	struct dec *d = r->st;
	const char *h;

	if (rt_in_need(r, RTB_HDRLEN) < RTB_HDRLEN ||
	    memcmp(r->buf + r->pos, RTB_MAGIC, 8) != 0) {
		snprintf(r->err, sizeof r->err, "%s: not a reftrace binary trace", r->path);
		return -1;
	}
	h = r->buf + r->pos;
	if (h[8] != RTB_VERSION) {
		snprintf(r->err, sizeof r->err, "%s: binary trace version %d, "
		    "this reader knows %d", r->path, h[8], RTB_VERSION);
		return -1;
	}
	if (part(&r->part, (const unsigned char *)h) < 0) {
		snprintf(r->err, sizeof r->err, "%s: corrupt binary trace: bad partition "
		    "in the header", r->path);
		return -1;
	}
	d->bend = r->pos + RTB_HDRLEN;
	return 0;
}

static void
close_binary(void *st)
{
	struct dec *d = st;

	free(d->smap.direct);
	free(d->smap.slot);
	free(d->lmap.direct);
	free(d->lmap.slot);
}

/* LEB128 varints and zigzag deltas, bounds-checked. */
static inline int
varint(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t x = 0;
	int shift = 0;

	do {
		if (p == end || shift > 63)
			return -1;
		x |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
	} while (*p++ & 0x80);
	*v = x;
	*pp = p;
	return 0;
}

/* Unchecked LEB128: the buffer has 16 bytes of slack past any block and
 * the caller checks p against the block's end once per item. */
static inline uint64_t
fastvar(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	uint64_t x = p[0];
	int i;

	if (x < 0x80) {
		*pp = p + 1;
		return x;
	}
	x &= 0x7f;
	if (p[1] < 0x80) {
		*pp = p + 2;
		return x | (uint64_t)p[1] << 7;
	}
	for (i = 1; i < 10; i++) {
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (p[i] < 0x80)
			break;
	}
	*pp = p + i + 1;
	return x;
}

static uint64_t
unzig(uint64_t z)
{
	return (z >> 1) ^ (0 - (z & 1));
}

static int
corrupt(struct rt_reader *r, const char *what)
{
	return rt_in_fail(r, "corrupt binary trace: %s", what);
}

/* The input ended (or failed) inside what was to come. */
static int
cut(struct rt_reader *r, const char *what)
{
	return r->eof == 2 ? RT_EIO : corrupt(r, what);
}

/* The slot of file id f (1 to 2^30 - 1): its own, or the empty one where
 * it would go.  Fibonacci hashing spreads the writer's runs of ids. */
static inline struct idslot *
idslot(const struct idmap *m, uint32_t f)
{
	uint32_t mask = (1u << m->bits) - 1, i = (f * 2654435769u) >> (32 - m->bits);

	while (m->slot[i].file != 0 && m->slot[i].file != f)
		i = (i + 1) & mask;
	return &m->slot[i];
}

static inline int
mapid(const struct idmap *m, uint64_t fileid, uint32_t *out)
{
	const struct idslot *s;

	if (fileid < m->ndirect) {
		*out = m->direct[fileid];
		return fileid != 0 && *out == 0 ? -1 : 0;
	}
	if (fileid == 0) {
		*out = 0;
		return 0;
	}
	if (fileid < IDDIRECT || m->n == 0 || fileid >= (1u << 30) ||
	    (s = idslot(m, (uint32_t)fileid))->file == 0)
		return -1;
	*out = s->id;
	return 0;
}

/* 0, or RT_EIO with the reason (a corrupt id, or no memory) in r->err. */
static int
setmap(struct rt_reader *r, struct idmap *m, uint64_t fileid, uint32_t id)
{
	struct idmap g;
	struct idslot *s;
	uint32_t i, *nd;

	if (fileid >= (1u << 30))
		return corrupt(r, "bad item");
	if (fileid == 0)
		return 0;	/* the empty string, defined or not */
	if (fileid < IDDIRECT) {
		if (fileid >= m->ndirect) {
			for (i = m->ndirect ? m->ndirect : 256; i <= fileid; i *= 2)
				;
			if ((nd = realloc(m->direct, i * sizeof *nd)) == NULL)
				return rt_in_nomem(r);
			memset(nd + m->ndirect, 0, (i - m->ndirect) * sizeof *nd);
			m->direct = nd;
			m->ndirect = i;
		}
		m->direct[fileid] = id;
		return 0;
	}
	if (m->slot == NULL || 2 * (m->n + 1) > (1u << m->bits)) {
		g = *m;
		g.bits = m->slot == NULL ? 8 : m->bits + 1;
		if ((g.slot = calloc((size_t)1 << g.bits, sizeof *g.slot)) == NULL)
			return rt_in_nomem(r);
		for (i = 0; m->slot != NULL && i < (1u << m->bits); i++)
			if (m->slot[i].file != 0)
				*idslot(&g, m->slot[i].file) = m->slot[i];
		free(m->slot);
		*m = g;
	}
	if ((s = idslot(m, (uint32_t)fileid))->file == 0)
		m->n++;
	s->file = (uint32_t)fileid;
	s->id = id;
	return 0;
}

/* The running state at the start of a block, where deltas restart. */
static void
restart(struct rt_rec *prev, uint64_t *iaddr)
{
	memset(prev, 0, sizeof *prev);
	*iaddr = 0;
	prev->seq = UINT64_MAX;	/* so that seq 0 needs no delta */
	prev->tid = RT_NOTID;
}

static uint32_t
le32(const unsigned char *h)
{
	return h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
}

/* Move to the next block, past the headers of files concatenated to
 * this one: 1, 0 at the end of the input, or an error. */
static int
block(struct rt_reader *r, struct dec *d)
{
	const unsigned char *h;
	uint32_t plen, count;

	r->pos = d->bend;
	for (;;) {
		if (rt_in_need(r, 8) == 0)
			return RT_IN_END(r);
		if (r->len - r->pos < 8)
			return cut(r, "truncated block header");
		if (memcmp(r->buf + r->pos, RTB_MAGIC, 8) != 0)
			break;
		if (rt_in_need(r, RTB_HDRLEN) < RTB_HDRLEN)
			return cut(r, "truncated file header");
		if (r->buf[r->pos + 8] != RTB_VERSION)
			return corrupt(r, "another version's header");
		r->pos += RTB_HDRLEN;
	}
	h = (const unsigned char *)r->buf + r->pos;
	plen = le32(h);
	count = le32(h + 4);
	if (plen > RTB_MAXPAYLOAD || (count == 0) != (plen == 0))
		return corrupt(r, "bad block header");
	if (rt_in_need(r, 8 + (size_t)plen) < 8 + (size_t)plen)
		return cut(r, "truncated block");
	r->pos += 8;
	d->bend = r->pos + plen;
	d->bleft = count;
	restart(&d->prev, &d->iaddr);
	return 1;
}

#define NEXT(v) do { if (varint(&p, end, &(v))) goto bad; } while (0)

/* Decode up to a batch of items of the current block into r->q, with the
 * block's running state in locals.  Returns the count, 0 at the end of
 * the input, -3 after definitions only, or an error. */
static int
batch(struct rt_reader *r, struct dec *d)
{
	const unsigned char *p, *end;
	uint64_t v, a, b, c, seq, addr, size, pc, iaddr;
	uint32_t id, f, fn, tid, loc, var;
	unsigned h;
	int k, n = 0;
	uint32_t left;
	struct rt_rec *pv = &d->prev, *rec, *q = r->q;

	while (d->bleft == 0) {
		if ((k = block(r, d)) <= 0)
			return k;
	}
	p = (const unsigned char *)r->buf + r->pos;
	end = (const unsigned char *)r->buf + d->bend;
	seq = pv->seq, addr = pv->addr, size = pv->size, pc = pv->pc;
	tid = pv->tid, loc = pv->loc, var = pv->var, iaddr = d->iaddr;
	/* the state in locals: stores to the queue cannot clobber them */
	for (left = d->bleft; left > 0 && n < RT_IN_QLEN;) {
		if (p >= end)
			goto bad;
		h = *p++;
		left--;
		if (h < 0x80) {
			seq++;
			if (h & RTB_SEQ)
				seq += unzig(fastvar(&p));
			/* fetches and data each delta against their own last;
			 * a fetch's pc is its address unless said otherwise */
			v = unzig(fastvar(&p));
			if ((h & 3) == RT_IFETCH)
				a = pc = iaddr += v;
			else
				a = addr += v;
			if (h & (RTB_SIZE | RTB_PC | RTB_TID | RTB_LOC)) {
				if (h & RTB_SIZE && (size = fastvar(&p)) > RT_MAXSIZE)
					goto bad;
				if (h & RTB_TID) {
					v = fastvar(&p);
					if (v > RT_NOTID)
						goto bad;
					tid = v ? (uint32_t)(v - 1) : RT_NOTID;
				}
				if (h & RTB_LOC) {
					v = fastvar(&p);
					if (mapid(&d->lmap, v, &loc))
						goto bad;
					v = fastvar(&p);
					if (mapid(&d->smap, v, &var))
						goto bad;
				}
				if (h & RTB_PC)
					pc += unzig(fastvar(&p));
			}
			if (p > end || rt_wraps(a, size))
				goto bad;
			rec = &q[n++];
			rec->seq = seq;
			rec->addr = a;
			rec->size = size;
			rec->pc = pc;
			rec->tid = tid;
			rec->loc = loc;
			rec->var = var;
			rec->name = 0;
			rec->elem = 0;
			rec->kind = RT_ACCESS;
			rec->op = h & 3;
			continue;
		}
		switch (h) {
		case RTB_MARK:
		case RTB_REGION:
		case RTB_OBJECT:
		case RTB_FLUSH:
		case RTB_INVAL:
			rec = &q[n];
			NEXT(v);
			a = 0;
			if (h < RTB_FLUSH)	/* a flush has no name */
				NEXT(a);
			if (mapid(&d->smap, a, &id))
				goto bad;
			rt_in_event(rec, h == RTB_MARK ? RT_MARK : h == RTB_REGION ?
			    RT_REGION : h == RTB_OBJECT ? RT_OBJECT : h == RTB_FLUSH ?
			    RT_FLUSH : RT_INVAL, seq + 1 + unzig(v), id);
			if (h != RTB_MARK)
				NEXT(rec->addr);
			if (h != RTB_MARK && h != RTB_OBJECT)
				NEXT(rec->size);
			if (h == RTB_REGION) {
				NEXT(v);
				if (v > UINT32_MAX)
					goto bad;
				rec->elem = (uint32_t)v;
			}
			if (rt_wraps(rec->addr, rec->size) ||
			    (h >= RTB_FLUSH && rec->size > RT_MAXSIZE))
				goto bad;
			seq = rec->seq - 1;
			n++;
			break;
		case RTB_STRDEF:
			NEXT(a);
			NEXT(b);
			if (b > (uint64_t)(end - p))
				goto bad;
			if ((id = rt_str_intern((const char *)p, b)) == RT_NOMEM)
				goto nomem;
			p += b;
			if (setmap(r, &d->smap, a, id))
				goto fail;
			break;
		case RTB_LOCDEF:
			NEXT(a);
			NEXT(b);
			NEXT(c);
			NEXT(v);
			if (mapid(&d->smap, b, &f) ||
			    mapid(&d->smap, v, &fn) || c > UINT32_MAX)
				goto bad;
			if ((id = rt_loc_intern(f, (uint32_t)c, fn)) == RT_NOMEM)
				goto nomem;
			if (setmap(r, &d->lmap, a, id))
				goto fail;
			break;
		default:
			goto bad;
		}
	}
	pv->seq = seq, pv->addr = addr, pv->size = size, pv->pc = pc;
	pv->tid = tid, pv->loc = loc, pv->var = var, d->iaddr = iaddr;
	d->bleft = left;
	r->pos = (const char *)p - r->buf;
	return n ? n : -3;
nomem:
	rt_in_nomem(r);
	goto fail;
bad:
	corrupt(r, "bad item");
fail:
	if (n > 0) {	/* hand out what was good, then the error */
		d->qerr = 1;
		return n;
	}
	return RT_EIO;
}

static int
read_binary(struct rt_reader *r)
{
	struct dec *d = r->st;
	int n;

	if (d->qerr)
		return RT_EIO;
	while ((n = batch(r, d)) == -3)
		;	/* a batch of definitions only */
	return n;
}

/* The writer: items go into a block, a block out when full. */
struct enc {
	unsigned char *blk;
	size_t blen, bcap;
	uint32_t bcount;
	struct rt_rec prev;	/* addr: the last data address */
	uint64_t iaddr;		/* the last fetch address */
	unsigned char *sdone, *ldone;	/* ids already defined in the stream */
	uint32_t nsdone, nldone;
};

static unsigned char *
putvar(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static uint64_t
zig(uint64_t d)
{
	return (d << 1) ^ (0 - (d >> 63));
}

static int
blkgrow(struct rt_writer *w, struct enc *e, size_t n)
{
	unsigned char *nb;
	size_t nc;

	nc = e->bcap ? e->bcap : 1u << 20;
	while (nc < e->blen + n)
		nc *= 2;
	if ((nb = realloc(e->blk, nc)) == NULL)
		return rt_out_fail(w, ENOMEM);
	e->blk = nb;
	e->bcap = nc;
	return 0;
}

/* Room for n more bytes in the block. */
static inline int
blkroom(struct rt_writer *w, struct enc *e, size_t n)
{
	return e->blen + n <= e->bcap ? 0 : blkgrow(w, e, n);
}

static int
endblock(struct rt_writer *w, struct enc *e)
{
	unsigned char h[8];
	uint32_t n = (uint32_t)e->blen;

	if (e->bcount == 0)
		return 0;
	h[0] = n; h[1] = n >> 8; h[2] = n >> 16; h[3] = n >> 24;
	n = e->bcount;
	h[4] = n; h[5] = n >> 8; h[6] = n >> 16; h[7] = n >> 24;
	if (rt_out(w, h, 8) || rt_out(w, e->blk, e->blen))
		return -1;
	e->blen = 0;
	e->bcount = 0;
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
	if (blkroom(w, e, n + 32))
		return -1;
	p = e->blk + e->blen;
	*p++ = RTB_STRDEF;
	p = putvar(p, id);
	p = putvar(p, n);
	memcpy(p, s, n);
	e->blen = p + n - e->blk;
	e->bcount++;
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
	if (defstr(w, e, l->file) || defstr(w, e, l->func) || blkroom(w, e, 64))
		return -1;
	p = e->blk + e->blen;
	*p++ = RTB_LOCDEF;
	p = putvar(p, id);
	p = putvar(p, l->file);
	p = putvar(p, l->line);
	p = putvar(p, l->func);
	e->blen = p - e->blk;
	e->bcount++;
	return 0;
}

static int
open_enc(struct rt_writer *w)
{
	struct enc *e;

	if ((e = calloc(1, sizeof *e)) == NULL)
		return rt_out_fail(w, ENOMEM);
	restart(&e->prev, &e->iaddr);
	w->st = e;
	return 0;
}

/* The stream's first bytes: the file header. */
static int
start(struct rt_writer *w)
{
	unsigned char hdr[RTB_HDRLEN] = { 0 };

	w->started = 1;
	const struct rt_part *p = &w->part;
	int i;

	memcpy(hdr, RTB_MAGIC, 8);
	hdr[8] = RTB_VERSION;
	if (p->n) {	/* rt_wpart saw that it fits */
		hdr[9] = (unsigned char)__builtin_ctzll(p->bytes);
		for (i = 0; i < 3; i++) {
			hdr[10 + i] = (unsigned char)(p->k >> 8 * i);
			hdr[13 + i] = (unsigned char)(p->n >> 8 * i);
		}
	}
	return rt_out(w, hdr, sizeof hdr);
}

static int
write_binary(struct rt_writer *w, const struct rt_rec *r)
{
	struct enc *e = w->st;
	unsigned char *p, *h;
	struct rt_rec *pv = &e->prev;
	uint64_t base;

	if (!w->started && start(w))
		return -1;
	if (e->bcount >= RTB_BLOCK_ITEMS || e->blen >= (4u << 20)) {
		if (endblock(w, e))
			return -1;
		restart(&e->prev, &e->iaddr);
	}
	if (r->kind != RT_ACCESS) {
		static const unsigned char byte[] = { 0, RTB_MARK, RTB_REGION, RTB_OBJECT,
			RTB_FLUSH, RTB_INVAL };
		int named = r->kind <= RT_OBJECT;	/* a flush has no name */

		if ((named && defstr(w, e, r->name)) || blkroom(w, e, 64))
			return -1;
		p = e->blk + e->blen;
		*p++ = byte[r->kind <= RT_INVAL ? r->kind : RT_MARK];
		p = putvar(p, zig(r->seq - (pv->seq + 1)));
		if (named)
			p = putvar(p, r->name);
		if (r->kind != RT_MARK)
			p = putvar(p, r->addr);
		if (r->kind == RT_REGION || !named)
			p = putvar(p, r->size);
		if (r->kind == RT_REGION)
			p = putvar(p, r->elem);
		pv->seq = r->seq - 1;
		e->blen = p - e->blk;
		e->bcount++;
		return 0;
	}
	if ((r->loc != pv->loc || r->var != pv->var) &&
	    (defloc(w, e, r->loc) || defstr(w, e, r->var)))
		return -1;
	if (blkroom(w, e, 64))
		return -1;
	h = p = e->blk + e->blen;
	*p++ = r->op & 3;
	if (r->seq != pv->seq + 1) {
		*h |= RTB_SEQ;
		p = putvar(p, zig(r->seq - (pv->seq + 1)));
	}
	/* fetches and data each delta against their own last address */
	if ((r->op & 3) == RT_IFETCH)
		p = putvar(p, zig(r->addr - e->iaddr));
	else
		p = putvar(p, zig(r->addr - pv->addr));
	if (r->size != pv->size) {
		*h |= RTB_SIZE;
		p = putvar(p, r->size);
	}
	if (r->tid != pv->tid) {
		*h |= RTB_TID;
		p = putvar(p, r->tid == RT_NOTID ? 0 : (uint64_t)r->tid + 1);
	}
	if (r->loc != pv->loc || r->var != pv->var) {
		*h |= RTB_LOC;
		p = putvar(p, r->loc);
		p = putvar(p, r->var);
	}
	/* a fetch's pc is its address unless said otherwise */
	base = (r->op & 3) == RT_IFETCH ? r->addr : pv->pc;
	if (r->pc != base) {
		*h |= RTB_PC;
		p = putvar(p, zig(r->pc - base));
	}
	e->blen = p - e->blk;
	e->bcount++;
	if ((r->op & 3) == RT_IFETCH) {
		uint64_t a = pv->addr;

		*pv = *r;
		e->iaddr = r->addr;
		pv->addr = a;
	} else
		*pv = *r;
	return 0;
}


static int
wclose_binary(struct rt_writer *w)
{
	struct enc *e = w->st;
	int k;

	k = (!w->started && start(w)) || endblock(w, e);	/* even an empty trace */
	free(e->blk);
	free(e->sdone);
	free(e->ldone);
	free(e);
	return k ? -1 : 0;
}

const struct rt_format rt_fmt_binary = {
	.name = "binary", .sure = 1, .sniff = sniff,
	.size = sizeof(struct dec), .open = open_binary, .read = read_binary,
	.close = close_binary,
	.wopen = open_enc, .write = write_binary, .wclose = wclose_binary,
	.part = 1,
};
