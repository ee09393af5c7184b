/* A program that takes real-time signals for itself after libprof chose
   its sampling signal at start-up (the highest one still at its default):
   two worker threads start burning CPU, then main takes SIGRTMAX
   (argv[1]: "sigaction", "signal"), blocks it and waits for it with
   sigtimedwait ("block"), or takes every real-time signal ("all"); or
   ("other") blocks SIGRTMAX-1 to wait for it, then takes SIGRTMAX with
   sigaction: libprof must not move to SIGRTMAX-1, still at its default;
   or ("late") takes SIGRTMAX with sigaction while a third thread has
   every signal blocked by a raw system call (so one of libprof's timer
   signals is queued for it, to be taken only when it unblocks);
   main then burns CPU too.  Each signal it takes must be one the program
   sent itself: it prints "stray N" (signals its handlers got that it did
   not send) and the process's CPU time on stderr, so the test can see
   the share of it sampled (and, on a line "main S", the CPU time since
   main began: what ran before, the loader's and a sanitizer's start-up,
   no runtime can sample, and under ASan it is 3% of the run).  Exit status 1 when a queued value was lost.
   ("fork": main burns first, then takes every real-time signal as "all",
   and at the end forks a child that burns a little and exits: each
   process says the time it did not sample.) */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile sig_atomic_t stray, mine;
static double secs = 0.3;
__attribute__((noinline)) void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }

static double cpu(clockid_t c)
{
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void burn(void)
{
  double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
  while (cpu(CLOCK_THREAD_CPUTIME_ID) - t0 < secs) spin(2000000);
}

static void *work(void *arg) { (void)arg; burn(); return NULL; }

static double wall(void) { return cpu(CLOCK_MONOTONIC); }

static void *work_masked(void *arg)
{
  (void)arg;
  sigset_t all, old;
  sigfillset(&all);
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, (size_t)8);
  double t0 = wall();
  while (wall() - t0 < 0.15) spin(200000);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, (size_t)8);
  burn();
  return NULL;
}

static void on_rt(int sig, siginfo_t *si, void *ctx)
{
  (void)sig; (void)ctx;
  if (si->si_code == SI_QUEUE && si->si_pid == getpid() && si->si_value.sival_int == 4242) mine++;
  else stray++;
}
static void on_rt_plain(int sig) { (void)sig; stray++; }

int main(int argc, char **argv)
{
  double cpu0 = cpu(CLOCK_PROCESS_CPUTIME_ID);
  const char *how = argc > 1 ? argv[1] : "sigaction";
  if (argc > 2) secs = atof(argv[2]);
  pthread_t t[3];
  int nt = strcmp(how, "late") ? 2 : 3;
  for (int i = 0; i < nt; i++) pthread_create(&t[i], NULL, i < 2 ? work : work_masked, NULL);
  struct timespec wait = { 0, 50000000 };
  nanosleep(&wait, NULL);                     /* the workers are being sampled */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_rt;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  int bad = 0;
  union sigval v = { .sival_int = 4242 };
  if (!strcmp(how, "sigaction") || !strcmp(how, "late")) {
    struct sigaction old;
    sigaction(SIGRTMAX, &sa, &old);
    if (old.sa_handler != SIG_DFL) bad = 1;   /* as without profiling */
  } else if (!strcmp(how, "signal")) {
    if (signal(SIGRTMAX, on_rt_plain) != SIG_DFL) bad = 1;
  } else if (!strcmp(how, "all") || !strcmp(how, "fork")) {
    if (!strcmp(how, "fork")) burn();
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++) sigaction(s, &sa, NULL);
  } else if (!strcmp(how, "other")) {
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, SIGRTMAX - 1);
    sigprocmask(SIG_BLOCK, &one, NULL);
    sigaction(SIGRTMAX, &sa, NULL);
  } else if (!strcmp(how, "block")) {
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, SIGRTMAX);
    sigprocmask(SIG_BLOCK, &one, NULL);
  }
  burn();
  if (!strcmp(how, "block") || !strcmp(how, "other")) {   /* its own signals, every one */
    int w = !strcmp(how, "block") ? SIGRTMAX : SIGRTMAX - 1;
    /* to main, which blocks it: the workers do not, and it is at its default */
    for (int i = 0; i < 5; i++) pthread_sigqueue(pthread_self(), w, v);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, w);
    struct timespec zero = { 0, 0 };
    siginfo_t si;
    for (int i = 0; i < 5; i++)
      if (sigtimedwait(&one, &si, &zero) != w || si.si_value.sival_int != 4242) bad = 1;
    while (sigtimedwait(&one, &si, &zero) == w) stray++;
  } else if (strcmp(how, "signal")) {
    sigqueue(getpid(), SIGRTMAX, v);          /* one of its own: delivered to its handler */
    if (!mine) nanosleep(&wait, NULL);
    if (mine != 1) bad = 1;
  }
  for (int i = 0; i < nt; i++) pthread_join(t[i], NULL);
  if (!strcmp(how, "fork")) {
    pid_t p = fork();
    if (p == 0) {
      spin(2000000);
      exit(0);
    }
    int st;
    if (p < 0 || waitpid(p, &st, 0) != p || st != 0) bad = 1;
  }
  printf("stray %d\n", (int)stray);
  double cpu1 = cpu(CLOCK_PROCESS_CPUTIME_ID);
  fprintf(stderr, "main %.3f\n%.3f\n", cpu1 - cpu0, cpu1);
  return bad;
}
