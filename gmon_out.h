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
#endif
