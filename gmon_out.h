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
/* libprof's facts: what the histogram cannot hold (samples outside the
 * program's text, samples not taken, the clock), carried by histogram
 * records that GNU gprof 2.40 reads without a change to its output
 * (measured, doc/DESIGN.md "Time outside the program"): each is one record of one bin, always
 * 0, over [BASE + 4 * slot, BASE + 4 * slot + 4), slot = key * 8 + chunk,
 * after the program's own histogram records (GNU compares only the
 * dimension's string, up to its NUL).  BASE is the top page of the
 * address space, which no symbol covers.  The payload:
 *   rate        the profile's rate, as the first record's (GNU reads only
 *               the first's, but other readers may take the last's)
 *   dimen[0..7] "seconds" and its NUL, as the first record's
 *   dimen[8]    GMON_FACTS_MARK
 *   dimen[9..14] the value, 48 bits, little-endian
 *   abbrev      's'
 * A string (GMON_FACT_CLOCK) goes 6 bytes per chunk (up to 8 chunks), low
 * byte first, NUL padded.  GNU's gmon.sum keeps the records but rewrites every rate and
 * dimension from the first record's, so a record in the range without the
 * mark is a fact lost there: readers skip such records, and unknown keys. */
#define GMON_FACTS_BASE64 0xfffffffffffff000ull
#define GMON_FACTS_BASE32 0xfffff000ull
#define GMON_FACTS_MARK 'L'
#define GMON_FACTS_SLOTS 1024
enum {
  GMON_FACT_VERSION = 1,        /* 1 */
  GMON_FACT_HZ,                 /* samples per CPU second asked */
  GMON_FACT_TEXT,               /* samples in the program's histogram */
  GMON_FACT_LIBC,               /* samples outside the program's text: in the C library, */
  GMON_FACT_LOADER,             /*   the dynamic loader, */
  GMON_FACT_VDSO,               /*   the vDSO, */
  GMON_FACT_OTHER,              /*   any other object (or code in none) */
  GMON_FACT_LIBPROF,            /* samples in libprof's own code, dropped */
  GMON_FACT_OFF,                /* samples while counting was off (moncontrol(0)) */
  GMON_FACT_CPU_US,             /* the process's CPU time since profiling began, microseconds */
  GMON_FACT_NOT_TAKEN,          /* samples that CPU time owed and none of the above holds */
  GMON_FACT_OBJECTS,            /* 1: LIBPROF_OBJECTS=1 (other objects' profiles written) */
  GMON_FACT_RUNS,               /* 1 per run (a gmon.sum: the runs summed) */
  GMON_FACT_CLOCK,              /* string: the sampling clock */
  GMON_FACT_THREADS,            /* threads sampled (each may owe up to a sample at its end) */
  GMON_FACT_LOST_CALLS,         /* calls libprof could not count (written when not 0) */
  GMON_FACT_KERNEL,             /* samples of the kernel's time, not at a PC: a perf clock of
                                   user time only (written when not 0) */
  GMON_FACT_NKEYS
};
#endif
