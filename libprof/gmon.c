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
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "prof.h"

uintptr_t __prof_lowpc;
uintptr_t __prof_textsize;
__thread prof_tab *__prof_tab;

#define HIST_GRANULE 4           /* bytes of text per histogram bin, as glibc */
#define TAB_INITIAL 1024         /* slots of a new table */
/* a table grows only past TAB_INITIAL / 2 arcs, so slots never move while
   its log of arc slots is complete */
_Static_assert(TAB_INITIAL / 2 > PROF_TAB_LOG, "the arc log outlives no grow");

static struct {
  int started, enabled, final;
  uintptr_t lowpc, highpc, textsize, bias;
  uint32_t *bins;
  size_t nbins;
  int hz;
  int drop_overhead;             /* LIBPROF_OVERHEAD=drop */
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
    uintptr_t self = slow_self;
    for (const prof_stub_range *r = prof_stub_map; r < prof_stub_map_end; r++)
      if (pc >= r->begin && pc < r->end) {
        self = *(const uintptr_t *)(sp + r->depth);
        break;
      }
    if (!self || P.drop_overhead) return;
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
  ev.sigev_signo = SIGPROF;
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
      pthread_sigmask(SIG_BLOCK, &all, &old);
      uint64_t n = (t->mask + 1) * 2;
      prof_slot *ns = map_zero(n * sizeof *ns);
      if (!ns) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
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
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      return tab_add(t, key, count);
    }
    sl->count = count;
    __atomic_store_n(&sl->key, key, __ATOMIC_RELEASE);
    if (t->used < PROF_TAB_LOG) t->log[t->used] = (uint32_t)i;
    t->used++;
    return 1;
  }
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
  lock_give(&P.tab_lock, taken);
  if (!t) {
    t = map_zero(sizeof *t);
    if (!t || !tab_init(t, TAB_INITIAL)) return NULL;
    prof_tab *head = __atomic_load_n(&P.tabs, __ATOMIC_ACQUIRE);
    do t->next = head;
    while (!__atomic_compare_exchange_n(&P.tabs, &head, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  }
  __prof_tab = t;
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
  __prof_tab = NULL;
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

static int find_main(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  uintptr_t *out = data;
  out[0] = info->dlpi_addr;
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

static void say(const char *a, const char *b, const char *c)
{
  /* stderr without stdio: this can run in a signal handler */
  const char *s[3] = { a, b, c };
  for (int i = 0; i < 3; i++)
    if (s[i] && write(2, s[i], strlen(s[i])) < 0) return;
}

static void child_after_fork(void);
static void fork_prepare(void);
static void fork_parent(void);
static void on_fatal(int sig, siginfo_t *si, void *ctx);
static void on_dump_signal(int sig);
static void *helper_main(void *arg);
static void cleanup(void);
static int parse_signal(const char *s);

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
    in_libprof--;
    return;
  }
  P.nbins = P.textsize / HIST_GRANULE;
  P.bins = map_zero(P.nbins * sizeof *P.bins);
  if (!P.bins || !tab_init(&P.retired, TAB_INITIAL)) {
    say("libprof: out of memory; not profiling\n", NULL, NULL);
    P.bins = NULL;
    in_libprof--;
    return;
  }
  __prof_lowpc = P.lowpc;

  const char *r = getenv("LIBPROF_HZ");
  P.hz = r ? atoi(r) : 100;
  if (P.hz < 0) P.hz = 0;
  if (P.hz > 100000) P.hz = 100000;
  const char *ov = getenv("LIBPROF_OVERHEAD");
  P.drop_overhead = ov && !strcmp(ov, "drop");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, NULL);
  pthread_key_create(&tab_key, thread_done);
  pthread_atfork(fork_prepare, fork_parent, child_after_fork);

  const char *ds = getenv("LIBPROF_DUMP_SIGNAL");
  P.dump_signal = ds && *ds ? parse_signal(ds) : 0;
  if (ds && *ds && !P.dump_signal)
    say("libprof: LIBPROF_DUMP_SIGNAL: unknown signal ", ds, "\n");
  const char *iv = getenv("LIBPROF_INTERVAL");
  P.interval = iv ? strtod(iv, NULL) : 0;
  if (!(P.interval > 0)) P.interval = 0;

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
    pthread_sigmask(SIG_BLOCK, &all, &old);
    P.helper = pthread_create(&th, NULL, helper_main, NULL) == 0;
    if (P.helper) pthread_detach(th);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
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

/* DST = A B C, each possibly NULL; the number is written in decimal. */
static void make_name(char *dst, size_t cap, const char *a, const char *b, long num)
{
  size_t n = 0;
  for (const char *s = a; s && *s && n + 1 < cap; s++) dst[n++] = *s;
  for (const char *s = b; s && *s && n + 1 < cap; s++) dst[n++] = *s;
  if (num >= 0) {
    char d[24];
    int k = 0;
    do d[k++] = (char)('0' + num % 10); while ((num /= 10) > 0);
    while (k && n + 1 < cap) dst[n++] = d[--k];
  }
  dst[n] = 0;
}

/* Opens a temporary file beside NAME; fills TMP with its name. */
static int open_tmp(const char *name, char *tmp, size_t cap)
{
  make_name(tmp, cap, name, ".tmp.", (long)tid());
  return open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
}

static void write_data(wbuf *w)
{
  const int as = (int)sizeof(void *);
  wbytes(w, "gmon", 4);
  wint(w, 1, 4);
  wint(w, 0, 12);
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
  /* every table and the finished threads' one, summed */
  int taken = lock_take(&P.tab_lock, 2000);
  uint64_t total = P.retired.used;
  for (prof_tab *t = P.tabs; t; t = t->next) total += t->used;
  uint64_t n = 16;
  while (n < total * 2 + 2) n *= 2;
  prof_tab sum;
  memset(&sum, 0, sizeof sum);
  if (!tab_init(&sum, n)) {
    lock_give(&P.tab_lock, taken);
    w->err = ENOMEM;
    return;
  }
  for (prof_tab *t = &P.retired; t; t = t == &P.retired ? P.tabs : t->next) {
    prof_slot *slots = __atomic_load_n(&t->slots, __ATOMIC_ACQUIRE);
    uint64_t mask = __atomic_load_n(&t->mask, __ATOMIC_ACQUIRE);
    for (uint64_t i = 0; slots && i <= mask; i++) {
      uint64_t key = __atomic_load_n(&slots[i].key, __ATOMIC_ACQUIRE);
      if (!key) continue;
      uint64_t k = slot_of(key, n - 1);
      while (sum.slots[k].key && sum.slots[k].key != key) k = (k + 1) & (n - 1);
      sum.slots[k].key = key;
      sum.slots[k].count += slots[i].count;
    }
  }
  lock_give(&P.tab_lock, taken);
  for (uint64_t i = 0; i < n; i++) {
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
  munmap(sum.slots, n * sizeof *sum.slots);
}

/* Writes the profile to PATH through a temporary file.  Returns 0 or an
   errno value. */
static int write_to(const char *path)
{
  char tmp[4200];
  int fd = open_tmp(path, tmp, sizeof tmp);
  if (fd < 0) return errno;
  static wbuf w;                 /* under write_lock; kept off the stack */
  w.fd = fd;
  w.err = 0;
  w.n = 0;
  write_data(&w);
  wflush(&w);
  if (close(fd) != 0 && !w.err) w.err = errno;
  if (!w.err && rename(tmp, path) != 0) w.err = errno;
  if (w.err) unlink(tmp);
  return w.err;
}

/* The file the program writes at exit: $GMON_OUT_PREFIX.PID, gmon.out in
   a process forked after start-up gmon.out.PID (so it does not overwrite
   its parent's), else gmon.out.  As with glibc, a prefix naming a place
   that cannot be written falls back to gmon.out.  Returns 0 or errno. */
static int write_default(int report)
{
  char name[4096];
  const char *prefix = getenv("GMON_OUT_PREFIX");
  pid_t pid = getpid();
  int err = -1;
  if (prefix) {
    make_name(name, sizeof name, prefix, ".", (long)pid);
    err = write_to(name);
  }
  if (err) {
    if (pid != P.pid && !prefix) make_name(name, sizeof name, "gmon.out.", NULL, (long)pid);
    else make_name(name, sizeof name, "gmon.out", NULL, -1);
    err = write_to(name);
  }
  if (err && report) {             /* worded as glibc's */
    say("_mcleanup: ", name, ": ");
    say(strerror(err), "\n", NULL);
  }
  return err;
}

static void report_lost(void)
{
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
  int taken = lock_take(&P.write_lock, -1);
  int err = P.final ? 0 : path ? write_to(path) : write_default(0);
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
      ms = left > 0 ? (int)(left * 1000 + 0.5) : 0;
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
