/* prof.h -- libprof's internal state, shared by the C runtime (gmon.c)
 * and the per-architecture mcount stubs (arch/<isa>/mcount.S).
 *
 * The stubs' fast path needs only: the text range and the calling
 * thread's own arc table (a power-of-two array of {key, count} slots,
 * key = (frompc - lowpc) << 32 | (selfpc - lowpc), never 0 for a real
 * arc, found by linear probing from its hash; PROF_TAB_* are the offsets
 * of the table's first three fields, the same on every architecture).  Anything unusual (a thread's first call, an
 * arc seen for the first time) goes to the slow path, written in C.
 *
 * Names.  GNU gprof lists every global function of the program and every
 * static one whose name has no '$'; it skips weak objects ("V" in nm).
 * So in the static archive the public entry points (mcount, __monstartup,
 * ...) are weak objects, and everything libprof keeps private ends up as
 * a local symbol named "libprof$..." or no symbol at all (see the
 * libprof rules of Makefile.in): no libprof function appears in any
 * listing.  PROF_SYM gives C code those '$' names. */
#ifndef LIBPROF_PROF_H
#define LIBPROF_PROF_H

#define PROF_HIDDEN __attribute__((visibility("hidden")))
#define PROF_TRAMPS 128         /* trampolines per kind: objects counted fast */
#define PROF_FP_SPAN 0x40000000 /* a frame pointer's most bytes above sp (arch/x86_64/mcount.S) */

#ifndef __ASSEMBLER__
#include <stdint.h>

/* Invariants of the arc tables, the stack table and the object registry,
   checked in the debug build (-DLIBPROF_CHECKS; make check-sanitize's
   libprof): a broken one writes "libprof: invariant COND failed at
   FILE:LINE" and aborts, both async-signal-safe (prof_invariant_failed,
   base.c).  Nothing otherwise (COND not evaluated); LP_CHECKING is 1 in
   the debug build, for checks that are whole functions (if (LP_CHECKING)). */
#ifdef LIBPROF_CHECKS
#define LP_ASSERT(cond) ((cond) ? (void)0 : prof_invariant_failed(#cond, __FILE__, __LINE__))
#define LP_CHECKING 1
#else
#define LP_ASSERT(cond) ((void)sizeof(!(cond)))
#define LP_CHECKING 0
#endif

typedef struct {
  uint64_t key;                 /* 0 = empty */
  uint64_t count;
} prof_slot;

/* x86-64's program path counts in raw slots (PROF_RAW): {frompc, selfpc,
   count, flags}, 32 bytes, the two addresses as the stub finds them, so
   that its fast path needs no range check and fits in one 64-byte line
   (DESIGN.md, "Raw-address slots").  The home slot: bits 5 and up of
   selfpc * frompc.  frompc 0 = empty; flags nonzero: a
   pair that is no arc of the program (a call from outside its text, or
   into another object), counted by the stub and never written. */
/* (PROF_RAW: 1 where the stub counts so, arch/<isa>/arch.h) */

/* A part's slots from before a grow (count.c part_add), with no counts
   but those a stub added after it: a profiled signal handler that grew
   the table may have interrupted the stub between its finding a slot
   and its increment, which then lands here.  Read with the part's own
   slots wherever counts are summed; kept in the bytes after the newer
   slots (never unmapped). */
typedef struct prof_stale {
  const uint64_t *slots;
  uint64_t mask;
  const struct prof_stale *next;  /* older ones */
} prof_stale;

/* One of a thread's tables: a power of two of slots of one kind, the key
   slots (prof_slot) or the raw ones (four words), found by linear probing
   from their hash.  Only the owner writes it. */
typedef struct {
  /* The stubs read these three, at the same offsets on every
     architecture (PROF_TAB_*): keep them first. */
  uint64_t mask;                /* offset 0: slots - 1 */
  union {                       /* offset 8, 8 bytes even on i386 */
    uint64_t *slots;
    uint64_t slots_word;
  };
  uint64_t bytemask;            /* offset 16: mask * bytes of a slot,
                                   the mask of a slot's byte offset */
  uint64_t used;
  uint64_t *spare;              /* the other slots of count_rehome, or NULL */
  uint64_t spare_mask;          /* their mask */
  const prof_stale *stale;      /* slots from before grows, newest first */
  /* the slots of the first PROF_TAB_LOG entries, so a short-lived
     thread's few arcs are folded and cleared without scanning the whole
     table (rebuilt when the table grows) */
#define PROF_TAB_LOG 16
  uint32_t log[PROF_TAB_LOG];
} prof_part;

/* One thread's arcs: only that thread writes them, so counting needs no
   atomic instruction.  When the thread ends its counts are folded into a
   shared table and this one, emptied, goes on a free list for the next
   new thread; tables are never unmapped (a writer may be reading them).
   The key part comes first: the i386 and AArch64 stubs read its first
   three fields through __prof_tab. */
typedef struct prof_tab {
  prof_part key;                /* arcs as keys (every path but PROF_RAW's) */
  prof_part raw;                /* PROF_RAW: the program's arcs, raw */
  struct prof_tab *next;        /* every table ever made, for the writer */
  struct prof_tab *next_free;
} prof_tab;

/* The calling thread's slots and byte masks, copied from its table so
   the x86-64 stub reaches them with no pointer to follow and no test: a
   thread without a table has masks of 0 over one empty slot, which
   sends its first call to C like any new arc.  count.c keeps the copy
   (PROF_CUR_* are the offsets) in step with __prof_tab. */
typedef struct {
  uint64_t bytemask;            /* the key part's */
  union {
    uint64_t *slots;
    uint64_t slots_word;
  };
  uint64_t raw_bytemask;        /* the raw part's */
  union {
    uint64_t *raw_slots;
    uint64_t raw_slots_word;
  };
} prof_cur;

extern uintptr_t __prof_lowpc PROF_HIDDEN;
/* 0 while not counting, all ones before start-up (so that the first call
   reaches C, which starts profiling where no start-up file did) */
extern uintptr_t __prof_textsize PROF_HIDDEN;
/* the same for the raw path: 0 while not counting (and until the
   process is ready: gmon.c's `ready`), else 1 */
extern unsigned char __prof_counting PROF_HIDDEN;
/* calls mcount could not read a caller's return address for: their
   function had no frame pointer (arch/x86_64/mcount.S, FP_CHECK), whose span
   above the stack pointer is under PROF_FP_SPAN bytes */
extern uint64_t __prof_nofp PROF_HIDDEN;
extern __thread prof_tab *__prof_tab PROF_HIDDEN;
extern __thread prof_cur __prof_cur PROF_HIDDEN;

/* An object's current load as a caller (LIBPROF_OBJECTS=1; objects.c): its run-time text [lo, lo + size), size 0 while it is not
   loaded, and its first code in the code space of the keys. */
typedef struct {
  uintptr_t lo, size, cbase;
} prof_range;

/* Another object's current load, read by its trampolines: its text
   [lo, lo + size) and first code (cbase), with delta = lo - cbase, so
   that code = address - delta; and the range of the third object last
   seen calling it (never NULL).  PROF_LIB_* are the offsets. */
typedef struct {
  uintptr_t lo, size, cbase, delta;
  const prof_range *caller;
  uintptr_t unused[3];
} prof_libent;
extern prof_libent __prof_libent[PROF_TRAMPS] PROF_HIDDEN;
/* 1 while calls outside the program's text go to C (LIBPROF_OBJECTS=1 and
   counting on), else 0: they return at once */
extern uintptr_t __prof_other PROF_HIDDEN;
/* where the trampolines of each kind (mcount, __fentry__) jump: the
   library path, or a ret while not counting */
extern const void *__prof_lib_target[2] PROF_HIDDEN;

#define PROF_SYM(name) __asm__("libprof$" #name)
void prof_mcount_slow(uintptr_t frompc, uintptr_t selfpc) PROF_SYM(mcount_slow) PROF_HIDDEN;
/* __fentry__'s (x86-64): the same, NEXT the word above frompc's, the
   caller's return address when the callee pushed its static chain
   around the call (a GNU C nested function) */
void prof_fentry_slow(uintptr_t frompc, uintptr_t selfpc, uintptr_t next)
  PROF_SYM(fentry_slow) PROF_HIDDEN;
/* The library path's slow path: a new arc (KEY), or a caller the stub
   cannot place (KEY 0; ENT the callee's object); NEXT as for
   prof_fentry_slow (0 from mcount's path) */
void prof_lib_slow(uintptr_t frompc, uintptr_t selfpc, uint64_t key, prof_libent *ent,
                   uintptr_t next)
  PROF_SYM(lib_slow) PROF_HIDDEN;
/* the bounds of libprof's code (the stubs, then gmon.c, in one .text),
   whose samples are dropped */
extern const char prof_text_begin[] PROF_SYM(text_begin) PROF_HIDDEN;
extern const char prof_text_end[] PROF_SYM(text_end) PROF_HIDDEN;
/* Stretches of the stubs' fast path, [begin, end), where selfpc lies at
   sp + depth of the interrupted thread (see arch/x86_64/mcount.S). */
typedef struct { uintptr_t begin, end, depth; } prof_stub_range;
extern const prof_stub_range prof_stub_map[] PROF_SYM(stub_map) PROF_HIDDEN;
extern const prof_stub_range prof_stub_map_end[] PROF_SYM(stub_map_end) PROF_HIDDEN;
#endif

/* the machine: PROF_WORD, PROF_RAW, PROF_TRAMP_SIZE for C and the stubs,
   and C's machine-specific reads (arch/README) */
#include "arch/arch.h"

#if PROF_WORD == 4               /* prof_libent and prof_range of 4-byte words */
#define PROF_LIB_LO 0
#define PROF_LIB_SIZE 4
#define PROF_LIB_CBASE 8
#define PROF_LIB_DELTA 12
#define PROF_LIB_CALLER 16
#define PROF_LIB_SHIFT 5        /* log2 of sizeof (prof_libent) on i386 */
#define PROF_RANGE_LO 0
#define PROF_RANGE_SIZE 4
#define PROF_RANGE_CBASE 8
#else
#define PROF_LIB_LO 0
#define PROF_LIB_SIZE 8
#define PROF_LIB_CBASE 16
#define PROF_LIB_DELTA 24
#define PROF_LIB_CALLER 32
#define PROF_LIB_SHIFT 6        /* log2 of sizeof (prof_libent) on 64-bit */
#define PROF_RANGE_LO 0
#define PROF_RANGE_SIZE 8
#define PROF_RANGE_CBASE 16
#endif
#define PROF_TAB_MASK 0
#define PROF_TAB_SLOTS 8
#define PROF_TAB_BYTEMASK 16
#define PROF_CUR_BYTEMASK 0
#define PROF_CUR_SLOTS 8
#define PROF_CUR_RAW_BYTEMASK 16
#define PROF_CUR_RAW_SLOTS 24
#define PROF_RAW_SHIFT 5        /* log2 of a raw slot's bytes */
#ifndef __ASSEMBLER__
_Static_assert(__builtin_offsetof(prof_tab, key.mask) == PROF_TAB_MASK, "PROF_TAB_MASK");
_Static_assert(__builtin_offsetof(prof_tab, key.slots) == PROF_TAB_SLOTS, "PROF_TAB_SLOTS");
_Static_assert(__builtin_offsetof(prof_tab, key.bytemask) == PROF_TAB_BYTEMASK, "PROF_TAB_BYTEMASK");
_Static_assert(sizeof(prof_slot) == 16, "16-byte slots");
_Static_assert(__builtin_offsetof(prof_cur, bytemask) == PROF_CUR_BYTEMASK, "PROF_CUR_BYTEMASK");
_Static_assert(__builtin_offsetof(prof_cur, slots) == PROF_CUR_SLOTS, "PROF_CUR_SLOTS");
_Static_assert(__builtin_offsetof(prof_cur, raw_bytemask) == PROF_CUR_RAW_BYTEMASK, "PROF_CUR_RAW_BYTEMASK");
_Static_assert(__builtin_offsetof(prof_cur, raw_slots) == PROF_CUR_RAW_SLOTS, "PROF_CUR_RAW_SLOTS");
_Static_assert(sizeof(uintptr_t) == PROF_WORD, "PROF_WORD");
_Static_assert(__builtin_offsetof(prof_libent, size) == PROF_LIB_SIZE, "PROF_LIB_SIZE");
_Static_assert(__builtin_offsetof(prof_libent, cbase) == PROF_LIB_CBASE, "PROF_LIB_CBASE");
_Static_assert(__builtin_offsetof(prof_libent, delta) == PROF_LIB_DELTA, "PROF_LIB_DELTA");
_Static_assert(__builtin_offsetof(prof_libent, caller) == PROF_LIB_CALLER, "PROF_LIB_CALLER");
_Static_assert(__builtin_offsetof(prof_range, size) == PROF_RANGE_SIZE, "PROF_RANGE_SIZE");
_Static_assert(__builtin_offsetof(prof_range, cbase) == PROF_RANGE_CBASE, "PROF_RANGE_CBASE");
_Static_assert(sizeof(prof_libent) == 1 << PROF_LIB_SHIFT, "PROF_LIB_SHIFT");
#endif

/* The key's hash: bits 32 and up of v * PROF_HASH_MULT, masked, where
   v = (key >> 32) * PROF_KEY_MULT + key: the caller's code multiplied
   into the low bits too, or callers at one stride (like functions, each
   aligned) would share buckets of the stride's size (DESIGN.md, "The arc tables").
   Both under 2^31 so that x86-64 multiplies by them as sign-extended
   32-bit immediates; PROF_HASH_MULT is odd (2^32 / golden ratio, mod
   2^32, as in Fibonacci hashing), PROF_KEY_MULT even (a caller and
   callee stepping together, as in a chain of like functions, would
   have their stride's lowest bit cancel out of v). */
#define PROF_HASH_MULT 0x61C88647
#define PROF_KEY_MULT 0x3C6EF372
/* The raw pair's home (x86-64's program path): bits 5 and up of selfpc *
   frompc, a product of both addresses, which fits the counted path in
   one 64-byte line with the counting byte's test and both return
   addresses read by movs (a constant factor, 0x5BD1E995 before, took
   1.00-1.02 probes a lookup where this takes 1.27 on two sets, the same
   on the others; a multiply-only hash of v = selfpc * M1 + frompc spread
   as well but was longer; bench/hashsim.py compares them). */

/* How the stubs declare a public entry point: a weak object in the static
   archive (invisible to gprof, see above), a function in libprof.so. */
#ifdef __ASSEMBLER__
#ifdef LIBPROF_STATIC
#define PROF_PUBLIC(name) .weak name; .type name, %object
#else
#define PROF_PUBLIC(name) .globl name; .type name, %function
#endif
#endif
#endif
