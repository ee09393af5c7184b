/* stacks.c -- real stacks (LIBPROF_STACKS=DEPTH, off by default): at each
 * sample the interrupted thread's frame pointers are walked to at most
 * DEPTH frames and the stack is counted in one table for the process,
 * labelled with the thread's id.  Written beside the profile as
 * PROFILE.stacks (write.c; format in doc/DESIGN.md, "Stacks").
 *
 * The walk runs in the sampling signal's handler: it takes no lock,
 * calls no function of the C library (own loops, raw system calls: a
 * lazily bound call would run the dynamic linker's resolver, kilobytes
 * of stack, on whatever stack the thread was on), keeps no DEPTH-sized
 * array on the stack (the frames go into one of STK_BUFS buffers made
 * at start-up, claimed for the walk), and reads only the interrupted
 * thread's own stack between its stack pointer and the top of its stack
 * (bounds taken when the thread was attached) and code bytes inside the
 * program's executable PT_LOAD segments (taken at start-up: the range
 * [lowpc, highpc) of the histogram may hold unmapped holes).  Every frame
 * address is checked before it is read and must rise, so the walk ends
 * and never faults, even in code built without frame pointers (libc),
 * where the frame register holds anything.  A walk that cannot go on
 * ends 'b' (broken), one that reaches the first frame of a makecontext
 * coroutine 't' (truncated): only a walk that reaches the outermost
 * frame is 'c'.
 *
 * The table: STK entries of {hash, state, tid, depth, end, count}, each
 * with room for DEPTH PCs, in anonymous memory made at start-up (pages
 * never touched cost nothing).  An empty entry is claimed with a CAS,
 * filled and published; an equal published one has its count added
 * atomically; one being filled by another thread is passed over (two
 * entries for one stack then reach the file; its readers add them).
 * After STK_PROBES entries the sample is counted as dropped.  Part of
 * gmon.c's translation unit; uses base.c and objects.c's map. */

#include <sys/auxv.h>

#define STK_MAX_DEPTH 256
#define STK_PROBES 32
#define STK_NAMES 4096
#define STK_DEFAULT_SLOTS 32768
#define STK_BUFS (8 * (int)sizeof(unsigned long))   /* walks at once */
/* the frame address hop() gives when it found the program's caller but
   no frame record above it: not word aligned, so the walk stops there,
   broken, instead of taking the end of the chain (0) for the outermost
   frame */
#define STK_NOFRAME ((uintptr_t)1)
enum { STK_EMPTY, STK_FILLING, STK_READY };

/* The walk reads words of the thread's stack that belong to no object of
   the program's (dead frames, padding): AddressSanitizer's redzones, in
   a sanitized build, are such words, and reading them is the point. */
#if defined(__SANITIZE_ADDRESS__)
#define STK_RAW __attribute__((no_sanitize_address))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STK_RAW __attribute__((no_sanitize_address))
#endif
#endif
#ifndef STK_RAW
#define STK_RAW
#endif

typedef struct {
  uint64_t hash;
  uint32_t state, tid;
  uint16_t n;                    /* PCs */
  char end;                      /* 'c' complete, 't' truncated, 'b' broken */
  uint32_t epoch;                /* the map epoch when sampled (objects.c) */
  uint64_t count;
} stk_entry;

static struct {
  int depth;                     /* 0: off */
  uint64_t mask;                 /* entries - 1 */
  stk_entry *e;
  uintptr_t *pcs;                /* entry i's PCs at pcs[i * depth] */
  size_t pcs_bytes;
  uint64_t samples, dropped;
  uint64_t start_ns, start_mono;  /* CLOCK_REALTIME and CLOCK_MONOTONIC at start-up */
  struct { uint32_t tid; char name[16]; } names[STK_NAMES];
  uint32_t nnames;
  uintptr_t entry;               /* the program's entry point (AT_ENTRY) */
  uintptr_t co_start;            /* where makecontext's coroutines return, or 0 */
  uintptr_t *bufs;               /* STK_BUFS buffers of depth PCs ... */
  unsigned long busy;            /* ... bit k: buffer k holds a walk */
} S;

/* the thread's stack, and where its samples went (for stop_thread_timer) */
static __thread uintptr_t stk_lo, stk_hi;
/* the lowest and the highest word that may hold the return address into
   the thread's outermost frame (stk_find_root), as their distances below
   stk_hi in one word (the lowest's in the high half), or 0: unknown.  (One
   word: every byte of static TLS is a thread's; 16 bytes more put the
   TLS block of a sanitized program over a page, 40 MB at 10,000 threads,
   fire.sh.) */
static __thread uint64_t stk_root;

/* A is where the thread's root may be, or the root is unknown. */
static int stk_at_root(uintptr_t a)
{
  return !stk_root || (a <= stk_hi - (uintptr_t)(stk_root & 0xffffffffu)
                       && a >= stk_hi - (uintptr_t)(stk_root >> 32));
}
static __thread uint32_t stk_nsamples, stk_name_slot;   /* slot + 1 */
static __thread uint64_t stk_last;                      /* entry + 1 */

/* The program's unwind table (the first object), into its entry of the
   map (objects.c), which holds its segments and path already. */
static int stk_prog_table(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size; (void)data;
  __atomic_store_n(&P.prog->uw, cfi_table(info, P.prog->path), __ATOMIC_RELEASE);
  return 1;
}

/* Where a coroutine made by makecontext returns when its function ends
   (the C library's trampoline): the return address of every such
   coroutine's first frame, which has no caller.  Learnt by making one on
   a scratch stack (nothing runs on it).  A weak reference: a static
   program that makes no coroutine gets no makecontext. */
#pragma weak makecontext
static void stk_learn_coroutines(void)
{
  static uintptr_t stack[64];
  static ucontext_t uc;
  if (!makecontext) return;
  uc.uc_stack.ss_sp = stack;
  uc.uc_stack.ss_size = sizeof stack;
  uc.uc_link = NULL;
  makecontext(&uc, stk_learn_coroutines, 0);
  /* (in the link register where there is one, else at the stack pointer) */
  uintptr_t sp = ARCH_UC_SP(&uc);
  if (ARCH_HAS_LR) S.co_start = ARCH_UC_LR(&uc);
  else if (sp >= (uintptr_t)stack && sp < (uintptr_t)(stack + 64)) S.co_start = *(const uintptr_t *)sp;
}

/* LIBPROF_STACKS's table, at start-up.  Returns 0 when out of memory. */
static int stacks_init(int depth, uint64_t slots)
{
  S.depth = depth;
  S.mask = slots - 1;
  S.e = map_zero(slots * sizeof *S.e);
  S.pcs_bytes = slots * (size_t)depth * sizeof *S.pcs;
  S.pcs = map_zero(S.pcs_bytes);
  S.bufs = map_zero((size_t)STK_BUFS * (size_t)depth * sizeof *S.bufs);
  if (!S.e || !S.pcs || !S.bufs) { S.depth = 0; return 0; }
  S.entry = (uintptr_t)getauxval(AT_ENTRY);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  S.start_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  S.start_mono = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  dl_iterate_phdr(stk_prog_table, NULL);
  stk_learn_coroutines();
  return 1;
}

static void stk_find_root(void);

/* The calling thread's stack bounds and outermost frame (not from a
   signal handler). */
static void stacks_thread_bounds(void)
{
  pthread_attr_t a;
  void *addr;
  size_t size;
  stk_lo = stk_hi = 0;
  if (!S.depth || pthread_getattr_np(pthread_self(), &a) != 0) return;
  if (pthread_attr_getstack(&a, &addr, &size) == 0) {
    stk_lo = (uintptr_t)addr;
    stk_hi = (uintptr_t)addr + size;
  }
  pthread_attr_destroy(&a);
  stk_find_root();
}

static int in_text(uintptr_t a)
{
  return a - P.lowpc < P.textsize;
}

/* The end of the program's executable segment that holds [A - BEFORE,
   A + AFTER), or 0: the bytes there can be read.  Every read of code
   goes through this (the histogram's [lowpc, highpc) may span unmapped
   holes: a program linked with -z max-page-size=0x200000). */
static uintptr_t code_end(uintptr_t a, uintptr_t before, uintptr_t after)
{
  const prof_obj *o = P.prog;    /* (its segments: objects.c) */
  for (int k = 0; k < o->nsegs; k++)
    if (a >= o->seg[k].lo && a - o->seg[k].lo >= before && a <= o->seg[k].hi && o->seg[k].hi - a >= after)
      return o->seg[k].hi;
  return 0;
}

/* Is A in some object's text (the program's or one of the map's)? */
static int in_some_text(uintptr_t a)
{
  return obj_find(a) != NULL;
}

/* Is A, a word found on the stack, a return address into the program's
   text, i.e. does a call instruction end just before it? */
STK_RAW static int returns_into_text(uintptr_t a)
{
  if (!in_text(a) || !code_end(a, 8, 0)) return 0;
  /* libprof's own code is never a live frame of a recorded stack (a
     sample in it, or in what it calls, is dropped): a return into it is
     a dead frame's, left by start-up or a slow path, and taking it cut
     stacks short under the sanitizers' bigger frames */
  if (a >= (uintptr_t)prof_text_begin && a < (uintptr_t)prof_text_end) return 0;
  return arch_call_before(a);
}

/* Does the call that returns to A (returns_into_text) leave the
   program -- an indirect call, or a direct one to a PLT stub?  A
   function of the program reaches code without frame pointers only so
   (in a program linked dynamically), so a return address found on the
   stack above such code must pass this; the dead return addresses of
   the program's calls to its own functions, left in uninitialised
   locals, do not. */
STK_RAW static int calls_out(uintptr_t a)
{
  uintptr_t t = arch_call_target(a);
  if (!t) return 1;                                          /* indirect */
  if (!in_text(t) || !code_end(t, 0, ARCH_PLT_BYTES)) return 1;
  return arch_plt_stub(t);                                   /* a PLT stub */
}

/* How far the walk looks along the stack for a return address or a
   frame record, in words: 32 KB on x86-64, past the frames of deep code
   without frame pointers (the sanitizers' malloc under printf holds 4.3 KB
   between its leaf and the program's caller; 4 KB was not enough). */
#define STK_SCAN 4096

/* The first word in [FROM, TO) (at most STK_SCAN words) that returns into the
   program's text (by a call that leaves the program, with OUT): its
   address, or 0. */
STK_RAW static uintptr_t scan_for_return(uintptr_t from, uintptr_t to, int out)
{
  const uintptr_t w = sizeof(uintptr_t);
  from = (from + w - 1) & ~(w - 1);
  if (to > stk_hi) to = stk_hi;
  for (uintptr_t a = from, k = 0; a + w <= to && k < STK_SCAN; a += w, k++) {
    uintptr_t v = *(const uintptr_t *)a;
    if (returns_into_text(v) && (!out || calls_out(v))) return a;
  }
  return 0;
}

/* The frame record of the -pg function a return address found at A
   returns into: the first pair above A of a rising frame address (or 0,
   the outermost) and a return address into the program's text.  Code
   without frame pointers leaves junk in the frame register; this takes
   the walk back onto the program's own chain.  0 when none is near. */
STK_RAW static uintptr_t resync(uintptr_t a)
{
  const uintptr_t w = sizeof(uintptr_t);
  uintptr_t found = *(const uintptr_t *)a;
  for (uintptr_t b = a + w, k = 0; b + 2 * w <= stk_hi && k < STK_SCAN; b += w, k++) {
    uintptr_t up = ((const uintptr_t *)b)[0], ret = ((const uintptr_t *)b)[1];
    /* (a record returning where the found return does is a dead copy:
       under AddressSanitizer, (0, it) above a 40 KB frame made stacks of
       two frames, complete) */
    if ((up == 0 || (up > b && up <= stk_hi - 2 * w && !(up & (w - 1)))) && ret != found
        && returns_into_text(ret))
      return b;
  }
  return 0;
}

/* Has the interrupted function of the program already popped its frame
   pointer (an epilogue scheduled early, or a tail call about to jump;
   ARCH_FRAME_GONE: x86)?  Then the word at the stack pointer, TOP, is
   its return address: a return into the program by an indirect call or
   a direct one to an entry that starts as -pg functions do (push %rbp,
   after an endbr, or call __fentry__). */
STK_RAW static int frame_gone(uintptr_t top, uintptr_t pc)
{
  if (!ARCH_FRAME_GONE || !returns_into_text(top)) return 0;
  /* and the code ahead leaves the function (ret, or jmp: a tail call)
     before it could pop a frame (pop %rbp, leave): in a live frame the
     function's own epilogue comes first, and the top word may be a dead
     return address left by an earlier call */
  if (!arch_leaves_first(pc, code_end(pc, 0, 0))) return 0;
  uintptr_t t = arch_call_target(top);
  if (!t) return 1;                                          /* indirect */
  if (!in_text(t) || !code_end(t, 0, ARCH_ENTRY_BYTES)) return 0;
  return arch_pg_entry(t);
}

/* Does the chain of frame records from FP hold -- reach the outermost
   frame (0), a return into another object, or 256 frames -- without a
   frame that is out of bounds, falls, or returns into no text (0 too:
   the frame register of code without frame pointers may point at zeros
   anywhere on the stack)? */
STK_RAW static int chain_holds(uintptr_t fp)
{
  const uintptr_t w = sizeof(uintptr_t);
  for (int k = 0; k < 256; k++) {
    if (fp == 0) return 1;
    if (fp > stk_hi - 2 * w || (fp & (w - 1))) return 0;
    uintptr_t next = ((const uintptr_t *)fp)[0], ret = ((const uintptr_t *)fp)[1];
    if (ret != 0 && !in_text(ret) && in_some_text(ret)) return 1;
    if (!in_text(ret) || (next != 0 && next <= fp)) return 0;
    fp = next;
  }
  return 1;
}

/* Code without frame pointers (libc) between a frame of the program and
   the program's function that called into it: that function's return
   address lies above FROM.  When the frame address *FP (the frame
   register, or the saved one) is plausible -- such code leaves it
   alone -- the return is the nearest one below it (the caller's own
   frame lies beyond, the dead frames of earlier calls below); else the
   first one above FROM, and *FP becomes the frame record above that.
   Returns the return address, or 0. */
STK_RAW static uintptr_t hop(uintptr_t from, uintptr_t *fp)
{
  const uintptr_t w = sizeof(uintptr_t);
  uintptr_t f = *fp;
  int f_ok = f > from && f <= stk_hi - 2 * w && !(f & (w - 1));
  /* (and when the register is a frame record: code without frame
     pointers may hold anything in it, an address on the stack too) */
  if (f_ok && chain_holds(f))
    for (uintptr_t a = f - w, k = 0; a >= from && k < STK_SCAN; a -= w, k++) {
      uintptr_t v = *(const uintptr_t *)a;
      if (returns_into_text(v) && calls_out(v)) return v;
    }
  /* the dead frames of earlier calls lie about too, and hold return
     addresses that pass every test above; their chain of frame records
     soon leads nowhere, the live one's to the bottom or into another
     object: of the first few, the first whose chain holds is taken */
  uintptr_t first = 0, first_fp = 0;
  for (int tries = 0; tries < 4; tries++) {
    uintptr_t a = scan_for_return(from, from + STK_SCAN * w, 1);
    if (!a) break;
    if (*(const uintptr_t *)a - S.entry < 64) {   /* the call in _start: the bottom */
      /* (where the thread's root says it is: a signal handler's dead
         frames below leave copies of it that a deeper frame's unwritten
         words still hold) */
      if (stk_at_root(a)) {
        *fp = 0;
        return *(const uintptr_t *)a;
      }
      from = a + w;
      continue;
    }
    uintptr_t r = resync(a);
    if (r && chain_holds(r)) {
      *fp = r;
      return *(const uintptr_t *)a;
    }
    /* a frame wider than the scans (a 40 KB array between the return
       and the frame record): the frame register, left alone by the code
       without frame pointers, is the record above */
    if (f_ok && f > a && chain_holds(f)) {
      *fp = f;
      return *(const uintptr_t *)a;
    }
    if (!first) { first = a; first_fp = r; }
    from = a + w;
  }
  if (!first) return 0;
  /* no record found (resync's 0) is not the outermost frame (0) */
  *fp = first_fp ? first_fp : STK_NOFRAME;
  return *(const uintptr_t *)first;
}

/* The unwind row for the code at PC (cfi.c): the program's, or that of
   the loaded object of the map (objects.c) holding it; NULL: none. */
STK_RAW static const uw_row *stk_row(uintptr_t pc)
{
  /* (the program by its segments, which may reach past its histogram's
     text and have holes inside it) */
  const prof_obj *o = code_end(pc, 0, 0) ? P.prog : obj_at(pc);
  if (!o) return NULL;
  const uw_tab *t = __atomic_load_n(&o->uw, __ATOMIC_ACQUIRE);
  return t ? cfi_row(t, pc - o->base) : NULL;
}

/* A word of the thread's stack at A, in *V, if [A, A + word) lies in
   [LO, stk_hi) and A is aligned. */
STK_RAW static int stk_word(uintptr_t a, uintptr_t lo, uintptr_t *v)
{
  if (a < lo || a > stk_hi - sizeof(uintptr_t) || (a & (sizeof(uintptr_t) - 1))) return 0;
  *v = *(const uintptr_t *)a;
  return 1;
}

/* The thread's root: where the return address into the frame that has
   no caller (_start's, where it calls __libc_start_main; clone's child,
   where it calls the thread's start routine) is kept -- between the
   lowest and the highest word from here to the top of the stack that
   return to code whose row says the return address is undefined (more
   than one: the loader's frames left theirs, and aarch64's frame records
   lie at the bottom of their frames, so a dead one may lie above the
   live one).  Every complete walk reads its last return address there;
   one that reaches such a row from a word below has followed a dead return
   address (code whose rows lie for a few instructions, an inline asm
   push, makes the walk read the word below its return address: with a
   dead return into _start there, every sample of tests/libprof/
   stacks.sh's lie.c was `_start;lie`, complete).  0 when none is found
   (no check then).
   At a thread's start, outside any signal handler. */
STK_RAW static void stk_find_root(void)
{
  const uintptr_t w = sizeof(uintptr_t);
  stk_root = 0;
  if (!stk_hi) return;
  uintptr_t lo = 0, hi = 0;
  uintptr_t a = ((uintptr_t)__builtin_frame_address(0) + w - 1) & ~(w - 1);
  if (a < stk_lo || a >= stk_hi) return;
  for (uintptr_t k = 0; a + w <= stk_hi && k < ((uintptr_t)1 << 20); a += w, k++) {
    uintptr_t v = *(const uintptr_t *)a;
    if (!v || !in_some_text(v - 1)) continue;
    const uw_row *r = stk_row(v - 1);
    if (r && r->kind == UW_END) {
      if (!hi) lo = a;
      hi = a;
    }
  }
  /* (both within 8 MB of the top: the scan's bound) */
  if (hi) stk_root = (uint64_t)(stk_hi - lo) << 32 | (uint64_t)(uint32_t)(stk_hi - hi);
}

/* The walk by the objects' unwind tables (x86-64, i386, aarch64): each frame's caller
   from the row of its code -- the CFA from the stack pointer or the frame
   register, the return address below it, the caller's frame register
   where the row says it was saved.  Every word read lies between the
   frame's stack pointer and the top of the thread's stack, and each CFA
   lies above the last, so the walk ends.  A frame whose code has no row
   (no CFI: code made at run time, an object without tables) is left by
   its frame record when the frame register is one.  Ends 'c' only at a
   frame whose return address the tables call undefined (_start, the
   first frame of a thread: clone's child), 't' where the walk cannot go
   on or at DEPTH, 'b' off the thread's stack or at a return address into
   no code.  Returns 0 when the leaf's code has no row: the caller then
   walks by frame pointers alone. */
STK_RAW static int stk_cfi_walk(uintptr_t pc, uintptr_t sp, uintptr_t fp, uintptr_t lr, uintptr_t *pcs, uint32_t *np,
                                char *end)
{
  const uintptr_t w = sizeof(uintptr_t);
  uint32_t n = 0, max = (uint32_t)S.depth;
  if (!in_some_text(pc)) {
    /* code no scan has seen yet (a plugin loaded within the poller's
       20 ms): its frames cannot be told, the leaf alone is kept */
    pcs[0] = pc;
    *end = 't';
    *np = 1;
    return 1;
  }
  const uw_row *r = stk_row(pc);
  if (!r || r->kind == UW_NONE) return 0;
  int fp_ok = 1;
  pcs[n++] = pc;
  *end = 'b';
  if (!stk_hi || sp < stk_lo || sp >= stk_hi) { *np = n; return 1; }   /* another stack */
  uintptr_t ra_at = 0;            /* where the last return address was read, 0: not from the stack */
  for (;;) {
    uintptr_t cfa = 0, ra = 0, v;
    int kind = r ? r->kind : UW_NONE;
    if (ARCH_PLT_EXPR_AT_SP && kind == UW_EXPR && n == 1) kind = UW_SP;   /* a PLT stub's (its return address at sp) */
    switch (kind) {
    case UW_END:
      /* (anywhere but the thread's root: astray, a stale return address
         taken for a live one; the frame-pointer walk tries then) */
      *end = !ra_at || stk_at_root(ra_at) ? 'c' : 'b';
      *np = n;
      return 1;
    case UW_SIG: {
      /* the kernel's signal frame: the interrupted context's registers at
         sp + ARCH_SIG_* (x86-64; i386's and aarch64's are not read) */
      uintptr_t nsp, nfp, npc;
      if (!ARCH_SIGFRAME || !stk_word(sp + ARCH_SIG_SP, sp, &nsp)
          || !stk_word(sp + ARCH_SIG_FP, sp, &nfp)
          || !stk_word(sp + ARCH_SIG_PC, sp, &npc)
          || nsp <= sp || nsp >= stk_hi) {
        *end = 't';
        *np = n;
        return 1;
      }
      sp = nsp;
      fp = nfp;
      fp_ok = 1;
      ra = npc + 1;              /* an interrupted PC: recorded as a return to after it */
      ra_at = 0;
      break;
    }
    case UW_SP: case UW_FP: case UW_FPDEREF:
      if (kind != UW_SP && !fp_ok) { *end = 't'; *np = n; return 1; }
      if (kind == UW_FPDEREF) {
        if (!stk_word(fp + (uintptr_t)(intptr_t)r->cfa, sp, &cfa)) { *end = 't'; *np = n; return 1; }
      } else {
        cfa = (kind == UW_SP ? sp : fp) + (r->kind == UW_EXPR ? w : (uintptr_t)(intptr_t)r->cfa);
      }
      if (r->raw == UW_RA_LR) {
        /* (aarch64: the leaf's return address still in x30) */
        if (n != 1 || !lr || cfa < sp) { *end = 't'; *np = n; return 1; }
        ra = lr;
        ra_at = 0;
      } else if (cfa <= sp || !stk_word(ra_at = cfa + (uintptr_t)((intptr_t)r->raw * (intptr_t)w), sp, &ra)) {
        *end = 'b';
        *np = n;
        return 1;
      }
      if (r->fpw == UW_FP_LOST) fp_ok = 0;
      else if (r->fpw != UW_FP_SAME) {
        /* (a slot below the stack pointer was popped already -- gcc's
           epilogues leave the rule as it was -- so the register holds
           the caller's value again; and the kernel's signal frame has
           overwritten the slot) */
        uintptr_t a = cfa + (uintptr_t)((intptr_t)r->fpw * (intptr_t)w);
        if (a >= sp) {
          if (!stk_word(a, sp, &v)) fp_ok = 0;
          else fp = v, fp_ok = 1;
        }
      }
      sp = cfa;
      break;
    default:
      /* no row: a frame record, if the frame register holds one */
      if (!fp_ok || !stk_word(fp, sp, &v) || !stk_word(ra_at = fp + w, sp, &ra)) { *end = 't'; *np = n; return 1; }
      sp = fp + 2 * w;
      fp = v;
      break;
    }
    if (S.co_start && ra == S.co_start) { *end = 't'; break; }   /* a coroutine's first frame */
    if (!in_some_text(ra - 1)) { *end = 'b'; break; }
    if (n >= max) { *end = 't'; break; }
    pcs[n++] = ra;
    r = stk_row(ra - 1);
  }
  *np = n;
  return 1;
}

/* A leaf whose code has no row (code without CFI: crtstuff's
   __do_global_dtors_aux, frame_dummy, _init and _fini, called by the
   loader or libc, which hold no frame pointer; an assembler function)
   but has not touched the stack yet: its return address is still at the
   stack pointer (ARCH_HAS_LR: in the link register), and the callers
   are the tables' from there.  Taken only when that walk is complete
   from the thread's root -- a stale word at sp seldom leads there -- so
   the frame-pointer walk still has every other case (it left such a
   leaf alone, broken: 1 sample in 8 runs of stacks.sh's wide at 50 kHz,
   at __do_global_dtors_aux+0xb).  Returns the PCs, 0: not so. */
STK_RAW static uint32_t stk_rowless_leaf(uintptr_t pc, uintptr_t sp, uintptr_t fp, uintptr_t lr, uintptr_t *pcs,
                                         char *end)
{
  const uintptr_t w = sizeof(uintptr_t);
  uintptr_t ra, nsp = ARCH_HAS_LR ? sp : sp + w;
  if (S.depth < 2 || !stk_hi || sp < stk_lo || sp >= stk_hi) return 0;
  if (ARCH_HAS_LR) ra = lr;
  else if (!stk_word(sp, sp, &ra)) return 0;
  if (!ra || !in_some_text(ra - 1) || (in_text(ra) && !returns_into_text(ra))) return 0;
  const uw_row *r = stk_row(ra - 1);
  if (!r || r->kind == UW_NONE || r->kind == UW_SIG || (r->kind == UW_END && !stk_at_root(sp))) return 0;
  uint32_t got;
  /* (the caller's frame walked as a leaf at the call: PCS[0] is RA - 1
     then; the link register is no longer the caller's own) */
  if (!stk_cfi_walk(ra - 1, nsp, fp, 0, pcs, &got, end) || *end != 'c' || !got) return 0;
  pcs[0] = ra;
  if (got == (uint32_t)S.depth) {
    got--;
    *end = 't';
  }
  for (uint32_t i = got; i > 0; i--) pcs[i] = pcs[i - 1];
  pcs[0] = pc;
  return got + 1;
}

/* Walks the interrupted stack into PCS (at most S.depth); returns the
   number of PCs and sets *END. */
STK_RAW static uint32_t stacks_walk(const ucontext_t *uc, uintptr_t pc, uintptr_t *pcs, char *end)
{
  const uintptr_t w = sizeof(uintptr_t);
  uintptr_t sp = ARCH_UC_SP(uc), fp = ARCH_UC_FP(uc), lr = ARCH_UC_LR(uc);
  {
    uint32_t got;
    uintptr_t at = ARCH_UC_PC(uc);
    /* (a walk the tables lead astray -- code whose CFI lies, an inline
       asm push -- ends 'b': the frame-pointer walk below tries then) */
    int rows = pc == at && stk_cfi_walk(pc, sp, fp, lr, pcs, &got, end);
    if (rows && *end != 'b') return got;
    if (pc == at && !rows && (got = stk_rowless_leaf(pc, sp, fp, lr, pcs, end))) return got;
  }
  uint32_t n = 0, max = (uint32_t)S.depth;
  pcs[n++] = pc;
  *end = 'b';
  if (!stk_hi || sp < stk_lo || sp >= stk_hi) return n;   /* another stack */
  /* the leaf: its caller may not be in the frame chain yet (prologue),
     any more (epilogue) or at all (code without frame pointers) */
  uintptr_t extra = 0;
  if (in_text(pc)) {
    /* (the interrupted PC is mapped, the bytes after it maybe not) */
    static const unsigned char none[8];
    const unsigned char *b = code_end(pc, 0, ARCH_LEAF_BYTES) ? (const unsigned char *)pc : none;
    int ra = arch_leaf_ra(b);    /* at a prologue or a ret: where it is */
    if (ra == ARCH_RA_LR) extra = lr;
    else if (ra == ARCH_RA_SP0 && sp + w <= stk_hi) extra = *(const uintptr_t *)sp;
    else if (ra == ARCH_RA_SP1 && sp + 2 * w <= stk_hi) extra = *(const uintptr_t *)(sp + w);
    else if (sp + w <= stk_hi && frame_gone(*(const uintptr_t *)sp, pc)) extra = *(const uintptr_t *)sp;
  } else {
    if (ARCH_HAS_LR && in_text(lr)) extra = lr;   /* a leaf of libc: LR not saved yet */
    if (!extra) extra = hop(sp, &fp);
  }
  if (extra && extra == S.co_start) { *end = 't'; return n; }   /* a coroutine's first frame */
  if (extra && in_some_text(extra) && n < max) {
    pcs[n++] = extra;
    if (!in_text(extra) && n < max) {
      /* a function of the program called from code without frame
         pointers, caught before its frame was made: as for such frames
         below, the program's own caller is found on the stack */
      uintptr_t r = hop(sp + w, &fp);
      if (r) pcs[n++] = r;
    }
  }
  uintptr_t lo = sp;
  while (n < max) {
    if (fp == 0) { *end = n > 1 ? 'c' : 'b'; return n; }   /* the leaf alone: junk */
    if (fp < lo || fp > stk_hi - 2 * w || (fp & (w - 1))) return n;
    uintptr_t next = ((const uintptr_t *)fp)[0], ret = ((const uintptr_t *)fp)[1];
    /* (no outermost frame returns to 0: _start's call and a thread's
       start are found otherwise; words of zeros are no frame record) */
    if (ret == 0) return n;
    /* a coroutine's first frame (makecontext): its stack has no more;
       the frame register it started with is its creator's, whose frames
       are no callers of these */
    if (ret == S.co_start) { *end = 't'; return n; }
    if (!in_some_text(ret)) return n;
    if (!(n == 2 && extra == ret)) pcs[n++] = ret;   /* the leaf's caller, found twice */
    if (!in_text(ret) && n < max) {
      /* a frame of code without frame pointers: its -pg caller's return
         address lies between this record and the next */
      uintptr_t r = hop(fp + 2 * w, &next);
      if (r) {
        pcs[n++] = r;
        /* the call in the program's entry point (_start): the bottom */
        if (r - S.entry < 64) { *end = 'c'; return n; }
        if (!next) return n;
      }
    }
    if (n >= max) break;                     /* truncated, whatever lies beyond */
    if (next != 0 && next <= fp) return n;
    lo = fp + 2 * w;
    fp = next;
  }
  *end = 't';
  return n;
}

static uint64_t stk_hash(uint32_t tid, char end, uint32_t epoch, const uintptr_t *pcs, uint32_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15u ^ tid ^ ((uint64_t)(unsigned char)end << 32) ^ ((uint64_t)n << 40);
  h ^= (uint64_t)epoch * 0xc2b2ae3d27d4eb4fu;
  for (uint32_t i = 0; i < n; i++) {
    h ^= pcs[i];
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  return h ? h : 1;
}

/* A system call of up to three arguments without the C library's
   syscall(), which a program linked lazily reaches through the dynamic
   linker's resolver the first time (see the top of this file). */
static long stk_syscall3(long nr, long a, long b, long c)
{
  return arch_syscall3(nr, a, b, c);
}

/* N words from SRC to DST, or their comparison (0: equal), by loops the
   compiler does not turn back into calls of memcpy or memcmp. */
static void stk_copy(uintptr_t *dst, const uintptr_t *src, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    dst[i] = src[i];
    __asm__("" : : : "memory");
  }
}

static int stk_differ(const uintptr_t *a, const uintptr_t *b, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (a[i] != b[i]) return 1;
  return 0;
}

/* The thread's name, now and then (a name set after start is seen). */
static void stk_name(uint32_t t)
{
  uint32_t k = ++stk_nsamples;
  if (k & (k - 1)) return;                   /* 1, 2, 4, 8, ... */
  k = stk_name_slot;
  if (!k) {
    k = __atomic_add_fetch(&S.nnames, 1, __ATOMIC_RELAXED);
    if (k > STK_NAMES) return;
    stk_name_slot = k;
  }
  char name[16] = { 0 };
  stk_syscall3(SYS_prctl, PR_GET_NAME, (long)name, 0);
  for (int i = 0; i < 16; i++) S.names[k - 1].name[i] = name[i];
  __atomic_store_n(&S.names[k - 1].tid, t, __ATOMIC_RELEASE);
}

/* Walks into PCS (a buffer of S.depth words) and counts the stack. */
static void stacks_store(const ucontext_t *uc, uintptr_t pc, uint32_t n, uintptr_t *pcs)
{
  char end;
  uint32_t depth = stacks_walk(uc, pc, pcs, &end);
  LP_ASSERT((int)depth <= S.depth);   /* an entry holds S.depth pcs */
  uint32_t t = (uint32_t)tid();
  stk_name(t);
  /* (the map's epoch after the walk: a load noticed meanwhile only
     names the stack after the objects now live) */
  uint32_t epoch = __atomic_load_n(&O.epoch, __ATOMIC_ACQUIRE);
  uint64_t h = stk_hash(t, end, epoch, pcs, depth);
  __atomic_fetch_add(&S.samples, n, __ATOMIC_RELAXED);
  for (uint64_t k = h & S.mask, probe = 0; probe < STK_PROBES; probe++, k = (k + 1) & S.mask) {
    stk_entry *e = &S.e[k];
    uint32_t st = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
    if (st == STK_EMPTY) {
      if (!__atomic_compare_exchange_n(&e->state, &st, STK_FILLING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        continue;                /* another thread took it first */
      e->hash = h;
      e->tid = t;
      e->n = (uint16_t)depth;
      e->end = end;
      e->epoch = epoch;
      stk_copy(&S.pcs[k * (uint64_t)S.depth], pcs, depth);
      __atomic_store_n(&e->count, n, __ATOMIC_RELAXED);
      __atomic_store_n(&e->state, STK_READY, __ATOMIC_RELEASE);
      stk_last = k + 1;
      return;
    }
    if (st == STK_READY && e->hash == h && e->tid == t && e->n == depth && e->end == end
        && e->epoch == epoch && !stk_differ(&S.pcs[k * (uint64_t)S.depth], pcs, depth)) {
      __atomic_fetch_add(&e->count, n, __ATOMIC_RELAXED);
      stk_last = k + 1;
      return;
    }
  }
  __atomic_fetch_add(&S.dropped, n, __ATOMIC_RELAXED);
  stk_last = 0;
}

/* Counts N samples of the interrupted stack (from the signal handler). */
static void stacks_record(const ucontext_t *uc, uintptr_t pc, uint32_t n)
{
  /* the walk's buffer: one of STK_BUFS, not the stack (the thread may be
     on a small one: a signal stack, a thread's of PTHREAD_STACK_MIN) */
  unsigned long busy = __atomic_load_n(&S.busy, __ATOMIC_RELAXED), bit;
  do {
    if (busy == ~0UL) {          /* STK_BUFS threads walking at once */
      __atomic_fetch_add(&S.samples, n, __ATOMIC_RELAXED);
      __atomic_fetch_add(&S.dropped, n, __ATOMIC_RELAXED);
      stk_last = 0;
      return;
    }
    bit = ~busy & (busy + 1);    /* the lowest free one */
  } while (!__atomic_compare_exchange_n(&S.busy, &busy, busy | bit, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
  uintptr_t *pcs = S.bufs + (size_t)__builtin_ctzl(bit) * (size_t)S.depth;
  stacks_store(uc, pc, n, pcs);
  __atomic_fetch_and(&S.busy, ~bit, __ATOMIC_RELEASE);
}

/* The samples stop_thread_timer credits to the thread's last bin go to
   its last stack too, so the stacks still add up to the histogram. */
static void stacks_credit_last(uint64_t n)
{
  if (!S.depth) return;
  __atomic_fetch_add(&S.samples, n, __ATOMIC_RELAXED);
  if (stk_last) __atomic_fetch_add(&S.e[stk_last - 1].count, n, __ATOMIC_RELAXED);
  else __atomic_fetch_add(&S.dropped, n, __ATOMIC_RELAXED);
}

/* A forked child starts with no stacks. */
static void stacks_after_fork(void)
{
  if (!S.depth) return;
  madvise(S.e, (S.mask + 1) * sizeof *S.e, MADV_DONTNEED);   /* zero again */
  madvise(S.pcs, S.pcs_bytes, MADV_DONTNEED);
  S.samples = S.dropped = 0;
  S.busy = 0;                    /* (walks of threads the child has not) */
  S.nnames = 0;
  stk_name_slot = 0;
  stk_nsamples = 0;
  stk_last = 0;
}
