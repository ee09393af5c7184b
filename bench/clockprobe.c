/* clockprobe.c -- what "N Hz" is with each kernel clock (bench/clock.sh,
 * issue 34): spins SECS of its own CPU (a loop with no system call, the
 * CPU time read every few ms), sampled by CLOCK at HZ, and prints the
 * signals per CPU second, the periods they carried, and the histogram of
 * the CPU time between two signals, in periods (half-period bins).
 *   clockprobe itimer|posix|perf [HZ [SECS]]
 *   itimer  setitimer(ITIMER_PROF), SIGPROF (no count of periods: 1 each)
 *   posix   timer_create(CLOCK_THREAD_CPUTIME_ID), SIGEV_THREAD_ID; si_overrun
 *   perf    perf_event_open(PERF_COUNT_SW_TASK_CLOCK, sample_period),
 *           F_SETOWN_EX/F_SETSIG/O_ASYNC; user time only when the kernel
 *           refuses more (perf_event_paranoid 2 for a user) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static uint64_t tcpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define MAXS 200000
static uint64_t at[MAXS];
static uint32_t wt[MAXS];
static volatile int ns;

static void on_sig(int s, siginfo_t *si, void *c)
{
  (void)s; (void)c;
  uint32_t w = 1;
  if (si->si_code == SI_TIMER) w += (uint32_t)si->si_overrun;
  if (ns < MAXS) { at[ns] = tcpu(); wt[ns] = w; ns++; }
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "posix";
  long hz = argc > 2 ? atol(argv[2]) : 1000;
  double secs = argc > 3 ? atof(argv[3]) : 1;
  long period = 1000000000L / hz;
  int sig = SIGRTMIN + 5, user = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sig;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(sig, &sa, NULL);
  sigaction(SIGPROF, &sa, NULL);
  if (!strcmp(mode, "itimer")) {
    struct itimerval v = { { 0, period / 1000 }, { 0, period / 1000 } };
    setitimer(ITIMER_PROF, &v, NULL);
  } else if (!strcmp(mode, "posix")) {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = sig;
    ev._sigev_un._tid = gettid();
    timer_t id;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &id)) { perror("timer_create"); return 1; }
    struct itimerspec its = { { 0, period }, { 0, period } };
    timer_settime(id, 0, &its, NULL);
  } else {
    struct perf_event_attr a;
    int fd = -1;
    for (user = 0; user < 2 && fd < 0; user++) {
      memset(&a, 0, sizeof a);
      a.size = sizeof a;
      a.type = PERF_TYPE_SOFTWARE;
      a.config = PERF_COUNT_SW_TASK_CLOCK;
      a.sample_period = (uint64_t)period;
      a.exclude_kernel = (unsigned)user;
      a.exclude_hv = 1;
      fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0) { perror("perf_event_open"); return 1; }
    user--;
    struct f_owner_ex o = { F_OWNER_TID, gettid() };
    fcntl(fd, F_SETOWN_EX, &o);
    fcntl(fd, F_SETSIG, sig);
    fcntl(fd, F_SETFL, O_ASYNC);
  }
  uint64_t t0 = tcpu(), t1;
  volatile uint64_t x = 0;
  while ((t1 = tcpu()) - t0 < (uint64_t)(secs * 1e9))
    for (int i = 0; i < 3000000; i++) x += (uint64_t)i;
  if (!strcmp(mode, "itimer")) {
    struct itimerval v = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_PROF, &v, NULL);
  }
  int n = ns, hist[12] = { 0 };
  uint64_t w = 0;
  for (int i = 0; i < n; i++) {
    w += wt[i];
    if (i) {
      int b = (int)((double)(at[i] - at[i - 1]) / (double)period * 2);
      hist[b < 11 ? b : 11]++;
    }
  }
  double c = (double)(t1 - t0) / 1e9;
  printf("%-6s %ld Hz%s: %.3f s CPU, %d signals (%.0f/s), %llu periods (%.0f/s)\n", mode, hz,
         user ? " (user time)" : "", c, n, n / c, (unsigned long long)w, (double)w / c);
  printf("  CPU between signals, in periods: ");
  for (int b = 0; b < 12; b++) printf("%s%.1f-%s:%d", b ? " " : "", b / 2.0, b == 11 ? "" : "", hist[b]);
  printf("\n");
  return 0;
}
