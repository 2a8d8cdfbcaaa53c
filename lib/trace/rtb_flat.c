/* rtb_flat.c: version 4's flat blocks (rtint.h, doc/binary.txt): records
 * as columns of fixed width over a base a field, decoded by a straight
 * loop whose cost does not depend on how predictable the records are;
 * and their writing from a block's records. */
#include <stddef.h>
#include <stdio.h>

#include "rtb.h"

/* Eight bytes at p as a u64le: a column's field is its low bytes. */
static inline uint64_t
ld64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void
st64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

int
rt_bin_flatopen(struct rt_reader *r, struct dec *d, const unsigned char *h)
{
	struct flat *f = &d->f;
	const unsigned char *p = h + RTB2_BLKHDR;
	uint32_t n = le32(h + 4), cw = le32(h + 8), w;
	uint64_t need = 8 * RTB4_NF + RTB4_PAD;
	int k;

	f->cols = 0;
	for (k = 0; k < RTB4_NF; k++) {
		w = cw >> 4 * k & 15;
		if (w > 8 || (w & (w - 1)))
			return rt_bin_badblock(r, d, "bad flat block header");
		f->w[k] = w;
		f->mask[k] = w == 8 ? UINT64_MAX : ((uint64_t)1 << 8 * w) - 1;
		f->cols |= (w != 0) << k;
		need += (uint64_t)n * w;
	}
	if (le32(h + 12) != 0 || need != le32(h))
		return rt_bin_badblock(r, d, "a flat block's length does not match its count");
	for (k = 0; k < RTB4_NF; k++)	/* the bases, then the columns */
		f->base[k] = ld64(p + 8 * k);
	for (p += 8 * RTB4_NF, k = 0; k < RTB4_NF; k++) {
		f->col[k] = p;
		p += (size_t)n * f->w[k];
	}
	if ((!(f->cols >> RTB4_LOC & 1) && mapid(&d->lmap, f->base[RTB4_LOC], &f->loc)) ||
	    (!(f->cols >> RTB4_VAR & 1) && mapid(&d->smap, f->base[RTB4_VAR], &f->var)))
		return rt_bin_badblock(r, d, "bad record");
	f->at = 0;
	d->isflat = 1;
	return 1;
}

/* Field k of the block's record i. */
#define FIELD(f, k, i) ((f)->base[k] + (ld64((f)->col[k] + (size_t)(i) * (f)->w[k]) & (f)->mask[k]))

/* Whether record i of the block is corrupt, each field checked as it is. */
static int
badrec(struct dec *d, uint32_t i)
{
	const struct flat *f = &d->f;
	uint64_t size = FIELD(f, RTB4_SIZE, i);
	uint32_t id;

	return FIELD(f, RTB4_OP, i) > 3 || size > RT_MAXSIZE ||
	    rt_wraps(FIELD(f, RTB4_ADDR, i), size) || FIELD(f, RTB4_TID, i) > UINT32_MAX ||
	    mapid(&d->lmap, FIELD(f, RTB4_LOC, i), &id) || mapid(&d->smap, FIELD(f, RTB4_VAR, i), &id);
}

/* Field k of records i0 to i0 + n - 1 into q[].fld, column by column,
 * each width its own loop, no branch on the records: bad gathers chk(v)
 * of each value v, not 0 where one may be corrupt (badrec says which). */
#define COLUMN(k, fld, T, acc) do { \
	const unsigned char *c = f->col[k] + (size_t)i0 * f->w[k]; \
	uint64_t b_ = f->base[k], v; \
	switch (f->w[k]) { \
	case 0: COLLOOP(fld, T, acc, b_); break; \
	case 1: COLLOOP(fld, T, acc, b_ + c[i]); break; \
	case 2: COLLOOP(fld, T, acc, b_ + (ld64(c + 2 * (size_t)i) & 0xffff)); break; \
	case 4: COLLOOP(fld, T, acc, b_ + (ld64(c + 4 * (size_t)i) & 0xffffffff)); break; \
	default: COLLOOP(fld, T, acc, b_ + ld64(c + 8 * (size_t)i)); break; \
	} \
} while (0)
#define COLLOOP(fld, T, acc, val) _Pragma("GCC unroll 4") for (i = 0; i < n; i++) { \
	v = (val); \
	acc; \
	q[i].fld = (T)v; \
}

/* A batch of the flat block's records into r->q. */
int
rt_bin_flat(struct rt_reader *r, struct dec *d)
{
	struct flat *f = &d->f;
	struct rt_rec *q = r->q, t;
	const size_t at = offsetof(struct rt_rec, tid), tail = sizeof t - at;
	int n = d->bleft < RT_IN_QLEN ? (int)d->bleft : RT_IN_QLEN, i;
	uint32_t i0 = f->at;
	uint64_t ops = 0, sizes = 0, amax = 0, tids = f->base[RTB4_TID], bad = 0;

	/* the fields from tid on (tid, loc, var, name, elem, kind, op) as
	 * one record's, a copy of its bytes each; the columns then */
	memset(&t, 0, sizeof t);
	t.tid = (uint32_t)tids;
	t.loc = f->loc;
	t.var = f->var;
	t.kind = RT_ACCESS;
#pragma GCC unroll 4
	for (i = 0; i < n; i++)
		memcpy((char *)&q[i] + at, (const char *)&t + at, tail);
	/* the fields' checks gathered, cheap and over-cautious: a batch
	 * flagged is looked at record by record (badrec) */
	COLUMN(RTB4_OP, op, uint8_t, ops |= v);
	COLUMN(RTB4_SIZE, size, uint64_t, sizes |= v);
	COLUMN(RTB4_ADDR, addr, uint64_t, amax = v > amax ? v : amax);
	COLUMN(RTB4_PC, pc, uint64_t, (void)0);
	COLUMN(RTB4_SEQ, seq, uint64_t, v += i0 + (uint64_t)i);
	if (f->w[RTB4_TID])
		COLUMN(RTB4_TID, tid, uint32_t, tids |= v);
	bad = ops > 3 || sizes > RT_MAXSIZE || amax > UINT64_MAX - RT_MAXSIZE || tids >> 32;
	for (i = 0; f->cols >> RTB4_LOC & 1 && i < n; i++)
		bad |= (uint64_t)mapid(&d->lmap, FIELD(f, RTB4_LOC, i0 + i), &q[i].loc);
	for (i = 0; f->cols >> RTB4_VAR & 1 && i < n; i++)
		bad |= (uint64_t)mapid(&d->smap, FIELD(f, RTB4_VAR, i0 + i), &q[i].var);
	for (i = 0; bad && i < n; i++)
		if (badrec(d, i0 + (uint32_t)i)) {	/* hand out what was good, then the error */
			rt_bin_badblock(r, d, "bad record");
			if (i == 0)
				return RT_EBAD;
			d->qerr = RT_EBAD;
			return i;
		}
	f->at += (uint32_t)n;
	d->bleft -= (uint32_t)n;
	return n;
}

/* Bytes needed for v - base, as a column's width: 0, 1, 2, 4 or 8. */
static unsigned
width(uint64_t span)
{
	return span == 0 ? 0 : span <= 0xff ? 1 : span <= 0xffff ? 2 : span <= 0xffffffff ? 4 : 8;
}

/* Field k of record v[i] as the block codes it (seq less i). */
static uint64_t
value(const struct rt_rec *v, uint32_t i, int k)
{
	switch (k) {
	case RTB4_OP: return v[i].op & 3;
	case RTB4_SIZE: return v[i].size;
	case RTB4_ADDR: return v[i].addr;
	case RTB4_PC: return v[i].pc;
	case RTB4_SEQ: return v[i].seq - i;
	case RTB4_TID: return v[i].tid;
	case RTB4_LOC: return v[i].loc;
	default: return v[i].var;
	}
}

size_t
rt_bin_flatput(const struct rt_rec *v, uint32_t n, unsigned char *h, unsigned char *p)
{
	unsigned char *c = p + 8 * RTB4_NF;
	uint64_t lo, hi, x;
	uint32_t i, cw = 0;
	unsigned w, j;
	int k;

	for (k = 0; k < RTB4_NF; k++) {
		lo = hi = value(v, 0, k);
		for (i = 1; i < n; i++) {
			x = value(v, i, k);
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		w = width(hi - lo);
		cw |= w << 4 * k;
		st64(p + 8 * k, lo);
		for (i = 0; w && i < n; i++)
			for (x = value(v, i, k) - lo, j = 0; j < w; j++)
				*c++ = (unsigned char)(x >> 8 * j);
	}
	memset(c, 0, RTB4_PAD);
	c += RTB4_PAD;
	le32put(h, (uint32_t)(c - p));
	le32put(h + 4, n);
	le32put(h + 8, cw);
	le32put(h + 12, 0);
	le32put(h + 16, RTB4_FLAT);
	return (size_t)(c - p);
}
