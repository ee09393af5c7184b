/* sample.c -- sampling: a CPU-time timer per thread signals that thread
 * with a real-time signal of libprof's own, whose handler adds to the
 * histogram bin of the interrupted PC (overruns included; libprof's own
 * code dropped, or charged to mcount's caller); the thread's last
 * part-interval credited when it ends; the choice of the signal; and the
 * program's pthread_sigmask and sigprocmask, which keep that signal
 * unblocked.  Part of gmon.c's translation unit; uses base.c. */

/* ---- signal masks ----
   Threads that block every signal (servers' and compressors' workers,
   made with a full mask so that signals go to the main thread) would
   never be sampled.  So libprof's pthread_sigmask and sigprocmask, which
   the program's calls reach before the C library's, keep the sampling
   signal out of every mask they set, as glibc keeps its own two internal
   signals (32 and 33) out; the sampling handler touches nothing of the
   program's.  libprof's own masks go straight to the kernel. */
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
  if (!P.enabled || !P.bins) return;
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
    if (P.objects) objects_credit(pc, n);
    return;
  }
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
  rehome_at = 4;
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

static int pick_signal(const struct sigaction *sa)
{
  for (int s = SIGRTMAX; s >= SIGRTMIN; s--) {
    struct sigaction old;
    if (s == P.dump_signal || sigaction(s, NULL, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL && sigaction(s, sa, NULL) == 0) {
      if (deliverable(s)) return s;
      sigaction(s, &old, NULL);
    }
  }
  sigaction(SIGPROF, sa, NULL);
  return SIGPROF;
}
