/* tests/stacks.sh: a program whose functions the hand-made stack files
   name (the files are made from its symbols: tests/tools/stackgen.py).
   Built -pg, run once for a gmon.out (ARGV[1]: the rounds, 2000 by
   default); linked with libprof and run with LIBPROF_STACKS=64 for the
   end-to-end test. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static void spin(int n) { for (int i = 0; i < n; i++) sink += (unsigned long)i ^ sink; }
void leaf(int n) { spin(n); }
void mid_a(int n) { leaf(n); }
void mid_b(int n) { leaf(2 * n); spin(n); }
unsigned rec(unsigned n) { spin(10); return n ? rec(n - 1) + 1 : 0; }

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  for (int i = 0; i < rounds; i++) {
    mid_a(100);
    mid_b(100);
    sink += rec(5);
  }
  printf("%lu\n", sink & 1);
  return 0;
}
