/* rtint.h: internals shared by the library's readers and writers: the
 * table of trace formats and the constants of the formats' bytes. */
#ifndef RTINT_H
#define RTINT_H

#include "reftrace.h"

/* The binary format: a 16-byte file header, then blocks.  Version 2
 * (version 1, never released, is refused; version 3 below): u32le payload bytes (as stored), item count, control stream bytes, residual
 * stream bytes and flags (RTB2_DEFLATE), then the payload: the two
 * streams, or their deflate (zlib) where the flag says so.  Every block
 * restarts its state so it decodes from its own bytes plus the string and
 * location definitions that precede it in the stream. */
#define RTB_MAGIC "\211RTB\r\n\032\n"
/* Header bytes: magic (8), version (1), then the partition (rt_part):
 * log2 of its bytes (1), k and n (u24le each); all zero: none, as in
 * files written before partitions were recorded.  A partition's header
 * whose log2 byte has RTB_HDRFP set is followed by an extension, the
 * u64le fingerprint of the trace split (rt_fp): RTB_HDRFPLEN bytes more,
 * in the trace's checksum as the header is. */
#define RTB_HDRFP 0x80
#define RTB_HDRFPLEN 8
#define RTB_VERSION 3		/* the one written */
#define RTB_VERSION2 2		/* read as well: no checksums, no trailer */
#define RTB_HDRLEN 16
#define RTB_MAXPAYLOAD (64u << 20)
#define RTB2_BLKHDR 20
#define RTB2_DEFLATE 1		/* block flag: the payload is deflated */
#define RTB2_BLOCK_ITEMS (1u << 18)	/* items a version 2 block holds at most */
/* Version 3 is version 2 with checksums and an end: each block followed by
 * the u32le CRC-32 of its header and payload, the trace ended by a
 * trailer, a block whose flags are RTB3_END, item count 0, and whose
 * payload is the u64le count of items (records and events) and the
 * u32le CRC-32 of every byte of the trace before the trailer (from its
 * file header on), followed by its own CRC as every block. */
#define RTB3_CRCLEN 4
#define RTB3_END 2		/* block flag: the trailer */
#define RTB3_TRAILER 12		/* its payload's bytes */
/* Version 4 is version 3 with flat blocks (flag RTB4_FLAT): a block of
 * records only, each field a column of fixed width over a base, decoded
 * by a straight loop whatever the records are.  The header's third word
 * is the columns' widths, a nibble a field (RTB4_OP...: 0, 1, 2, 4 or 8
 * bytes), the fourth 0; the payload is a u64le base a field, the columns
 * (record i's field is its base plus the column's u(8 * width)le at i,
 * seq plus i too) and RTB4_PAD zero bytes, so that a reader may load any
 * field as 8 bytes.  doc/binary.txt has it all. */
#define RTB_VERSION4 4
#define RTB4_FLAT 4		/* block flag: a flat block */
enum { RTB4_OP, RTB4_SIZE, RTB4_ADDR, RTB4_PC, RTB4_SEQ, RTB4_TID, RTB4_LOC,
	RTB4_VAR, RTB4_NF };
#define RTB4_PAD 8
#define RTB4_BLOCK (1u << 16)	/* records a flat block holds as written */

/* Items that are not records (written RTB2_ITEM + their number). */
#define RTB_MARK 0x80
#define RTB_REGION 0x81
#define RTB_OBJECT 0x82
#define RTB_STRDEF 0x83
#define RTB_LOCDEF 0x84
#define RTB_FLUSH 0x85	/* seq delta, addr, size */
#define RTB_INVAL 0x86
#define RTB_OBJID 0x87	/* an object with its identity: seq delta, path,
			 * bias, identity string */

/* Version 2's control bytes.  Below 0x80: a record that missed its
 * prediction, op in the low two bits, and the bits that say which
 * residuals follow in the residual stream, in this order: */
#define RTB2_PC 0x04	/* zigzag delta from the predicted pc */
#define RTB2_ADDR 0x08	/* zigzag delta from the predicted address */
#define RTB2_SIZE 0x10	/* varint size */
#define RTB2_SEQ 0x20	/* zigzag varint of seq - (previous seq + 1) */
#define RTB2_XTRA 0x40	/* varint bits (1 tid, 2 loc, 4 var), then each:
			 * tid + 1 (0 = unknown), loc id, var id */
#define RTB2_RUN 0x80	/* 0x80-0xee: 1-111 records as predicted */
#define RTB2_LONGRUN 0xef	/* a varint count of records as predicted
				 * follows in the control stream */
#define RTB2_ITEM 0x70	/* 0xf0-0xf7: item 0x80-0x87 above, its
			 * fields in the residual stream */

/* The text format's first line. */
#define RT_TEXT_MAGIC "#reftrace trace 1"
#define RT_TEXT_HEADER RT_TEXT_MAGIC " seq op addr size tid pc loc func var"

/* valgrind's load address for a PIE executable on amd64. */
#define RT_VG_PIE_BASE 0x108000ULL

/* What detection shows a format's sniff: the stream's first bytes (4 KB,
 * or all there are) and one of its first lines, as it is (line) and cut
 * into its first fields (f, nf).  Lines come in order, every format asked
 * about each; the first format to claim one reads the stream. */
struct rt_sniff {
	const char *start;
	size_t len;
	int lineno;		/* from 0 */
	const char *line;	/* NUL-terminated, without \r\n */
	char **f;
	int nf;
};

struct rt_reader;
struct rt_writer;

/* A trace format: one file (fmt_NAME.c) defines its row, the table in
 * reader.c lists it.  A decoder keeps its own state in a struct of its
 * own at r->st (size bytes, zeroed, made when the stream is opened and
 * freed after close), an encoder at w->st. */
struct rt_format {
	const char *name;	/* as -I and -O name it */
	int sure;		/* its sniff is not fooled by other text */
	int (*sniff)(const struct rt_sniff *s);
	size_t size;		/* of the decoder's state */
	/* Where not NULL: 0, or -1 with the reason in r->err (the start is
	 * not this format's) */
	int (*open)(struct rt_reader *r);
	/* Decode the next items into r->q (RT_IN_QLEN at most): their count,
	 * 0 at the end, RT_EBAD or RT_EIO (see rt_read). */
	int (*read)(struct rt_reader *r);
	/* Or, where read is NULL, one item into rec: 1, or as read; reader.c
	 * calls it for a queue's worth (the text formats: a line a call). */
	int (*next)(struct rt_reader *r, struct rt_rec *rec);
	void (*close)(void *st);	/* where not NULL: what st holds */
	/* The writer, where the format has one: calls return 0, or -1 from
	 * rt_out_fail (errno says why); wclose ends the stream (a header
	 * even if nothing was written) and frees w->st. */
	int (*wopen)(struct rt_writer *w);
	int (*write)(struct rt_writer *w, const struct rt_rec *rec);
	int (*wclose)(struct rt_writer *w);
	int part;		/* its header records a partition (rt_wpart); 2: as
				 * a binary header, n < 2^24 and bytes a power of 2 */
};

/* The row of enum rt_fmt fmt (or of a format added after them), NULL if
 * there is none. */
const struct rt_format *rt_format_row(int fmt);

#endif
