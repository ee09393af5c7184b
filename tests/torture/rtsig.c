/* rtsig -- a program that takes SIGRTMAX for itself once main runs
 * (after libprof's start-up chose its sampling signal) and queues itself
 * 20 of them with a value; its handler calls profiled code.  It must get
 * exactly its own 20 (si_code SI_QUEUE, its value) and nothing else, and
 * libprof must not lose its samples either. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t own, foreign;
static volatile unsigned long sink;
__attribute__((noinline)) void rt_leaf(int v) { sink += (unsigned long)v; }
__attribute__((noinline)) void on_rt(int sig, siginfo_t *si, void *ctx)
{
  (void)sig; (void)ctx;
  if (si->si_code == SI_QUEUE && si->si_value.sival_int == 4242) own++;
  else foreign++;
  rt_leaf(si->si_code);
}
__attribute__((noinline)) void burn(unsigned long i) { sink += i * i; }
static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_rt;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGRTMAX, &sa, NULL);
  double t0 = cpu();
  unsigned long n = 0;
  int sent = 0;
  while (cpu() - t0 < 0.15) {
    for (int k = 0; k < 1000; k++, n++) burn(n);
    if (sent < 20) {
      union sigval v = { .sival_int = 4242 };
      sigqueue(getpid(), SIGRTMAX, v);
      sent++;
    }
  }
  printf("own %d of %d, foreign %d\n", (int)own, sent, (int)foreign);
  fprintf(stderr, "count burn %lu\ncount rt_leaf %d\n", n, (int)(own + foreign));
  return 0;
}
