/* fmt_binary.c: the reftrace binary trace (rtint.h has the layout) as a
 * format of the table: its rows, its file header, and the reader's walk
 * from block to block; a block's items are decoded by rtb_dec.c, written
 * by rtb_enc.c.  Version 2 (version 1 was never released: it is
 * refused). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtb.h"

/* The fuzzers' build checks no checksum, so that what they change in a
 * block reaches its decoder (as zlib's and libpng's fuzz builds do). */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define NOCRC 1
#else
#define NOCRC 0
#endif

static int
sniff(const struct rt_sniff *s)
{
	return s->lineno == 0 && s->len >= 8 && memcmp(s->start, RTB_MAGIC, 8) == 0;
}

/* The bytes of the file header at h, its first RTB_HDRLEN read. */
static size_t
hdrlen(const char *h)
{
	return RTB_HDRLEN + (h[9] & RTB_HDRFP ? RTB_HDRFPLEN : 0);
}

/* The header's partition (rtint.h), all hdrlen(h) bytes of it read: 0,
 * or -1 when it cannot be one. */
static int
part(struct rt_part *p, const unsigned char *h)
{
	int i, lg = h[9] & ~RTB_HDRFP;

	p->k = le24(h + 10);
	p->n = le24(h + 13);
	p->bytes = p->n ? (uint64_t)1 << (lg & 63) : 0;
	for (p->fp = 0, i = 0; h[9] & RTB_HDRFP && i < 8; i++)
		p->fp |= (uint64_t)h[RTB_HDRLEN + i] << 8 * i;
	if (p->n == 0)
		return h[9] || p->k ? -1 : 0;
	return lg > 63 || p->k >= p->n || (h[9] & RTB_HDRFP && p->fp == 0) ? -1 : 0;
}

/* Why a header's version is refused: version 1 was written by 0.1's
 * development only, never released. */
static const char *
verwhy(int ver)
{
	return ver == 1 ? "binary trace version 1: written before 0.2; this reader knows 2 to 4" :
	    "binary trace of an unknown version; this reader knows 2 to 4";
}

static int
known(int ver)
{
	return ver == RTB_VERSION2 || ver == RTB_VERSION || ver == RTB_VERSION4;
}

/* A file header at h begins a trace (the stream's first, or one
 * concatenated to it): its checksum starts there. */
static void
begin(struct dec *d, const char *h)
{
	d->ver = (unsigned char)h[8];
	d->crc = crc32(0, (const Bytef *)h, (uInt)hdrlen(h));
	d->items = 0;
	d->ended = 0;
	d->skipped = 0;
}

static int
open_binary(struct rt_reader *r)
{
	struct dec *d = r->st;
	const char *h;
	size_t n;

	if (rt_in_need(r, RTB_HDRLEN) < RTB_HDRLEN ||
	    memcmp(r->buf + r->pos, RTB_MAGIC, 8) != 0) {
		snprintf(r->err, sizeof r->err, "%s: not a reftrace binary trace", r->path);
		return -1;
	}
	h = r->buf + r->pos;
	if (!known(h[8])) {
		snprintf(r->err, sizeof r->err, "%s: %s", r->path, verwhy(h[8]));
		return -1;
	}
	n = hdrlen(h);
	if (rt_in_need(r, n) < n) {
		snprintf(r->err, sizeof r->err, "%s: truncated binary trace: the input ends "
		    "inside its header", r->path);
		return -1;
	}
	h = r->buf + r->pos;
	if (part(&r->part, (const unsigned char *)h) < 0) {
		snprintf(r->err, sizeof r->err, "%s: corrupt binary trace: bad partition "
		    "in the header", r->path);
		return -1;
	}
	begin(d, h);
	d->bend = r->pos + hdrlen(h);
	d->at = hdrlen(h);
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

/* A trace cut short: the input ends inside a block (of any version), or
 * a version 3 trace before its trailer, or another trace's header
 * begins before it: what was read stands (with -k the caller goes on),
 * the next read ends the trace or begins the next.  RT_EIO if the input
 * failed. */
static int
truncated(struct rt_reader *r, struct dec *d, const char *where, int inside)
{
	if (r->eof == 2)
		return RT_EIO;
	d->ended = 1;
	d->bleft = 0;
	d->bend = r->pos;
	if (inside)	/* the rest is a piece: dropped */
		d->bend = r->pos = r->len;
	return rt_in_bad(r, "truncated trace: %s at byte %llu, after %llu items, "
	    "without its trailer", where, (unsigned long long)d->at,
	    (unsigned long long)d->items);
}


static const char *
partname(const struct rt_part *p, char *buf, size_t len)
{
	if (p->n == 0)
		return "no partition";
	snprintf(buf, len, "partition %llu/%llu:%llu", (unsigned long long)p->k,
	    (unsigned long long)p->n, (unsigned long long)p->bytes);
	return buf;
}

/* Another trace's header in the stream (files concatenated): read on
 * when it records the partition the first did, refused when not (their
 * union is no partition: give them to the program as files). */
static int
another(struct rt_reader *r, struct dec *d)
{
	const char *h = r->buf + r->pos;
	struct rt_part p;
	char a[96], b[96];
	size_t n;

	if (d->ver >= RTB_VERSION && !d->ended)
		return truncated(r, d, "another trace's header begins", 0);
	if (!known(h[8]))
		return rt_in_fail(r, "%s", verwhy(h[8]));
	n = hdrlen(h);
	if (rt_in_need(r, n) < n)
		return truncated(r, d, "the input ends inside a file header", 1);
	h = r->buf + r->pos;
	if (part(&p, (const unsigned char *)h) < 0)
		return rt_bin_corrupt(r, "bad partition in a concatenated header");
	if (!rt_samepart(&p, &r->part) && p.n == r->part.n && p.k == r->part.k)
		return rt_in_fail(r, "a second trace at byte %llu is partition %llu/%llu of "
		    "another trace (fp=%016llx, the first fp=%016llx): give them as files",
		    (unsigned long long)d->at, (unsigned long long)p.k, (unsigned long long)p.n,
		    (unsigned long long)p.fp, (unsigned long long)r->part.fp);
	if (!rt_samepart(&p, &r->part))
		return rt_in_fail(r, "a second trace at byte %llu records %s, the first %s: "
		    "concatenated partitions are not one trace; give them as files",
		    (unsigned long long)d->at, partname(&p, a, sizeof a),
		    partname(&r->part, b, sizeof b));
	begin(d, h);
	r->pos += n;
	d->at += n;
	return 0;
}

/* A version 3 trace's trailer, its header at h: its count of items and
 * the checksum of the trace before it, checked unless a corrupt block
 * was skipped (said then).  0, or an error. */
static int
trailer(struct rt_reader *r, struct dec *d, const unsigned char *h)
{
	const unsigned char *t = h + RTB2_BLKHDR;
	uint64_t n = le32(t) | (uint64_t)le32(t + 4) << 32;

	if (le32(h + 4) || le32(h + 8) || le32(h + 12) || le32(h + 16) != RTB3_END)
		return rt_bin_corrupt(r, "bad trailer");
	d->ended = 1;
	if (!d->skipped && le32(t + 8) != d->crc && !NOCRC)
		return rt_in_bad(r, "corrupt binary trace: the trailer at byte %llu: the trace's "
		    "checksum does not match", (unsigned long long)d->blkat);
	if (!d->skipped && n != d->items)
		return rt_in_bad(r, "corrupt binary trace: the trailer at byte %llu counts %llu "
		    "items, the trace holds %llu", (unsigned long long)d->blkat,
		    (unsigned long long)n, (unsigned long long)d->items);
	return 0;
}

/* The payload of the block at h (its header), inflated if need be,
 * as the block's two streams, or its columns (a flat block): 1,
 * BADITEM, RT_EBAD said, or RT_EIO (no memory). */
static int
streams(struct rt_reader *r, struct dec *d, const unsigned char *h)
{
	uint32_t plen = le32(h), nc = le32(h + 8), nr = le32(h + 12), fl = le32(h + 16);
	const unsigned char *p = h + RTB2_BLKHDR;
	uLongf n;

	d->isflat = 0;
	if (fl == RTB4_FLAT && d->ver >= RTB_VERSION4)
		return rt_bin_flatopen(r, d, h);
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

/* Move to the next block, past the trailer and the headers of files
 * concatenated to this one: 1, 0 at the end of the input, or an error. */
static int
block(struct rt_reader *r, struct dec *d)
{
	const unsigned char *h;
	uint32_t plen, count, crc;
	size_t hl = RTB2_BLKHDR, ft;
	int k;

	r->pos = d->bend;
	if (d->stop && d->at >= d->stop)	/* a slice's end */
		return 0;
	for (;;) {
		if (rt_in_need(r, 8) == 0)
			return d->ver < RTB_VERSION || d->ended ? RT_IN_END(r) :
			    truncated(r, d, "the input ends", 0);
		if (r->len - r->pos < 8)
			return truncated(r, d, "the input ends inside a block header", 1);
		if (memcmp(r->buf + r->pos, RTB_MAGIC, 8) != 0)
			break;
		if (rt_in_need(r, RTB_HDRLEN) < RTB_HDRLEN)
			return truncated(r, d, "the input ends inside a file header", 1);
		if ((k = another(r, d)) != 0)
			return k;
	}
	if (d->ended)
		return rt_bin_corrupt(r, "bytes after the trailer");
	ft = d->ver >= RTB_VERSION ? RTB3_CRCLEN : 0;
	if (rt_in_need(r, hl) < hl)
		return truncated(r, d, "the input ends inside a block header", 1);
	h = (const unsigned char *)r->buf + r->pos;
	plen = le32(h);
	count = le32(h + 4);
	if (ft && le32(h + 16) == RTB3_END) {
		if (plen != RTB3_TRAILER || count != 0)
			return rt_bin_corrupt(r, "bad trailer");
	} else if (plen > RTB_MAXPAYLOAD || (count == 0) != (plen == 0))
		return rt_bin_corrupt(r, "bad block header");
	/* runs of predicted records cost a byte or two for any count: a
	 * count past what a block holds is refused before it is decoded */
	if (count > RTB2_BLOCK_ITEMS)
		return rt_bin_corrupt(r, "a block of more than 262144 items");
	if (rt_in_need(r, hl + plen + ft) < hl + plen + ft)
		return truncated(r, d, "the input ends inside a block", 1);
	h = (const unsigned char *)r->buf + r->pos;
	d->blkat = d->at;
	d->nblk++;
	r->pos += hl;
	d->at += hl + plen + ft;
	d->bend = r->pos + plen + ft;
	if (ft) {	/* the block's checksum, and the trace's so far */
		crc = rt_crc32(0, h, hl + plen);
		if (crc != le32(h + hl + plen) && !NOCRC)
			return rt_bin_badblock(r, d, "its checksum does not match");
		if (le32(h + 16) == RTB3_END)
			return (k = trailer(r, d, h)) != 0 ? k : block(r, d);
		d->crc = (uint32_t)crc32_combine(d->crc, crc, (z_off_t)(hl + plen));
		d->crc = (uint32_t)crc32(d->crc, h + hl + plen, RTB3_CRCLEN);
	}
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
		n = d->isflat ? rt_bin_flat(r, d) : rt_bin_batch(r, d);
	} while (n == -3);	/* a batch of definitions only */
	if (n > 0)
		d->items += (uint64_t)n;
	return n;
}

/* The blocks of the trace at fd from byte at (where its first block
 * begins): their offsets and item counts, found from their headers by
 * seeking (v2 traces have no index; v3's blocks are at most 4 MB and
 * 2^18 items, so the walk is one read a block).  The count, ending at
 * the trailer or the file's end; RT_ENOMEM, or RT_EBAD with the reason. */
static int64_t
blocks(struct rt_reader *r, int ver, uint64_t at, uint64_t **offp, uint64_t **cntp)
{
	unsigned char h[RTB2_BLKHDR];
	uint64_t *off = NULL, *cnt = NULL, *v, cap = 0, n = 0;
	uint64_t ft = ver >= RTB_VERSION ? RTB3_CRCLEN : 0;
	ssize_t k;

	for (;; n++) {
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 64;
			if ((v = realloc(off, cap * sizeof *v)) != NULL)
				off = v;
			if (v == NULL || (v = realloc(cnt, cap * sizeof *v)) == NULL) {
				free(off);
				free(cnt);
				return rt_in_nomem(r);
			}
			cnt = v;
		}
		off[n] = at;
		cnt[n] = 0;
		if ((k = pread(r->fd, h, sizeof h, (off_t)at)) < (ssize_t)sizeof h)
			break;	/* the end, or a piece: the last slice's reader says it */
		if (memcmp(h, RTB_MAGIC, 8) == 0) {
			free(off);
			free(cnt);
			return rt_in_fail(r, "concatenated traces at byte %llu: a slice is "
			    "of one trace", (unsigned long long)at), RT_EBAD;
		}
		if (ft && le32(h + 16) == RTB3_END)
			break;
		cnt[n] = le32(h + 4);
		at += RTB2_BLKHDR + le32(h) + ft;
	}
	*offp = off;
	*cntp = cnt;
	return (int64_t)n;
}

/* The first of nb blocks (counts cnt) from which k/n of the items
 * (tot) come after: slice k of n begins there. */
static uint64_t
cut(const uint64_t *cnt, uint64_t nb, uint64_t tot, uint64_t k, uint64_t n)
{
	unsigned __int128 want = (unsigned __int128)k * tot, sum = 0;
	uint64_t i;

	if (k >= n)
		return nb;
	for (i = 0; i < nb && sum * n < want; i++)
		sum += cnt[i];
	return i;
}

int
rt_bin_slice(struct rt_reader *r, uint64_t k, uint64_t n)
{
	struct dec *d = r->st;
	struct stat sb;
	uint64_t *off = NULL, *cnt = NULL, tot = 0, a, b, i;
	int64_t nb;

	if (r->gz || fstat(r->fd, &sb) || !S_ISREG(sb.st_mode) || r->started)
		return rt_in_fail(r, "a slice needs a binary trace that is a file, not "
		    "compressed: its blocks are found by seeking"), RT_EUSAGE;
	if (n == 0 || k >= n)
		return rt_in_fail(r, "slice %llu of %llu", (unsigned long long)k,
		    (unsigned long long)n), RT_EUSAGE;
	if ((nb = blocks(r, d->ver, d->at, &off, &cnt)) < 0)
		return (int)nb;
	for (i = 0; i < (uint64_t)nb; i++)
		tot += cnt[i];
	a = cut(cnt, (uint64_t)nb, tot, k, n);
	b = cut(cnt, (uint64_t)nb, tot, k + 1, n);
	d->stop = k + 1 < n ? off[b] : 0;
	if (k > 0) {	/* enter at block a: what came before is not read */
		if (lseek(r->fd, (off_t)off[a], SEEK_SET) < 0) {
			free(off);
			free(cnt);
			return rt_in_fail(r, "cannot seek"), RT_EIO;
		}
		r->pos = r->len = r->ready = 0;
		r->eof = 0;
		d->bend = 0;
		d->at = off[a];
		d->nblk = a;	/* its errors name the blocks as the whole trace's do */
		d->skipped = 1;	/* the trailer's checks are of the whole */
		d->smap.open = d->lmap.open = 1;
	}
	free(off);
	free(cnt);
	return 0;
}

/* "binary" writes each block deflated where that makes it smaller;
 * "binary2" writes them not deflated (the fastest to write);
 * "binary-flat" writes records in flat blocks (the fastest to read).
 * Detection finds "binary" only. */
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

const struct rt_format rt_fmt_binflat = {
	.name = "binary-flat", .sure = 1, .sniff = never,
	.size = sizeof(struct dec), .open = open_binary, .read = read_binary,
	.close = close_binary,
	.wopen = rt_bin_wopenf, .write = rt_bin_write, .wclose = rt_bin_wclose,
	.part = 2,
};

const struct rt_format rt_fmt_binary2 = {
	.name = "binary2", .sure = 1, .sniff = never,
	.size = sizeof(struct dec), .open = open_binary, .read = read_binary,
	.close = close_binary,
	.wopen = rt_bin_wopen, .write = rt_bin_write, .wclose = rt_bin_wclose,
	.part = 2,
};
