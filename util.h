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

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t vma_t;         /* an address in the profiled program */

void util_set_name(const char *whoami);
_Noreturn void fatal(const char *fmt, ...);
void warn_msg(const char *fmt, ...);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Files written whole or not at all: the data goes to a temporary file in
   the target's directory, and only a complete, flushed and closed file is
   renamed over PATH.  On any failure the old PATH is left as it was, the
   temporary removed, and atomic_commit returns an errno value (0 = done).
   A PATH that names something other than a regular file (a device, a
   pipe) is written in place, every write still checked; a symbolic link
   to a regular file is followed, so the link stays. */
typedef struct {
  FILE *f;
  char *tmp;                    /* the temporary's name; NULL when in place */
  char *path;                   /* what is finally written */
  void (*old_xfsz)(int);        /* SIGXFSZ is ignored while writing */
} AtomicFile;
int atomic_open(AtomicFile *af, const char *path);   /* errno value, 0 = open */
int atomic_commit(AtomicFile *af);
void atomic_abort(AtomicFile *af);

#endif
