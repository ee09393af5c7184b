/* exec.c -- the exec functions: no signal of libprof's outlives an exec.
 *
 * A sampling signal pending when a program calls execve stays pending in
 * the program it becomes, whose disposition for it is the default again:
 * SIGPROF and the real-time signals end the process.  A -pg program that
 * exec'd another after its first 10 ms of CPU (its thread on the perf
 * clock, whose overflows the kernel's exec work itself counts) was
 * killed by "Profiling timer expired" in 1 run of 40 at 100 Hz, 10 of 10
 * at 1 kHz (clock.sh); ITIMER_PROF (LIBPROF_CLOCK=itimer), which survives exec, did
 * it every time, as glibc's runtime does.  So the program's calls of the
 * exec functions reach these first: the calling thread's clock, the
 * scan's timer and ITIMER_PROF are stopped, libprof's signals taken out
 * of the pending set, and the call made; if it fails, sampling resumes.
 * The profile is not written (as with glibc's runtime: the process image
 * that ran is gone without its exit handlers).
 *
 * Not in a vfork child (its pid is not the clocks' process): it shares
 * the parent's memory, whose clocks are the parent's, and has no timer
 * or pending signal of its own.  The search of execvp and execlp is
 * POSIX's: PATH (unset: /bin:/usr/bin), an empty entry the current
 * directory, on to the next entry where the file is missing or not
 * allowed (EACCES reported if no entry worked), a file that is no
 * executable format run by /bin/sh.  Part of gmon.c's translation unit;
 * uses sample.c. */

extern char **environ;

/* What exec_prepare stopped, for exec_resume. */
typedef struct {
  int stopped;                   /* 0: nothing done (not sampling, a vfork child) */
  int had_timer;                 /* the thread's own clock */
  sigset_t old;                  /* the thread's mask */
} exec_state;

static void exec_prepare(exec_state *x)
{
  x->stopped = 0;
  if (!P.hz || !P.started || !T.clock_pid || (pid_t)syscall(SYS_getpid) != T.clock_pid) return;
  sigset_t ours;
  sigemptyset(&ours);
  int s = __atomic_load_n(&P.sig, __ATOMIC_ACQUIRE), ps = __atomic_load_n(&P.psig, __ATOMIC_ACQUIRE);
  if (s) sigaddset(&ours, s);
  if (ps) sigaddset(&ours, ps);
  if (sigisemptyset(&ours)) return;
  raw_sigmask(SIG_BLOCK, &ours, &x->old);
  x->stopped = 1;
  x->had_timer = have_timer;
  stop_thread_timer();
  timers_stop();
  /* what was signalled before the clocks stopped */
  struct timespec zero = { 0, 0 };
  for (int i = 0; i < 64 && sigtimedwait(&ours, NULL, &zero) > 0; i++) {}
  raw_sigmask(SIG_SETMASK, &x->old, NULL);
}

/* The exec failed: sampling as before (ERRNO kept). */
static void exec_resume(const exec_state *x)
{
  if (!x->stopped) return;
  int err = errno;
  timers_start();
  if (x->had_timer) start_thread_timer();
  errno = err;
}

static int exec_raw(const char *path, char *const argv[], char *const envp[])
{
  return (int)syscall(SYS_execve, path, argv, envp);
}

/* FILE is no executable format: /bin/sh runs it, with ARGV's arguments */
static void exec_script(const char *file, char *const argv[], char *const envp[])
{
  size_t n = 0;
  while (argv && argv[n]) n++;   /* (Linux takes a null vector) */
  size_t bytes = (n + 3) * sizeof(char *);
  char **sh = map_zero(bytes);
  if (!sh) return;
  sh[0] = (char *)"/bin/sh";
  sh[1] = (char *)file;
  for (size_t i = 1; i < n; i++) sh[i + 1] = argv[i];
  int err;
  exec_raw("/bin/sh", sh, envp);
  err = errno;
  munmap(sh, bytes);
  errno = err;
}

/* execvpe's search, clocks already stopped */
static int exec_search(const char *file, char *const argv[], char *const envp[])
{
  if (!*file) {
    errno = ENOENT;
    return -1;
  }
  if (strchr(file, '/')) {
    exec_raw(file, argv, envp);
    if (errno == ENOEXEC) exec_script(file, argv, envp);
    return -1;
  }
  const char *path = getenv("PATH");
  if (!path) path = "/bin:/usr/bin";
  size_t flen = strlen(file), plen = strlen(path);
  if (flen >= PATH_MAX) {
    errno = ENAMETOOLONG;
    return -1;
  }
  /* not on the caller's stack, which may be small: a page or so mapped,
     room for any entry a name under PATH_MAX can be made of */
  size_t cap = (plen < PATH_MAX ? plen : PATH_MAX) + 1 + flen + 1;
  char *buf = map_zero(cap);
  if (!buf) {
    errno = ENOMEM;
    return -1;
  }
  int denied = 0, err = ENOENT;
  for (const char *p = path;; p++) {
    const char *end = strchr(p, ':');
    size_t dlen = end ? (size_t)(end - p) : strlen(p);
    if (dlen + 1 + flen < PATH_MAX) {
      size_t k = 0;
      if (dlen) {
        memcpy(buf, p, dlen);
        k = dlen;
        buf[k++] = '/';
      }
      memcpy(buf + k, file, flen + 1);
      exec_raw(buf, argv, envp);
      err = errno;
      if (err == EACCES) denied = 1;
      else if (err == ENOEXEC) {
        exec_script(buf, argv, envp);
        err = errno;
        break;
      } else if (err != ENOENT && err != ESTALE && err != ENOTDIR && err != ENODEV
                 && err != ETIMEDOUT && err != ENAMETOOLONG)
        break;
      err = denied ? EACCES : ENOENT;
    }
    if (!end) break;
    p = end;
  }
  munmap(buf, cap);
  errno = err;
  return -1;
}

__attribute__((used)) static int do_execve(const char *path, char *const argv[], char *const envp[])
  PROF_SYM(execve);
static int do_execve(const char *path, char *const argv[], char *const envp[])
{
  exec_state x;
  exec_prepare(&x);
  int r = exec_raw(path, argv, envp);
  exec_resume(&x);
  return r;
}

__attribute__((used)) static int do_execv(const char *path, char *const argv[]) PROF_SYM(execv);
static int do_execv(const char *path, char *const argv[])
{
  return do_execve(path, argv, environ);
}

__attribute__((used)) static int do_execvpe(const char *file, char *const argv[], char *const envp[])
  PROF_SYM(execvpe);
static int do_execvpe(const char *file, char *const argv[], char *const envp[])
{
  exec_state x;
  exec_prepare(&x);
  int r = exec_search(file, argv, envp);
  exec_resume(&x);
  return r;
}

__attribute__((used)) static int do_execvp(const char *file, char *const argv[]) PROF_SYM(execvp);
static int do_execvp(const char *file, char *const argv[])
{
  return do_execvpe(file, argv, environ);
}

__attribute__((used)) static int do_execveat(int dirfd, const char *path, char *const argv[],
                                             char *const envp[], int flags) PROF_SYM(execveat);
static int do_execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
  exec_state x;
  exec_prepare(&x);
  int r = (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags);
  exec_resume(&x);
  return r;
}

/* (through /proc where the kernel has no execveat) */
__attribute__((used)) static int do_fexecve(int fd, char *const argv[], char *const envp[]) PROF_SYM(fexecve);
static int do_fexecve(int fd, char *const argv[], char *const envp[])
{
  exec_state x;
  exec_prepare(&x);
  int r = (int)syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
  if (r < 0 && errno == ENOSYS) {
    char name[40];
    if (make_name(name, sizeof name, "/proc/self/fd/", NULL, fd) == 0) r = exec_raw(name, argv, envp);
    else errno = ENOSYS;
  }
  exec_resume(&x);
  return r;
}

/* The list forms: FIRST and the arguments after it to their NULL, in
   mapped memory (a list of any length, on any stack), *BYTES long; AP
   left after the NULL.  NULL when there is no memory. */
static char **exec_gather(const char *first, va_list *ap, size_t *bytes)
{
  va_list c;
  va_copy(c, *ap);
  size_t n = 0;                  /* (a list that is only its NULL: nothing after it is read) */
  if (first)
    for (n = 1; va_arg(c, char *); n++) {}
  va_end(c);
  *bytes = (n + 1) * sizeof(char *);
  char **vec = map_zero(*bytes);
  if (!vec) {
    errno = ENOMEM;
    return NULL;
  }
  vec[0] = (char *)first;
  for (size_t i = 1; i < n; i++) vec[i] = va_arg(*ap, char *);
  if (first) (void)va_arg(*ap, char *);
  return vec;
}

/* An exec of a list form: KIND's call of WHAT with ARG and those after
   it (and, for EXEC_ENV, the environment after their NULL). */
enum { EXEC_PATH, EXEC_SEARCH, EXEC_ENV };
static int exec_list(int kind, const char *what, const char *arg, va_list *ap)
{
  size_t bytes;
  char **vec = exec_gather(arg, ap, &bytes);
  if (!vec) return -1;
  char *const *envp = kind == EXEC_ENV ? va_arg(*ap, char *const *) : environ;
  int r = kind == EXEC_SEARCH ? do_execvpe(what, vec, envp) : do_execve(what, vec, envp);
  int err = errno;
  munmap(vec, bytes);
  errno = err;
  return r;
}

__attribute__((used)) static int do_execl(const char *path, const char *arg, ...) PROF_SYM(execl);
static int do_execl(const char *path, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int r = exec_list(EXEC_PATH, path, arg, &ap);
  va_end(ap);
  return r;
}

__attribute__((used)) static int do_execlp(const char *file, const char *arg, ...) PROF_SYM(execlp);
static int do_execlp(const char *file, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int r = exec_list(EXEC_SEARCH, file, arg, &ap);
  va_end(ap);
  return r;
}

/* (the environment follows the list's NULL) */
__attribute__((used)) static int do_execle(const char *path, const char *arg, ...) PROF_SYM(execle);
static int do_execle(const char *path, const char *arg, ...)
{
  va_list ap;
  va_start(ap, arg);
  int r = exec_list(EXEC_ENV, path, arg, &ap);
  va_end(ap);
  return r;
}
