/* A program with its own profiling timer: a SIGPROF handler and
   setitimer(ITIMER_PROF) at 100 Hz, as sampling profilers built into
   programs have.  Burns about SECONDS (argv[1], default 1) of CPU and
   prints how many of its signals it got per CPU second (about 100 with
   no runtime or glibc's, and so it must stay under libprof) and how many
   of them were not its timer's (si_code other than SI_KERNEL: libprof's
   perf clock's POLL_IN, a POSIX timer's SI_TIMER), which must be none. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t got, foreign;
static volatile unsigned long sink;
static void on_prof(int sig, siginfo_t *si, void *ctx)
{
  (void)sig; (void)ctx;
  got++;
  if (si->si_code != SI_KERNEL) foreign++;
}
__attribute__((noinline)) void burn(unsigned long i) { sink += i * i; }

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
  double secs = argc > 1 ? atof(argv[1]) : 1.0;
  struct sigaction sa = { 0 };
  sa.sa_sigaction = on_prof;
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
  setitimer(ITIMER_PROF, &it, NULL);
  double t0 = cpu();
  for (unsigned long i = 0; cpu() - t0 < secs; i++)
    for (int k = 0; k < 1000; k++) burn(i + (unsigned long)k);
  double used = cpu() - t0;
  printf("%.1f %d\n", got / used, (int)foreign);
  return 0;
}
