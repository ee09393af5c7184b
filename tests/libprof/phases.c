/* phases.c -- a program that times its own phases (clock.sh): each round
 * runs four phases of different lengths, each in a function of its own,
 * timed with the thread's CPU clock; at the end it prints each phase's
 * CPU seconds, which the flat profile's self seconds should match.
 * argv[1]: rounds (default 100), argv[2]: the work of the shortest phase
 * (default 800000; the others 2, 3.5 and 5 times as much). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double spent[4];
static volatile unsigned long sink;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* each phase's own loop, so that its samples land in it */
#define SPIN(n) do { unsigned long x = sink; for (long i = 0; i < (n); i++) x = x * 2654435761u + (unsigned long)i; sink = x; } while (0)
__attribute__((noinline)) void phase_parse(long n) { SPIN(n); }
__attribute__((noinline)) void phase_build(long n) { SPIN(2 * n); }
__attribute__((noinline)) void phase_solve(long n) { SPIN(7 * n / 2); }
__attribute__((noinline)) void phase_write(long n) { SPIN(5 * n); }

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 100, n = argc > 2 ? atol(argv[2]) : 800000;
  void (*phase[4])(long) = { phase_parse, phase_build, phase_solve, phase_write };
  for (long r = 0; r < rounds; r++)
    for (int p = 0; p < 4; p++) {
      double t = now();
      phase[p](n);
      spent[p] += now() - t;
    }
  printf("phase_parse %.6f\nphase_build %.6f\nphase_solve %.6f\nphase_write %.6f\n",
         spent[0], spent[1], spent[2], spent[3]);
  return 0;
}
