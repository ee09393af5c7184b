/* ifunc -- IFUNC resolvers compiled with -pg: an explicit one (which
 * calls a profiled helper) and, with GCC on x86, target_clones' generated
 * one.  The loader calls them while it relocates, before the thread's
 * TLS exists (and, statically linked, before %fs is set); libprof used
 * to crash here before main in every mode.  The resolvers' calls come
 * before start-up and are not counted (nor by glibc's runtime): count
 * resolver_helper 0. */
#include <stdio.h>

static volatile int sink;
__attribute__((noinline)) void leaf(void) { sink++; }
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#define CLONES 1
__attribute__((target_clones("avx2", "default"))) int tc(int x) { leaf(); return x * 3; }
#else
#define CLONES 0
__attribute__((noinline)) static int tc(int x) { leaf(); return x * 3; }
#endif
__attribute__((noinline)) void resolver_helper(void) { sink++; }
__attribute__((noinline)) int add_one(int x) { leaf(); return x + 1; }
__attribute__((noinline)) int add_two(int x) { leaf(); return x + 2; }
/* (a resolver may call no C library function: in a static-pie program
   the library's own relocations are not done yet) */
static volatile int want_two;
static int (*pick(void))(int)
{
  resolver_helper();
  return want_two ? add_two : add_one;
}
int ifn(int) __attribute__((ifunc("pick")));
static int (*pick2(void))(int)
{
  resolver_helper();
  return want_two ? add_one : add_two;
}
int ifn2(int) __attribute__((ifunc("pick2")));

int main(void)
{
  int s = 0, n = 2000;
  for (int i = 0; i < n; i++) s += ifn(i) + ifn2(i) + tc(i);
  printf("%d\n", s);
  /* target_clones' clones (tc.default, tc.avx2) have dotted names that
     gprof does not list: their calls count for whichever symbol the
     compiler put before them, so only leaf's is known with them */
  printf("count leaf %d\n", 3 * n);
  printf("count resolver_helper 0\n");
  return 0;
}
