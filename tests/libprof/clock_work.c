/* clock_work.c -- work for tests/libprof/clock.c that is built WITHOUT
 * -pg, as a library's code would be: a thread that runs only this never
 * calls mcount, so libprof must find it to sample it.  Each function
 * spins for SECS of its own thread's CPU time and touches no
 * thread-local storage (a raw clone() shares its creator's). */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "clock_work.h"

static double thread_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static volatile unsigned long sink;
#define SPIN(name) \
  __attribute__((noinline)) void name(double secs) \
  { \
    double t0 = thread_cpu(); \
    while (thread_cpu() - t0 < secs) \
      for (int i = 0; i < 200000; i++) sink += (unsigned long)i; \
  }
SPIN(work_a)
SPIN(work_b)
SPIN(work_c)

/* a long run of straight code (spread.h, clock.sh) spun for SECS of
   the thread's CPU: samples over many bins (clock.sh's distinct) */
static volatile unsigned long x;
__attribute__((noinline)) void work_spread_body(void)
{
#include "spread.h"
}
__attribute__((noinline)) void work_spread(double secs)
{
  double t0 = thread_cpu();
  while (thread_cpu() - t0 < secs)
    for (int i = 0; i < 100; i++) work_spread_body();
}

/* the threads' start routines, here too: their first call is no mcount */
double work_secs;
volatile int work_clone_done;
void *work_thread_a(void *arg) { (void)arg; work_a(3 * work_secs); return 0; }
void *work_thread_b(void *arg) { (void)arg; work_b(work_secs); return 0; }
void *work_thread_spread(void *arg) { (void)arg; work_spread(work_secs); return 0; }
int work_clone_spread(void *arg)
{
  (void)arg;
  work_spread(work_secs);
  __atomic_store_n(&work_clone_done, 1, __ATOMIC_RELEASE);
  syscall(SYS_exit, 0);
  return 0;
}
int work_clone(void *arg)
{
  (void)arg;
  work_c(2 * work_secs);
  __atomic_store_n(&work_clone_done, 1, __ATOMIC_RELEASE);
  syscall(SYS_exit, 0);          /* only this thread */
  return 0;
}
