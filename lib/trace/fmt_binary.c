/* fmt_binary.c: the reftrace binary trace (rtint.h has the layout) as a
 * format of the table: its rows, its file header, and the reader's walk
 * from block to block; a block's items are decoded by rtb_dec.c, written
 * by rtb_enc.c.  Version 2 (version 1 was never released: it is
 * refused). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtb.h"

static int
sniff(const struct rt_sniff *s)
{
	return s->lineno == 0 && s->len >= 8 && memcmp(s->start, RTB_MAGIC, 8) == 0;
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

/* The input ended (or failed) inside what was to come. */
static int
cut(struct rt_reader *r, const char *what)
{
	return r->eof == 2 ? RT_EIO : rt_bin_corrupt(r, what);
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
		r->pos += RTB_HDRLEN;
		d->at += RTB_HDRLEN;
	}
	if (rt_in_need(r, hl) < hl)
		return cut(r, "truncated block header");
	h = (const unsigned char *)r->buf + r->pos;
	plen = le32(h);
	count = le32(h + 4);
	if (plen > RTB_MAXPAYLOAD || (count == 0) != (plen == 0))
		return rt_bin_corrupt(r, "bad block header");
	/* runs of predicted records cost a byte or two for any count: a
	 * count past what a block holds is refused before it is decoded */
	if (count > RTB2_BLOCK_ITEMS)
		return rt_bin_corrupt(r, "a block of more than 262144 items");
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
		return rt_bin_badblock(r, d, "bad block header or deflate data");
	return k;
}

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
		n = rt_bin_batch(r, d);
	} while (n == -3);	/* a batch of definitions only */
	return n;
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
	.wopen = rt_bin_wopenz, .write = rt_bin_write, .wclose = rt_bin_wclose,
	.part = 2,
};

const struct rt_format rt_fmt_binary2 = {
	.name = "binary2", .sure = 1, .sniff = never,
	.size = sizeof(struct dec), .open = open_binary, .read = read_binary,
	.close = close_binary,
	.wopen = rt_bin_wopen, .write = rt_bin_write, .wclose = rt_bin_wclose,
	.part = 2,
};
