/* altstack -- the program's own alternate signal stack, 8 KB as many
 * programs give (SIGSTKSZ), and a SIGUSR1 handler on it (SA_ONSTACK)
 * that calls profiled code; libprof's sampling handler then runs on that
 * small stack too (its handlers are SA_ONSTACK), also on top of the
 * program's handler.  LIBPROF_STACKS=256 used to overflow it. */
// torture-variant: stacks256 LIBPROF_STACKS=256 LIBPROF_HZ=1000
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static volatile sig_atomic_t got;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }
__attribute__((noinline)) void rec(int d, unsigned long i) { if (d) rec(d - 1, i); else leaf(i); }
/* about 2 ms of CPU each, so that libprof's sampling signal comes on top
   of it, on the same small stack */
__attribute__((noinline)) void on_usr1(int sig)
{
  got++;
  for (int k = 0; k < 20000; k++) rec(4, (unsigned long)sig);
}
static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
  static char altstack[8192] __attribute__((aligned(16)));
  stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
  if (sigaltstack(&ss, NULL)) { perror("sigaltstack"); return 2; }
  struct sigaction sa = { 0 };
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_ONSTACK | SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  unsigned long n = 0;
  double t0 = cpu();
  int sent = 0;
  while (n < 100000 || cpu() - t0 < 0.1) {
    for (int k = 0; k < 100; k++, n++) rec(20, n);
    if (sent < 50) { raise(SIGUSR1); sent++; }
  }
  printf("%d signals handled\n", (int)got);
  fprintf(stderr, "count leaf %lu\n", n + 20000 * (unsigned long)got);
  return 0;
}
