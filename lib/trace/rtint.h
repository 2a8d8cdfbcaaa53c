/* rtint.h: internals shared by the library's reader and writer. */
#ifndef RTINT_H
#define RTINT_H

#include "reftrace.h"

/* The binary format: a 16-byte file header, then blocks of
 * u32le payload bytes, u32le item count, payload.  Deltas restart at
 * every block so a block decodes from its own bytes plus the string and
 * location definitions that precede it in the stream. */
#define RTB_MAGIC "\211RTB\r\n\032\n"
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

/* The text format's first line. */
#define RT_TEXT_MAGIC "#reftrace trace 1"
#define RT_TEXT_HEADER RT_TEXT_MAGIC " seq op addr size tid pc loc func var"

/* valgrind's load address for a PIE executable on amd64. */
#define RT_VG_PIE_BASE 0x108000ULL

#endif
