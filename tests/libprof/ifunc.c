/* ifunc.c -- IFUNC resolvers that are themselves -pg (issue 35): the
 * loader calls them while it relocates the program, before the thread's
 * TLS is set up (and, statically linked, before %fs / %gs / tpidr_el0
 * are set at all), so their mcount call must not touch libprof's
 * thread-local state.  An explicit resolver (`pick`, which calls a
 * profiled helper) and, on x86, GCC's target_clones (whose generated
 * resolver is -pg too).  Prints the sum and `count NAME N` for the calls
 * it knows; the resolver's own calls come before start-up and are not
 * counted (nor by glibc's runtime, which starts in _init). */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;
__attribute__((noinline)) void leaf(void) { sink++; }
/* The clones' symbols (tc.default, tc.avx2) are not listed by gprof
   (dotted names), so their calls count for whichever listed symbol the
   compiler placed before them: with clones, only leaf's count is known. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#define CLONES 1
__attribute__((target_clones("avx2", "default"))) int tc(int x) { leaf(); return x * 3; }
#else
#define CLONES 0
static int tc(int x) { return x * 3; }
#endif
__attribute__((noinline)) void resolver_helper(void) { sink++; }
__attribute__((noinline)) int add_one(int x) { leaf(); return x + 1; }
__attribute__((noinline)) int add_two(int x) { return x + 2; }
/* (a resolver may call no C library function: in a static-pie program
   the library's own relocations are not done yet) */
static volatile int want_two;
static int (*pick(void))(int)
{
  resolver_helper();
  return want_two ? add_two : add_one;
}
int ifn(int) __attribute__((ifunc("pick")));


int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
  for (int i = 0; i < n; i++) s += ifn(i) + tc(i);
  printf("%d\n", s);
  if (!CLONES) printf("count add_one %d\n", n);
  printf("count leaf %d\n", CLONES ? 2 * n : n);
  return 0;
}
