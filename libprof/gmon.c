/* gmon.c -- libprof's runtime: start-up, arc counting, PC sampling of
 * every thread, and writing gmon.out (at exit, on a fatal signal, and on
 * demand).
 *
 * Arcs.  Each thread counts in its own open-addressing table of {key,
 * count} slots, taken on its first profiled call and grown by doubling:
 * no other thread writes it, so no call is lost, no lock is taken on the
 * counting path and threads do not fight over cache lines.  When a
 * thread ends, its counts are added to one shared table and its table,
 * emptied, is kept for the next new thread: memory follows the number of
 * threads alive, not of threads that ever ran.
 *
 * Samples.  A CPU-time timer per thread (made with its table) delivers
 * SIGPROF to that thread, so threads are sampled in proportion to the CPU
 * they use.  The kernel checks such timers only at its own clock tick, so
 * at high rates several expirations arrive as one signal: the overrun
 * count in the signal's siginfo is credited too.  No sample lands on
 * libprof's own code, which has no symbol in the program: one taken in
 * mcount (the stub's fast path, or the C slow path) is charged to the
 * profiled function that called mcount, whose cost it is (or dropped, as
 * glibc's are by lying outside the program, with LIBPROF_OVERHEAD=drop);
 * one taken in any other libprof code (writing, a thread's end) is
 * dropped.  So the profiler never shows in the user's profile, and the
 * CPU time the program's functions use, profiling included, is all
 * sampled.
 *
 * Writing.  The file is written with write(2) from static or mapped
 * memory, so it can be done from a signal handler: fatal signals whose
 * disposition was the default write the profile, restore the default and
 * re-raise.  Every file goes to a temporary name first and is renamed
 * into place.  Snapshots (LIBPROF_DUMP_SIGNAL, LIBPROF_INTERVAL) are
 * written by a helper thread that sleeps on a pipe (a semaphore would
 * pull glibc code into static programs whose symbols gprof mishandles).
 *
 * Locks.  The list of tables, the free list and the shared table are
 * guarded by a spin lock that records its owner, so code running in a
 * signal handler never waits on its own thread; writers take a second
 * such lock so only one file is written at a time.  Code holding either
 * runs with the thread's `in_libprof` mark set: a profiled signal
 * handler interrupting it is neither counted nor allowed to take a
 * lock. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "prof.h"
#include "../gmon_out.h"

uintptr_t __prof_lowpc;
uintptr_t __prof_textsize = UINTPTR_MAX;
__thread prof_tab *__prof_tab;
static const prof_slot no_slots[1];    /* a thread without a table */
__thread prof_cur __prof_cur = { 0, { (prof_slot *)no_slots } };

/* The thread's table, and the stub's copy of its slots and mask.  Called
   with signals blocked, or before the thread's first count. */
static void set_table(prof_tab *t)
{
  __prof_tab = t;
  __prof_cur.slots = t ? t->slots : (prof_slot *)no_slots;
  __prof_cur.bytemask = t ? t->bytemask : 0;
}

#define HIST_GRANULE 4           /* bytes of text per histogram bin, as glibc */
/* Slots of a new table: small, since most threads call few distinct arcs
   and 10,000 live threads must not cost much more than under glibc's
   runtime (a table and its first slots are carved from shared chunks,
   about 1.2 KB per thread); a busy thread's table grows by doubling. */
#define TAB_INITIAL 64
/* a table grows only past TAB_INITIAL / 2 arcs, so slots never move while
   its log of arc slots is complete */
_Static_assert(TAB_INITIAL / 2 >= PROF_TAB_LOG, "the arc log outlives no grow");

static struct {
  int started, enabled, final;
  int final_wanted;              /* the final write waits: snapshots stand aside */
  uintptr_t lowpc, highpc, textsize, bias;
  uint32_t *bins;
  size_t nbins;
  int hz;
  int sig;                       /* the sampling signal (a real-time one) */
  int overhead;                  /* LIBPROF_OVERHEAD: OV_DROP, OV_CHARGE, OV_REPORT */
  uint64_t overhead_ticks;       /* samples in libprof's code, dropped */
  char *arena, *arena_end;       /* where new tables are carved (under tab_lock) */
  pid_t pid;
  prof_tab *tabs;                /* every table ever made */
  prof_tab *free;                /* tables of finished threads, emptied */
  prof_tab retired;              /* the counts of finished threads */
  uint64_t lost_arcs;
  int tab_lock, write_lock;      /* owner's tid, 0 = free */
  int dump_signal;
  double interval;
  int wake[2];                   /* a pipe: a byte in it makes the helper write */
  int helper;                    /* the helper thread runs */
} P;

static __thread int in_libprof;  /* set while this thread runs our C code */
static __thread pid_t my_tid;
static __thread timer_t my_timer;
static __thread int have_timer;
/* for the ticks between the kernel's last clock tick and the thread's
   end (see stop_thread_timer): expirations seen, where the timer started, and
   the bin the last sample went to (NO_BIN if it was dropped) */
static __thread uint64_t ticks_seen, timer_cpu0;
static __thread size_t last_bin;
static __thread uintptr_t slow_self;   /* selfpc, while in the slow path */
#define NO_BIN ((size_t)-1)
enum { OV_DROP, OV_CHARGE, OV_REPORT };

static pthread_key_t tab_key;

/* the signals whose default action ends the process, profiled on the way */
static const int fatal_signals[] = {
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT
};

static void *map_zero(size_t n)
{
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static pid_t tid(void)
{
  if (!my_tid) my_tid = (pid_t)syscall(SYS_gettid);
  return my_tid;
}

/* ---- signal masks ----
   Threads that block every signal (servers' and compressors' workers,
   made with a full mask so that signals go to the main thread) would
   never be sampled.  So libprof's pthread_sigmask and sigprocmask, which
   the program's calls reach before the C library's, keep the sampling
   signal out of every mask they set, as glibc keeps its own two internal
   signals (32 and 33) out; the sampling handler touches nothing of the
   program's.  libprof's own masks go straight to the kernel. */
static void mask_del(sigset_t *s, int sig)
{
  const int w = 8 * (int)sizeof(unsigned long);
  ((unsigned long *)(void *)s)[(sig - 1) / w] &= ~(1UL << ((sig - 1) % w));
}

static int raw_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  return syscall(SYS_rt_sigprocmask, how, set, old, (size_t)(_NSIG / 8)) == 0 ? 0 : errno;
}

static int user_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  sigset_t s;
  if (set && how != SIG_UNBLOCK) {
    s = *set;
    mask_del(&s, 32);            /* glibc's cancellation and set*id signals */
    mask_del(&s, 33);
    if (P.sig && P.hz) mask_del(&s, P.sig);
    set = &s;
  }
  return raw_sigmask(how, set, old);
}

__attribute__((used)) static int do_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
  PROF_SYM(pthread_sigmask);
static int do_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  return user_sigmask(how, set, old);
}

__attribute__((used)) static int do_sigprocmask(int how, const sigset_t *set, sigset_t *old)
  PROF_SYM(sigprocmask);
static int do_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
  int err = user_sigmask(how, set, old);
  if (err) { errno = err; return -1; }
  return 0;
}

/* ---- locks (usable from signal handlers) ---- */

/* Takes LOCK; returns 1 if taken, 0 if this thread already holds it (a
   signal handler interrupting the holder), or, when PATIENCE_MS >= 0,
   after waiting that long for another thread. */
static int lock_take(int *lock, int patience_ms)
{
  int me = (int)tid();
  if (__atomic_load_n(lock, __ATOMIC_RELAXED) == me) return 0;
  for (long spins = 0;; spins++) {
    int free_ = 0;
    if (__atomic_compare_exchange_n(lock, &free_, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return 1;
    if (patience_ms >= 0 && spins >= patience_ms) return 0;
    struct timespec ms = { 0, 1000000 };
    if (spins < 100) sched_yield(); else nanosleep(&ms, NULL);
  }
}

static void lock_give(int *lock, int taken)
{
  if (taken) __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* ---- sampling ---- */

static void on_sigprof(int sig, siginfo_t *si, void *ctx)
{
  (void)sig;
  ucontext_t *uc = ctx;
  uintptr_t pc;
#if defined(__x86_64__)
  pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__i386__)
  pc = (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_ESP];
#elif defined(__aarch64__)
  pc = (uintptr_t)uc->uc_mcontext.pc;
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.sp;
#else
  pc = 0;
  uintptr_t sp = 0;
#endif
  /* expirations the kernel folded into this signal count too */
  uint32_t n = 1;
  if (si && si->si_code == SI_TIMER && si->si_overrun > 0) n += (uint32_t)si->si_overrun;
  ticks_seen += n;
  last_bin = NO_BIN;
  if (!P.enabled || !P.bins) return;
  if (in_libprof || (pc >= (uintptr_t)prof_text_begin && pc < (uintptr_t)prof_text_end)) {
    /* the runtime's own time: dropped (counted for LIBPROF_OVERHEAD=report),
       or charged to the profiled function that called mcount */
    uintptr_t self = P.overhead == OV_CHARGE ? slow_self : 0;
    if (P.overhead == OV_CHARGE)
      for (const prof_stub_range *r = prof_stub_map; r < prof_stub_map_end; r++)
        if (pc >= r->begin && pc < r->end) {
          self = *(const uintptr_t *)(sp + r->depth);
          break;
        }
    if (!self) {
      __atomic_fetch_add(&P.overhead_ticks, n, __ATOMIC_RELAXED);
      return;
    }
    pc = self;
  }
  uintptr_t off = pc - P.lowpc;
  if (off >= P.textsize) return;
  last_bin = off / HIST_GRANULE;
  __atomic_fetch_add(&P.bins[last_bin], n, __ATOMIC_RELAXED);
}

static uint64_t thread_cpu_ns(void);

/* A CPU-time timer for the calling thread, signalling only this thread. */
static void start_thread_timer(void)
{
  if (!P.hz || have_timer) return;
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = P.sig;
  ev._sigev_un._tid = tid();
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &my_timer) != 0) return;
  have_timer = 1;
  long ns = 1000000000L / P.hz;
  ticks_seen = 0;
  last_bin = NO_BIN;
  timer_cpu0 = thread_cpu_ns();
  struct itimerspec its;
  its.it_interval.tv_sec = ns / 1000000000L;
  its.it_interval.tv_nsec = ns % 1000000000L;
  its.it_value = its.it_interval;
  timer_settime(my_timer, 0, &its, NULL);
}

static uint64_t thread_cpu_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Stops the thread's timer.  The kernel looks at CPU-time timers only on
   its clock tick (every 1 to 10 ms), so expirations since the last tick
   have not been signalled yet: a short program would lose up to a tick
   of samples at every rate (3% of 0.06 s at 250 Hz ticks).  They are
   counted here from the thread's CPU time and credited where the
   thread's last sample went, if it went into the histogram.  The thread
   is owed its CPU time times the rate, rounded to the nearest sample: a
   thread of 0.175 s at 100 Hz gets 17 or 18 samples, not always 17 (four
   such threads would lose 3% of their time to the last part-interval). */
static void stop_thread_timer(void)
{
  if (!have_timer) return;
  timer_delete(my_timer);
  have_timer = 0;
  if (!P.enabled || !P.bins || last_bin == NO_BIN) return;
  uint64_t ns = 1000000000u / (uint64_t)P.hz, ran = thread_cpu_ns() - timer_cpu0;
  uint64_t due = (ran + ns / 2) / ns;
  if (due > ticks_seen)
    __atomic_fetch_add(&P.bins[last_bin], (uint32_t)(due - ticks_seen), __ATOMIC_RELAXED);
  ticks_seen = due;
}

/* ---- arc tables ---- */

static inline uint64_t slot_of(uint64_t key, uint64_t mask)
{
  return ((key * (uint64_t)PROF_HASH_MULT) >> 32) & mask;
}

static int tab_init(prof_tab *t, uint64_t n)
{
  prof_slot *s = map_zero(n * sizeof *s);
  if (!s) return 0;
  t->slots = s;
  t->mask = n - 1;
  t->bytemask = (n - 1) * sizeof *s;
  t->used = 0;
  return 1;
}

/* Adds COUNT to KEY's slot in T, growing T as needed.  Returns 0 when
   memory runs out.  Only T's owner (or the lock holder, for the shared
   table) calls it.  A grown table's old slots stay mapped: a writer may
   be reading them.  Signals are blocked while the table changes so a
   handler's fast path never sees the slots and mask disagree. */
static int tab_add(prof_tab *t, uint64_t key, uint64_t count)
{
  for (uint64_t i = slot_of(key, t->mask);; i = (i + 1) & t->mask) {
    prof_slot *sl = &t->slots[i];
    if (sl->key == key) { sl->count += count; return 1; }
    if (sl->key) continue;
    if ((t->used + 1) * 2 > t->mask + 1) {       /* keep the load under 1/2 */
      sigset_t all, old;
      sigfillset(&all);
      raw_sigmask(SIG_BLOCK, &all, &old);
      uint64_t n = (t->mask + 1) * 2;
      prof_slot *ns = map_zero(n * sizeof *ns);
      if (!ns) {
        raw_sigmask(SIG_SETMASK, &old, NULL);
        return 0;
      }
      for (uint64_t j = 0; j <= t->mask; j++) {
        prof_slot *o = &t->slots[j];
        if (!o->key) continue;
        uint64_t k = slot_of(o->key, n - 1);
        while (ns[k].key) k = (k + 1) & (n - 1);
        ns[k] = *o;
      }
      __atomic_store_n(&t->slots, ns, __ATOMIC_RELEASE);
      __atomic_store_n(&t->bytemask, (n - 1) * sizeof *ns, __ATOMIC_RELEASE);
      __atomic_store_n(&t->mask, n - 1, __ATOMIC_RELEASE);
      if (t == __prof_tab) set_table(t);
      raw_sigmask(SIG_SETMASK, &old, NULL);
      return tab_add(t, key, count);
    }
    sl->count = count;
    __atomic_store_n(&sl->key, key, __ATOMIC_RELEASE);
    if (t->used < PROF_TAB_LOG) t->log[t->used] = (uint32_t)i;
    t->used++;
    return 1;
  }
}

/* A new table with TAB_INITIAL slots, carved with them from a shared
   chunk (a mapping per table would cost a page or more per thread), and
   put on the list of every table.  Called under tab_lock. */
static prof_tab *tab_carve(void)
{
  const size_t need = (sizeof(prof_tab) + TAB_INITIAL * sizeof(prof_slot) + 63) & ~(size_t)63;
  if ((size_t)(P.arena_end - P.arena) < need) {
    const size_t chunk = 256 * 1024;
    char *c = map_zero(chunk);
    if (!c) return NULL;
    P.arena = c;
    P.arena_end = c + chunk;
  }
  prof_tab *t = (prof_tab *)P.arena;
  prof_slot *s = (prof_slot *)(P.arena + sizeof(prof_tab));
  P.arena += need;
  t->slots = s;
  t->mask = TAB_INITIAL - 1;
  t->bytemask = (TAB_INITIAL - 1) * sizeof(prof_slot);
  t->used = 0;
  prof_tab *head = __atomic_load_n(&P.tabs, __ATOMIC_ACQUIRE);
  do t->next = head;
  while (!__atomic_compare_exchange_n(&P.tabs, &head, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  return t;
}

/* The calling thread's table: a finished thread's emptied one if there
   is one, else a new one; its timer starts with it. */
static prof_tab *thread_table(void)
{
  prof_tab *t = __prof_tab;
  if (t) return t;
  int taken = lock_take(&P.tab_lock, -1);
  t = P.free;
  if (t) P.free = t->next_free;
  else t = tab_carve();
  lock_give(&P.tab_lock, taken);
  if (!t) return NULL;
  set_table(t);
  pthread_setspecific(tab_key, t);
  start_thread_timer();
  return t;
}

/* A thread ends (the key's destructor): its counts go to the shared
   table, its table to the free list, its timer away. */
static void thread_done(void *arg)
{
  prof_tab *t = arg;
  in_libprof++;
  stop_thread_timer();
  set_table(NULL);
  int taken = lock_take(&P.tab_lock, -1);
  if (t->used <= PROF_TAB_LOG) {   /* the log says where they all are */
    for (uint64_t j = 0; j < t->used; j++) {
      prof_slot *o = &t->slots[t->log[j]];
      if (!tab_add(&P.retired, o->key, o->count)) P.lost_arcs += o->count;
      o->key = o->count = 0;
    }
    t->used = 0;
  } else {
    for (uint64_t i = 0; i <= t->mask; i++) {
      prof_slot *o = &t->slots[i];
      if (o->key && !tab_add(&P.retired, o->key, o->count))
        P.lost_arcs += o->count;
    }
    memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
    t->used = 0;
  }
  t->next_free = P.free;
  P.free = t;
  lock_give(&P.tab_lock, taken);
  in_libprof--;
}

/* ---- start-up ---- */

/* The program's build-id (its first 8 bytes, zero-padded), copied at
   start-up for write_data's header (gmon_out.h: GMON_BUILD_ID_TAG). */
static unsigned char build_id[8];
static int have_build_id;

static void note_build_id(uintptr_t p, uintptr_t end, uintptr_t align)
{
  while (!have_build_id && p < end && end - p >= 12) {
    const uint32_t *n = (const uint32_t *)p;
    uintptr_t name = p + 12;
    uintptr_t desc = name + ((n[0] + align - 1) & ~(align - 1));
    uintptr_t next = desc + ((n[1] + align - 1) & ~(align - 1));
    if (desc > end || next > end || next <= p) return;
    if (n[2] == NT_GNU_BUILD_ID && n[0] == 4 && !memcmp((const void *)name, "GNU", 4) && n[1] > 0) {
      memcpy(build_id, (const void *)desc, n[1] < 8 ? n[1] : 8);
      have_build_id = 1;
    }
    p = next;
  }
}

static int find_main(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  uintptr_t *out = data;
  out[0] = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_NOTE)
      note_build_id(info->dlpi_addr + ph->p_vaddr, info->dlpi_addr + ph->p_vaddr + ph->p_memsz,
                    ph->p_align == 8 ? 8 : 4);
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      out[1] = info->dlpi_addr + ph->p_vaddr;
      out[2] = out[1] + ph->p_memsz;
      break;
    }
  }
  return 1;                      /* the first object is the program */
}

/* What a program that sandboxes itself leaves libprof (see
   before_sandbox): the final file opened before, and a copy of stderr
   for programs that close theirs before exit. */
static struct {
  int fd, err_fd;
  pid_t pid;                     /* the process that opened them */
  dev_t dev;
  ino_t ino;
  char name[4096];
} early = { -1, -1, 0, 0, 0, "" };

static void say(const char *a, const char *b, const char *c)
{
  /* stderr without stdio: this can run in a signal handler */
  const char *s[3] = { a, b, c };
  for (int i = 0; i < 3; i++) {
    if (!s[i]) continue;
    if (write(2, s[i], strlen(s[i])) < 0
        && (errno != EBADF || early.err_fd < 0 || write(early.err_fd, s[i], strlen(s[i])) < 0))
      return;
  }
}

static void child_after_fork(void);
static void fork_prepare(void);
static void fork_parent(void);
static void on_fatal(int sig, siginfo_t *si, void *ctx);
static void on_dump_signal(int sig);
static void *helper_main(void *arg);
static void cleanup(void);
static int parse_signal(const char *s);
static void settings(void);

extern int __register_atfork(void (*)(void), void (*)(void), void (*)(void), void *);
extern void *__dso_handle;

/* A setting that cannot be used as documented: one line, and the default. */
static void reject(const char *var, const char *val, const char *why)
{
  say("libprof: ", var, "=");
  say(val, ": ", why);
  say("\n", NULL, NULL);
}

/* The whole of S as a decimal number from 0 to MAX, or -1. */
static long whole_number(const char *s, long max)
{
  long v = 0;
  if (!*s) return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    v = v * 10 + (*s - '0');
    if (v > max) return -1;
  }
  return v;
}

/* The sampling signal: a real-time signal nobody uses (the highest whose
   disposition is the default and which is not LIBPROF_DUMP_SIGNAL), so a
   program's own SIGPROF handler and ITIMER_PROF timer get their own
   signals only, at their own rate. */
static int pick_signal(void)
{
  for (int s = SIGRTMAX; s >= SIGRTMIN; s--) {
    struct sigaction old;
    if (s == P.dump_signal || sigaction(s, NULL, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) return s;
  }
  return SIGPROF;
}

/* The environment, each value used as libprof(3) says or rejected with a
   message (and its default used). */
static void settings(void)
{
  const char *v = getenv("LIBPROF_HZ");
  P.hz = 100;
  if (v) {
    long hz = whole_number(v, 100000);
    if (hz < 0) reject("LIBPROF_HZ", v, "not a whole number from 0 to 100000; sampling at 100 Hz");
    else P.hz = (int)hz;
  }
  v = getenv("LIBPROF_OVERHEAD");
  P.overhead = OV_DROP;
  if (v) {
    if (!strcmp(v, "drop")) P.overhead = OV_DROP;
    else if (!strcmp(v, "charge")) P.overhead = OV_CHARGE;
    else if (!strcmp(v, "report")) P.overhead = OV_REPORT;
    else reject("LIBPROF_OVERHEAD", v, "not drop, charge or report; dropping");
  }
  v = getenv("LIBPROF_DUMP_SIGNAL");
  P.dump_signal = v ? parse_signal(v) : 0;
  if (v && !P.dump_signal) reject("LIBPROF_DUMP_SIGNAL", v, "not a signal libprof can use; no snapshots on a signal");
  v = getenv("LIBPROF_INTERVAL");
  P.interval = 0;
  if (v) {
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d == 0 || (d >= 0.001 && d <= 1e9)))
      reject("LIBPROF_INTERVAL", v, "not 0 or a number of seconds from 0.001 to 1e9; no periodic snapshots");
    else P.interval = d;
  }
  P.sig = pick_signal();
}

static void start(unsigned long lowpc, unsigned long highpc)
{
  uintptr_t info[3] = { 0, 0, 0 };
  if (P.started) return;
  P.started = 1;
  in_libprof++;
  dl_iterate_phdr(find_main, info);
  P.bias = info[0];
  if (lowpc >= highpc) { lowpc = info[1]; highpc = info[2]; }
  P.lowpc = lowpc & ~(uintptr_t)(HIST_GRANULE - 1);
  P.highpc = (highpc + HIST_GRANULE - 1) & ~(uintptr_t)(HIST_GRANULE - 1);
  P.textsize = P.highpc - P.lowpc;
  if (P.textsize == 0 || P.textsize > 0xffffffffu) {
    say("libprof: cannot profile a text of this size\n", NULL, NULL);
    __prof_textsize = 0;
    in_libprof--;
    return;
  }
  P.nbins = P.textsize / HIST_GRANULE;
  P.bins = map_zero(P.nbins * sizeof *P.bins);
  if (!P.bins || !tab_init(&P.retired, TAB_INITIAL)) {
    say("libprof: out of memory; not profiling\n", NULL, NULL);
    __prof_textsize = 0;
    P.bins = NULL;
    in_libprof--;
    return;
  }
  __prof_lowpc = P.lowpc;

  settings();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(P.sig, &sa, NULL);
  pthread_key_create(&tab_key, thread_done);
  /* glibc's own registration, which pthread_atfork calls: pthread_atfork
     would bring a function of libc_nonshared.a into the program, listed
     by gprof -z as glibc's runtime never is */
  __register_atfork(fork_prepare, fork_parent, child_after_fork, __dso_handle);

  /* A stack overflow ends in SIGSEGV with no stack left to handle it:
     unless the program has one, the main thread gets an alternate
     signal stack (the handlers run on it, SA_ONSTACK). */
  stack_t ss;
  if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
    ss.ss_size = 64 * 1024;
    ss.ss_sp = map_zero(ss.ss_size);
    ss.ss_flags = 0;
    if (ss.ss_sp) sigaltstack(&ss, NULL);
  }
  /* a profile whatever the ending: only signals left at their default */
  for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
    struct sigaction old;
    if (fatal_signals[i] == P.dump_signal) continue;
    if (sigaction(fatal_signals[i], NULL, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
      memset(&sa, 0, sizeof sa);
      sa.sa_sigaction = on_fatal;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(fatal_signals[i], &sa, NULL);
    }
  }
  if ((P.dump_signal || P.interval) && pipe2(P.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    P.dump_signal = 0;
    P.interval = 0;
  }
  if (P.dump_signal || P.interval) {
    if (P.dump_signal) {
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = on_dump_signal;
      sa.sa_flags = SA_RESTART;
      sigemptyset(&sa.sa_mask);
      sigaction(P.dump_signal, &sa, NULL);
    }
  }
  P.pid = getpid();
  P.enabled = 1;
  __prof_textsize = P.textsize;
  if (P.dump_signal || P.interval) {
    /* the helper never runs profiled code, and takes no signal */
    pthread_t th;
    sigset_t all, old;
    sigfillset(&all);
    raw_sigmask(SIG_BLOCK, &all, &old);
    P.helper = pthread_create(&th, NULL, helper_main, NULL) == 0;
    if (P.helper) pthread_detach(th);
    raw_sigmask(SIG_SETMASK, &old, NULL);
  }
  in_libprof--;
}

/* LIBPROF_DUMP_SIGNAL: a number, or a name with or without "SIG". */
static int parse_signal(const char *s)
{
  static const struct { const char *name; int sig; } names[] = {
    { "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 },
    { "USR2", SIGUSR2 }, { "TERM", SIGTERM }, { "ALRM", SIGALRM }, { "CONT", SIGCONT },
    { "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "URG", SIGURG },
    { "WINCH", SIGWINCH }, { "PWR", SIGPWR }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
  };
  char *end;
  long n = strtol(s, &end, 10);
  if (end != s && !*end)
    return n > 0 && n < NSIG && n != SIGPROF && n != SIGKILL && n != SIGSTOP ? (int)n : 0;
  if (!strncmp(s, "SIG", 3)) s += 3;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(s, names[i].name)) return names[i].sig;
  if (!strncmp(s, "RTMIN+", 6)) {
    n = strtol(s + 6, &end, 10);
    if (end != s + 6 && !*end && n >= 0 && SIGRTMIN + n <= SIGRTMAX) return SIGRTMIN + (int)n;
  }
  return 0;
}

__attribute__((used)) static void do_monstartup(unsigned long lowpc, unsigned long highpc)
  PROF_SYM(monstartup);
static void do_monstartup(unsigned long lowpc, unsigned long highpc)
{
  start(lowpc, highpc);
}

/* Turns counting and sampling off (0) or on again (1). */
__attribute__((used)) static void do_moncontrol(int mode) PROF_SYM(moncontrol);
static void do_moncontrol(int mode)
{
  if (!P.started || !P.bins || P.final) return;
  P.enabled = mode != 0;
  __prof_textsize = P.enabled ? P.textsize : 0;
}

/* ---- counting ---- */

/* The stubs' slow path: a thread's first call, or an arc's first call
   (also every call on the architectures without an assembler fast path).
   A profiled signal handler that interrupts this thread inside libprof
   would find its table half-updated or a lock held: such a nested call
   is not counted (it is reported at exit with the other lost calls). */
void prof_mcount_slow(uintptr_t frompc, uintptr_t selfpc)
{
  if (in_libprof) {
    if (P.enabled) __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
    return;
  }
  slow_self = selfpc;            /* samples from here on are selfpc's */
  if (!P.started) {              /* no start-up file called it */
    start(0, 0);
    atexit(cleanup);
  }
  if (!P.enabled) { slow_self = 0; return; }
  in_libprof++;
  uintptr_t f = frompc - P.lowpc, s = selfpc - P.lowpc;
  prof_tab *t;
  if (f < P.textsize && s < P.textsize) {       /* as glibc: text only */
    uint64_t key = ((uint64_t)f << 32) | s;
    if (key && (!(t = thread_table()) || !tab_add(t, key, 1)))
      __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
  } else {
    thread_table();              /* the thread is still to be sampled */
  }
  in_libprof--;
  slow_self = 0;
}

/* ---- writing ---- */

typedef struct {
  int fd, err;
  size_t n;
  unsigned char buf[8192];
} wbuf;

static void wflush(wbuf *w)
{
  size_t off = 0;
  while (off < w->n && !w->err) {
    ssize_t k = write(w->fd, w->buf + off, w->n - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) w->err = k < 0 ? errno : EIO;
    else off += (size_t)k;
  }
  w->n = 0;
}

static void wbytes(wbuf *w, const void *p, size_t n)
{
  const unsigned char *s = p;
  while (n--) {
    if (w->n == sizeof w->buf) wflush(w);
    w->buf[w->n++] = *s++;
  }
}

static void wint(wbuf *w, uint64_t v, int n)
{
  for (int i = 0; i < n; i++) {
    /* N may exceed 8 (the header's spare bytes): no shift by 64 or more */
    unsigned char c = i < 8 ? (unsigned char)(v >> (8 * i)) : 0;
    wbytes(w, &c, 1);
  }
}

/* DST = A B C, each possibly NULL; the number is written in decimal.
   Returns 0, or -1 when it does not fit in CAP bytes (DST then holds
   what fits). */
static int make_name(char *dst, size_t cap, const char *a, const char *b, long num)
{
  size_t n = 0;
  int fits = 1;
  for (const char *s = a; s && *s; s++)
    if (n + 1 < cap) dst[n++] = *s; else fits = 0;
  for (const char *s = b; s && *s; s++)
    if (n + 1 < cap) dst[n++] = *s; else fits = 0;
  if (num >= 0) {
    char d[24];
    int k = 0;
    do d[k++] = (char)('0' + num % 10); while ((num /= 10) > 0);
    while (k)
      if (n + 1 < cap) dst[n++] = d[--k]; else { fits = 0; k--; }
  }
  dst[n] = 0;
  return fits ? 0 : -1;
}

/* The writer's sum of every table: private to the writer, so it grows
   (load kept under 1/2) and frees its old slots at once. */
typedef struct {
  prof_slot *slots;
  uint64_t mask, used;
} sum_tab;

static int sum_init(sum_tab *t, uint64_t n)
{
  t->slots = map_zero(n * sizeof *t->slots);
  t->mask = n - 1;
  t->used = 0;
  return t->slots != NULL;
}

static int sum_add(sum_tab *t, uint64_t key, uint64_t count)
{
  uint64_t k = slot_of(key, t->mask);
  while (t->slots[k].key && t->slots[k].key != key) k = (k + 1) & t->mask;
  if (!t->slots[k].key) {
    if ((t->used + 1) * 2 > t->mask + 1) {
      sum_tab g;
      if (!sum_init(&g, (t->mask + 1) * 2)) return 0;
      for (uint64_t j = 0; j <= t->mask; j++)
        if (t->slots[j].key) {
          uint64_t i = slot_of(t->slots[j].key, g.mask);
          while (g.slots[i].key) i = (i + 1) & g.mask;
          g.slots[i] = t->slots[j];
        }
      g.used = t->used;
      munmap(t->slots, (t->mask + 1) * sizeof *t->slots);
      *t = g;
      return sum_add(t, key, count);
    }
    t->slots[k].key = key;
    t->used++;
  }
  t->slots[k].count += count;
  return 1;
}

static void write_data(wbuf *w)
{
  const int as = (int)sizeof(void *);
  wbytes(w, "gmon", 4);
  wint(w, 1, 4);
  if (have_build_id) {           /* GNU gprof skips these spare bytes */
    wbytes(w, GMON_BUILD_ID_TAG, 4);
    wbytes(w, build_id, 8);
  } else {
    wint(w, 0, 12);
  }
  /* Histogram: addresses as the object has them (PIE load bias
     removed).  A bin holds at most 65535 in the file; the rest goes into
     further records of the same range, which gprof adds up. */
  int more = 1;
  for (uint32_t round = 0; more; round++) {
    more = 0;
    wbytes(w, "\0", 1);
    wint(w, P.lowpc - P.bias, as);
    wint(w, P.highpc - P.bias, as);
    wint(w, P.nbins, 4);
    wint(w, P.hz ? (uint64_t)P.hz : 100, 4);
    char dim[15] = "seconds";
    wbytes(w, dim, 15);
    wbytes(w, "s", 1);
    for (size_t i = 0; i < P.nbins; i++) {
      uint64_t b = __atomic_load_n(&P.bins[i], __ATOMIC_RELAXED);
      uint64_t done = (uint64_t)round * 0xffff;
      uint64_t left = b > done ? b - done : 0;
      if (left > 0xffff) more = 1;
      wint(w, left > 0xffff ? 0xffff : left, 2);
    }
  }
  /* every table and the finished threads' one, summed.  Other threads go
     on counting (and finding new arcs) while this runs, so the sum is
     sized from what is seen, growing as it fills, never from a count read
     before. */
  int taken = lock_take(&P.tab_lock, 2000);
  uint64_t seen = P.retired.used, n = 1024;
  for (prof_tab *t = P.tabs; t; t = t->next) seen += __atomic_load_n(&t->used, __ATOMIC_RELAXED);
  while (n < seen * 2 && n < ((uint64_t)1 << 32)) n *= 2;   /* a guess: it grows if need be */
  sum_tab sum = { NULL, 0, 0 };
  if (!sum_init(&sum, n)) {
    lock_give(&P.tab_lock, taken);
    w->err = ENOMEM;
    return;
  }
  for (prof_tab *t = &P.retired; t; t = t == &P.retired ? P.tabs : t->next) {
    /* the mask before the slots: a table that grows stores its new slots
       first, so these slots have at least mask + 1 entries */
    uint64_t mask = __atomic_load_n(&t->mask, __ATOMIC_ACQUIRE);
    prof_slot *slots = __atomic_load_n(&t->slots, __ATOMIC_ACQUIRE);
    for (uint64_t i = 0; slots && i <= mask; i++) {
      uint64_t key = __atomic_load_n(&slots[i].key, __ATOMIC_ACQUIRE);
      if (key && !sum_add(&sum, key, slots[i].count)) {
        lock_give(&P.tab_lock, taken);
        munmap(sum.slots, (sum.mask + 1) * sizeof *sum.slots);
        w->err = ENOMEM;
        return;
      }
    }
  }
  lock_give(&P.tab_lock, taken);
  for (uint64_t i = 0; i <= sum.mask; i++) {
    uint64_t key = sum.slots[i].key, c64 = sum.slots[i].count;
    if (!key) continue;
    uintptr_t from = P.lowpc + (uintptr_t)(key >> 32) - P.bias;
    uintptr_t self = P.lowpc + (uintptr_t)(key & 0xffffffffu) - P.bias;
    while (c64 > 0) {            /* counts are 32 bits in the file */
      uint32_t c = c64 > 0xffffffffu ? 0xffffffffu : (uint32_t)c64;
      wbytes(w, "\1", 1);
      wint(w, from, as);
      wint(w, self, as);
      wint(w, c, 4);
      c64 -= c;
    }
  }
  munmap(sum.slots, (sum.mask + 1) * sizeof *sum.slots);
}

/* Writes the profile into the open file FD.  Returns 0 or an errno value. */
static int write_fd(int fd)
{
  static wbuf w;                 /* under write_lock; kept off the stack */
  w.fd = fd;
  w.err = 0;
  w.n = 0;
  write_data(&w);
  wflush(&w);
  return w.err;
}

static int close_keep(int fd, int err)
{
  int e = errno;
  if (close(fd) != 0 && !err) err = errno;
  errno = e;
  return err;
}

/* Writes the profile to PATH.  Returns 0 or an errno value.
   - A symbolic link is refused (ELOOP), as glibc's runtime refuses it, so
     a link the user made (to /dev/null, say) stays what it is.
   - Anything that is not a regular file (a device, a FIFO) is written
     into, as glibc does, never replaced; a FIFO with no reader is an
     error (ENXIO), not a wait without end.
   - A regular file, or none: the profile goes to an unnamed file in the
     same directory (O_TMPFILE), linked into place when whole, so neither
     a reader nor a kill ever leaves half a profile or a temporary name
     behind (the only name ever made, for replacing an existing file, lives
     between two system calls).  Where the file system has no O_TMPFILE
     or /proc is missing, a named temporary file is renamed into place;
     where the directory cannot be written but the file can, the file is
     written in place, as glibc would. */
static int write_to(const char *path)
{
  static char dir[4096], tmp[4096 + 64], proc[64];
  struct stat st;
  int exists = lstat(path, &st) == 0;
  if (exists && S_ISLNK(st.st_mode)) return ELOOP;
  if (exists && S_ISDIR(st.st_mode)) return EISDIR;
  if (exists && !S_ISREG(st.st_mode)) {
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno;
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return close_keep(fd, write_fd(fd));
  }
  /* the directory, and a short name in it for the rare rename */
  const char *slash = strrchr(path, '/');
  size_t dn = slash ? (size_t)(slash - path) : 0;
  if (dn >= sizeof dir) return ENAMETOOLONG;
  if (slash) { memcpy(dir, path, dn); dir[dn] = 0; if (!dn) { dir[0] = '/'; dir[1] = 0; } }
  else { dir[0] = '.'; dir[1] = 0; }
  make_name(tmp, sizeof tmp, dir, "/.gmon.tmp.", (long)tid());

  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd >= 0) {
    int err = write_fd(fd);
    make_name(proc, sizeof proc, "/proc/self/fd/", NULL, fd);
    if (!err && !exists) {
      if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return close_keep(fd, 0);
      if (errno != EEXIST) err = errno;
    }
    if (!err) {
      unlink(tmp);
      if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) != 0) err = errno;
      else if (rename(tmp, path) != 0) { err = errno; unlink(tmp); }
    }
    err = close_keep(fd, err);
    if (err != ENOENT) return err;          /* ENOENT: no /proc; try by name */
  } else if (errno == EACCES || errno == EPERM || errno == EROFS) {
    if (!exists) return errno;
    /* the directory is closed to us, the file perhaps not: in place */
    fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    return close_keep(fd, write_fd(fd));
  } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    return errno;                           /* a missing directory, ... */
  }
  /* by name: a temporary file renamed into place */
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  int err = close_keep(fd, write_fd(fd));
  if (!err && rename(tmp, path) != 0) err = errno;
  if (err) unlink(tmp);
  return err;
}

/* The file the program writes at exit: $GMON_OUT_PREFIX.PID (FIRST), or
   gmon.out -- gmon.out.PID in a process forked after start-up, so it
   does not overwrite its parent's.  Returns 0, or ENAMETOOLONG. */
static int default_name(char *name, size_t cap, int first)
{
  const char *prefix = getenv("GMON_OUT_PREFIX");
  long pid = (long)getpid();
  if (first && prefix) return make_name(name, cap, prefix, ".", pid) ? ENAMETOOLONG : 0;
  if (pid != (long)P.pid && !prefix) return make_name(name, cap, "gmon.out.", NULL, pid) ? ENAMETOOLONG : 0;
  return make_name(name, cap, "gmon.out", NULL, -1) ? ENAMETOOLONG : 0;
}

/* Writes the file the program writes at exit.  As with glibc, a prefix
   naming a place that cannot be written falls back to gmon.out.  In a
   process that has sandboxed itself since (before_sandbox), the file
   opened before is written through when nothing else can be.  Returns 0
   or errno. */
static int write_default(int report)
{
  char name[4096];
  int err = -1;
  if (getenv("GMON_OUT_PREFIX"))
    err = default_name(name, sizeof name, 1) ? ENAMETOOLONG : write_to(name);
  if (err) {
    default_name(name, sizeof name, 0);
    err = write_to(name);
  }
  if (err && early.fd >= 0 && early.pid == getpid()) {
    struct stat st;
    if (fstat(early.fd, &st) == 0 && st.st_dev == early.dev && st.st_ino == early.ino
        && ftruncate(early.fd, 0) == 0 && lseek(early.fd, 0, SEEK_SET) == 0) {
      err = write_fd(early.fd);
      make_name(name, sizeof name, early.name, NULL, -1);
    }
  }
  if (err && report) {             /* worded as glibc's */
    say("_mcleanup: ", name, ": ");
    say(strerror(err), "\n", NULL);
  }
  return err;
}

/* A program about to sandbox itself (Landlock and seccomp both need
   PR_SET_NO_NEW_PRIVS first; xz does it at start-up) may no longer be
   allowed to create files, or even to print (xz closes stderr before it
   exits).  So at that moment libprof opens the file it will write at
   exit -- creating it empty if need be -- and keeps a copy of stderr;
   write_default uses them only if the usual way fails. */
static void before_sandbox(void)
{
  if (!P.started || !P.bins || early.fd >= 0) return;
  in_libprof++;
  if (default_name(early.name, sizeof early.name, 1) == 0) {
    int fd = open(early.name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      early.dev = st.st_dev;
      early.ino = st.st_ino;
      early.fd = fd;
      early.pid = getpid();
    } else if (fd >= 0) {
      close(fd);
    }
  }
  if (early.err_fd < 0) early.err_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
  in_libprof--;
}

__attribute__((used)) static int do_prctl(int option, unsigned long a2, unsigned long a3,
                                             unsigned long a4, unsigned long a5) PROF_SYM(prctl);
static int do_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
  if ((option == PR_SET_NO_NEW_PRIVS && a2) || option == PR_SET_SECCOMP) before_sandbox();
  return (int)syscall(SYS_prctl, option, a2, a3, a4, a5);
}

static void report_lost(void)
{
  if (P.overhead == OV_REPORT) {
    char n[32], t[32];
    uint64_t k = P.overhead_ticks, hz = P.hz ? (uint64_t)P.hz : 100;
    make_name(n, sizeof n, NULL, NULL, (long)k);
    make_name(t, sizeof t, NULL, NULL, (long)(k * 1000 / hz));
    say("libprof: ", n, " samples (");
    say(t, " ms of CPU time) in libprof's own code, not in the profile\n", NULL);
  }
  uint64_t lost = P.lost_arcs;
  if (!lost) return;
  char n[32];
  make_name(n, sizeof n, NULL, NULL, (long)lost);
  say("libprof: ", n, " calls not counted (out of memory, or made by a signal handler interrupting libprof)\n");
}

/* The final profile: profiling stops, the file is written once. */
static void write_final(int patience_ms)
{
  if (!P.started || !P.bins) return;
  in_libprof++;
  /* snapshots back to back (a short LIBPROF_INTERVAL, a program calling
     libprof_dump in a loop) must not keep the lock from the final write */
  __atomic_store_n(&P.final_wanted, 1, __ATOMIC_RELEASE);
  int taken = lock_take(&P.write_lock, patience_ms);
  if (!P.final) {
    P.final = 1;
    P.enabled = 0;
    __prof_textsize = 0;
    write_default(1);
    report_lost();
  }
  lock_give(&P.write_lock, taken);
  in_libprof--;
}

static void cleanup(void)
{
  stop_thread_timer();
  write_final(-1);
}

__attribute__((used)) static void do_mcleanup(void) PROF_SYM(mcleanup);
static void do_mcleanup(void)
{
  cleanup();
}

/* A snapshot: the profile so far, profiling goes on. */
static int snapshot(const char *path)
{
  if (!P.started || !P.bins) { errno = EINVAL; return -1; }
  in_libprof++;
  if (__atomic_load_n(&P.final_wanted, __ATOMIC_ACQUIRE)) { in_libprof--; return 0; }
  int taken = lock_take(&P.write_lock, -1);
  int err = P.final || P.final_wanted ? 0 : path ? write_to(path) : write_default(0);
  lock_give(&P.write_lock, taken);
  in_libprof--;
  if (err) { errno = err; return -1; }
  return 0;
}

__attribute__((used)) static int do_dump(const char *path) PROF_SYM(dump);
static int do_dump(const char *path)
{
  return snapshot(path);
}

static void on_dump_signal(int sig)
{
  (void)sig;
  int e = errno;
  if (write(P.wake[1], "", 1) < 0) { /* full: a snapshot is due anyway */ }
  errno = e;
}

static void *helper_main(void *arg)
{
  (void)arg;
  in_libprof = 1;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double next = (double)now.tv_sec + (double)now.tv_nsec / 1e9 + P.interval;
  for (;;) {
    int ms = -1;
    if (P.interval) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      double left = next - ((double)now.tv_sec + (double)now.tv_nsec / 1e9);
      ms = left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1000 + 0.5);
    }
    struct pollfd pf = { P.wake[0], POLLIN, 0 };
    int r = poll(&pf, 1, ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) next += P.interval;   /* a periodic snapshot is due */
    char drain[64];
    while (r > 0 && read(P.wake[0], drain, sizeof drain) > 0) {}
    if (P.final) return NULL;
    snapshot(NULL);
  }
}

/* A fatal signal left at its default: write the profile, restore the
   default and raise the signal again, so the process ends (status, core
   dump) as it would have without profiling.  The signal is blocked while
   this runs, so the raised one is taken when the handler returns. */
static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
  (void)si; (void)ctx;
  int e = errno;
  write_final(2000);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
  raise(sig);
  errno = e;
}

/* The child of a fork starts empty and writes its own file.  Only the
   forking thread lives on; the others' tables are emptied too, and put
   back on the free list.  The table lock is held across fork so the
   child never inherits it half-way through a change. */
static int fork_lock_taken;
static void fork_prepare(void)
{
  in_libprof++;
  fork_lock_taken = lock_take(&P.tab_lock, -1);
}

static void fork_parent(void)
{
  lock_give(&P.tab_lock, fork_lock_taken);
  in_libprof--;
}

static void child_after_fork(void)
{
  my_tid = 0;                    /* a new thread id, and the lock's owner gone */
  __atomic_store_n(&P.tab_lock, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&P.write_lock, 0, __ATOMIC_RELEASE);
  if (P.started && P.bins) {
    memset(P.bins, 0, P.nbins * sizeof *P.bins);
    P.free = NULL;
    for (prof_tab *t = P.tabs; t; t = t->next) {
      memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
      t->used = 0;
      if (t != __prof_tab) { t->next_free = P.free; P.free = t; }
    }
    memset(P.retired.slots, 0, (P.retired.mask + 1) * sizeof *P.retired.slots);
    P.retired.used = 0;
    P.lost_arcs = 0;
    have_timer = 0;              /* timers are not inherited */
    if (__prof_tab) start_thread_timer();
    if (P.helper) {
      pthread_t th;
      close(P.wake[0]);          /* a pipe of its own, not the parent's */
      close(P.wake[1]);
      P.helper = pipe2(P.wake, O_CLOEXEC | O_NONBLOCK) == 0
                 && pthread_create(&th, NULL, helper_main, NULL) == 0;
      if (P.helper) pthread_detach(th);
    }
  }
  in_libprof--;
}

/* ---- public names ----
   Each is a jump to the static function that does the work.  In the
   static archive they are weak objects, invisible to gprof (see prof.h);
   in libprof.so ordinary functions.  (An alias made with .set would take
   the function type of its target.) */
#if defined(__aarch64__)
#define PROF_JUMP "b"
#else
#define PROF_JUMP "jmp"
#endif
#ifdef LIBPROF_STATIC
#define PROF_BIND(name) ".weak " #name "\n\t.type " #name ", %object\n"
#else
#define PROF_BIND(name) ".globl " #name "\n\t.type " #name ", %function\n"
#endif
#define PUBLIC(name, impl) \
  __asm__(".text\n\t" PROF_BIND(name) #name ":\n\t" PROF_JUMP " libprof$" #impl "\n\t.size " #name ", .-" #name);
PUBLIC(__monstartup, monstartup)
PUBLIC(monstartup, monstartup)
PUBLIC(moncontrol, moncontrol)
PUBLIC(_mcleanup, mcleanup)
PUBLIC(mcleanup, mcleanup)
PUBLIC(libprof_dump, dump)
PUBLIC(pthread_sigmask, pthread_sigmask)
PUBLIC(sigprocmask, sigprocmask)
PUBLIC(prctl, prctl)
