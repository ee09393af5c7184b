/* base.c -- what every other module of libprof uses: zeroed memory
 * straight from the kernel, thread ids, spin locks usable from signal
 * handlers, signal masks set without the program's wrappers, messages on
 * stderr without stdio, and names built without snprintf.  Everything
 * here is async-signal-safe.  Part of gmon.c's translation unit. */

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

/* glibc's own signals, 32 (cancellation) and 33 (set*id), kept out of
   masks as its wrappers keep them; libprof's masks go straight to the
   kernel. */
static void mask_del(sigset_t *s, int sig)
{
  const int w = 8 * (int)sizeof(unsigned long);
  ((unsigned long *)(void *)s)[(sig - 1) / w] &= ~(1UL << ((sig - 1) % w));
}

static int raw_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  return syscall(SYS_rt_sigprocmask, how, set, old, (size_t)(_NSIG / 8)) == 0 ? 0 : errno;
}

/* ---- locks (usable from signal handlers) ---- */

/* Takes LOCK; returns 1 if taken, 0 if this thread already holds it (a
   signal handler interrupting the holder), or, when PATIENCE_MS >= 0,
   after waiting that long for another thread (0: one try; else 100
   yields, then PATIENCE_MS sleeps of 1 ms: the yields alone take
   microseconds, where a holder may need a millisecond or more). */
static int lock_take(int *lock, int patience_ms)
{
  int me = (int)tid();
  if (__atomic_load_n(lock, __ATOMIC_RELAXED) == me) return 0;
  for (long spins = 0;; spins++) {
    int free_ = 0;
    if (__atomic_compare_exchange_n(lock, &free_, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return 1;
    if (patience_ms >= 0 && (!patience_ms || spins >= 100L + patience_ms)) return 0;
    struct timespec ms = { 0, 1000000 };
    if (spins < 100) sched_yield(); else nanosleep(&ms, NULL);
  }
}

static void lock_give(int *lock, int taken)
{
  if (taken) __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* libprof calling into the C library where it may allocate, and so call
   the program's malloc -- a program may define its own, compiled -pg:
   for that while the thread is not inside libprof (no lock held, no
   table half-changed), so those calls are counted as the program's.
   Before, they reached the slow path marked inside libprof and were
   reported at exit as lost (pthread_create's: 2 per helper thread;
   pthread_getattr_np's for LIBPROF_STACKS: 17). */
static int outside_begin(void)
{
  int k = in_libprof;
  in_libprof = 0;
  return k;
}

static void outside_end(int k)
{
  in_libprof = k;
}

/* A detached thread of libprof's own running FN, with every signal
   blocked (it never runs profiled code and takes no signal); 1 when made.
   FN calls spawned() first thing.  Until then the thread is still being
   set up by the C library or by whatever wraps pthread_create -- a
   sanitizer's runtime, an allocator -- which may hold a lock of its own
   meanwhile (AddressSanitizer's allocator, taken to size the new thread's
   stack, is not reset at fork): fork_prepare waits for P.starting to
   reach 0, so that a program forking as soon as it starts never hands its
   child such a lock held by a thread the child does not have. */
static int spawn(void *(*fn)(void *))
{
  pthread_t th;
  sigset_t all, old;
  sigfillset(&all);
  raw_sigmask(SIG_BLOCK, &all, &old);
  __atomic_add_fetch(&P.starting, 1, __ATOMIC_ACQ_REL);
  int k = outside_begin();
  int made = pthread_create(&th, NULL, fn, NULL) == 0;
  outside_end(k);
  if (made) pthread_detach(th);
  else __atomic_sub_fetch(&P.starting, 1, __ATOMIC_ACQ_REL);
  raw_sigmask(SIG_SETMASK, &old, NULL);
  return made;
}

/* Closes descriptors FROM..TO of the calling thread's table. */
static void close_span(unsigned from, unsigned to)
{
  if (from > to || syscall(SYS_close_range, from, to, 0) == 0) return;
  /* (kernels before 5.9: one by one, up to the limit or 65,536) */
  struct rlimit rl;
  unsigned top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (unsigned)rl.rlim_cur : 65536;
  for (unsigned d = from; d <= to && d < top; d++) close((int)d);
}

/* libprof's own threads open files while the program runs (a snapshot's
   profile, /proc/self/maps, an object's tables).  In the program's table
   of descriptors such a file holds, for a moment, the lowest free number,
   which a program setting up 0, 1 and 2 after closing them all counts on
   (a daemon's log opened as 3; tests/torture/lowfd.c: 758-2,574 of
   200,000 opens missed 0 with snapshots every millisecond).  So each of
   them takes a table of its own and closes there its copies of the
   program's descriptors (a copy would keep a pipe's write end open and
   its reader waiting for the end of file); 0, 1 and 2 are held there
   (/dev/null, else a pipe that never blocks), so that no file it opens
   takes a number a message could be written to, and its messages borrow
   the program's stderr when they are said (say).  Where the kernel
   refuses (a seccomp filter), the thread keeps the shared table, as
   before.  Returns 1 when the thread has a table of its own. */
static int own_files(void)
{
  if (syscall(SYS_unshare, CLONE_FILES) != 0) return 0;
  close_span(0, ~0u);
  int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    int pp[2];
    if (pipe2(pp, O_CLOEXEC | O_NONBLOCK) == 0) fd = pp[1];
  }
  while (fd >= 0 && fd < 2) fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  return 1;
}

/* Whether the calling thread is one of libprof's with a table of its own. */
static int in_own_table(void)
{
  int n = __atomic_load_n(&P.nown, __ATOMIC_ACQUIRE);
  if (n > (int)(sizeof P.own / sizeof *P.own)) n = (int)(sizeof P.own / sizeof *P.own);
  for (int k = 0; k < n; k++)
    if (__atomic_load_n(&P.own_table[k], __ATOMIC_ACQUIRE) && __atomic_load_n(&P.own[k], __ATOMIC_ACQUIRE) == tid())
      return 1;
  return 0;
}

/* A copy, in the calling thread's table, of the program's descriptor N
   as it is now (pidfd_getfd: the process's table); -1 if none. */
static int program_fd(int n)
{
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
  if (n < 0) return -1;
  int pfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
  if (pfd < 0) return -1;
  int fd = (int)syscall(SYS_pidfd_getfd, pfd, n, 0);
  close(pfd);
  return fd;
#else
  (void)n;
  return -1;
#endif
}

static void spawned(void)
{
  int k = __atomic_fetch_add(&P.nown, 1, __ATOMIC_ACQ_REL);   /* not a thread to sample (sample.c) */
  int mine = own_files();
  if (k < (int)(sizeof P.own / sizeof *P.own)) {
    __atomic_store_n(&P.own[k], tid(), __ATOMIC_RELEASE);
    __atomic_store_n(&P.own_table[k], (char)mine, __ATOMIC_RELEASE);
  }
  __atomic_sub_fetch(&P.starting, 1, __ATOMIC_ACQ_REL);
}

/* The copy of stderr kept for a program that closes its own (see
   before_sandbox), if that descriptor still is that copy; in a thread
   with a table of its own, borrowed (the caller closes it). */
static int early_err(int own)
{
  struct stat st;
  int fd = own ? program_fd(early.err_fd) : early.err_fd;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != early.err_dev || st.st_ino != early.err_ino) {
    if (own && fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

static void say(const char *a, const char *b, const char *c)
{
  /* stderr without stdio: this can run in a signal handler.  A thread
     of libprof's with a table of its own borrows the program's. */
  const char *s[3] = { a, b, c };
  int own = in_own_table(), fd = own ? program_fd(2) : 2, other = 0;
  for (int i = 0; i < 3; i++) {
    if (!s[i]) continue;
    while (fd < 0 || write(fd, s[i], strlen(s[i])) < 0) {
      /* stderr closed (EBADF): libprof's copy of it, once */
      if (other || (fd >= 0 && errno != EBADF)) goto out;
      other = 1;
      if (own && fd >= 0) close(fd);
      fd = early_err(own);
    }
  }
out:
  if (own && fd >= 0) close(fd);
}

#ifdef LIBPROF_CHECKS
static int make_name(char *dst, size_t cap, const char *a, const char *b, long num);
/* LP_ASSERT's end (prof.h): the debug build's broken invariant. */
__attribute__((noinline, cold)) static _Noreturn void prof_invariant_failed(const char *what, const char *file, int line)
{
  char at[256];
  make_name(at, sizeof at, file, ":", line);
  say("libprof: invariant ", what, " failed at ");
  say(at, "\n", NULL);
  abort();
}
#endif

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

