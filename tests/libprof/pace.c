/* pace.c -- a thread's sampling clock slowed and sped up again (pace.sh):
   phase one makes every libprof handler run HANDLER_NS of the thread's
   CPU (libprof built with PROF_TEST_HOOKS reads libprof_test_handler_ns),
   phase two leaves it at 0.  Prints each phase's own CPU seconds.  With
   a fourth argument "own" it first takes SIGPROF for itself (a handler
   of its own, never signalled): libprof's clocks move to the real-time
   signal, every period signalled.
   Usage: pace SLOW-SECS FAST-SECS HANDLER_NS [own] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile long libprof_test_handler_ns;
static volatile unsigned long v;

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) void slow_phase(double secs)
{
  double end = cpu() + secs;
  while (cpu() < end) for (int i = 0; i < 300000; i++) v += i;
}

__attribute__((noinline)) void fast_phase(double secs)
{
  double end = cpu() + secs;
  while (cpu() < end) for (int i = 0; i < 300000; i++) v += i;
}

static void on_prof(int sig) { (void)sig; }

int main(int argc, char **argv)
{
  if (argc < 4) return 2;
  if (argc > 4 && !strcmp(argv[4], "own")) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_prof;
    sigaction(SIGPROF, &sa, NULL);
  }
  libprof_test_handler_ns = atol(argv[3]);
  double t0 = cpu();
  slow_phase(atof(argv[1]));
  libprof_test_handler_ns = 0;
  double t1 = cpu();
  fast_phase(atof(argv[2]));
  printf("%.4f %.4f\n", t1 - t0, cpu() - t1);
  return 0;
}
