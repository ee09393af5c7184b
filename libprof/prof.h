/* prof.h -- libprof's internal state, shared by the C runtime (gmon.c)
 * and the per-architecture mcount stubs (mcount_*.S).
 *
 * The stubs' fast path needs only: the text range and the calling
 * thread's own arc table (a power-of-two array of {key, count} slots,
 * key = (frompc - lowpc) << 32 | (selfpc - lowpc), never 0 for a real
 * arc; PROF_TAB_MASK and PROF_TAB_SLOTS are the offsets of its mask and
 * slot pointer).  Anything unusual (a thread's first call, profiling
 * off, an address outside the text, a slot holding another arc) goes to
 * __prof_mcount_slow, written in C. */
#ifndef LIBPROF_PROF_H
#define LIBPROF_PROF_H

#define PROF_HIDDEN __attribute__((visibility("hidden")))

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct {
  uint64_t key;                 /* 0 = empty */
  uint64_t count;
} prof_slot;

/* One thread's arcs: only that thread writes them, so counting needs no
   atomic instruction; tables are never freed, and are summed at exit. */
typedef struct prof_tab {
  uint64_t mask;                /* offset 0: slots - 1 */
  prof_slot *slots;             /* offset 8 */
  uint64_t used;
  struct prof_tab *next;        /* every table, for the writer */
} prof_tab;

extern uintptr_t __prof_lowpc PROF_HIDDEN;
extern uintptr_t __prof_textsize PROF_HIDDEN;   /* 0 while not counting */
extern __thread prof_tab *__prof_tab PROF_HIDDEN;

void __prof_mcount_slow(uintptr_t frompc, uintptr_t selfpc) PROF_HIDDEN;
#endif

#define PROF_TAB_MASK 0
#define PROF_TAB_SLOTS 8

/* the multiplier of the arc hash (Fibonacci hashing) */
#define PROF_HASH_MULT 0x9E3779B97F4A7C15
#endif
