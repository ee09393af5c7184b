/* util.c -- the single error path and checked allocation. */
#include "gprof.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

Options opt;

_Noreturn void fatal(const char *fmt, ...)
{
  va_list ap;
  fflush(stdout);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  exit(1);
}

void warn_msg(const char *fmt, ...)
{
  va_list ap;
  fflush(stdout);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p)
    fatal("%s: out of memory allocating %zu bytes\n", opt.whoami, n);
  return p;
}

void *xcalloc(size_t n, size_t m)
{
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p)
    fatal("%s: out of memory allocating %zu bytes\n", opt.whoami, n * m);
  return p;
}

void *xrealloc(void *p, size_t n)
{
  p = realloc(p, n ? n : 1);
  if (!p)
    fatal("%s: out of memory allocating %zu bytes\n", opt.whoami, n);
  return p;
}

char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}
