/* util.c -- the single error path and checked allocation. */
#define _GNU_SOURCE             /* fopencookie */
#include "util/util.h"
#include <errno.h>
#include <locale.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

/* The one piece of process-wide state below the driver: the name error
   messages start with, set once at start-up. */
static const char *progname = "gprof";

void util_set_name(const char *whoami) { progname = whoami; }

const char *util_name(void) { return progname; }

static jmp_buf *fatal_env;
static int fatal_quiet;

void util_fatal_trap(jmp_buf *env, int quiet)
{
  fatal_env = env;
  fatal_quiet = quiet;
}

_Noreturn void fatal(const char *fmt, ...)
{
  va_list ap;
  if (fatal_env && fatal_quiet) longjmp(*fatal_env, 1);
  fflush(stdout);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  if (fatal_env) longjmp(*fatal_env, 1);
  exit(1);
}

/* "PROGNAME: " then the message, in one vfprintf (so in one write to an
   unbuffered stderr, as fatal's): the name goes into the format, its
   '%'s doubled. */
static void print_prefixed(const char *fmt, va_list ap)
{
  size_t n = strlen(progname), m = strlen(fmt);
  char *f = malloc(2 * n + 2 + m + 1), *q = f;
  if (!f) {                     /* no memory: the same bytes, in two writes */
    fprintf(stderr, "%s: ", progname);
    vfprintf(stderr, fmt, ap);
    return;
  }
  for (const char *p = progname; *p; p++) {
    if (*p == '%') *q++ = '%';
    *q++ = *p;
  }
  *q++ = ':'; *q++ = ' ';
  memcpy(q, fmt, m + 1);
  vfprintf(stderr, f, ap);
  free(f);
}

_Noreturn void msg_fatal(const char *fmt, ...)
{
  va_list ap;
  if (fatal_env && fatal_quiet) longjmp(*fatal_env, 1);
  fflush(stdout);
  va_start(ap, fmt);
  print_prefixed(fmt, ap);
  va_end(ap);
  if (fatal_env) longjmp(*fatal_env, 1);
  exit(1);
}

void msg_warn(const char *fmt, ...)
{
  va_list ap;
  fflush(stdout);
  va_start(ap, fmt);
  print_prefixed(fmt, ap);
  va_end(ap);
}

void msg_format_clean(char *m, size_t n, const char *fmt, va_list ap)
{
  vsnprintf(m, n, fmt, ap);
  for (char *c = m; *c; c++)
    if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
}

_Noreturn void fatal_perror(const char *name, const char *msg)
{
  if (*name) fatal("%s: %s\n", name, msg);
  fatal("%s\n", msg);
}

int util_cmp_vma(const void *a, const void *b)
{
  vma_t x = *(const vma_t *)a, y = *(const vma_t *)b;
  return (x > y) - (x < y);
}

void util_memory_policy(void)
{
#ifdef M_MMAP_THRESHOLD
  (void)mallopt(M_MMAP_THRESHOLD, 64 * 1024);   /* also ends the sliding threshold */
#endif
}

void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p)
    msg_fatal("out of memory allocating %zu bytes\n", n);
  return p;
}

void *xmalloc_aligned(size_t align, size_t n)
{
  void *p;
  if (posix_memalign(&p, align, n ? n : 1))
    msg_fatal("out of memory allocating %zu bytes\n", n);
  return p;
}

void *xmalloc_huge(size_t n)
{
  const size_t huge = (size_t)2 << 20;
  if (n < 2 * huge) return xmalloc_aligned(64, n);
  void *p = xmalloc_aligned(huge, n);   /* a last part under 2 MiB stays in small pages */
#ifdef MADV_HUGEPAGE
  (void)madvise(p, n, MADV_HUGEPAGE);   /* a hint: may fail */
#endif
  return p;
}

void *xcalloc(size_t n, size_t m)
{
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p)
    msg_fatal("out of memory allocating %zu bytes\n", n * m);
  return p;
}

void *xrealloc(void *p, size_t n)
{
  p = realloc(p, n ? n : 1);
  if (!p)
    msg_fatal("out of memory allocating %zu bytes\n", n);
  return p;
}

char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* ---- input that must end ---- */

static ssize_t bounded_read(void *cookie, char *buf, size_t n)
{
  BoundedIn *in = cookie;
  if (in->left == 0) {
    if (getc(in->raw) == EOF) return ferror(in->raw) ? -1 : 0;
    in->overrun = 1;
    errno = EFBIG;
    return -1;
  }
  if (n > in->left) n = (size_t)in->left;
  size_t got = fread(buf, 1, n, in->raw);
  in->left -= got;
  if (got == 0 && ferror(in->raw)) return -1;
  return (ssize_t)got;
}

static int bounded_close_raw(void *cookie)
{
  (void)cookie;
  return 0;
}

void bounded_wrap(BoundedIn *in, FILE *f, uint64_t limit)
{
  struct stat st;
  in->raw = f;
  in->f = f;
  in->overrun = 0;
  in->left = limit;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) return;
  cookie_io_functions_t io = { bounded_read, NULL, NULL, bounded_close_raw };
  FILE *c = fopencookie(in, "r", io);
  if (c) in->f = c;
}

int bounded_open(BoundedIn *in, const char *path, uint64_t limit)
{
  FILE *f = fopen(path, "r");
  if (!f) return errno;
  bounded_wrap(in, f, limit);
  return 0;
}

int open_regular(const char *path, FILE **f)
{
  *f = NULL;
  struct stat st;
  /* a device is not even opened (opening some has effects: a tape
     rewinds, a watchdog starts); what the name reaches may change
     before the open, which therefore does not wait either, and fstat
     says what was opened */
  if (stat(path, &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EISDIR;
  if (!S_ISREG(st.st_mode)) return OPEN_NOT_REGULAR;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return errno;
  int err = 0;
  if (fstat(fd, &st) != 0) err = errno;
  else if (S_ISDIR(st.st_mode)) err = EISDIR;
  else if (!S_ISREG(st.st_mode)) err = OPEN_NOT_REGULAR;
  else {
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1 || !(*f = fdopen(fd, "r"))) err = errno;
  }
  if (err) close(fd);
  return err;
}

const char *open_regular_error(int err)
{
  return err == OPEN_NOT_REGULAR ? "not a regular file" : strerror(err);
}

int bounded_open_regular(BoundedIn *in, const char *path, uint64_t limit)
{
  FILE *f;
  int err = open_regular(path, &f);
  if (!err) bounded_wrap(in, f, limit);
  return err;
}

int bounded_overrun(const BoundedIn *in) { return in->overrun; }

uint64_t bounded_left(const BoundedIn *in)
{
  struct stat st;
  if (in->f != in->raw || fstat(fileno(in->raw), &st) != 0 || !S_ISREG(st.st_mode))
    return UINT64_MAX;
  off_t at = ftello(in->raw);
  return at < 0 || at > st.st_size ? 0 : (uint64_t)(st.st_size - at);
}

void bounded_close(BoundedIn *in)
{
  if (in->f && in->f != in->raw) fclose(in->f);
  if (in->raw) fclose(in->raw);
  in->f = in->raw = NULL;
}

/* ---- files written whole or not at all ---- */

/* The stream writes through this, so the first failed write's errno is
   kept (stdio's error flag alone loses it: a disk that fills mid-file
   then read "Input/output error"). */
static ssize_t atomic_write(void *cookie, const char *buf, size_t n)
{
  AtomicFile *af = cookie;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(af->fd, buf + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (!af->err) af->err = w < 0 ? errno : EIO;
      return done ? (ssize_t)done : -1;
    }
    done += (size_t)w;
  }
  return (ssize_t)done;
}

static int atomic_stream(AtomicFile *af)
{
  cookie_io_functions_t io = { NULL, atomic_write, NULL, NULL };
  af->f = fopencookie(af, "w", io);
  if (!af->f) return errno ? errno : ENOMEM;
  setvbuf(af->f, NULL, _IOFBF, 1 << 16);
  return 0;
}

/* DIR of PATH ("." for a bare name), malloc'd. */
static char *dir_of(const char *path)
{
  const char *slash = strrchr(path, '/');
  if (!slash) return xstrdup(".");
  if (slash == path) return xstrdup("/");
  char *d = xmalloc((size_t)(slash - path) + 1);
  memcpy(d, path, (size_t)(slash - path));
  d[slash - path] = 0;
  return d;
}

int atomic_open(AtomicFile *af, const char *path)
{
  struct stat st;
  int have = 0, e;
  memset(af, 0, sizeof *af);
  af->fd = -1;
  /* a write past RLIMIT_FSIZE must fail with EFBIG, not kill us and leave
     a partial file behind */
  af->old_xfsz = signal(SIGXFSZ, SIG_IGN);
  /* what PATH names, through any symbolic links */
  char *real = realpath(path, NULL);
  struct stat lst;
  if (real && stat(real, &st) == 0) have = 1;
  /* not there at all: a new file, made whole as below */
  if (!real && lstat(path, &lst) != 0) real = xstrdup(path);
  /* In place, as GNU writes (fopen "w"): a dangling link (its target is
     created, the link stays), a device or pipe, a directory (the open
     fails: "Is a directory"), and a file with other hard links (they go
     on sharing it). */
  if (!real || (have && (!S_ISREG(st.st_mode) || st.st_nlink > 1))) {
    free(real);
    af->path = xstrdup(path);
    af->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (af->fd < 0 || (e = atomic_stream(af)) != 0) {
      e = errno;
      atomic_abort(af);
      return e;
    }
    return 0;
  }
  /* Otherwise a new file, complete before it replaces the old one: an
     unnamed O_TMPFILE in the target's directory (a kill leaves nothing),
     a named mkstemp file where the file system has none.  It takes the
     old file's mode and owner (mode 600 stays 600). */
  af->path = real;
  char *dir = dir_of(real);
  af->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (af->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL || errno == ENOENT)) {
    af->tmp = xmalloc(strlen(real) + 16);
    sprintf(af->tmp, "%s.tmpXXXXXX", real);
    af->fd = mkstemp(af->tmp);
    if (af->fd < 0) { free(af->tmp); af->tmp = NULL; }
    else {
      mode_t um = umask(0);     /* mkstemp's is private: a plain fopen's */
      umask(um);
      if (fchmod(af->fd, 0666 & ~um) != 0) { /* stays private: harmless */ }
    }
  } else if (af->fd >= 0) {
    af->unnamed = 1;
  }
  free(dir);
  if (af->fd < 0) {
    e = errno;
    atomic_abort(af);
    return e;
  }
  if (have) {
    if (fchown(af->fd, st.st_uid, st.st_gid) != 0) { /* not ours to give: keep ours */ }
    if (fchmod(af->fd, st.st_mode & 07777) != 0) { /* harmless */ }
  }
  if ((e = atomic_stream(af)) != 0) {
    atomic_abort(af);
    return e;
  }
  return 0;
}

void atomic_abort(AtomicFile *af)
{
  if (af->f) fclose(af->f);
  if (af->fd >= 0) close(af->fd);
  if (af->tmp) unlink(af->tmp);
  free(af->tmp);
  free(af->path);
  af->f = NULL;
  af->fd = -1;
  af->tmp = af->path = NULL;
  signal(SIGXFSZ, af->old_xfsz);
}

/* Gives the unnamed file F the name PATH, replacing what is there: linked
   under a fresh name beside it, then renamed over it. */
static int link_into_place(int fd, const char *path)
{
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return 0;
  if (errno != EEXIST) return errno;
  char *tmp = xmalloc(strlen(path) + 32);
  int e = EEXIST;
  for (unsigned i = 0; i < 100 && e == EEXIST; i++) {
    sprintf(tmp, "%s.tmp%u.%u", path, (unsigned)getpid(), i);
    e = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
  }
  if (!e && rename(tmp, path) != 0) {
    e = errno;
    unlink(tmp);
  }
  free(tmp);
  return e;
}

int atomic_commit(AtomicFile *af)
{
  int e = 0;
  if (fflush(af->f) != 0 || ferror(af->f)) e = af->err ? af->err : (errno ? errno : EIO);
  if (!e && af->err) e = af->err;
  if (fclose(af->f) != 0 && !e) e = af->err ? af->err : (errno ? errno : EIO);
  af->f = NULL;
  int atomic = af->tmp || af->unnamed;
  if (!e && atomic && fsync(af->fd) != 0 && errno != EINVAL && errno != EROFS) e = errno;
  if (!e && af->unnamed) e = link_into_place(af->fd, af->path);
  if (close(af->fd) != 0 && !e && !atomic) e = errno;
  af->fd = -1;
  if (!e && af->tmp && rename(af->tmp, af->path) != 0) e = errno;
  if (e && af->tmp) unlink(af->tmp);
  free(af->tmp);
  free(af->path);
  af->tmp = af->path = NULL;
  signal(SIGXFSZ, af->old_xfsz);
  return e;
}

int util_locale_errno(void)
{
  errno = 0;
  setlocale(LC_MESSAGES, "");
  setlocale(LC_CTYPE, "");
  int e = errno;
  setlocale(LC_ALL, "C");
  return e;
}

void sort_keyval(KeyVal *v, size_t n)
{
  size_t i;
  for (i = 1; i < n && v[i - 1].key <= v[i].key; i++) {}
  if (i >= n) return;                   /* already in order: common */
  /* least significant byte first; a byte all keys share needs no pass */
  uint64_t all_or = 0, all_and = ~(uint64_t)0;
  for (i = 0; i < n; i++) { all_or |= v[i].key; all_and &= v[i].key; }
  KeyVal *tmp = xmalloc(n * sizeof *tmp), *src = v, *dst = tmp;
  for (unsigned sh = 0; sh < 64; sh += 8) {
    if ((((all_or ^ all_and) >> sh) & 0xff) == 0) continue;
    size_t count[257] = { 0 };
    for (i = 0; i < n; i++) count[((src[i].key >> sh) & 0xff) + 1]++;
    for (i = 1; i < 257; i++) count[i] += count[i - 1];
    for (i = 0; i < n; i++) dst[count[(src[i].key >> sh) & 0xff]++] = src[i];
    KeyVal *t = src; src = dst; dst = t;
  }
  if (src != v) memcpy(v, src, n * sizeof *v);
  free(tmp);
}

int name_cmp(NamePrefix pa, const char *a, NamePrefix pb, const char *b)
{
  if (pa.hi != pb.hi) return pa.hi < pb.hi ? -1 : 1;
  if (pa.lo != pb.lo) return pa.lo < pb.lo ? -1 : 1;
  if ((pa.lo & 0xff) == 0) return 0;    /* both end within 16 bytes */
  return strcmp(a + 16, b + 16);
}

void util_invariant_failed(const char *what, const char *file, int line)
{
  fflush(stdout);
  fprintf(stderr, "gprof: %s:%d: invariant broken: %s\n", file, line, what);
  abort();
}
