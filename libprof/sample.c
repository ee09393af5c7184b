/* sample.c -- sampling: a CPU-time timer per thread signals that thread
 * with a real-time signal of libprof's own, whose handler adds to the
 * histogram bin of the interrupted PC (overruns included; libprof's own
 * code dropped, or charged to mcount's caller); the thread's last
 * part-interval credited when it ends; the choice of the signal, and its
 * move to another when the program takes it (the timers of every thread
 * re-armed); and the program's sigaction and signal, which notice that,
 * and pthread_sigmask and sigprocmask, which keep the signal unblocked.
 * Part of gmon.c's translation unit; uses base.c. */

/* ---- signal masks ----
   Threads that block every signal (servers' and compressors' workers,
   made with a full mask so that signals go to the main thread) would
   never be sampled.  So libprof's pthread_sigmask and sigprocmask, which
   the program's calls reach before the C library's, keep the sampling
   signal out of every mask they set, as glibc keeps its own two internal
   signals (32 and 33) out; the sampling handler touches nothing of the
   program's.  libprof's own masks go straight to the kernel. */
static void move_sampling(int from);
static void perf_signal_give(void);

/* The real-time signals the program uses (bit S - 1): those it gave a
   disposition, or blocked by name (a mask that does not block every
   real-time signal).  libprof never moves its sampling to one of them: a
   signal the program blocks to wait for it with sigwaitinfo stays at
   SIG_DFL, yet is the program's. */
static uint64_t rt_taken;

static void take_rt(int sig)
{
  if (sig >= SIGRTMIN && sig <= SIGRTMAX && sig <= 64)
    __atomic_fetch_or(&rt_taken, (uint64_t)1 << (sig - 1), __ATOMIC_RELAXED);
}

/* SET blocks every real-time signal (a thread blocking all signals) */
static int blocks_all_rt(const sigset_t *set)
{
  for (int r = SIGRTMIN; r <= SIGRTMAX; r++)
    if (sigismember(set, r) != 1) return 0;
  return 1;
}

static int user_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  sigset_t s;
  if (set && how != SIG_UNBLOCK) {
    s = *set;
    mask_del(&s, 32);            /* glibc's cancellation and set*id signals */
    mask_del(&s, 33);
    int mine = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE), named = !blocks_all_rt(&s);
    for (int r = SIGRTMIN; named && r <= SIGRTMAX; r++)
      if (r != mine && sigismember(&s, r) == 1) take_rt(r);
    /* a mask that blocks libprof's signal but not every real-time one
       names it: the program wants it for itself (sigwaitinfo, signalfd) */
    if (mine && P.hz && sigismember(&s, mine) == 1 && named) {
      move_sampling(mine);
      mine = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE);
    }
    if (mine && P.hz) mask_del(&s, mine);
    int ps = __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE);
    if (ps && P.hz && sigismember(&s, ps) == 1 && named) {
      perf_signal_give();
      ps = __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE);
    }
    if (ps && P.hz) mask_del(&s, ps);
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

/* ---- sampling ---- */

/* The handler calls no function of the C library lazily bound: in a
   program linked lazily (-z lazy; a libprof.a's calls go through the
   program's PLT) the first call of each runs the dynamic linker's
   resolver, which saves the whole vector state on the stack (kilobytes
   with AVX-512) on whatever stack the thread was interrupted on: a
   thread of PTHREAD_STACK_MIN, a program's 8 KB signal stack.  The walk
   of stacks.c calls none; the few that count_rehome reaches (its mask,
   a table's memory, lock_take's waits) are called once here, at
   start-up, which binds them (tests/libprof/stksafe.sh checks the list).
   libprof.so itself is linked -z now. */
static void sample_prebind(void)
{
  sigset_t s;
  sigfillset(&s);
  static volatile size_t n = sizeof s;
  memset(&s, 0, n);
  int e = errno;                 /* (clock_upgrade's and threads_scan's: errno, fcntl, close) */
  fcntl(-1, F_GETFD);
  close(-1);
  errno = e;
  static volatile sigset_t c;
  memcpy((void *)&c, &s, n);     /* (the registry's growth, in threads_scan) */
  if (syscall(SYS_gettid) < 0) return;
  struct timespec zero = { 0, 0 };
  nanosleep(&zero, NULL);        /* (lock_take's, never with patience 0) */
  sched_yield();
  void *m = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m != MAP_FAILED) munmap(m, 4096);
}

/* si_value of libprof's own process-wide and outside-made timers */
#define TV_SCAN 0x5ca9
#define TV_FOREIGN 0xf0e1
static size_t page_size;

static void threads_scan(void);
typedef struct { uint32_t n; uint64_t at; } perf_weighed;
static perf_weighed perf_weigh(void);
static uint32_t itimer_weigh(void);
static void clock_upgrade(void);
/* The thread's clock, in one word of thread storage (one page more of
   static TLS a thread cost 40 MB of 10,000 threads under ASan): bit 0,
   its clock_upgrade was tried; bits 1-4, its perf clock's period is the
   rate's << this (perf_pace); bits 5-7, its signals in a row that found
   the period too short; bit 8, take_sample found this one's gap long;
   bits 9-19, its signals since the last slow one that found the period
   four times its handler's need (perf_pace's way back); bit 20, the
   thread is counted in P.paced; bit 21, this signal came within an
   eighth of a period of the last one's end (take_sample). */
static __thread unsigned clock_state;
#define CS_TRIED 1u
#define CS_SHIFT(s) (((s) >> 1) & 15u)
#define CS_STREAK(s) (((s) >> 5) & 7u)
#define CS_GAP (1u << 8)
#define CS_QUICK(s) (((s) >> 9) & 2047u)
#define CS_PACED (1u << 20)
#define CS_EVEN (1u << 21)
static __thread int my_treg;     /* 1 + this thread's entry in the registry below, 0 none */
static long period_ns(void);
static void foreign_sample(uintptr_t pc, uint32_t n);
/* some thread the scan found has a perf clock (foreign_pass): the
   handler tells such a thread's signals from the thread's own */
static int foreign_perf;
/* the descriptor number a found thread's perf event signals with (arm_perf) */
#define PERF_FOUND_FD(fd) (((fd) & 1) != 0)

static uint64_t take_sample(int sig, siginfo_t *si, void *ctx, int *flags);
#define TS_UPGRADE 1             /* take_sample: the thread is due its perf clock */
#define TS_TIMED 2               /* ... AT is the handler's start, for perf_timed */

/* The signal the thread's own perf clock sends (SIG, or SIGPROF: see
   perf_signal_take). */
static int perf_sig(int sig)
{
  int p = __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE);
  return p ? p : sig;
}

/* A perf clock's signal is queued anew at every overflow (a real-time
   signal, no coalescing): while the handler runs (the signal blocked),
   the thread's clock goes on, so a handler dearer than a period -- 50 kHz
   with stacks through 12 KB of frames: 20 us -- left more behind than it
   took, the user's queue (RLIMIT_SIGPENDING) filled, and the kernel sent
   SIGIO instead (fcntl's fallback), which kills by default and reaches
   a program's own O_ASYNC handler.  So the handler takes every instance
   left pending before it returns (rt_sigtimedwait, no wait): a thread
   has at most the periods of one handler's run pending, and the program
   runs a period between samples.  Their time was libprof's: an event
   weighing one period a signal counts it so (overhead); one counting
   user time weighs it into the next sample, as before.  libprof's
   process-wide scan timer shares the signal: it is run, by the caller
   once the drain's frame is gone (a PTHREAD_STACK_MIN thread under ASan
   overflowed with the scan on top of it).  1: a scan is due.  errno
   kept. */
__attribute__((noinline)) static int perf_drain(int sig, int *drained)
{
  int err = errno, scan = 0;
  uint64_t set[2] = { 0, 0 };    /* the kernel's sigset: _NSIG bits */
  set[(unsigned)(sig - 1) / 64] = (uint64_t)1 << ((unsigned)(sig - 1) % 64);
  struct timespec zero = { 0, 0 };
  for (int i = 0; i < 4096; i++) {
    siginfo_t si;
    if (syscall(SYS_rt_sigtimedwait, set, &si, &zero, (size_t)(_NSIG / 8)) != sig) break;
    if (si.si_code == SI_TIMER && si.si_value.sival_int == TV_SCAN) {
      scan = 1;
      continue;
    }
    uint32_t n = 1;
    if (si.si_code == SI_TIMER && si.si_overrun > 0) n += (uint32_t)si.si_overrun;
    int own = si.si_code == POLL_IN && !(foreign_perf && PERF_FOUND_FD(si.si_fd));
    if (own) ++*drained;
    if (own && P.clock_user) continue;
    if (own) n = 1u << CS_SHIFT(clock_state);
    __atomic_fetch_add(&P.signals, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&P.samples, n, __ATOMIC_RELAXED);
    __atomic_fetch_add(&P.overhead_ticks, n, __ATOMIC_RELAXED);
  }
  errno = err;
  return scan;
}

#define PD_SLOW 1                /* perf_done: the handler ran a period */
#define PD_QUICK 2               /* ... an eighth of one at most */
static int perf_done(uint64_t at);
static int perf_timed(uint64_t at);
/* The calling thread's CPU time in ns, or 0: a system call of its own
   (a handler's, on any stack; no interceptor's), errno kept.  Not
   inlined: its timespec would be in on_sigprof's frame at every signal,
   with AddressSanitizer's red zones round it (stksafe.sh "tiny": a
   PTHREAD_STACK_MIN thread overflowed). */
__attribute__((noinline)) static uint64_t thread_cpu_ns(void)
{
  struct timespec ts;
  int err = errno;
  uint64_t t = 0;
  if (syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  errno = err;
  return t;
}
static void perf_pace(int done, int drained);
#ifdef PROF_TEST_HOOKS
/* Built in by tests only (tests/libprof/pace.sh, -DPROF_TEST_HOOKS): a
   handler made to run this many ns of the thread's CPU time, as deep
   stacks or a loaded machine make it -- a cost a test could not
   otherwise choose.  Defined by the test's program, or absent. */
extern volatile long libprof_test_handler_ns __attribute__((weak));
static void test_handler_spin(uint64_t at)
{
  long ns = &libprof_test_handler_ns ? libprof_test_handler_ns : 0;
  while (at && ns > 0 && thread_cpu_ns() < at + (uint64_t)ns) {}
}
#else
#define test_handler_spin(at) ((void)(at))
#endif

/* (libprof's two signals, the real-time one and SIGPROF, block each
   other: perf_signal_take) */
static void on_sigprof(int sig, siginfo_t *si, void *ctx)
{
  /* libprof's process-wide timer, and the timers of threads it did not
     start: nothing of the thread's own storage is used (see threads_scan).
     The scan and the upgrade run here, not under take_sample's frame:
     whatever stack the signal came on (PTHREAD_STACK_MIN threads under
     AddressSanitizer on an AVX-512 machine, whose signal frame is 3 KB:
     stksafe.sh "tiny") holds the deepest of them, not their sum. */
  if (si && si->si_code == SI_TIMER && si->si_value.sival_int == TV_SCAN) {
    threads_scan();
    return;
  }
  int flags = 0;
  uint64_t at = take_sample(sig, si, ctx, &flags);
  if (flags & TS_UPGRADE) clock_upgrade();
  int drained = 0, done = 0;
  if (si && si->si_code == POLL_IN && sig != SIGPROF && perf_drain(sig, &drained))
    threads_scan();                /* (keeps errno) */
  test_handler_spin(at);
  if (at) done = flags & TS_TIMED ? perf_timed(at) : perf_done(at);
  /* the thread's own perf clock: paced if its signals cost its period,
     and back when they no longer do */
  if (si && si->si_code == POLL_IN && my_treg && !(foreign_perf && sig != SIGPROF && PERF_FOUND_FD(si->si_fd)))
    perf_pace(done, drained);
}

/* A perf clock counting user time only signals only the expirations
   that fall in user mode: of N periods weighed since the thread's last
   signal, the last W (one of its event's periods) are the PC's, those
   before the kernel's (a system call, a fault) -- credited apart, not to
   whatever the thread ran next.  The periods N gives the kernel. */
static uint32_t kern_split(uint64_t n, uint64_t w)
{
  return n > w ? (uint32_t)(n - w) : 0;
}

/* The thread's CPU time perf_weigh read, or 0 (for perf_done); *FLAGS
   gets TS_UPGRADE when the thread is due its perf clock (clock_upgrade,
   by the caller), TS_TIMED when the time was read for the pacing alone:
   the thread's own perf clock on the real-time signal (the program took
   SIGPROF), every period signalled and none weighed.  There the handler
   was not timed, and a handler dearer than the period, which returns to
   its own signal pending, had the next drain nothing: the pacing's
   streak broke every other time, and the program starved (3 ms handlers
   at 1 kHz stopped at 500 Hz; pace.sh).  (A flag, not a time kept in
   on_sigprof: a register more there overflowed a PTHREAD_STACK_MIN
   thread under AddressSanitizer, stksafe.sh "tiny".) */
static uint64_t take_sample(int sig, siginfo_t *si, void *ctx, int *flags)
{
  uint64_t at = 0;
  ucontext_t *uc = ctx;
  uintptr_t pc = ARCH_UC_PC(uc), sp = ARCH_UC_SP(uc);
  /* expirations the kernel folded into this signal count too */
  uint32_t n = 1;
  if (si && si->si_code == SI_TIMER && si->si_overrun > 0) n += (uint32_t)si->si_overrun;
  if (si && si->si_code == SI_TIMER && si->si_value.sival_int == TV_FOREIGN) {
    foreign_sample(pc, n);
    return at;
  }
  /* a perf clock the scan gave a thread it found (foreign_pass): no
     TLS of the thread's is libprof's -- a raw clone's is its creator's
     -- so it is told by the number its event signals with (arm_perf),
     not by the thread's id, which cost a system call a signal (the
     kernel's events count kernel time there: one period a signal) */
  if (foreign_perf && si && si->si_code == POLL_IN && sig != SIGPROF && PERF_FOUND_FD(si->si_fd)) {
    foreign_sample(pc, 1);
    return at;
  }
  /* a perf clock counting user time only: the CPU time since the last,
     split with the kernel (kern_split: a loop reading /dev/urandom had
     85% of its time in the kernel and 11% outside the program's code
     sampled; its next function got the rest) */
  uint32_t kern = 0, shift = CS_SHIFT(clock_state);
  if (si && si->si_code == POLL_IN && (sig == SIGPROF || P.clock_user)) {
    perf_weighed w = perf_weigh();
    at = w.at;
    if (!(n = w.n)) return at;
    if (P.clock_user) {
      kern = kern_split(n, 1u << shift);
      clock_state |= CS_EVEN;    /* (the signal's own cost is the kernel's: not in this clock) */
    } else if (8 * (uint64_t)n <= 9u << shift) {
      clock_state |= CS_EVEN;
    }
    /* counting kernel time, every period signalled: a gap of 1.5 of
       them since the last handler is the signal's own cost (perf_pace)
       -- where a signal costs half a period (P.signal_ns): else it is
       a system call that did not end at the signal (a read of 32 MB
       from the page cache: 1 kHz was paced down to 125 Hz for good) */
    if (!P.clock_user && 2 * (uint64_t)n >= 3u << shift && 2 * P.signal_ns >= (uint64_t)period_ns() << shift)
      clock_state |= CS_GAP;
  } else if (si && si->si_code == POLL_IN) {
    n = 1u << shift;             /* (one of the thread's event periods) */
    if (my_treg && (at = thread_cpu_ns())) *flags |= TS_TIMED;
  }
  /* ITIMER_PROF: the process's CPU time since the last signal (the tick) */
  if (P.clock == CLK_ITIMER && sig == SIGPROF && !(n = itimer_weigh())) return at;
  __atomic_fetch_add(&P.signals, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&P.samples, n, __ATOMIC_RELAXED);
  ticks_seen += n;
  /* a thread past its first 10 ms of CPU gets the perf clock */
  if (P.clock == CLK_PERF && !(clock_state & CS_TRIED) && si && si->si_code == SI_TIMER && !in_libprof
      && ticks_seen * (uint64_t)period_ns() >= 10000000u)
    *flags |= TS_UPGRADE;
  last_bin = NO_BIN;
  if (!P.enabled || !P.prog) {
    if (P.prog) facts_off(n);
    return at;
  }
  if (kern) {
    facts_kernel(kern);
    n -= kern;
  }
  int in_runtime = in_libprof || (pc >= (uintptr_t)prof_text_begin && pc < (uintptr_t)prof_text_end);
  if (ticks_seen >= rehome_at && !in_runtime) {
    count_rehome();              /* at 4, 16, 64, ... ticks of the thread */
    rehome_at = ticks_seen * 4;
  }
  if (in_runtime) {
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
      return at;
    }
    pc = self;
  }
  if (S.depth) stacks_record(uc, pc, n);
  prof_obj *o = obj_find(pc);   /* (objects.c: the program's fast test first) */
  if (o != P.prog) {
    facts_outside(pc, n);
    if (P.objects) objects_credit(o, pc, n);
    return at;
  }
  last_bin = (pc - o->lo) / HIST_GRANULE;
  __atomic_fetch_add(&o->bins[last_bin], n, __ATOMIC_RELAXED);
  return at;
}

/* ---- the clock ----
   What sends the sampling signal, chosen at start-up (clock_choose; the
   setting LIBPROF_CLOCK overrides) from the best the system allows:

   CLK_PERF   a perf_events software clock per thread (PERF_COUNT_SW_
              TASK_CLOCK: the thread's own CPU time, on a high-resolution
              timer), whose overflow signals that thread (F_SETOWN_EX to
              its tid, F_SETSIG): the rate asked, one period a signal.
   CLK_TIMER  a POSIX CPU-time timer per thread (CLOCK_THREAD_CPUTIME_
              ID, SIGEV_THREAD_ID): the kernel checks those only on its
              tick (250 Hz here), so at 1000 Hz a signal carries ~4
              periods (si_overrun) at one address.
   CLK_ITIMER ITIMER_PROF, process-wide, on SIGPROF: whichever thread
              runs is sampled, on the tick.

   A perf event lives as long as its file: libprof maps the event's one
   metadata page and closes the descriptor at once, so it holds no
   descriptor the program could close or reuse (the mapping keeps the
   event and its signal alive; munmap ends it).  The page is never
   touched (no memory counted); a forked child unmaps its copies.  Where
   perf_event_paranoid lets a user count only user time (2), a signal
   stands for the thread's CPU time since the last one (expirations in
   the kernel are not signalled), read from the thread's CPU clock.  A
   thread whose event cannot be made (the locked-memory allowance for
   perf pages spent: about 2,300 threads for a user with 8 MB) gets a
   POSIX timer (counted: clock_fallbacks); one with neither is counted
   as not sampled (unsampled).  doc/DESIGN.md, section 9, "Sampling". */

/* Every thread's timer, so that all can be re-armed on another signal
   when the program takes libprof's (move_sampling): a mapped array of
   {tid, clock, live}, its free entries chained, under T.lock.  Only the
   thread itself adds and removes its entry, but for the threads the scan
   finds (threads_scan): the mover and the scan replace timers, with
   every signal blocked (the scan runs in a handler).  A thread's start
   and end take the lock with signals open (blocking them there cost 4 KB
   per thread under AddressSanitizer, measured with 10,000 live
   threads): a handler of the same thread that finds the lock its own --
   the program's, taking libprof's signal in the middle of a thread's
   start, or exiting there -- leaves the registry alone (lock_take gives
   0). */
typedef struct {
  pid_t tid;                     /* 0: free */
  int next;                      /* the next free entry, -1 none */
  int live;                      /* its timer exists */
  int kind;                      /* CLK_PERF (page) or CLK_TIMER (id) */
  int foreign;                   /* made by the scan: samples bins only */
  unsigned seen;                 /* the scan's generation that last saw it */
  int kid;                       /* CLK_TIMER: the kernel's timer id */
  void *page;                    /* CLK_PERF: the event's page */
  int shift;                     /* CLK_PERF: its period is the rate's << shift (perf_pace) */
} treg;
static struct {
  int lock;
  treg *e;
  int cap, used, free;
  int count;                     /* entries in use */
  int foreign;                   /* of which made by the scan */
  int moves, from, to;           /* the last move: from the program's signal to ours (0: none left) */
  uint64_t down_ns;              /* process CPU time when sampling stopped (no signal left) */
  int scan_kid;                  /* the process-wide timer that runs threads_scan, -1 none */
  unsigned gen, skip, backoff;
  int last_count;                /* T.count at the scan timer's last tick */
  int itimer_kid;                /* a forked child's CLK_ITIMER clock (itimer_child), -1 none */
  pid_t clock_pid;               /* the process these clocks are of (a vfork child's are not its) */
} T = { 0, NULL, 0, 0, -1, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0 };

static int timers_enter(sigset_t *old)
{
  sigset_t all;
  sigfillset(&all);
  raw_sigmask(SIG_BLOCK, &all, old);
  return lock_take(&T.lock, -1);
}

static void timers_leave(const sigset_t *old, int taken)
{
  lock_give(&T.lock, taken);
  raw_sigmask(SIG_SETMASK, old, NULL);
}

static long period_ns(void)
{
  return 1000000000L / P.hz;
}

/* A CPU-time timer (CLK: a kernel clock id; a thread's, the caller's
   own or another's, or the process's), signalling thread T only
   (SIGEV_THREAD_ID) or the process (SIGEV_SIGNAL) with SIG, VALUE its
   si_value, at the rate LIBPROF_HZ (TV_SCAN: 50 Hz); the kernel's timer
   id, or -1.  Raw system calls: it is made and deleted in signal
   handlers too (threads_scan, clock_upgrade), and glibc's timer_create
   may allocate. */
static int arm_raw(clockid_t clk, int notify, pid_t t, int sig, int value)
{
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = notify;
  ev.sigev_signo = sig;
  ev.sigev_value.sival_int = value;
  ev._sigev_un._tid = t;
  int kid = -1;
  if (syscall(SYS_timer_create, clk, &ev, &kid) != 0) return -1;
  long ns = value == TV_SCAN ? 20000000L : period_ns();
  struct itimerspec its;
  its.it_interval.tv_sec = ns / 1000000000L;
  its.it_interval.tv_nsec = ns % 1000000000L;
  its.it_value = its.it_interval;
  syscall(SYS_timer_settime, kid, 0, &its, NULL);
  return kid;
}

/* A perf_events CPU clock of thread T signalling it with SIG (see "the
   clock" above): the event's page, or NULL.  FOUND: T is a thread the
   scan found (foreign_pass), whose signals the handler must tell from a
   thread's own without its thread storage (a raw clone shares its
   creator's) and without a system call: the signal's si_fd is the
   descriptor number O_ASYNC was set through, kept by the event after the
   descriptor is closed, so found threads' events set it through an odd
   number and libprof's own threads' through an even one (a duplicate at
   the next free number of the right parity: 0-2 more calls, once per
   event; on_sigprof reads it). */
static void *arm_perf(pid_t t, int sig, int found, int shift)
{
#ifdef PROF_PERF
  struct perf_event_attr a;
  /* zeroed by hand: a memset call would be an interceptor's under the
     sanitizers, on a small stack (the empty asm keeps gcc from making
     the loop a memset again) */
  for (size_t i = 0; i < sizeof a; i++) {
    ((volatile unsigned char *)&a)[i] = 0;
    __asm__ volatile("");
  }
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = (uint64_t)period_ns() << shift;
  a.exclude_kernel = P.clock_user ? 1 : 0;
  a.exclude_hv = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, t, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return NULL;
  /* (enabled at once: an expiry before F_SETFL is not signalled, a
     sample lost at most) */
  /* system calls made here, not through the C library (or a sanitizer's
     interceptors of it): this runs in the thread's handler (clock_upgrade)
     on whatever stack it was interrupted on, an 8 KB signal stack too */
  struct f_owner_ex o = { F_OWNER_TID, t };
  void *m = MAP_FAILED;
  int lab = fd;                  /* the number the signals carry */
  for (int tries = 0; lab >= 0 && PERF_FOUND_FD(lab) != !!found; tries++) {
    int d = tries < 8 ? (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, lab + 1) : -1;
    if (lab != fd) syscall(SYS_close, lab);
    lab = d;
  }
  if (lab >= 0 && syscall(SYS_fcntl, fd, F_SETOWN_EX, &o) == 0 && syscall(SYS_fcntl, fd, F_SETSIG, sig) == 0
      && syscall(SYS_fcntl, lab, F_SETFL, O_ASYNC) == 0)
    m = (void *)syscall(ARCH_SYS_MMAP, NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
  if (lab >= 0 && lab != fd) syscall(SYS_close, lab);
  syscall(SYS_close, fd);
  return m == MAP_FAILED ? NULL : m;
#else
  (void)t; (void)sig; (void)found; (void)shift;
  return NULL;
#endif
}

/* Thread T's clock on SIG into E: a POSIX timer, or with PERF the
   chosen clock (a perf event, else a POSIX timer). */
/* Thread T's CPU-time clock, as the kernel numbers it (a per-thread
   clock of another thread: pthread_getcpuclockid needs a pthread_t). */
static clockid_t thread_cpu_clock(pid_t t)
{
  return (clockid_t)(((unsigned)~t << 3) | 6u);
}

static int clock_arm(treg *e, pid_t t, int sig, int perf)
{
  if (e->foreign) {
    e->kind = CLK_TIMER;
    e->kid = arm_raw(thread_cpu_clock(t), SIGEV_THREAD_ID, t, sig, TV_FOREIGN);
    return e->kid >= 0;
  }
  if (P.clock == CLK_PERF && perf) {
    e->page = arm_perf(t, perf_sig(sig), 0, e->shift);
    e->kind = CLK_PERF;
    if (e->page) return 1;
    __atomic_fetch_add(&P.clock_fallbacks, 1, __ATOMIC_RELAXED);
  }
  e->kind = CLK_TIMER;
  e->kid = arm_raw(t == tid() ? CLOCK_THREAD_CPUTIME_ID : thread_cpu_clock(t),
                   SIGEV_THREAD_ID, t, sig, 0);
  return e->kid >= 0;
}

static void clock_disarm(treg *e)
{
  if (!e->live) return;
  if (e->kind == CLK_PERF) munmap(e->page, page_size);
  else syscall(SYS_timer_delete, e->kid);
  e->live = 0;
}

/* A free entry of the registry (grown as needed), or -1; under T.lock. */
static int treg_new(void)
{
  if (T.free < 0 && T.used == T.cap) {
    int cap = T.cap ? T.cap * 2 : 256;
    treg *e = map_zero((size_t)cap * sizeof *e);
    if (e) {
      if (T.e) memcpy(e, T.e, (size_t)T.used * sizeof *e);
      if (T.e) munmap(T.e, (size_t)T.cap * sizeof *e);
      T.e = e;
      T.cap = cap;
    }
  }
  int k = T.free >= 0 ? T.free : T.used < T.cap ? T.used : -1;
  if (k < 0) return -1;
  if (k == T.free) T.free = T.e[k].next; else T.used++;
  memset(&T.e[k], 0, sizeof T.e[k]);
  T.count++;
  return k;
}

static void treg_free(int k)
{
  T.e[k].tid = 0;
  T.e[k].next = T.free;
  T.free = k;
  T.count--;
}

/* A clock for the calling thread, signalling only this thread.  Made
   outside the registry's lock (a perf event takes tens of microseconds,
   and threads starting together queued on the lock), then registered;
   remade on the new signal if sampling moved meanwhile. */
static void start_thread_timer(void)
{
  if (!P.hz || have_timer) return;
  ticks_seen = 0;
  rehome_at = 4;
  last_bin = NO_BIN;
  timer_cpu0 = cpu_mark = thread_cpu_ns();
  if (P.clock == CLK_ITIMER) return;   /* one timer for the process */
  int sig = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE);
  treg mine;
  memset(&mine, 0, sizeof mine);
  mine.tid = tid();
  if (!sig) return;
  /* (no POSIX timer -- the user's RLIMIT_SIGPENDING spent: each holds a
     queued signal's room -- the perf clock at once) */
  if (!clock_arm(&mine, tid(), sig, 0) && !(P.clock == CLK_PERF && clock_arm(&mine, tid(), sig, 1))) {
    __atomic_fetch_add(&P.unsampled, 1, __ATOMIC_RELAXED);
    return;
  }
  mine.live = 1;
  if (!lock_take(&T.lock, -1)) {
    clock_disarm(&mine);
    return;
  }
  if (T.foreign)                 /* found by the scan before its first call: ours now */
    for (int i = 0; i < T.used; i++)
      if (T.e[i].tid == tid() && T.e[i].foreign) {
        clock_disarm(&T.e[i]);
        treg_free(i);
        T.foreign--;
        break;
      }
  int k = treg_new();
  if (k >= 0) {
    if (sig != P.sig) {          /* moved meanwhile */
      clock_disarm(&mine);
      mine.live = P.sig && clock_arm(&mine, tid(), P.sig, 0);
    }
    T.e[k] = mine;
    my_treg = k + 1;
    have_timer = 1;
  }
  lock_give(&T.lock, 1);
  if (k < 0) clock_disarm(&mine);
}

/* Stops the thread's timer.  A POSIX CPU-time timer is looked at only on
   the kernel's clock tick (every 1 to 10 ms), so expirations since the
   last tick have not been signalled yet: a short program would lose up
   to a tick of samples at every rate (3% of 0.06 s at 250 Hz ticks).  They are
   counted here from the thread's CPU time and credited where the
   thread's last sample went, if it went into the histogram.  The thread
   is owed its CPU time times the rate, rounded to the nearest sample: a
   thread of 0.175 s at 100 Hz gets 17 or 18 samples, not always 17 (four
   such threads would lose 3% of their time to the last part-interval). */
static void stop_thread_timer_in(void);
/* (inside libprof: a sample taken while the clock is disarmed -- its page
   unmapped at exit or at the thread's end -- is libprof's time, not a
   stack of the program's with libprof's frames in it: names.sh saw one
   under the sanitizers, "exit;_mcleanup;...;munmap") */
static void stop_thread_timer(void)
{
  if (!have_timer) return;
  in_libprof++;
  stop_thread_timer_in();
  in_libprof--;
}

static void stop_thread_timer_in(void)
{
  if (!lock_take(&T.lock, -1)) return;
  int live = 1, user_perf = 0, shift = 0;
  treg mine;
  mine.live = 0;
  if (my_treg) {                 /* (its clock ended outside the lock) */
    mine = T.e[my_treg - 1];
    live = mine.live;
    user_perf = mine.kind == CLK_PERF && P.clock_user;
    shift = mine.shift;
    if (mine.kind == CLK_PERF && shift > P.paced_end_shift) P.paced_end_shift = shift;   /* (under the lock) */
    treg_free(my_treg - 1);
    my_treg = 0;
  }
  have_timer = 0;
  lock_give(&T.lock, 1);
  clock_disarm(&mine);
  if (!live) return;             /* sampling stopped (move_sampling): nothing owed */
  if (!P.enabled || !P.prog) return;
  uint64_t ns = 1000000000u / (uint64_t)P.hz, ran = thread_cpu_ns() - timer_cpu0;
  uint64_t due = (ran + ns / 2) / ns, owed = due > ticks_seen ? due - ticks_seen : 0;
  ticks_seen = due;
  /* a perf clock of user time only: less than a period of user time
     since the last signal, the rest the kernel's -- credited as
     take_sample does, whatever the last sample's PC (a Lua script
     reading /dev/urandom gave the function of its last sample 0.01-0.26
     s for 0.02-0.05 s of user time, or lost it as not taken) */
  uint32_t kern = user_perf ? kern_split(owed, 1u << shift) : 0;
  if (kern) {
    facts_kernel(kern);
    owed -= kern;
  }
  if (owed && last_bin != NO_BIN) {
    __atomic_fetch_add(&P.prog->bins[last_bin], (uint32_t)owed, __ATOMIC_RELAXED);
    stacks_credit_last(owed);
  }
}

/* CLK_PERF: every thread starts on a POSIX timer (a perf event costs
   20-40 us to make and end, measured: 100,000 short threads took 4.1-4.7 s
   of CPU against 2.0-2.2 s with timers), and takes its perf clock in its
   handler once it has run 10 ms (so at most 0.4% of its time), where
   sampling at the rate asked matters.  System calls only (fcntl, mmap,
   close bound at start-up). */
__attribute__((noinline)) static void clock_upgrade(void)
{
  int err = errno;
  /* not on a signal stack (a program's SA_ONSTACK handler interrupted):
     such stacks are small (8 KB), and the next signal will do */
  stack_t ss;
  if (syscall(SYS_sigaltstack, NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK)) {
    errno = err;
    return;
  }
  if (!my_treg || !lock_take(&T.lock, 0)) return;   /* (busy: the next signal) */
  clock_state |= CS_TRIED;
  treg *e = &T.e[my_treg - 1];
  int sig = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE);
  if (e->live && e->kind == CLK_TIMER && !e->foreign && sig) {
    void *page = arm_perf(tid(), perf_sig(sig), 0, e->shift);
    if (page) {
      syscall(SYS_timer_delete, e->kid);
      e->kind = CLK_PERF;
      e->page = page;
      cpu_mark = timer_cpu0 + ticks_seen * (uint64_t)period_ns();
    } else {
      __atomic_fetch_add(&P.clock_fallbacks, 1, __ATOMIC_RELAXED);
    }
  }
  lock_give(&T.lock, 1);
  errno = err;
}

/* The threads libprof did not start sampling (their first profiled call
   never came: threads of other libraries, raw clone()s): found in
   /proc/self/task by a process-wide CPU timer's handler (TV_SCAN, every
   20 ms of the process's CPU time, whichever thread takes it), given a
   timer that signals them (TV_FOREIGN: their samples go to the
   histogram with no use of their thread-local storage, which may be
   another thread's or not libprof's at all), and those gone deleted.
   The full scan runs only when the process has more or fewer threads
   than the registry and libprof's own (its helper, poller), and backs
   off while it finds nothing new.  System calls only: async-signal-safe,
   no lazily bound call. */
static char scan_buf[4096];      /* under T.lock */

static int threads_now(void)
{
  int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long n = syscall(SYS_read, fd, scan_buf, sizeof scan_buf - 1);
  syscall(SYS_close, fd);
  if (n <= 0) return -1;
  scan_buf[n] = 0;
  char *p = scan_buf + n;
  while (p > scan_buf && *p != ')') p--;         /* past the command's name */
  for (int field = 2; *p && field < 20; p++)     /* num_threads is field 20 */
    if (*p == ' ') field++;
  int v = 0;
  for (; *p >= '0' && *p <= '9'; p++) v = v * 10 + (*p - '0');
  return v;
}

/* Threads the scan found, looked at on the scan's tick (under T.lock;
   at most 32 entries a tick, from where the last tick stopped):
   - one that ended is let go: such a thread ends without a word to
     libprof, and while its entry stayed, a thread made after it left the
     count of threads unchanged and the scan never ran (a pthread, then a
     raw clone: the clone not sampled, half the CPU not taken);
   - one that has run 10 ms moves to the perf clock as libprof's own
     threads do (clock_upgrade): its POSIX timer expires on the kernel's
     tick, four periods a signal at 1 kHz.  At most 8 events a tick
     (20-40 us each).  Not when the events count user time only
     (P.clock_user): a found thread's signals carry no weight of their
     own (foreign_sample: no thread storage to keep a mark in), so its
     kernel time would go unsampled. */
static int foreign_next;         /* under T.lock: the next entry to look at */
static void foreign_pass(void)
{
  if (!T.foreign || !T.used) return;
  const int upgrade = P.clock == CLK_PERF && !P.clock_user;
  for (int looked = 0, made = 0; looked < 32 && looked < T.used && made < 8; looked++) {
    if (foreign_next >= T.used) foreign_next = 0;
    const int k = foreign_next++;
    treg *e = &T.e[k];
    if (!e->tid || !e->foreign) continue;
    struct timespec ts;
    if (syscall(SYS_clock_gettime, thread_cpu_clock(e->tid), &ts) != 0) {
      clock_disarm(e);                   /* ended */
      T.foreign--;
      treg_free(k);
      continue;
    }
    if (!upgrade || !e->live || e->kind != CLK_TIMER || (ts.tv_sec == 0 && ts.tv_nsec < 10000000L))
      continue;
    made++;
    void *page = arm_perf(e->tid, P.sig, 1, 0);
    if (!page) {
      __atomic_fetch_add(&P.clock_fallbacks, 1, __ATOMIC_RELAXED);
      continue;
    }
    __atomic_store_n(&foreign_perf, 1, __ATOMIC_RELEASE);
    syscall(SYS_timer_delete, e->kid);
    e->kind = CLK_PERF;
    e->page = page;
  }
}

static int is_own(pid_t t)
{
  int n = __atomic_load_n(&P.nown, __ATOMIC_ACQUIRE);
  for (int i = 0; i < n && i < (int)(sizeof P.own / sizeof *P.own); i++)
    if (__atomic_load_n(&P.own[i], __ATOMIC_ACQUIRE) == t) return 1;
  return 0;
}

static void threads_scan(void)
{
  int err = errno;
  int me = (int)syscall(SYS_gettid), zero = 0;
  if (!P.hz || !P.sig || P.clock == CLK_ITIMER
      || !__atomic_compare_exchange_n(&T.lock, &zero, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    errno = err;
    return;
  }
  /* threads registering themselves since the last tick (a storm of
     thread starts): no scan until the registry holds still for a tick.
     A scan reads every task and looks each up among the entries, under
     the lock the starting threads wait for: during 10,000 starts that
     fed itself (their spinning is CPU time, which ticks the scan timer)
     and under AddressSanitizer never ended. */
  if (T.count != T.last_count) {
    T.last_count = T.count;
    goto out;
  }
  foreign_pass();
  int own = __atomic_load_n(&P.nown, __ATOMIC_ACQUIRE);
  int n = threads_now();
  if (n < 0 || n == T.count + own || (T.skip && T.skip--)) goto out;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) goto out;
  unsigned gen = ++T.gen;
  int changed = 0;
  long got;
  while ((got = syscall(SYS_getdents64, fd, scan_buf, sizeof scan_buf)) > 0) {
    for (long off = 0; off < got;) {
      const char *name = scan_buf + off + 19;    /* struct linux_dirent64: d_name */
      off += *(const unsigned short *)(scan_buf + off + 16);
      pid_t t = 0;
      for (; *name >= '0' && *name <= '9'; name++) t = t * 10 + (*name - '0');
      if (t <= 0 || is_own(t)) continue;
      int k = -1;
      for (int i = 0; i < T.used && k < 0; i++)
        if (T.e[i].tid == t) k = i;
      if (k >= 0) {
        T.e[k].seen = gen;
        continue;
      }
      if ((k = treg_new()) < 0) continue;
      treg *e = &T.e[k];
      e->tid = t;
      e->foreign = 1;
      e->seen = gen;
      T.foreign++;
      changed = 1;
      if (clock_arm(e, t, P.sig, 0)) e->live = 1;
      else if (errno != EINVAL && errno != ESRCH)   /* (not a thread gone meanwhile) */
        __atomic_fetch_add(&P.unsampled, 1, __ATOMIC_RELAXED);
    }
  }
  syscall(SYS_close, fd);
  /* gone: the scan's, and threads that ended without their key's
     destructor (a raw exit); entries are only added under the lock, so
     each one not seen was there before the directory was read */
  for (int i = 0; i < T.used; i++)
    if (T.e[i].tid && T.e[i].seen != gen) {
      clock_disarm(&T.e[i]);
      if (T.e[i].foreign) T.foreign--;
      treg_free(i);
      changed = 1;
    }
  /* nothing new: the counts differ for another reason (a thread between
     its start and its first call); scan again later and later */
  T.backoff = changed ? 0 : T.backoff ? (T.backoff < 64 ? T.backoff * 2 : 64) : 1;
  T.skip = T.backoff;
out:
  __atomic_store_n(&T.lock, 0, __ATOMIC_RELEASE);
  errno = err;
}

/* The scan's process-wide timer on SIG (none with ITIMER_PROF, which
   samples every thread already). */
static void scan_timer_start(int sig)
{
  T.scan_kid = -1;
  if (P.hz && sig && P.clock != CLK_ITIMER)
    T.scan_kid = arm_raw(CLOCK_PROCESS_CPUTIME_ID, SIGEV_SIGNAL, 0, sig, TV_SCAN);
}

static void itimer_set(long ns)
{
  struct itimerval v;
  v.it_interval.tv_sec = ns / 1000000000L;
  v.it_interval.tv_usec = ns % 1000000000L / 1000;
  if (ns && !v.it_interval.tv_sec && !v.it_interval.tv_usec) v.it_interval.tv_usec = 1;
  v.it_value = v.it_interval;
  setitimer(ITIMER_PROF, &v, NULL);
}

/* Can this process make a perf_events clock for its own threads?  Tried
   counting kernel time too (every expiry signalled), then user time only
   (perf_event_paranoid 2 for an unprivileged user). */
static int perf_works(void)
{
#ifdef PROF_PERF
  for (int user = 0; user < 2; user++) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.sample_period = 1000000;
    a.disabled = 1;
    a.exclude_kernel = (unsigned)user;
    a.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd >= 0) {
      close(fd);
      P.clock_user = user;
      return 1;
    }
  }
#endif
  return 0;
}

/* ---- the perf clock's highest rate ----
   A perf clock's signal costs the thread CPU time of its own -- the
   kernel's delivery and return, the handler -- counted by its clock as
   the program's.  Where that cost nears the period the program barely
   runs: in a VM here a signal cost 50-90 us, and at 50 kHz (20 us) a
   0.12 s program ran 30 s and more, its samples credited with the
   delivery's time.  So a rate over 1 kHz is first measured against the
   cost: a spin of ~2 ms of CPU, alone and then under a perf clock of
   the kind chosen at 100 us on a handler that only counts; the
   difference over the signals is a signal's cost C, and the rate is at
   most the one at which signals take 10% of the CPU (1 / (10 C)), said
   on stderr (LIBPROF_HZ_LIMIT: a limit of one's own, 0 none).  ~5 ms
   once, at start-up, on the thread starting profiling. */
static volatile uint64_t calib_signals;
static void calib_handler(int sig)
{
  (void)sig;
  calib_signals++;
}

/* ITERS rounds of a spin in chunks, stopping past LIMIT_NS of CPU; the
   rounds done. */
static uint64_t calib_spin(uint64_t iters, uint64_t limit_ns)
{
  uint64_t t0 = thread_cpu_ns(), done = 0, acc = 0;
  while (done < iters) {
    for (uint64_t i = 0; i < 4096; i++) {
      acc += i ^ (i >> 2);
      __asm__ volatile("" : "+r"(acc));   /* (a loop the compiler keeps) */
    }
    done += 4096;
    if (!(done & 0xffff) && thread_cpu_ns() - t0 > limit_ns) break;
  }
  return done;
}

/* A perf signal's cost here, in ns of the thread's CPU; 0: not measured. */
static uint64_t perf_signal_cost(void)
{
#ifdef PROF_PERF
  /* a signal of the process's own choosing for the while: SIGPROF at
     its default is the usual case at start-up; else not measured */
  struct sigaction sa, old;
  if (sigaction(SIGPROF, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) return 0;
  sigset_t mask;
  if (pthread_sigmask(SIG_BLOCK, NULL, &mask) != 0 || sigismember(&mask, SIGPROF)) return 0;
  /* the spin's speed, alone: rounds for ~1 ms, timed twice on half of
     them (the quicker) */
  uint64_t iters = 1u << 17, t0 = thread_cpu_ns();
  calib_spin(iters, UINT64_MAX);
  uint64_t t = thread_cpu_ns() - t0;
  if (t < 1000) return 0;
  iters = iters * 1000000u / t;
  if (iters < 8192) iters = 8192;
  uint64_t base = UINT64_MAX;
  for (int i = 0; i < 2; i++) {
    t0 = thread_cpu_ns();
    calib_spin(iters / 2, UINT64_MAX);
    t = (thread_cpu_ns() - t0) * 2;
    if (t < base) base = t;
  }
  if (!base) return 0;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = calib_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = 100000;      /* 10 kHz: the program goes on even at 90 us a signal */
  a.exclude_kernel = P.clock_user ? 1 : 0;
  a.exclude_hv = 1;
  a.disabled = 1;
  uint64_t cost = 0;
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  struct f_owner_ex o = { F_OWNER_TID, tid() };
  if (fd >= 0 && fcntl(fd, F_SETOWN_EX, &o) == 0 && fcntl(fd, F_SETSIG, SIGPROF) == 0
      && fcntl(fd, F_SETFL, O_ASYNC) == 0) {
    calib_signals = 0;
    t0 = thread_cpu_ns();
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    uint64_t done = calib_spin(iters, 20 * base + 20000000);
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t spent = thread_cpu_ns() - t0, n = calib_signals;
    uint64_t work = (uint64_t)((double)base * (double)done / (double)iters);
    if (n >= 4 && spent > work) cost = (spent - work) / n;
  }
  if (fd >= 0) close(fd);
  /* (a signal still queued is taken by the counting handler first) */
  struct timespec zero = { 0, 0 };
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, SIGPROF);
  while (sigtimedwait(&one, NULL, &zero) == SIGPROF) {}
  sigaction(SIGPROF, &old, NULL);
  return cost;
#else
  return 0;
#endif
}

/* P.hz within what the perf clock costs here (see above), said. */
static void clock_limit(void)
{
  long limit = P.hz_limit;
  uint64_t cost = 0;
  if (!P.hz) return;
  /* (measured with the limit off too: the pacing reads it, take_sample) */
  if (P.clock == CLK_PERF && P.hz > 1000) P.signal_ns = perf_signal_cost();
  if (!limit) return;
  if (limit < 0) {
    if (!(cost = P.signal_ns)) return;
    limit = (long)(100000000u / cost);            /* signals 10% of the CPU */
    if (limit < 1000) limit = 1000;               /* (1 kHz is never refused) */
    long r = 1;                                   /* two figures */
    while (limit / r >= 100) r *= 10;
    limit = limit / r * r;
  }
  if (P.hz <= limit) return;
  long asked = P.hz;
  P.hz = (int)limit;
  char a[24], b[24], c[24];
  make_name(a, sizeof a, NULL, NULL, asked);
  make_name(b, sizeof b, NULL, NULL, (long)P.hz);
  if (cost) {
    make_name(c, sizeof c, NULL, NULL, (long)((cost + 500) / 1000));
    say("libprof: LIBPROF_HZ=", a, ": a sampling signal costs ");
    say(c, " us of CPU here; sampling at ", b);
    say(" Hz (LIBPROF_HZ_LIMIT=0: the rate asked)\n", NULL, NULL);
  } else {
    say("libprof: LIBPROF_HZ=", a, ": over LIBPROF_HZ_LIMIT; sampling at ");
    say(b, " Hz\n", NULL);
  }
}

/* The clock, at start-up: P.clock is the one asked (LIBPROF_CLOCK, or
   CLK_NONE for the best there is), and becomes the one used. */
static void clock_choose(void)
{
  int asked = P.clock;
  page_size = (size_t)sysconf(_SC_PAGESIZE);
  if (!P.hz) {                   /* no sampling, no clock */
    P.clock = CLK_NONE;
    return;
  }
  if (P.clock == CLK_NONE || P.clock == CLK_PERF) P.clock = perf_works() ? CLK_PERF : CLK_TIMER;
  if (P.clock == CLK_TIMER) {
    timer_t id;
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_NONE;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &id) == 0) timer_delete(id);
    else P.clock = CLK_ITIMER;
  }
  if (asked != CLK_NONE && asked != P.clock) {
    say("libprof: LIBPROF_CLOCK=", asked == CLK_PERF ? "perf" : "timer", ": not available here; using ");
    say(clock_names[P.clock], "\n", NULL);
  }
  clock_limit();
}

/* CLK_PERF: the periods of the thread's CPU time since its last sample,
   rounded to the nearest -- counting user time only, the expirations
   that fell in the kernel were not signalled; on SIGPROF, those that
   came while one was pending were folded into it. */
__attribute__((noinline)) static perf_weighed perf_weigh(void)
{
  struct timespec ts;
  perf_weighed r = { 1, 0 };
  if (syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return r;
  uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, ns = (uint64_t)period_ns();
  r.at = now;
  if (now < cpu_mark) return r;
  uint64_t w = (now - cpu_mark + ns / 2) / ns;
  cpu_mark += w * ns;
  r.n = (uint32_t)w;
  return r;
}

/* For perf_pace: a handler that ran D ns of the thread's CPU ran a
   period (PD_SLOW), an eighth of one at most (PD_QUICK), or between. */
static int pace_verdict(uint64_t d)
{
  uint64_t per = (uint64_t)period_ns() << CS_SHIFT(clock_state);
  return d >= per ? PD_SLOW : 8 * d < per ? PD_QUICK : 0;
}

/* The end of a handler that weighed its sample (perf_weigh read AT): its
   own time -- the walk, the drain -- is libprof's, not the program's next
   sample's (nor, counted apart as the kernel's, the kernel's): the mark
   moves past it, and so does the thread's start (timer_cpu0), from which
   its end credits the time not sampled (else counted twice); it counts
   as libprof's time, in whole periods of all threads' handlers together
   (no thread storage: a thread's static TLS one page larger cost 40 MB
   of 10,000 threads under AddressSanitizer).  PD_SLOW, PD_QUICK or 0. */
__attribute__((noinline)) static int perf_done(uint64_t at)
{
  uint64_t now = thread_cpu_ns(), ns = (uint64_t)period_ns();
  if (now <= at) return 0;
  uint64_t d = now - at;
  cpu_mark += d;
  timer_cpu0 += d;
  uint64_t all = __atomic_add_fetch(&P.handler_ns, d, __ATOMIC_RELAXED);
  uint64_t t = all / ns - (all - d) / ns;
  if (t) {
    __atomic_fetch_add(&P.samples, t, __ATOMIC_RELAXED);
    __atomic_fetch_add(&P.overhead_ticks, t, __ATOMIC_RELAXED);
  }
  return pace_verdict(d);
}

/* perf_done's verdict on a handler that began at AT, for a thread
   whose every period is signalled (the real-time signal): its time is
   counted already, by the periods drained behind it (perf_drain), so
   nothing else moves.  PD_SLOW, PD_QUICK or 0. */
__attribute__((noinline)) static int perf_timed(uint64_t at)
{
  uint64_t now = thread_cpu_ns();
  return now > at ? pace_verdict(now - at) : 0;
}

/* A perf clock's signal costs the thread CPU time of its own (the
   kernel's delivery, the handler), counted by its clock; dearer than a
   period, the next expiry is due before the program runs again, and it
   never does: a 15 ms program at 50 kHz ran 100 s of signals here, 43 us
   each (LIBPROF_HZ_LIMIT=0; clock_limit keeps the rate asked under that
   cost, measured once, but a loaded machine or deep stacks can raise
   it).  A signal found the period too short when a signal of the
   thread's was left queued behind it (DRAINED, perf_drain), a gap of 1.5
   periods since the last handler with every period signalled
   (take_sample's CS_GAP), or its handler ran a period (DONE, perf_done).
   Four in a row: the thread's event is made again with twice its period
   (down to 1/1024 of the rate, never under 100 Hz), its samples weighing
   as many periods, counted and said at exit.  And back: once the
   handler has run under an eighth of the period, with nothing drained,
   for the signals of 50 ms of the thread's CPU in a row (32 to 2,047 of
   them), the period is halved; where the signal's measured cost
   (P.signal_ns) would make a gap count at the shorter period, only
   signals that came within an eighth of a period of the last handler's
   end count (CS_EVEN).  The margin (the handler and the gap a quarter
   of the new period) keeps a thread from swinging between two rates.
   Before, a phase of dear handlers set the rate to the end (pace.sh: 3
   ms handlers, 1 kHz paced to 250 Hz, and 0.6 s of cheap ones after it
   stayed there: 219 signals in all, 548 now).  In the handler: system
   calls only. */
static void perf_remake(unsigned from, unsigned to);
static inline void perf_pace(int done, int drained)
{
  unsigned st = clock_state, k = CS_STREAK(st), shift = CS_SHIFT(st), q = CS_QUICK(st);
  int slow = done == PD_SLOW || drained > 0 || (st & CS_GAP);
  st &= ~(CS_GAP | CS_EVEN | 7u << 5 | 2047u << 9);
  if (slow) {
    if (k < 3) {
      clock_state = st | (k + 1) << 5;
      return;
    }
    clock_state = st;
    if (shift < 10 && P.hz >> (shift + 1) >= 100) perf_remake(shift, shift + 1);
    return;
  }
  /* (where the signal's measured cost would make the gap count at the
     shorter period, only signals that came without one count) */
  int quick = done == PD_QUICK && shift
              && (2 * P.signal_ns < (uint64_t)period_ns() << (shift - 1) || (clock_state & CS_EVEN));
  q = quick ? q + 1 : 0;
  unsigned need = (unsigned)(P.hz / 20) >> shift;
  need = need < 32 ? 32 : need > 2047 ? 2047 : need;
  if (q < need) {
    clock_state = st | q << 9;
    return;
  }
  clock_state = st;
  perf_remake(shift, shift - 1);
}

/* (apart, not inlined: the event's attributes on the stack only when a
   thread's period changes, not in every handler's frame -- which runs
   on any stack, PTHREAD_STACK_MIN threads' too: stksafe.sh "tiny") */
__attribute__((noinline)) static void perf_remake(unsigned from, unsigned to)
{
  if (!lock_take(&T.lock, 0)) return;
  treg *e = &T.e[my_treg - 1];
  int sig = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE), err = errno;
  if (e->live && e->kind == CLK_PERF && !e->foreign && sig && (int)from == e->shift) {
    void *page = arm_perf(tid(), perf_sig(sig), 0, (int)to);
    if (page) {
      syscall(SYS_munmap, e->page, page_size);
      e->page = page;
      e->shift = (int)to;
      clock_state = (clock_state & ~(15u << 1)) | to << 1;
      if (!(clock_state & CS_PACED)) {
        clock_state |= CS_PACED;
        __atomic_fetch_add(&P.paced, 1, __ATOMIC_RELAXED);
      }
      int m = __atomic_load_n(&P.paced_shift, __ATOMIC_RELAXED);
      while ((int)to > m
             && !__atomic_compare_exchange_n(&P.paced_shift, &m, (int)to, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    }
  }
  lock_give(&T.lock, 1);
  errno = err;
}

static uint64_t itimer_mark;     /* process CPU time weighed so far */
static uint32_t itimer_weigh(void)
{
  struct timespec ts;
  if (syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 1;
  uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, ns = (uint64_t)period_ns();
  uint64_t mark = __atomic_load_n(&itimer_mark, __ATOMIC_RELAXED), w;
  do {
    if (now < mark) return 0;
    w = (now - mark + ns / 2) / ns;
  } while (!__atomic_compare_exchange_n(&itimer_mark, &mark, mark + w * ns, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return (uint32_t)w;
}

/* A sample of a thread the scan found: the histogram only, nothing of the
   thread's own storage. */
static void foreign_sample(uintptr_t pc, uint32_t n)
{
  __atomic_fetch_add(&P.signals, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&P.samples, n, __ATOMIC_RELAXED);
  if (!P.enabled || !P.prog) {
    if (P.prog) facts_off(n);
    return;
  }
  if (pc >= (uintptr_t)prof_text_begin && pc < (uintptr_t)prof_text_end) {
    __atomic_fetch_add(&P.overhead_ticks, n, __ATOMIC_RELAXED);
    return;
  }
  prof_obj *o = obj_find(pc);
  if (o == P.prog) {
    __atomic_fetch_add(&o->bins[(pc - o->lo) / HIST_GRANULE], n, __ATOMIC_RELAXED);
    return;
  }
  facts_outside(pc, n);          /* (atomics only: no thread storage) */
  if (P.objects) objects_credit(o, pc, n);
}

/* The sampling signal: a real-time signal nobody uses (the highest whose
   disposition is the default and which is not LIBPROF_DUMP_SIGNAL), so a
   program's own SIGPROF handler and ITIMER_PROF timer get their own
   signals only, at their own rate.  The handler is installed here: a
   signal that cannot be delivered is passed over: qemu-user cannot map
   the highest guest signals to the host's, yet takes handlers for them,
   so each candidate is sent once, blocked, and must be seen pending. */
static int deliverable(int s)
{
  sigset_t one, old, pend;
  sigemptyset(&one);
  sigaddset(&one, s);
  raw_sigmask(SIG_BLOCK, &one, &old);
  syscall(SYS_tgkill, getpid(), tid(), s);
  int ok = sigpending(&pend) == 0 && sigismember(&pend, s) == 1;
  struct timespec zero = { 0, 0 };
  if (ok) sigtimedwait(&one, NULL, &zero);
  raw_sigmask(SIG_SETMASK, &old, NULL);
  return ok;
}

/* The highest real-time signal, from SIGRTMAX down, that is still at
   its default, is not LIBPROF_DUMP_SIGNAL, FROM, nor one the program uses
   (rt_taken), and can be delivered, with SA as its handler; 0 if none. */
static int free_rt_signal(const struct sigaction *sa, int from)
{
  for (int s = SIGRTMAX; s >= SIGRTMIN; s--) {
    struct sigaction old;
    if (s == P.dump_signal || s == from || (__atomic_load_n(&rt_taken, __ATOMIC_RELAXED) >> (s - 1) & 1)
        || sigaction(s, NULL, &old) != 0)
      continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL && sigaction(s, sa, NULL) == 0) {
      if (deliverable(s)) return s;
      sigaction(s, &old, NULL);
    }
  }
  return 0;
}

static int pick_signal(const struct sigaction *sa)
{
  int s = free_rt_signal(sa, 0);
  if (s) return s;
  sigaction(SIGPROF, sa, NULL);
  return SIGPROF;
}

static uint64_t process_cpu_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Thread T has signal SIG pending in its own queue (/proc's SigPnd). */
static int pending_for(pid_t t, int sig)
{
  char path[64], buf[4096];
  make_name(path, sizeof path, "/proc/self/task/", NULL, t);
  size_t len = strlen(path);
  make_name(path + len, sizeof path - len, "/status", NULL, -1);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  const char *p = strstr(buf, "\nSigPnd:");
  if (!p) return 0;
  for (p += 8; *p == ' ' || *p == '\t'; p++) {}
  uint64_t bits = 0;
  for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
    bits = bits << 4 | (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
  return (int)(bits >> (sig - 1) & 1);
}

/* Under T.lock: waits until no other registered thread has SIG pending
   (200 ms at most), while libprof's handler is still the one installed. */
static void wait_unpending(int sig)
{
  struct timespec ms = { 0, 1000000 };
  for (int round = 0; round < 200; round++) {
    int any = 0;
    for (int k = 0; k < T.used && !any; k++)
      any = T.e[k].tid && T.e[k].tid != tid() && pending_for(T.e[k].tid, sig);
    if (!any) break;
    nanosleep(&ms, NULL);
  }
}

/* The program takes FROM, libprof's sampling signal, for itself (its
   sigaction, signal, or a mask naming it): sampling moves to another free
   real-time signal and every thread's timer is re-armed on it, before
   the program's handler is installed, and once no thread has one of
   libprof's signals still queued, so the program never gets one.  With no
   signal left, sampling stops (the CPU time from then on is reported at
   exit as not sampled).  LIBPROF_OVERHEAD=report says which. */
static void move_sampling(int from)
{
  sigset_t old;
  int taken = timers_enter(&old);
  if (!taken || from != __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE) || from <= 0 || from > 64) {
    timers_leave(&old, taken);   /* moved already, or this thread is inside a start or end */
    return;
  }
  take_rt(from);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  int ps = __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE);
  if (ps) sigaddset(&sa.sa_mask, ps);          /* (see perf_signal_take) */
  /* ITIMER_PROF signals SIGPROF only: sampling stops */
  int to = P.clock == CLK_ITIMER ? 0 : free_rt_signal(&sa, from);
  if (ps && to) {
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, to);
    sigaction(ps, &sa, NULL);
  }
  if (P.clock == CLK_ITIMER) itimer_set(0);
  if (T.itimer_kid >= 0) syscall(SYS_timer_delete, T.itimer_kid);
  T.itimer_kid = -1;
  __atomic_store_n(&P.sig, to, __ATOMIC_RELEASE);
  if (T.scan_kid >= 0) syscall(SYS_timer_delete, T.scan_kid);
  scan_timer_start(to);
  for (int k = 0; k < T.used; k++) {
    treg *e = &T.e[k];
    if (!e->tid || !e->live) continue;
    clock_disarm(e);
    e->live = to && clock_arm(e, e->tid, to, e->kind == CLK_PERF);
  }
  /* a deleted timer's signal already queued stays queued (measured):
     until every other thread has taken it -- libprof's handler is still
     the one installed -- the program's is not (200 ms at most: a thread
     that blocks it for good keeps it); this thread takes its own when
     its mask comes back */
  wait_unpending(from);
  if (!to) T.down_ns = process_cpu_ns();
  T.moves++;
  T.from = from;
  T.to = to;
  timers_leave(&old, 1);
}

/* The perf clocks of libprof's own threads signal with SIGPROF while the
   program leaves it at its default.  A real-time signal is queued anew
   at every overflow, and events that count kernel time queue one a
   period there too: on a loaded machine at 50 kHz with stacks the user's
   queue (RLIMIT_SIGPENDING) filled now and then, and the kernel sent
   SIGIO instead, which kills (stacks.sh's sigio check, three runs in a
   row once).  SIGPROF is never queued twice: an overflow while one is
   pending is folded into it and weighed by the thread's CPU time
   (perf_weigh); it lands where the thread comes back to user code -- a
   system call's return, as ITIMER_PROF's does.  The program taking
   SIGPROF (a handler, SIG_IGN, a mask naming it) gets it, the clocks
   moved to the real-time signal first (perf_signal_give).  Threads the
   scan found keep the real-time signal: their signals are told by si_fd
   and weigh a period each (no thread storage). */
static void perf_signal_take(void)
{
  if (!P.hz || P.clock != CLK_PERF || !P.sig || P.sig == SIGPROF || P.dump_signal == SIGPROF) return;
  struct sigaction old, sa;
  sigset_t cur;
  sigemptyset(&cur);
  if (sigaction(SIGPROF, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL
      || raw_sigmask(SIG_BLOCK, NULL, &cur) != 0 || sigismember(&cur, SIGPROF) == 1)
    return;
  /* each handler blocks the other signal: a second signal frame on a
     thread's small stack (PTHREAD_STACK_MIN under AddressSanitizer:
     stksafe.sh's tiny threads) overflowed it */
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, P.sig);
  if (sigaction(SIGPROF, &sa, NULL) != 0) return;
  if (!deliverable(SIGPROF)) {
    sigaction(SIGPROF, &old, NULL);
    return;
  }
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGPROF);
  sigaction(P.sig, &sa, NULL);
  __atomic_store_n(&P.psig, SIGPROF, __ATOMIC_RELEASE);
}

/* The program takes SIGPROF: every own thread's perf clock is made again
   on the real-time signal, and the program's handler goes in once no
   other thread has a SIGPROF of libprof's pending (as move_sampling). */
static void perf_signal_give(void)
{
  sigset_t old;
  int taken = timers_enter(&old);
  if (!taken || __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE) != SIGPROF) {
    timers_leave(&old, taken);
    return;
  }
  __atomic_store_n(&P.psig, 0, __ATOMIC_RELEASE);
  int to = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE);
  for (int k = 0; k < T.used; k++) {
    treg *e = &T.e[k];
    if (!e->tid || !e->live || e->foreign || e->kind != CLK_PERF) continue;
    clock_disarm(e);
    e->live = to && clock_arm(e, e->tid, to, 1);
  }
  wait_unpending(SIGPROF);
  T.moves++;
  T.from = SIGPROF;
  T.to = to;
  timers_leave(&old, 1);
}

/* At exit: the moves (LIBPROF_OVERHEAD=report), and always the time not
   sampled when no signal was left. */
static void report_signal(int report)
{
  char a[24], b[24], c[24];
  if (!T.moves || (T.to && !report)) return;
  make_name(a, sizeof a, NULL, NULL, T.from);
  if (T.to) {
    make_name(b, sizeof b, NULL, NULL, T.to);
    make_name(c, sizeof c, NULL, NULL, T.moves);
    say("libprof: the program took signal ", a, " for itself; sampling moved to signal ");
    say(b, " (moves: ", c);
    say(")\n", NULL, NULL);
    return;
  }
  uint64_t ns = process_cpu_ns() - T.down_ns, hz = (uint64_t)P.hz;
  make_name(b, sizeof b, NULL, NULL, (long)(ns * hz / 1000000000u));
  make_name(c, sizeof c, NULL, NULL, (long)(ns / 1000000u));
  say("libprof: the program took signal ", a, " for itself and no other real-time signal was free: ");
  say(b, " samples (", c);
  say(" ms of CPU time) not taken\n", NULL, NULL);
}

/* A forked child's CLK_ITIMER clock: a POSIX timer on the process's CPU
   clock signalling SIGPROF -- the same clock, on the kernel's tick,
   weighed by itimer_weigh -- which an exec deletes.  ITIMER_PROF outlives
   exec, and its SIGPROF, at its default in the program exec'd, killed it
   (gawk's `cmd | getline`: the shell died, close() 283).  ITIMER_PROF
   where no POSIX timer can be had. */
static void itimer_child(void)
{
  T.itimer_kid = arm_raw(CLOCK_PROCESS_CPUTIME_ID, SIGEV_SIGNAL, 0, SIGPROF, 0);
  if (T.itimer_kid < 0) itimer_set(period_ns());
}

/* At start-up, once the signal is chosen: the process's timers (again
   after a failed exec: exec.c). */
static void timers_start(void)
{
  if (!P.hz) return;
  T.clock_pid = (pid_t)syscall(SYS_getpid);
  if (P.clock == CLK_ITIMER && P.sig == SIGPROF) {
    itimer_mark = process_cpu_ns();
    if (T.clock_pid != P.pid) itimer_child();   /* (a forked child's) */
    else itimer_set(period_ns());
  }
  scan_timer_start(P.sig);
}

/* After fork: only the forking thread lives, and no timer is inherited. */
static void timers_after_fork(void)
{
  T.lock = 0;
  for (int k = 0; k < T.used; k++)       /* the parent's events' pages */
    if (T.e[k].tid && T.e[k].live && T.e[k].kind == CLK_PERF) munmap(T.e[k].page, page_size);
  T.used = 0;
  T.free = -1;
  T.count = T.foreign = 0;
  foreign_perf = foreign_next = 0;
  T.skip = T.backoff = 0;
  T.last_count = 0;
  T.down_ns = process_cpu_ns();  /* (the child's CPU clock starts again) */
  P.paced = 0;
  P.paced_shift = P.paced_end_shift = 0;
  my_treg = 0;
  T.itimer_kid = -1;
  timers_start();
}

/* Before an exec (exec.c): the process's timers stopped. */
static void timers_stop(void)
{
  sigset_t old;
  int taken = timers_enter(&old);
  if (taken) {
    if (P.clock == CLK_ITIMER && T.itimer_kid < 0) itimer_set(0);
    if (T.itimer_kid >= 0) syscall(SYS_timer_delete, T.itimer_kid);
    T.itimer_kid = -1;
    if (T.scan_kid >= 0) syscall(SYS_timer_delete, T.scan_kid);
    T.scan_kid = -1;
  }
  timers_leave(&old, taken);
}

/* At exit, always: the threads libprof could not sample; and with
   LIBPROF_OVERHEAD=report the clock, its signals and samples. */
static void report_clock(int report)
{
  char a[24], b[24];
  if (P.unsampled) {
    make_name(a, sizeof a, NULL, NULL, (long)P.unsampled);
    say("libprof: ", a, " threads could not be given a sampling clock; their time is not in the profile\n");
  }
  if (P.paced) {
    /* the slowest clock at the end: of the threads that stopped, and of
       those still running (perf_pace may have sped them up again) */
    int end = P.paced_end_shift;
    if (lock_take(&T.lock, 100)) {
      for (int k = 0; k < T.used; k++)
        if (T.e[k].tid && T.e[k].live && !T.e[k].foreign && T.e[k].kind == CLK_PERF && T.e[k].shift > end)
          end = T.e[k].shift;
      lock_give(&T.lock, 1);
    } else {
      end = P.paced_shift;
    }
    make_name(a, sizeof a, NULL, NULL, (long)P.paced);
    make_name(b, sizeof b, NULL, NULL, (long)(P.hz >> P.paced_shift));
    say("libprof: a sampling signal cost more than its period here: ", a, " threads sampled at a lower rate (down to ");
    if (end < P.paced_shift) {
      make_name(a, sizeof a, NULL, NULL, (long)(P.hz >> end));
      say(b, " Hz, ", a);
      say(" Hz at the end", NULL, NULL);
    } else {
      say(b, " Hz", NULL);
    }
    say("); the times include the signals' cost\n", NULL, NULL);
  }
  if (!report || !P.hz) return;
  make_name(a, sizeof a, NULL, NULL, (long)P.signals);
  make_name(b, sizeof b, NULL, NULL, (long)P.samples);
  say("libprof: clock ", clock_names[P.clock], P.clock_user ? " (user time)" : "");
  say(": ", a, " signals carried ");
  say(b, " samples", NULL);
  if (P.clock_fallbacks) {
    make_name(a, sizeof a, NULL, NULL, (long)P.clock_fallbacks);
    say("; ", a, " threads on a POSIX timer instead");
  }
  say("\n", NULL, NULL);
}

/* ---- the program's own handlers ----
   A program that installs a handler for libprof's sampling signal (a
   real-time signal that was at its default when profiling started) gets
   it: libprof moves first.  libprof's own calls of sigaction go to the C
   library's (state.h), never here.  The program asking about that signal
   is told SIG_DFL, as it would be without libprof. */
static int is_mine(int sig)
{
  return sig > 0 && P.started && P.hz
         && (sig == __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE) || sig == __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE));
}

/* The program takes SIG, one of libprof's, for itself. */
static void give_back(int sig)
{
  if (sig == __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE)) perf_signal_give();
  else move_sampling(sig);
}

__attribute__((used)) static int do_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
  PROF_SYM(sigaction);
static int do_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
  int mine = is_mine(sig);
  if (act) take_rt(sig);
  if (mine && act) give_back(sig);
  int r = sigaction(sig, act, old);
  if (r == 0 && mine && old) {
    memset(old, 0, sizeof *old);
    old->sa_handler = SIG_DFL;
  }
  return r;
}

/* The C library's signal, under its other name; a weak reference, so
   that a static program gets it only if something else brings it (its
   siginterrupt, say): else the same call is made here -- handler, the
   signal blocked while it runs, SA_RESTART, as strace shows the C
   library's -- and no function of the C library joins the listing. */
extern __sighandler_t libc_signal(int, __sighandler_t) __asm__("bsd_signal") __attribute__((weak));

__attribute__((used)) static __sighandler_t do_signal(int sig, __sighandler_t handler)
  PROF_SYM(signal);
static __sighandler_t do_signal(int sig, __sighandler_t handler)
{
  int mine = is_mine(sig);
  take_rt(sig);
  if (mine) give_back(sig);
  __sighandler_t r;
  if (libc_signal) {
    r = libc_signal(sig, handler);
  } else {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (handler == SIG_ERR || sigaddset(&sa.sa_mask, sig) != 0) { errno = EINVAL; return SIG_ERR; }
    r = sigaction(sig, &sa, &old) == 0 ? old.sa_handler : SIG_ERR;
  }
  return mine && r != SIG_ERR ? SIG_DFL : r;
}
