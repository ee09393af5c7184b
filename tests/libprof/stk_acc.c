/* stk_acc.c -- where gprof's estimate is wrong: cheap() calls work() 1000
   times with small jobs, dear() once with a big one, so gprof splits
   work's time by calls (cheap nearly all) while the truth -- measured
   here with the thread's CPU clock -- is about 30/70.  The stacks must
   come within 5% of the truth on each arc (stacks.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
__attribute__((noinline)) void work(long n)
{
  unsigned long s = 0;
  for (long i = 0; i < n; i++) s += (unsigned long)(i * i) ^ (s >> 3);
  sink = s;
}
__attribute__((noinline)) double cheap(int reps)
{
  double t = now();
  for (int i = 0; i < reps; i++) work(60000);
  return now() - t;
}
__attribute__((noinline)) double dear(int reps)
{
  double t = now();
  for (int i = 0; i < reps; i++) work(140000000);
  return now() - t;
}
int main(int argc, char **argv)
{
  int k = argc > 1 ? atoi(argv[1]) : 10;
  double a = 0, b = 0;
  for (int r = 0; r < k; r++) {
    a += cheap(1000);
    b += dear(1);
  }
  printf("truth cheap work %.4f dear work %.4f\n", a, b);
  return 0;
}
