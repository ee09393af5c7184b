/* The program of the cross-target fixtures (tests/cross.sh): built for
   aarch64, sparc64, mips and alpha and run under qemu-user.  It has calls
   the run never takes (never_run), calls through pointers (the ops
   table), tail calls (tail_a -> tail_b at -O2), a leaf, recursion, and a
   function placed in a section of its own outside the histogram's range
   (far_away), which the profiled code calls. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/* inlined everywhere: each function's own work */

static inline __attribute__((always_inline)) void spin(int n)
{
  for (int i = 0; i < n; i++) sink += (unsigned long)i ^ sink;
}

__attribute__((noinline)) void leaf(int n) { spin(n); }

__attribute__((noinline)) void never_run(int n) { leaf(n * 3); }

__attribute__((noinline, section("far_text"))) void far_away(int n) { spin(200); sink += (unsigned long)n; }

__attribute__((noinline)) static int helper(int x) { leaf(40); spin(600); return x + 1; }

__attribute__((noinline)) int tail_b(int n) { leaf(20); spin(900); return n * 2; }
__attribute__((noinline)) int tail_a(int n) { spin(300); return tail_b(n + 1); }

__attribute__((noinline)) unsigned fact(unsigned n) { leaf(10); spin(50); return n < 2 ? 1 : n * fact(n - 1); }

__attribute__((noinline)) void op_add(int n) { leaf(30); spin(400); sink += (unsigned long)n; }
__attribute__((noinline)) void op_mul(int n) { leaf(50); spin(700); sink *= (unsigned long)n | 1; }
static void (*const volatile ops[2])(int) = { op_add, op_mul };

__attribute__((noinline)) void work(int rounds)
{
  for (int r = 0; r < rounds; r++) {
    ops[r & 1](r);
    sink += (unsigned long)tail_a(r);
    sink += fact(8);
    sink += (unsigned long)helper(r);
    far_away(r);
    if (r < 0) never_run(r);
  }
}

int main(int argc, char **argv)
{
  work(argc > 1 ? atoi(argv[1]) : 3000);
  printf("%lu\n", sink & 1);
  return 0;
}
