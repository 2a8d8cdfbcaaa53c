/* rtb.h: what the binary trace's reader (fmt_binary.c, rtb_dec.c) and
 * writer (rtb_enc.c) share: version 2's model of a trace, varints and
 * little-endian numbers, and the decoder's state. */
#ifndef RTB_H
#define RTB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
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
	int open;		/* a slice's: ids defined before it read as none */
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

/* A flat block being read (version 4): its columns, bases and widths. */
struct flat {
	const unsigned char *col[RTB4_NF];
	uint64_t base[RTB4_NF], mask[RTB4_NF];
	uint32_t w[RTB4_NF];
	uint32_t cols;		/* the fields with a column: bit f */
	uint32_t at;		/* its records handed out */
	uint32_t loc, var;	/* this process's ids where there is no column */
};

struct dec {
	int qerr;		/* an error met after the queued items */
	int ver;		/* the version of the trace being read */
	int ended;		/* its trailer (or its end, said) is past */
	int skipped;		/* a corrupt block was: counts are off */
	uint32_t crc;		/* CRC-32 of its bytes so far (version 3) */
	uint64_t items;		/* the items handed out from it */
	uint32_t bleft;		/* items left in the current block */
	size_t bend;		/* end of the current block's payload in r->buf */
	uint64_t at, blkat;	/* stream offset of bend, of the block */
	uint64_t nblk;		/* blocks begun */
	uint64_t stop;		/* a slice's end: the offset of its next block, or 0 */
	/* the block's streams (in r->buf or zbuf), its pending run */
	const unsigned char *c, *cend, *p, *pend;
	uint64_t run;
	struct model m;
	unsigned char *zbuf;
	size_t zcap;
	struct idmap smap;	/* file string id -> process id */
	struct idmap lmap;	/* file location id -> process id */
	int isflat;		/* the current block is flat */
	struct flat f;
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
static inline int
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

static inline uint64_t
unzig(uint64_t z)
{
	return (z >> 1) ^ (0 - (z & 1));
}

static inline unsigned char *
putvar(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static inline uint64_t
zig(uint64_t d)
{
	return (d << 1) ^ (0 - (d >> 63));
}

static inline uint32_t
le24(const unsigned char *h)
{
	return h[0] | h[1] << 8 | (uint32_t)h[2] << 16;
}

static inline uint32_t
le32(const unsigned char *h)
{
	return h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
}

static inline void
le32put(unsigned char *h, uint32_t n)
{
	h[0] = n; h[1] = n >> 8; h[2] = n >> 16; h[3] = n >> 24;
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
		return fileid != 0 && *out == 0 && !m->open ? -1 : 0;
	}
	if (fileid == 0) {
		*out = 0;
		return 0;
	}
	if (fileid < IDDIRECT || m->n == 0 || fileid >= (1u << 30) ||
	    (s = idslot(m, (uint32_t)fileid))->file == 0) {
		*out = 0;
		return m->open && fileid < (1u << 30) ? 0 : -1;
	}
	*out = s->id;
	return 0;
}

/* rtb_dec.c: the decoding of a block's items (rtb_batch: their count,
 * -3 for a batch of definitions only, or an error), a file id's
 * definition (rtb_setmap), a corrupt block said (rtb_badblock). */
int rt_bin_batch(struct rt_reader *r, struct dec *d);
int rt_bin_badblock(struct rt_reader *r, struct dec *d, const char *what);
int rt_bin_corrupt(struct rt_reader *r, const char *what);
/* rtb_flat.c: a flat block begun (its header at h, its payload after):
 * 1, or RT_EBAD said; a batch of its records into r->q, as rt_bin_batch;
 * the writer's: a flat block of v[0..n) as its header (at h) and payload
 * (at p, FLATMAX(n) bytes of room): the payload's length. */
int rt_bin_flatopen(struct rt_reader *r, struct dec *d, const unsigned char *h);
int rt_bin_flat(struct rt_reader *r, struct dec *d);
#define FLATMAX(n) (8u * RTB4_NF + (size_t)(n) * 8 * RTB4_NF + RTB4_PAD)
size_t rt_bin_flatput(const struct rt_rec *v, uint32_t n, unsigned char *h, unsigned char *p);
/* crc.c: zlib's crc32, the same numbers, faster on long blocks */
uint32_t rt_crc32(uint32_t crc, const unsigned char *p, size_t n);
/* fmt_binary.c: enter the open trace at slice k of n (rt_rslice). */
int rt_bin_slice(struct rt_reader *r, uint64_t k, uint64_t n);

/* rtb_enc.c: the writer's calls (struct rt_format), not deflated
 * (binary2) or deflated where smaller (binary). */
int rt_bin_wopen(struct rt_writer *w);
int rt_bin_wopenz(struct rt_writer *w);
int rt_bin_wopenf(struct rt_writer *w);	/* flat blocks (binary-flat) */
int rt_bin_write(struct rt_writer *w, const struct rt_rec *r);
int rt_bin_wclose(struct rt_writer *w);

#endif
