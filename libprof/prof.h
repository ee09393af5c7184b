/* prof.h -- libprof's internal state, shared by the C runtime (gmon.c)
 * and the per-architecture mcount stubs (mcount_*.S).
 *
 * The stubs' fast path needs only: the text range, the arc table (a
 * power-of-two array of {key, count} slots, key = (frompc - lowpc) << 32 |
 * (selfpc - lowpc), never 0 for a real arc) and its mask, and a
 * per-thread "sampling started" byte.  Anything unusual (first call,
 * profiling off, an address outside the text, a slot holding another
 * arc) goes to __prof_mcount_slow, written in C. */
#ifndef LIBPROF_PROF_H
#define LIBPROF_PROF_H

#define PROF_HIDDEN __attribute__((visibility("hidden")))

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct {
  uint64_t key;                 /* 0 = empty */
  uint64_t count;
} prof_slot;

extern uintptr_t __prof_lowpc PROF_HIDDEN;
extern uintptr_t __prof_textsize PROF_HIDDEN;   /* 0 while not counting */
extern prof_slot *__prof_table PROF_HIDDEN;
extern uint64_t __prof_mask PROF_HIDDEN;
extern __thread unsigned char __prof_thread_ready PROF_HIDDEN;

void __prof_mcount_slow(uintptr_t frompc, uintptr_t selfpc) PROF_HIDDEN;
#endif

/* the multiplier of the arc hash (Fibonacci hashing) */
#define PROF_HASH_MULT 0x9E3779B97F4A7C15
#endif
