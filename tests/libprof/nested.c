/* GNU C nested functions under -pg: a nested function keeps its static
   chain in %r10 (x86-64), which gcc pushes around -mfentry's call of
   __fentry__, so the word above the return address is the chain, not
   the caller's return address.  outer's nested `scale` is called N times
   by apply (not inlined), and `twice`, nested in the library's
   lib_outer (nested_lib, built with -DLIB), N/2 times by lib_apply.
   Prints the counts it made. */
#include <stdio.h>
#include <stdlib.h>
#ifdef LIB
__attribute__((noinline)) static long lib_apply(long (*f)(long), long n)
{
  long s = 0;
  for (long i = 0; i < n; i++) s += f(i);
  return s;
}
long lib_outer(long k, long n)
{
  long twice(long x) { return 2 * x + k; }
  return lib_apply(twice, n);
}
#else
#ifdef WITH_LIB
long lib_outer(long k, long n);
#endif
__attribute__((noinline)) static long apply(long (*f)(long), long n)
{
  long s = 0;
  for (long i = 0; i < n; i++) s += f(i);
  return s;
}
__attribute__((noinline)) static long outer(long k, long n)
{
  long scale(long x) { return x * k; }
  return apply(scale, n);
}
int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 10000, s = outer(3, n);
#ifdef WITH_LIB
  s += lib_outer(5, n / 2);
  printf("scale=%ld twice=%ld sum=%ld\n", n, n / 2, s);
#else
  printf("scale=%ld sum=%ld\n", n, s);
#endif
  return 0;
}
#endif
