/* rtb_dec.c: the binary trace's items decoded from a block's two streams
 * (rtint.h has the layout): runs of records as version 2's model predicts
 * them, the records that missed with their residuals, events and the
 * definitions of strings and locations. */
#include <stdio.h>

#include "rtb.h"

int
rt_bin_corrupt(struct rt_reader *r, const char *what)
{
	return rt_in_fail(r, "corrupt binary trace: %s", what);
}

/* 0, or RT_EIO with the reason (a corrupt id, or no memory) in r->err. */
static int
setmap(struct rt_reader *r, struct idmap *m, uint64_t fileid, uint32_t id)
{
	struct idmap g;
	struct idslot *s;
	uint32_t i, *nd;

	if (fileid >= (1u << 30))
		return rt_bin_corrupt(r, "bad item");
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

/* A corrupt v2 block: the reason and its place; the next read goes on at
 * the block after it. */
int
rt_bin_badblock(struct rt_reader *r, struct dec *d, const char *what)
{
	d->bleft = 0;
	d->run = 0;
	d->skipped = 1;
	return rt_in_bad(r, "corrupt binary trace: block %llu at byte %llu: %s",
	    (unsigned long long)d->nblk, (unsigned long long)d->blkat, what);
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

#define NEXT(v) do { if (varint(&p, pend, &(v))) return -1; } while (0)

/* Where the decoding of a block is: the last record's. */
struct at {
	uint64_t seq, pc;
	uint32_t k, tid;
	unsigned j;
};

/* A record that missed its prediction, control byte b: its residuals
 * from *pp, the slot it lands in learns it; 0, or -1 if it is corrupt. */
static inline int
missed(struct dec *d, struct at *t, unsigned b, const unsigned char **pp,
    const unsigned char *pend, struct rt_rec *rec)
{
	const unsigned char *p = *pp;
	struct slot *tab = d->m.tab, *s = &tab[t->k];
	uint64_t a, v, npc = s->npc;
	uint32_t size, loc, var, x;
	unsigned j;

	if (b & RTB2_PC) {
		NEXT(v);
		npc = pcbase(tab, t->pc, b & 3) + unzig(v);
		j = place(t->pc, t->j, npc);
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
			return -1;
		size = (uint32_t)v;
	}
	t->seq++;
	if (b & RTB2_SEQ) {
		NEXT(v);
		t->seq += unzig(v);
	}
	loc = s->loc;
	var = s->var;
	if (b & RTB2_XTRA) {
		NEXT(v);
		if (v == 0 || v > 7)
			return -1;
		x = (uint32_t)v;
		if (x & 1) {
			NEXT(v);
			if (v > RT_NOTID)
				return -1;
			t->tid = v ? (uint32_t)(v - 1) : RT_NOTID;
		}
		if (x & 2) {
			NEXT(v);
			if (mapid(&d->lmap, v, &loc))
				return -1;
		}
		if (x & 4) {
			NEXT(v);
			if (mapid(&d->smap, v, &var))
				return -1;
		}
	}
	if (rt_wraps(a, size))
		return -1;
	t->k = (uint32_t)(s - tab);
	t->pc = npc;
	t->j = j;
	learn(s, a, size, b & 3, loc, var);
	putrec(rec, t->seq, a, size, npc, t->tid, loc, var, b & 3);
	*pp = p;
	return 0;
}
#undef NEXT

/* A batch of a version 2 block's items into r->q: runs of records as the
 * model predicts them, the records that missed, events and definitions. */
int
rt_bin_batch(struct rt_reader *r, struct dec *d)
{
	const unsigned char *c = d->c, *cend = d->cend, *p = d->p, *pend = d->pend;
	struct slot *tab = d->m.tab, *s;
	struct rt_rec *q = r->q;
	struct at t = { d->m.seq, d->m.pc, d->m.k, d->m.tid, d->m.j };
	uint64_t run = d->run, a;
	uint32_t left = d->bleft;
	unsigned b;
	int n = 0, i, lim;
	const char *why = "bad record";

	while (left > 0 && n < RT_IN_QLEN) {
		if (run > 0) {
			/* the hot loop: each record the model's prediction */
			lim = run < (uint64_t)(RT_IN_QLEN - n) ? (int)run : RT_IN_QLEN - n;
			for (i = 0; i < lim; i++) {
				s = &tab[t.k];
				t.pc = s->npc;
				t.j = s->nj;
				t.k = s->nk;
				s = &tab[t.k];
				a = s->addr + s->stride;
				s->addr = a;
				s->delta = s->stride;
				/* sizes are at most RT_MAXSIZE: one compare */
				if (a > UINT64_MAX - RT_MAXSIZE && rt_wraps(a, s->size))
					goto bad;
				putrec(&q[n++], ++t.seq, a, s->size, t.pc, t.tid, s->loc, s->var, s->op);
			}
			run -= (uint64_t)lim;
			left -= (uint32_t)lim;
			continue;
		}
		if (c >= cend)
			goto bad;
		b = *c++;
		if (b < RTB2_RUN) {
			if (missed(d, &t, b, &p, pend, &q[n]))
				goto bad;
			n++;
			left--;
		} else if (b < RTB2_LONGRUN) {
			run = b - RTB2_RUN + 1;
			if (run > left)
				goto bad;
		} else if (b == RTB2_LONGRUN) {
			if (varint(&c, cend, &run) || run == 0 || run > left)
				goto bad;
		} else {
			i = item(r, d, b - RTB2_ITEM, &p, pend, &t.seq, &q[n]);
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
	d->m.seq = t.seq, d->m.pc = t.pc, d->m.k = t.k, d->m.tid = t.tid, d->m.j = t.j;
	return n ? n : -3;
bad:
	rt_bin_badblock(r, d, why);
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
