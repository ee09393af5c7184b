/* stkcost.c -- the sampling handler's cost per sample (bench/stkcost.sh):
   the thread sends itself libprof's sampling signal N times at DEPTH
   frames of -pg functions and prints the nanoseconds per signal.  With
   "libc" the signal arrives inside the C library's syscall() (the walk
   then hops over a frame without frame pointers), else inside the
   program (x86-64: a system call made inline); CPU time of the thread.
   Compare runs with and
   without LIBPROF_STACKS: the difference is the walk and its count. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int sig, in_libc;
static long n;
static pid_t pid, tid;

__attribute__((noinline)) void kick(void)
{
#if defined(__x86_64__)
  if (!in_libc) {
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "0"((long)SYS_tgkill), "D"((long)pid), "S"((long)tid), "d"((long)sig)
                     : "rcx", "r11", "memory");
    return;
  }
#endif
  syscall(SYS_tgkill, pid, tid, sig);
}

__attribute__((noinline)) void down(int d)
{
  if (d > 0) { down(d - 1); return; }
  for (long i = 0; i < n; i++) kick();
}

int main(int argc, char **argv)
{
  n = argc > 1 ? atol(argv[1]) : 200000;
  int depth = argc > 2 ? atoi(argv[2]) : 10;
  in_libc = argc > 3 && !strcmp(argv[3], "libc");
  /* libprof's signal: the highest real-time one with an SA_SIGINFO handler */
  for (int s = SIGRTMAX; s >= SIGRTMIN && !sig; s--) {
    struct sigaction old;
    if (sigaction(s, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO)) sig = s;
  }
  if (!sig) { fprintf(stderr, "stkcost: no sampling signal (not linked with libprof?)\n"); return 1; }
  pid = getpid();
  tid = (pid_t)syscall(SYS_gettid);
  struct timespec a, b;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  down(depth);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
  return 0;
}
