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
  if (syscall(SYS_gettid) < 0) return;
  struct timespec zero = { 0, 0 };
  nanosleep(&zero, NULL);        /* (lock_take's, never with patience 0) */
  sched_yield();
  void *m = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m != MAP_FAILED) munmap(m, 4096);
}

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
  if (!P.enabled || !P.bins) {
    if (P.bins) facts_off(n);
    return;
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
      return;
    }
    pc = self;
  }
  if (S.depth) stacks_record(uc, pc, n);
  uintptr_t off = pc - P.lowpc;
  if (off >= P.textsize) {
    facts_outside(pc, n);
    if (P.objects) objects_credit(pc, n);
    return;
  }
  last_bin = off / HIST_GRANULE;
  __atomic_fetch_add(&P.bins[last_bin], n, __ATOMIC_RELAXED);
}

static uint64_t thread_cpu_ns(void);

/* Every thread's timer, so that all can be re-armed on another signal
   when the program takes libprof's (move_sampling): a mapped array of
   {tid, timer, live}, its free entries chained, under T.lock.  Only the
   thread itself adds and removes its entry; the mover replaces timers,
   with every signal blocked.  A thread's start and end take the lock
   with signals open (blocking them there cost 4 KB per thread under
   AddressSanitizer, measured with 10,000 live threads): a handler of the
   same thread that finds the lock its own -- the program's, taking
   libprof's signal in the middle of a thread's start, or exiting there
   -- leaves the registry alone (lock_take gives 0). */
typedef struct {
  pid_t tid;                     /* 0: free */
  int next;                      /* the next free entry, -1 none */
  int live;                      /* its timer exists */
  timer_t id;
} treg;
static struct {
  int lock;
  treg *e;
  int cap, used, free;
  int moves, from, to;           /* the last move: from the program's signal to ours (0: none left) */
  uint64_t down_ns;              /* process CPU time when sampling stopped (no signal left) */
} T = { 0, NULL, 0, 0, -1, 0, 0, 0, 0 };
static __thread int my_treg;     /* 1 + this thread's entry, 0 none */

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

/* A CPU-time timer of thread TID (the caller's own, or another's: the
   kernel's clock id for a thread's CPU time), signalling that thread only
   with SIG at the rate LIBPROF_HZ. */
static int arm_timer(pid_t t, int sig, timer_t *id)
{
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = sig;
  ev._sigev_un._tid = t;
  clockid_t clk = t == tid() ? CLOCK_THREAD_CPUTIME_ID
                             : (clockid_t)(((unsigned)~t << 3) | 6u);   /* CPUCLOCK_PERTHREAD | SCHED */
  if (timer_create(clk, &ev, id) != 0) return 0;
  long ns = 1000000000L / P.hz;
  struct itimerspec its;
  its.it_interval.tv_sec = ns / 1000000000L;
  its.it_interval.tv_nsec = ns % 1000000000L;
  its.it_value = its.it_interval;
  timer_settime(*id, 0, &its, NULL);
  return 1;
}

/* A CPU-time timer for the calling thread, signalling only this thread. */
static void start_thread_timer(void)
{
  if (!P.hz || have_timer) return;
  if (!lock_take(&T.lock, -1)) return;
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
  ticks_seen = 0;
  rehome_at = 4;
  last_bin = NO_BIN;
  timer_cpu0 = thread_cpu_ns();
  if (k >= 0 && P.sig && arm_timer(tid(), P.sig, &my_timer)) {
    if (k == T.free) T.free = T.e[k].next; else T.used++;
    T.e[k].tid = tid();
    T.e[k].live = 1;
    T.e[k].id = my_timer;
    my_treg = k + 1;
    have_timer = 1;
  }
  lock_give(&T.lock, 1);
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
  if (!lock_take(&T.lock, -1)) return;
  int live = 1;
  if (my_treg) {
    treg *e = &T.e[my_treg - 1];
    my_timer = e->id;
    live = e->live;
    e->tid = 0;
    e->next = T.free;
    T.free = my_treg - 1;
    my_treg = 0;
  }
  if (live) timer_delete(my_timer);
  have_timer = 0;
  lock_give(&T.lock, 1);
  if (!live) return;             /* sampling stopped (move_sampling): nothing owed */
  if (!P.enabled || !P.bins || last_bin == NO_BIN) return;
  uint64_t ns = 1000000000u / (uint64_t)P.hz, ran = thread_cpu_ns() - timer_cpu0;
  uint64_t due = (ran + ns / 2) / ns;
  if (due > ticks_seen) {
    __atomic_fetch_add(&P.bins[last_bin], (uint32_t)(due - ticks_seen), __ATOMIC_RELAXED);
    stacks_credit_last(due - ticks_seen);
  }
  ticks_seen = due;
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
  int to = free_rt_signal(&sa, from);
  __atomic_store_n(&P.sig, to, __ATOMIC_RELEASE);
  for (int k = 0; k < T.used; k++) {
    treg *e = &T.e[k];
    if (!e->tid || !e->live) continue;
    timer_delete(e->id);
    e->live = to && arm_timer(e->tid, to, &e->id);
  }
  /* a deleted timer's signal already queued stays queued (measured):
     until every other thread has taken it -- libprof's handler is still
     the one installed -- the program's is not (200 ms at most: a thread
     that blocks it for good keeps it); this thread takes its own when
     its mask comes back */
  struct timespec ms = { 0, 1000000 };
  for (int round = 0; round < 200; round++) {
    int any = 0;
    for (int k = 0; k < T.used && !any; k++)
      any = T.e[k].tid && T.e[k].tid != tid() && pending_for(T.e[k].tid, from);
    if (!any) break;
    nanosleep(&ms, NULL);
  }
  if (!to) T.down_ns = process_cpu_ns();
  T.moves++;
  T.from = from;
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

/* After fork: only the forking thread lives, and no timer is inherited. */
static void timers_after_fork(void)
{
  T.lock = 0;
  T.used = 0;
  T.free = -1;
  my_treg = 0;
}

/* ---- the program's own handlers ----
   A program that installs a handler for libprof's sampling signal (a
   real-time signal that was at its default when profiling started) gets
   it: libprof moves first.  libprof's own calls of sigaction go to the C
   library's (state.h), never here.  The program asking about that signal
   is told SIG_DFL, as it would be without libprof. */
static int is_mine(int sig)
{
  return sig > 0 && P.started && P.hz && sig == __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE);
}

__attribute__((used)) static int do_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
  PROF_SYM(sigaction);
static int do_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
  int mine = is_mine(sig);
  if (act) take_rt(sig);
  if (mine && act) move_sampling(sig);
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
  if (mine) move_sampling(sig);
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
