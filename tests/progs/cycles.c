/* Call-graph shapes for the differential tests: a two-cycle, a three-cycle
   entered twice, self recursion, static helpers and a never-called function. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static void spin(int n) { for (int i = 0; i < n; i++) sink += (unsigned long)i ^ sink; }
static int helper(int x) { spin(50); return x + 1; }
void never_called(void) { spin(1000); }

int ping(int n);
int pong(int n) { spin(700); return n <= 0 ? 0 : ping(n - 1); }
int ping(int n) { spin(300); return n <= 0 ? 1 : pong(n - 1); }

void tri_a(int n); void tri_b(int n); void tri_c(int n);
void tri_a(int n) { spin(400); if (n > 0) tri_b(n - 1); }
void tri_b(int n) { spin(800); if (n > 0) tri_c(n - 1); helper(n); }
void tri_c(int n) { spin(1200); if (n > 0) tri_a(n - 1); }

unsigned fact(unsigned n) { spin(20); return n < 2 ? 1 : n * fact(n - 1); }

void work(int rounds)
{
  for (int r = 0; r < rounds; r++) {
    ping(r % 17);
    tri_a(20);
    tri_c(7);
    sink += fact(12);
    helper(r);
  }
}

int main(int argc, char **argv)
{
  work(argc > 1 ? atoi(argv[1]) : 3000);
  printf("%lu\n", sink & 1);
  return 0;
}
