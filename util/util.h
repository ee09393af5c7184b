/* util.h -- the bottom layer: the address type, the single error path and
 * checked allocation.  Everything else may use it; it uses nothing of the
 * analyzer.
 *
 * fatal() prints its message (after flushing stdout, so the report and the
 * message keep their order) and ends the run with status 1.  The x*
 * allocators never return NULL: running out of memory is fatal, with the
 * program name set by util_set_name. */
#ifndef UTIL_H
#define UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t vma_t;         /* an address in the profiled program */

void util_set_name(const char *whoami);
/* That name, for the few messages that print it themselves (their bytes
   are not msg_fatal's: the name elsewhere, or mid-report without
   flushing stdout). */
const char *util_name(void);
_Noreturn void fatal(const char *fmt, ...);
/* The same with the program name first, "gprof: MSG" (GNU's usual
   prefix; messages that start otherwise use fatal, or print their own). */
_Noreturn void msg_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* FMT formatted into M (N bytes) with every control character made '?':
   for messages that quote a file's bytes (no controls on the terminal). */
void msg_format_clean(char *m, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* "NAME: MSG" as perror prints it: just "MSG" when NAME is empty. */
_Noreturn void fatal_perror(const char *name, const char *msg);

/* The invariants doc/DESIGN.md states ("Data structures and invariants"),
   checked where they are established in the build check-sanitize makes
   (-DGPROF_CHECKS; make check-sanitize runs the whole suite on it): a
   broken one aborts, naming the condition and the place. */
#ifdef GPROF_CHECKS
#define INVARIANT(cond) ((cond) ? (void)0 : util_invariant_failed(#cond, __FILE__, __LINE__))
#else
#define INVARIANT(cond) ((void)0)
#endif
_Noreturn void util_invariant_failed(const char *what, const char *file, int line);

/* For the fuzz targets and unit tests: while a trap is set, fatal() (and
   so every x* allocator failure) prints nothing when QUIET, and returns to
   the trap with longjmp instead of ending the process.  The caller owns
   the jmp_buf and must clear the trap (NULL) before it goes out of scope;
   whatever the interrupted stage had allocated is lost. */
#include <setjmp.h>
void util_fatal_trap(jmp_buf *env, int quiet);
/* qsort's comparison of two vma_t, ascending. */
int util_cmp_vma(const void *a, const void *b);
/* Called once at start-up: blocks from 64 KiB go straight to the
   kernel (mmap) and back to it when freed, at a fixed size.  glibc's
   malloc otherwise raises that threshold to the largest block freed so
   far, after which the tables that grow by doubling (arcs, -s's record
   hash) leave each old copy behind in the heap, touched and resident:
   gprof -s on 1,000 profiles peaked 1.8 MB higher (bench/bench.py's
   "-s peak memory <= GNU"). */
void util_memory_policy(void);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
/* N bytes at an address that is a multiple of ALIGN (a power of two, a
   multiple of sizeof(void *)); freed by free, resized by xrealloc. */
void *xmalloc_aligned(size_t align, size_t n);
/* N bytes for a big table read in random order, aligned to 64 and, from
   4 MiB, in huge pages where the kernel has them (with 4 KiB pages
   nearly every read of a table of 100s of MB also misses the TLB, and
   each page costs a fault).  Contents undefined; freed by free. */
void *xmalloc_huge(size_t n);
char *xstrdup(const char *s);
/* Sorts V[0..N) by key, stably (equal keys keep their order), in linear
   time (a radix sort: sorting 100,000s of symbols by address is then not a
   comparison sort's n log n calls). */
typedef struct { uint64_t key; uint64_t val; } KeyVal;
/* A name's first 16 bytes as two big-endian numbers (zeros after its
   end): sorts by name compare these copies first, so they read the name
   itself (a cache miss, on big tables) only when the two agree that far.
   name_cmp (PA of A, PB of B) has strcmp's sign. */
typedef struct { uint64_t hi, lo; } NamePrefix;
static inline NamePrefix name_prefix(const char *s)
{
  unsigned char b[16] = { 0 };
  for (int i = 0; i < 16 && s[i]; i++) b[i] = (unsigned char)s[i];
  NamePrefix p = { 0, 0 };
  for (int i = 0; i < 8; i++) {
    p.hi = p.hi << 8 | b[i];
    p.lo = p.lo << 8 | b[8 + i];
  }
  return p;
}
int name_cmp(NamePrefix pa, const char *a, NamePrefix pb, const char *b);
void sort_keyval(KeyVal *v, size_t n);

/* Input that must end.  A regular file is read to its end; anything else
   (a pipe, a device such as /dev/zero) is cut off after LIMIT bytes: the
   stream then reports an error, and bounded_overrun() says why, so a
   reader can say "FILE: no end after N bytes" instead of reading forever.
   bounded_open returns 0 or an errno value. */
typedef struct {
  FILE *f;                      /* what the reader reads */
  FILE *raw;                    /* the file itself */
  uint64_t left;                /* bytes still allowed (non-regular files) */
  int overrun;
} BoundedIn;
int bounded_open(BoundedIn *in, const char *path, uint64_t limit);
/* The same over a stream already open (fuzz targets: fmemopen); closing
   closes it. */
void bounded_wrap(BoundedIn *in, FILE *f, uint64_t limit);
/* Files inside a profile's folder (PROFILE.stacks, PROFILE.objects/):
   opened only when regular, and without waiting -- a FIFO there would
   block the open until some writer came, a device feed forever, and
   opening some devices has effects of its own.
   open_regular returns 0 and the stream in *F, else an errno value
   (EISDIR for a directory) or OPEN_NOT_REGULAR (a FIFO, a device, a
   socket); open_regular_error gives the message for either. */
#define OPEN_NOT_REGULAR (-1)
int open_regular(const char *path, FILE **f);
const char *open_regular_error(int err);
int bounded_open_regular(BoundedIn *in, const char *path, uint64_t limit);
int bounded_overrun(const BoundedIn *in);
/* How many bytes are still to be read from a regular file (its size less
   the stream's position); UINT64_MAX for any other input. */
uint64_t bounded_left(const BoundedIn *in);
void bounded_close(BoundedIn *in);

/* Files written whole or not at all where that keeps GNU's results: a
   regular file with one link is replaced by a new file (an unnamed
   O_TMPFILE, or a mkstemp one, in its directory) only once that is
   complete, flushed and synced, with the old file's mode and owner; on any
   failure the old file stays as it was and nothing is left behind.  As
   GNU, a symbolic link is followed (the link stays), and a dangling link,
   a device or pipe, or a file with other hard links is written in place
   (the link's target is created; the links go on sharing the file).  The
   errno of the first failed write is the one reported. */
typedef struct {
  FILE *f;                      /* what the caller writes */
  int fd;
  int err;                      /* first write error */
  int unnamed;                  /* fd is an O_TMPFILE */
  char *tmp;                    /* a named temporary; NULL otherwise */
  char *path;                   /* what is finally written */
  void (*old_xfsz)(int);        /* SIGXFSZ is ignored while writing */
} AtomicFile;
int atomic_open(AtomicFile *af, const char *path);   /* errno value, 0 = open */
int atomic_commit(AtomicFile *af);
void atomic_abort(AtomicFile *af);

/* The errno that loading the user's locale (messages, character types)
   leaves, the C locale restored after: GNU prints it as a stale errno in
   one message ("Success" under LC_ALL=C, "No such file or directory"
   where the locale's files are missing). */
int util_locale_errno(void);
#endif
