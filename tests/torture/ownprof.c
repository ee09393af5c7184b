/* ownprof -- a program with its own profiling timer: setitimer
 * (ITIMER_PROF, 100 Hz) and a SIGPROF handler that calls profiled code,
 * as profilers built into programs have.  It must get its own signals at
 * its own rate (libprof's sampling signal is another), so it checks the
 * rate itself: between 50 and 200 per CPU second.  The band is wide
 * because ITIMER_PROF is charged on the kernel's tick: on a loaded 2-core
 * machine the build without -pg measured 92-145 (median 106) over 0.15 s
 * and 103-143 (median 116) over 0.3 s; what it catches is libprof's
 * signal reaching the handler (an itimer at 1 kHz reads ~250-300
 * here: the tick) or taking SIGPROF (0). */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t got;
static volatile unsigned long sink, hsink;
__attribute__((noinline)) void prof_leaf(int s) { hsink += (unsigned long)s; }
__attribute__((noinline)) void on_prof(int sig) { got++; prof_leaf(sig); }
__attribute__((noinline)) void burn(unsigned long i) { sink += i * i; }
static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
  setitimer(ITIMER_PROF, &it, NULL);
  double t0 = cpu();
  unsigned long n = 0;
  while (cpu() - t0 < 0.15)
    for (int k = 0; k < 1000; k++, n++) burn(n);
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer(ITIMER_PROF, &off, NULL);
  double used = cpu() - t0, rate = got / used;
  printf("own SIGPROF rate %s\n", rate >= 50 && rate <= 200 ? "as set" : "WRONG");
  fprintf(stderr, "rate %.1f\ncount burn %lu\ncount prof_leaf %d\n", rate, n, (int)got);
  return 0;
}
