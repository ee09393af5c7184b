/* outside.c -- where the time goes, for outside.sh (the facts libprof
   writes about samples outside the program's text, and samples it could
   not take):
     outside lib SECONDS      nearly all the time in lib_spin (outside_lib.c,
                              a shared library without -pg)
     outside libc SECONDS     most of it in the C library (memset, memcpy)
     outside own SECONDS      all of it in the program
     outside blocked SECONDS  half in a thread that blocks every signal with
                              the raw system call (libprof cannot sample it),
                              half in the program's main thread
   Each mode spins for about SECONDS of CPU time. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

unsigned lib_spin(unsigned n);

static double cpu(clockid_t c)
{
  struct timespec ts;
  clock_gettime(c, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile unsigned sink;

__attribute__((noinline)) static void own_spin(unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++) s = s * 33 + i;
  sink += s;
}

__attribute__((noinline)) static void libc_work(void)
{
  static char a[1 << 18], b[1 << 18];
  memset(a, (int)sink, sizeof a);
  memcpy(b, a, sizeof a);
  sink += (unsigned)b[sink & 1023];
}

static double secs;

static void *blocked(void *arg)
{
  (void)arg;
  unsigned long all = ~0ul;
  /* straight to the kernel: libprof's pthread_sigmask would keep its
     signal open */
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, 8);
  double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
  while (cpu(CLOCK_THREAD_CPUTIME_ID) - t0 < secs / 2) own_spin(100000);
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc < 3) return 2;
  secs = atof(argv[2]);
  double t0 = cpu(CLOCK_PROCESS_CPUTIME_ID);
  if (!strcmp(argv[1], "lib")) {
    while (cpu(CLOCK_PROCESS_CPUTIME_ID) - t0 < secs) sink += lib_spin(1000000);
  } else if (!strcmp(argv[1], "libc")) {
    while (cpu(CLOCK_PROCESS_CPUTIME_ID) - t0 < secs) libc_work();
  } else if (!strcmp(argv[1], "own")) {
    while (cpu(CLOCK_PROCESS_CPUTIME_ID) - t0 < secs) own_spin(100000);
  } else if (!strcmp(argv[1], "blocked")) {
    pthread_t t;
    if (pthread_create(&t, NULL, blocked, NULL)) return 1;
    pthread_join(t, NULL);
    t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
    while (cpu(CLOCK_THREAD_CPUTIME_ID) - t0 < secs / 2) own_spin(100000);
  } else {
    return 2;
  }
  printf("%u\n", sink & 1);
  return 0;
}
