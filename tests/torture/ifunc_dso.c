/* ifunc_dso -- a program linked with a -pg shared library (ifunc_dso_lib.c)
 * whose IFUNC resolver is -pg and whose constructor makes profiled
 * calls: the loader calls the resolver while it relocates the library at
 * start-up (the program is linked -z now, as hardened distributions
 * link), before the thread's TLS is set up; with libprof.so the
 * library's mcount is libprof's. */
// torture-linklib: ifunc_dso_lib.c
// torture-libs: -Wl,-z,now
// torture-static: a shared library is linked
// torture-skip: clang clang gives IFUNC resolvers no frame pointer, and glibc's mcount, which this library's calls reach, reads one: it crashes (under glibc's runtime too)
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
