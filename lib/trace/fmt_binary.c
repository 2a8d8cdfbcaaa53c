/* fmt_binary.c: the reftrace binary trace (rtint.h has the layout),
 * decoded a batch at a time.  Version 2 (version 1 was never released:
 * it is refused): each record predicted from the
 * history of its instruction, as value-prediction trace compressors do
 * (Burtscher's VPC, TCgen): the pc from what followed the last record's
 * slot last time, the address from the slot's last address and stride,
 * size, op, location and variable from the slot, so that a block codes
 * runs of correct predictions and only the fields that missed. */
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
#define BADITEM (-4)	/* a corrupt item or block, not yet said */
struct idmap {
	uint32_t *direct, ndirect;	/* 0: not defined */
	struct idslot {
		uint32_t file, id;	/* file 0: an empty slot */
	} *slot;
	uint32_t n, bits;	/* n < 2^bits / 2 */
};

/* Version 2's model: a table of slots keyed by (pc, place of the record
 * among the run of records with that pc), reset at every block.  The
 * encoder and the decoder keep the same one, updated alike (learn).  A
 * record's pc is predicted to be the one that followed the last record's
 * slot last time, and its slot the one that did (npc, nk, nj); a pc that
 * was not predicted finds its slot by (pc, place) hashed.  Following nk
 * keeps a run of predictions to a load a record. */
#define SLOTBITS 12
#define JMAX 31		/* places past this share a slot */

struct slot {
	uint64_t addr;		/* the last address */
	uint64_t stride;	/* the predicted step: the last step seen twice running */
	uint64_t delta;		/* the last step */
	uint64_t npc;		/* the pc of the record that came after, last time */
	uint32_t nk;		/* and its slot */
	uint32_t size, loc, var;
	uint8_t op;
	uint8_t nj;		/* and its place */
	uint8_t spare[14];	/* to 64 bytes: tab[k] is a shift */
};

struct model {
	struct slot *tab;	/* 1 << SLOTBITS */
	uint64_t pc;		/* the last record's pc */
	uint64_t seq;		/* and seq (of an event: its seq - 1) */
	uint32_t k;		/* the last record's slot */
	uint32_t tid;
	unsigned j;		/* the last record's place in its pc's run */
};

struct dec {
	int qerr;		/* an error met after the queued items */
	uint32_t bleft;		/* items left in the current block */
	size_t bend;		/* end of the current block's payload in r->buf */
	uint64_t at, blkat;	/* stream offset of bend, of the block */
	uint64_t nblk;		/* blocks begun */
	/* the block's streams (in r->buf or zbuf), its pending run */
	const unsigned char *c, *cend, *p, *pend;
	uint64_t run;
	struct model m;
	unsigned char *zbuf;
	size_t zcap;
	struct idmap smap;	/* file string id -> process id */
	struct idmap lmap;	/* file location id -> process id */
};

static inline uint32_t
slotof(uint64_t pc, unsigned j)
{
	return (uint32_t)(((pc << 5 | j) * 0x9e3779b97f4a7c15ull) >> (64 - SLOTBITS));
}

/* The place of a record with pc after one with lastpc at place lastj. */
static inline unsigned
place(uint64_t lastpc, unsigned lastj, uint64_t pc)
{
	return pc == lastpc ? lastj + (lastj < JMAX) : 0;
}

/* What the slot s learns from a record in it. */
static inline void
learn(struct slot *s, uint64_t addr, uint32_t size, int op, uint32_t loc, uint32_t var)
{
	uint64_t d = addr - s->addr;

	if (d == s->delta)
		s->stride = d;
	s->delta = d;
	s->addr = addr;
	s->size = size;
	s->op = (uint8_t)op;
	s->loc = loc;
	s->var = var;
}

/* What a record that missed is predicted to be where its control byte
 * does not say otherwise: a fetch at its pc where it has one (where a
 * fetch is, unless told otherwise), so that code met for the first time
 * costs no address; other records as their slot predicts them. */
static inline uint64_t
apred(const struct slot *s, int op, uint64_t pc)
{
	return op == RT_IFETCH && pc != RT_NOPC ? pc : s->addr + s->stride;
}

/* What an unpredicted pc is coded from: for a fetch, the end of the last
 * record's instruction (the fetch slot of its pc holds its size), where
 * code not met before goes on; for data, the last record's pc. */
static inline uint64_t
pcbase(const struct slot *tab, uint64_t lastpc, int op)
{
	return op == RT_IFETCH ? lastpc + tab[slotof(lastpc, 0)].size : lastpc;
}

/* 0, or -1 when the table cannot be had. */
static int
model_start(struct model *m)
{
	if (m->tab == NULL && (m->tab = malloc(sizeof *m->tab << SLOTBITS)) == NULL)
		return -1;
	memset(m->tab, 0, sizeof *m->tab << SLOTBITS);
	m->pc = 0;
	m->seq = UINT64_MAX;	/* so that seq 0 needs no delta */
	m->k = 0;
	m->tid = RT_NOTID;
	m->j = 0;
	return 0;
}

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

/* Why a header's version is refused: version 1 was written by 0.1's
 * development only, never released. */
static const char *
verwhy(int ver)
{
	return ver == 1 ? "binary trace version 1: written before 0.2; this reader knows 2" :
	    "binary trace of an unknown version; this reader knows 2";
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
		snprintf(r->err, sizeof r->err, "%s: %s", r->path, verwhy(h[8]));
		return -1;
	}
	if (part(&r->part, (const unsigned char *)h) < 0) {
		snprintf(r->err, sizeof r->err, "%s: corrupt binary trace: bad partition "
		    "in the header", r->path);
		return -1;
	}
	d->bend = r->pos + RTB_HDRLEN;
	d->at = RTB_HDRLEN;
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
	free(d->m.tab);
	free(d->zbuf);
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

static uint32_t
le32(const unsigned char *h)
{
	return h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
}

/* The payload of the block at h (its header), inflated if need be,
 * as the block's two streams: 1, BADITEM, or RT_EIO (no memory). */
static int
streams(struct rt_reader *r, struct dec *d, const unsigned char *h)
{
	uint32_t plen = le32(h), nc = le32(h + 8), nr = le32(h + 12), fl = le32(h + 16);
	const unsigned char *p = h + RTB2_BLKHDR;
	uLongf n;

	if (fl & ~(uint32_t)RTB2_DEFLATE || nc > RTB_MAXPAYLOAD || nr > RTB_MAXPAYLOAD ||
	    (!(fl & RTB2_DEFLATE) && (uint64_t)nc + nr != plen))
		return BADITEM;
	if (fl & RTB2_DEFLATE) {
		n = (uLongf)nc + nr;
		if (n + 16 > d->zcap) {
			free(d->zbuf);
			d->zcap = 0;
			if ((d->zbuf = malloc(n + 16)) == NULL)
				return rt_in_nomem(r);
			d->zcap = n + 16;
		}
		if (uncompress(d->zbuf, &n, p, plen) != Z_OK || n != (uLongf)nc + nr)
			return BADITEM;
		p = d->zbuf;
	}
	d->c = p;
	d->cend = d->p = p + nc;
	d->pend = d->p + nr;
	d->run = 0;
	return model_start(&d->m) ? rt_in_nomem(r) : 1;
}

/* A corrupt v2 block: the reason and its place; the next read goes on at
 * the block after it. */
static int
badblock(struct rt_reader *r, struct dec *d, const char *what)
{
	d->bleft = 0;
	d->run = 0;
	return rt_in_bad(r, "corrupt binary trace: block %llu at byte %llu: %s",
	    (unsigned long long)d->nblk, (unsigned long long)d->blkat, what);
}

/* A file concatenated to this one (cat p0.rtb p1.rtb) is read as one
 * stream, taken for the first's partition: refused unless it is the same. */
static int
samepart(struct rt_reader *r, const unsigned char *h)
{
	struct rt_part p;
	char a[48] = "no partition", b[48] = "no partition";

	if (part(&p, h) < 0)
		return corrupt(r, "bad partition in a file header");
	if (p.k == r->part.k && p.n == r->part.n && p.bytes == r->part.bytes)
		return 0;
	if (p.n)
		snprintf(a, sizeof a, "partition %llu/%llu", (unsigned long long)p.k,
		    (unsigned long long)p.n);
	if (r->part.n)
		snprintf(b, sizeof b, "partition %llu/%llu", (unsigned long long)r->part.k,
		    (unsigned long long)r->part.n);
	return rt_in_fail(r, "a trace of %s concatenated to a trace of %s (give them as files)",
	    a, b);
}

/* Move to the next block, past the headers of files concatenated to
 * this one: 1, 0 at the end of the input, or an error. */
static int
block(struct rt_reader *r, struct dec *d)
{
	const unsigned char *h;
	uint32_t plen, count;
	size_t hl = RTB2_BLKHDR;
	int k;

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
			return rt_in_fail(r, "%s", verwhy(r->buf[r->pos + 8]));
		if ((k = samepart(r, (const unsigned char *)r->buf + r->pos)) != 0)
			return k;
		r->pos += RTB_HDRLEN;
		d->at += RTB_HDRLEN;
	}
	if (rt_in_need(r, hl) < hl)
		return cut(r, "truncated block header");
	h = (const unsigned char *)r->buf + r->pos;
	plen = le32(h);
	count = le32(h + 4);
	if (plen > RTB_MAXPAYLOAD || (count == 0) != (plen == 0))
		return corrupt(r, "bad block header");
	/* runs of predicted records cost a byte or two for any count: a
	 * count past what a block holds is refused before it is decoded */
	if (count > RTB2_BLOCK_ITEMS)
		return corrupt(r, "a block of more than 262144 items");
	if (rt_in_need(r, hl + (size_t)plen) < hl + (size_t)plen)
		return cut(r, "truncated block");
	h = (const unsigned char *)r->buf + r->pos;
	d->blkat = d->at;
	d->nblk++;
	r->pos += hl;
	d->at += hl + plen;
	d->bend = r->pos + plen;
	d->bleft = count;
	if ((k = streams(r, d, h)) == BADITEM)
		return badblock(r, d, "bad block header or deflate data");
	return k;
}

/* A record into the queue: all its fields, the queue's slot may have
 * held an event. */
static inline void
putrec(struct rt_rec *rec, uint64_t seq, uint64_t addr, uint64_t size, uint64_t pc,
    uint32_t tid, uint32_t loc, uint32_t var, int op)
{
	rec->seq = seq;
	rec->addr = addr;
	rec->size = size;
	rec->pc = pc;
	rec->tid = tid;
	rec->loc = loc;
	rec->var = var;
	rec->name = 0;
	rec->elem = 0;
	rec->kind = RT_ACCESS;
	rec->op = (uint8_t)op;
}

#define NEXT(v) do { if (varint(&p, end, &(v))) return BADITEM; } while (0)

/* An item that is not a record, h its RTB_ number, its fields at *pp:
 * 1 with an event in *rec, 0 after a definition, BADITEM if it is
 * corrupt, RT_EIO when memory ran out (or a corrupt id: setmap).  seq: the last record's seq, the event's
 * seq - 1 after one. */
static int
item(struct rt_reader *r, struct dec *d, unsigned h, const unsigned char **pp,
    const unsigned char *end, uint64_t *seq, struct rt_rec *rec)
{
	const unsigned char *p = *pp;
	uint64_t v, a, b, c;
	uint32_t id, f, fn;

	switch (h) {
	case RTB_MARK:
	case RTB_REGION:
	case RTB_OBJECT:
	case RTB_FLUSH:
	case RTB_INVAL:
	case RTB_OBJID:
		NEXT(v);
		a = 0;
		if (h != RTB_FLUSH && h != RTB_INVAL)	/* a flush has no name */
			NEXT(a);
		if (mapid(&d->smap, a, &id))
			return BADITEM;
		rt_in_event(rec, h == RTB_MARK ? RT_MARK : h == RTB_REGION ?
		    RT_REGION : h == RTB_OBJECT || h == RTB_OBJID ? RT_OBJECT :
		    h == RTB_FLUSH ? RT_FLUSH : RT_INVAL, *seq + 1 + unzig(v), id);
		if (h != RTB_MARK)
			NEXT(rec->addr);
		if (h == RTB_OBJID) {
			NEXT(b);
			if (mapid(&d->smap, b, &rec->var))
				return BADITEM;
		} else if (h != RTB_MARK && h != RTB_OBJECT)
			NEXT(rec->size);
		if (h == RTB_REGION) {
			NEXT(v);
			if (v > UINT32_MAX)
				return BADITEM;
			rec->elem = (uint32_t)v;
		}
		if (rt_wraps(rec->addr, rec->size) ||
		    (h >= RTB_FLUSH && rec->size > RT_MAXSIZE))
			return BADITEM;
		*seq = rec->seq - 1;
		*pp = p;
		return 1;
	case RTB_STRDEF:
		NEXT(a);
		NEXT(b);
		if (b > (uint64_t)(end - p))
			return BADITEM;
		if ((id = rt_str_intern((const char *)p, b)) == RT_NOMEM)
			return rt_in_nomem(r);
		p += b;
		*pp = p;
		return setmap(r, &d->smap, a, id);
	case RTB_LOCDEF:
		NEXT(a);
		NEXT(b);
		NEXT(c);
		NEXT(v);
		if (mapid(&d->smap, b, &f) ||
		    mapid(&d->smap, v, &fn) || c > UINT32_MAX)
			return BADITEM;
		if ((id = rt_loc_intern(f, (uint32_t)c, fn)) == RT_NOMEM)
			return rt_in_nomem(r);
		*pp = p;
		return setmap(r, &d->lmap, a, id);
	default:
		return BADITEM;
	}
}
#undef NEXT

#define NEXT(v) do { if (varint(&p, pend, &(v))) goto bad; } while (0)

/* The same for a version 2 block: runs of records as the model predicts
 * them, and the records that missed with their residuals. */
static int
batch2(struct rt_reader *r, struct dec *d)
{
	const unsigned char *c = d->c, *cend = d->cend, *p = d->p, *pend = d->pend;
	struct slot *tab = d->m.tab, *s;
	struct rt_rec *q = r->q;
	uint64_t seq = d->m.seq, pc = d->m.pc, run = d->run, a, v, npc;
	uint32_t k = d->m.k, tid = d->m.tid, left = d->bleft, size, loc, var, x;
	unsigned j = d->m.j, b;
	int n = 0, i, lim;
	const char *why = "bad record";

	while (left > 0 && n < RT_IN_QLEN) {
		if (run > 0) {
			/* the hot loop: each record the model's prediction */
			lim = run < (uint64_t)(RT_IN_QLEN - n) ? (int)run : RT_IN_QLEN - n;
			for (i = 0; i < lim; i++) {
				s = &tab[k];
				pc = s->npc;
				j = s->nj;
				k = s->nk;
				s = &tab[k];
				a = s->addr + s->stride;
				s->addr = a;
				s->delta = s->stride;
				/* sizes are at most RT_MAXSIZE: one compare */
				if (a > UINT64_MAX - RT_MAXSIZE && rt_wraps(a, s->size))
					goto bad;
				putrec(&q[n++], ++seq, a, s->size, pc, tid, s->loc, s->var, s->op);
			}
			run -= (uint64_t)lim;
			left -= (uint32_t)lim;
			continue;
		}
		if (c >= cend)
			goto bad;
		b = *c++;
		if (b < RTB2_RUN) {
			s = &tab[k];
			npc = s->npc;
			if (b & RTB2_PC) {
				NEXT(v);
				npc = pcbase(tab, pc, b & 3) + unzig(v);
				j = place(pc, j, npc);
				s->npc = npc;
				s->nk = slotof(npc, j);
				s->nj = (uint8_t)j;
			} else
				j = s->nj;
			s = &tab[s->nk];
			a = apred(s, b & 3, npc);
			if (b & RTB2_ADDR) {
				NEXT(v);
				a += unzig(v);
			}
			size = s->size;
			if (b & RTB2_SIZE) {
				NEXT(v);
				if (v > RT_MAXSIZE)
					goto bad;
				size = (uint32_t)v;
			}
			seq++;
			if (b & RTB2_SEQ) {
				NEXT(v);
				seq += unzig(v);
			}
			loc = s->loc;
			var = s->var;
			if (b & RTB2_XTRA) {
				NEXT(v);
				if (v == 0 || v > 7)
					goto bad;
				x = (uint32_t)v;
				if (x & 1) {
					NEXT(v);
					if (v > RT_NOTID)
						goto bad;
					tid = v ? (uint32_t)(v - 1) : RT_NOTID;
				}
				if (x & 2) {
					NEXT(v);
					if (mapid(&d->lmap, v, &loc))
						goto bad;
				}
				if (x & 4) {
					NEXT(v);
					if (mapid(&d->smap, v, &var))
						goto bad;
				}
			}
			if (rt_wraps(a, size))
				goto bad;
			k = (uint32_t)(s - tab);
			pc = npc;
			learn(s, a, size, b & 3, loc, var);
			putrec(&q[n++], seq, a, size, pc, tid, loc, var, b & 3);
			left--;
		} else if (b < RTB2_LONGRUN) {
			run = b - RTB2_RUN + 1;
			if (run > left)
				goto bad;
		} else if (b == RTB2_LONGRUN) {
			if (varint(&c, cend, &run) || run == 0 || run > left)
				goto bad;
		} else {
			i = item(r, d, b - RTB2_ITEM, &p, pend, &seq, &q[n]);
			if (i == BADITEM)
				goto bad;
			if (i < 0)
				goto fail;
			n += i;
			left--;
		}
	}
	if (left == 0 && (c != cend || p != pend)) {
		why = "its streams are longer than its items";
		goto bad;
	}
	d->c = c, d->p = p, d->run = run, d->bleft = left;
	d->m.seq = seq, d->m.pc = pc, d->m.k = k, d->m.tid = tid, d->m.j = j;
	return n ? n : -3;
bad:
	badblock(r, d, why);
	if (n > 0) {	/* hand out what was good, then the error */
		d->qerr = RT_EBAD;
		return n;
	}
	return RT_EBAD;
fail:
	if (n > 0) {
		d->qerr = RT_EIO;
		return n;
	}
	return RT_EIO;
}
#undef NEXT

static int
read_binary(struct rt_reader *r)
{
	struct dec *d = r->st;
	int n;

	if ((n = d->qerr) != 0) {
		if (n == RT_EBAD)	/* the caller may go on: at the next block */
			d->qerr = 0;
		return n;
	}
	do {
		while (d->bleft == 0)
			if ((n = block(r, d)) <= 0)
				return n;
		n = batch2(r, d);
	} while (n == -3);	/* a batch of definitions only */
	return n;
}

/* The writer: items go into a block, a block out when full. */

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

static void
le32put(unsigned char *h, uint32_t n)
{
	h[0] = n; h[1] = n >> 8; h[2] = n >> 16; h[3] = n >> 24;
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
		if (rt_out(w, h, sizeof h) || rt_out(w, e->ctl.b, e->ctl.len) ||
		    (e->blk.len && rt_out(w, e->blk.b, e->blk.len)))
			return -1;
	} else {
		le32put(h, (uint32_t)plen);
		if (rt_out(w, h, sizeof h) || rt_out(w, pay, plen))
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
open_enc(struct rt_writer *w, int deflate)
{
	struct enc *e;

	if ((e = calloc(1, sizeof *e)) == NULL)
		return rt_out_fail(w, ENOMEM);
	e->deflate = deflate;
	if (model_start(&e->m)) {
		free(e);
		return rt_out_fail(w, ENOMEM);
	}
	w->st = e;
	return 0;
}

static int
open_enc2(struct rt_writer *w)
{
	return open_enc(w, 0);
}

static int
open_encz(struct rt_writer *w)
{
	return open_enc(w, 1);
}

/* The stream's first bytes: the file header. */
static int
start(struct rt_writer *w)
{
	unsigned char hdr[RTB_HDRLEN] = { 0 };
	const struct rt_part *p = &w->part;
	int i;

	w->started = 1;
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

static int
write_binary(struct rt_writer *w, const struct rt_rec *r)
{
	struct enc *e = w->st;

	if (!w->started && start(w))
		return -1;
	return write_v2(w, e, r);
}

static int
wclose_binary(struct rt_writer *w)
{
	struct enc *e = w->st;
	int k;

	k = (!w->started && start(w)) || endblock(w, e);	/* even an empty trace */
	free(e->blk.b);
	free(e->ctl.b);
	free(e->z.b);
	free(e->m.tab);
	free(e->sdone);
	free(e->ldone);
	free(e);
	return k ? -1 : 0;
}

/* "binary" writes each block deflated where that makes it smaller;
 * "binary2" writes them not deflated (the fastest to write).  Detection
 * finds "binary" only. */
static int
never(const struct rt_sniff *s)
{
	(void)s;
	return 0;
}

const struct rt_format rt_fmt_binary = {
	.name = "binary", .sure = 1, .sniff = sniff,
	.size = sizeof(struct dec), .open = open_binary, .read = read_binary,
	.close = close_binary,
	.wopen = open_encz, .write = write_binary, .wclose = wclose_binary,
	.part = 2,
};

const struct rt_format rt_fmt_binary2 = {
	.name = "binary2", .sure = 1, .sniff = never,
	.size = sizeof(struct dec), .open = open_binary, .read = read_binary,
	.close = close_binary,
	.wopen = open_enc2, .write = write_binary, .wclose = wclose_binary,
	.part = 2,
};
