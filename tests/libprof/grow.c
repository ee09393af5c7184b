/* grow.c -- a thread's arc table grown by a profiled signal handler
 * that interrupted the thread's own counting (tests/libprof/tables.sh).
 *
 * THREADS threads each call work() CALLS times (arcs already in their
 * tables: the stub's fast path), while a CPU timer of their own sends
 * them SIGUSR2 every millisecond of their CPU time; the handler calls
 * new arcs (site x target pairs, 64 x 256) until the thread has made
 * 16 << level of them, level going up at each signal: each signal so
 * grows the thread's table once, from wherever it stopped the thread --
 * now and then between the stub's finding work()'s slot and its
 * increment.  Prints the calls of work() made; the profile must have
 * them all. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

typedef void (*fn)(void);
static volatile unsigned long sink;
__attribute__((noinline)) void work(void) { sink++; }

#define T(n) __attribute__((noinline)) void t##n(void) { sink += n; }
#define T4(n) T(n##0) T(n##1) T(n##2) T(n##3)
#define T16(n) T4(n##0) T4(n##1) T4(n##2) T4(n##3)
#define T64(n) T16(n##0) T16(n##1) T16(n##2) T16(n##3)
T64(10) T64(11) T64(12) T64(13)
#define A(n) t##n,
#define A4(n) A(n##0) A(n##1) A(n##2) A(n##3)
#define A16(n) A4(n##0) A4(n##1) A4(n##2) A4(n##3)
#define A64(n) A16(n##0) A16(n##1) A16(n##2) A16(n##3)
static fn targets[256] = { A64(10) A64(11) A64(12) A64(13) };

/* 64 call sites: one arc per (site, target) */
#define C(n) case n: f(); break;
#define C4(n) C(n##0) C(n##1) C(n##2) C(n##3)
#define C16(n) C4(n##0) C4(n##1) C4(n##2) C4(n##3)
__attribute__((noinline)) void site(int s, fn f)
{
  switch (s) { C16(10) C16(11) C16(12) C16(13) }
}

static __thread int made, level;
static void handler(int sig)
{
  (void)sig;
  if (level > 10) return;
  int to = 16 << level++;
  for (; made < to; made++) {
    int k = made / 256 % 64;    /* the site's case label: 1000 + digits of k in base 4 */
    site(1000 + k / 16 * 100 + k / 4 % 4 * 10 + k % 4, targets[made % 256]);
  }
}

static long calls;
static void *run(void *arg)
{
  (void)arg;
  timer_t t;
  struct sigevent ev = { 0 };
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGUSR2;
  ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  struct itimerspec it = { { 0, 1000000 }, { 0, 1000000 } };
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &t) || timer_settime(t, 0, &it, NULL)) {
    perror("timer");
    exit(1);
  }
  for (long i = 0; i < calls; i++) work();
  timer_delete(t);
  return NULL;
}

int main(int argc, char **argv)
{
  int threads = argc > 1 ? atoi(argv[1]) : 8;
  calls = argc > 2 ? atol(argv[2]) : 20000000;
  struct sigaction sa = { 0 };
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR2, &sa, NULL);
  pthread_t th[64];
  if (threads > 64) threads = 64;
  for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, run, NULL);
  for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
  printf("%ld\n", threads * calls);
  return 0;
}
