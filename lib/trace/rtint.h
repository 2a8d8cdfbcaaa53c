/* rtint.h: internals shared by the library's readers and writers: the
 * table of trace formats and the constants of the formats' bytes. */
#ifndef RTINT_H
#define RTINT_H

#include "reftrace.h"

/* The binary format: a 16-byte file header, then blocks of
 * u32le payload bytes, u32le item count, payload.  Deltas restart at
 * every block so a block decodes from its own bytes plus the string and
 * location definitions that precede it in the stream. */
#define RTB_MAGIC "\211RTB\r\n\032\n"
/* Header bytes: magic (8), version (1), then the partition (rt_part):
 * log2 of its bytes (1), k and n (u24le each); all zero: none, as in
 * files written before partitions were recorded. */
#define RTB_VERSION 1
#define RTB_HDRLEN 16
#define RTB_BLOCK_ITEMS 65536
#define RTB_MAXPAYLOAD (64u << 20)

/* Item header bytes.  Below 0x80: an access, op in the low two bits. */
#define RTB_SEQ 0x04	/* seq is not previous + 1: zigzag delta follows */
#define RTB_SIZE 0x08	/* size differs: varint follows */
#define RTB_PC 0x10	/* pc differs from the previous pc (for a fetch: from its
			 * address): zigzag delta follows, after tid and loc */
#define RTB_TID 0x20	/* tid differs: varint tid+1 (0 = unknown) */
#define RTB_LOC 0x40	/* loc or var differs: two varints follow */
#define RTB_MARK 0x80
#define RTB_REGION 0x81
#define RTB_OBJECT 0x82
#define RTB_STRDEF 0x83
#define RTB_LOCDEF 0x84
#define RTB_FLUSH 0x85	/* seq delta, addr, size */
#define RTB_INVAL 0x86

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
	void (*close)(void *st);	/* where not NULL: what st holds */
	/* The writer, where the format has one: calls return 0, or -1 from
	 * rt_out_fail (errno says why); wclose ends the stream (a header
	 * even if nothing was written) and frees w->st. */
	int (*wopen)(struct rt_writer *w);
	int (*write)(struct rt_writer *w, const struct rt_rec *rec);
	int (*wclose)(struct rt_writer *w);
	int part;		/* its header records a partition (rt_wpart) */
};

/* The row of enum rt_fmt fmt (or of a format added after them), NULL if
 * there is none. */
const struct rt_format *rt_format_row(int fmt);
/* The format of the stream r is at the start of, by the rows' sniffs on
 * its first 4 KB; -1 if none claims it. */
int rt_format_detect(struct rt_reader *r);

#endif
