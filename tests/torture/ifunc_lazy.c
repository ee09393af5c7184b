/* ifunc_lazy -- ifunc_dso.c's -pg library built by clang and bound
 * lazily (no -z now): clang gives the library's -pg IFUNC resolver no
 * frame pointer, and the loader calls it at the program's first call of
 * dso_ifunc, while counting is on, with %rbp holding the loader's data
 * (0, 6 ...).  The resolver's mcount call read 8(%rbp) and crashed in
 * libprof's stub (libprof.so; LIBPROF_OBJECTS=1); it is now not counted
 * and said at exit.  With libprof.a and no LIBPROF_OBJECTS, the library's
 * calls reach the C library's mcount, which crashes the same way (under
 * glibc's runtime too): those variants are skipped. */
// torture-linklib: ifunc_dso_lib.c
// torture-libcc: clang
// torture-skip: pie/default the library's calls reach glibc's mcount, which reads the resolver's missing frame pointer (crashes under glibc's runtime too)
// torture-skip: pie/stacks the library's calls reach glibc's mcount (see pie/default)
// torture-skip: nopie/default the library's calls reach glibc's mcount (see pie/default)
// torture-skip: nopie/stacks the library's calls reach glibc's mcount (see pie/default)
// torture-skip: clang/default the library's calls reach glibc's mcount (see pie/default)
// torture-skip: clang/stacks the library's calls reach glibc's mcount (see pie/default)
// torture-static: a shared library is linked
#include <stdio.h>

long dso_ifunc(long);
long dso_work(long);
static volatile long sink;
__attribute__((noinline)) long twice(long x) { sink += x; return 2 * x; }

int main(void)
{
  long s = 0;
  for (long i = 0; i < 1000; i++) s += twice(dso_ifunc(i) + dso_work(i));
  printf("%ld\n", s);
  printf("count twice 1000\n");
  return 0;
}
