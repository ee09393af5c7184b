/* gmon_out.h -- layout of profile data files.
 *
 * GNU format: a 20-byte header ("gmon", 4-byte version, 12 spare bytes),
 * then tagged records in the object's byte order, addresses as wide as
 * the object's:
 *   GMON_TAG_TIME_HIST  lowpc, highpc, ncnt(4), rate(4), dimen[15], abbrev,
 *                       then ncnt 16-bit bins;
 *   GMON_TAG_CG_ARC     from_pc, self_pc, count(4);
 *   GMON_TAG_BB_COUNT   ncnt(4), then ncnt pairs (addr, count), each as
 *                       wide as an address.
 * Old BSD format: lowpc, highpc, ncnt(4) where ncnt counts the header too;
 * 4.4BSD adds version(4)=GMONVERSION, profrate(4) and 12 spare bytes.  Both
 * are followed by the bins and then (from_pc, self_pc, count) arcs, every
 * field as wide as an address. */
#ifndef GMON_OUT_H
#define GMON_OUT_H

#define GMON_MAGIC "gmon"
#define GMON_VERSION 1
#define GMON_HDR_SIZE 20
#define GMONVERSION_44BSD 0x00051879

enum { GMON_TAG_TIME_HIST = 0, GMON_TAG_CG_ARC = 1, GMON_TAG_BB_COUNT = 2 };

#define HIST_DIMEN_LEN 15

/* The header's 12 spare bytes (GNU gprof skips them; glibc's runtime
 * writes zeros).  libprof writes there the program's build-id:
 *   bytes 0-3   GMON_BUILD_ID_TAG: 0xbb 'B' 'I' 'D'
 *   bytes 4-11  the first 8 bytes of the NT_GNU_BUILD_ID note's
 *               descriptor, zero-padded when shorter.
 * GNU's gmon.sum (and ours) puts in the same bytes the last histogram's
 * high pc (8 bytes, little-endian) and count (4): the tag read as that
 * high pc ends in 0x444942bb, an address that is 3 modulo 4, and no
 * runtime writes one (glibc rounds the range to 4 bytes, libprof to
 * HIST_GRANULE); the reader also takes a file whose own last histogram
 * record has exactly that high pc and count for a gmon.sum, not an id. */
#define GMON_BUILD_ID_TAG "\xbb" "BID"
#define GMON_BUILD_ID_LEN 8
#endif
