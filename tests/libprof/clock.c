/* clock.c -- the sampling clock (tests/libprof/clock.sh).
 *   clock spread SECS   spins SECS of CPU in `spread`, a long run of
 *                       straight code (spread.h, made by clock.sh), so
 *                       that samples fall on many histogram bins: one
 *                       sample per signal leaves counts of 1, 2, 3; a
 *                       clock that carries four periods per signal (the
 *                       kernel's tick) leaves multiples of 4
 *   clock threads SECS  two pthreads and a raw clone() thread running only
 *                       code built without -pg (clock_work.c), never
 *                       calling mcount, concurrently: work_a 3 * SECS,
 *                       work_b SECS, work_c 2 * SECS of their own CPU;
 *                       main sleeps
 *   clock foreign SECS  a pthread, then a raw clone() thread, each spinning
 *                       SECS in work_spread (clock_work.c, no -pg: found
 *                       by libprof's scan, never calling mcount); main
 *                       sleeps
 *   clock found SECS    a pthread spinning SECS in work_spread (found by
 *                       the scan, which gives it a perf clock as root),
 *                       then main spinning SECS in `spread` on its own
 *                       clock: libprof's handler must tell the two kinds
 *                       of perf signal apart without a system call
 *   clock fds SECS      spins SECS, then prints how many perf events are
 *                       mapped and how many descriptors are perf events
 *   clock fork SECS     a child spins SECS in `spread` and writes its own
 *                       file; prints the child's pid
 *   clock kernel SECS   reads /dev/urandom a megabyte at a time (the
 *                       kernel's CPU time) between spins of 2 ms in
 *                       `spread` until these reach SECS; prints the
 *                       seconds spent in `spread` only
 *   clock exec SECS     spins SECS, then forks a child that runs a shell
 *                       loop of its own (execl: the program exec'd has
 *                       SIGPROF at its default); prints "exit N" or
 *                       "signal N", how the child ended
 *   clock tail SECS     spins SECS in `spread`, then reads /dev/urandom a
 *                       16 MB at a time until the thread has used 2 *
 *                       SECS more (the kernel's), and exits: the time
 *                       since the last sample is credited at the thread's
 *                       end; prints the seconds spent in `spread`
 *   clock bigread SECS FILE   reads FILE (in the page cache) 32 MB at a
 *                       time -- system calls the signal does not end --
 *                       for SECS of CPU, then spins SECS in `spread`
 *   clock execself SECS spins SECS, then execs a shell loop (execl, no
 *                       fork): a signal of libprof's pending across the
 *                       exec killed the shell (SIGPROF, its default);
 *                       the shell prints "done"
 *   clock execfail SECS exec calls that return: a vfork child's execlp
 *                       ("true", found on PATH), an execvp of a program
 *                       nowhere on PATH, a forked child's execlp of a
 *                       script without "#!" (run by /bin/sh; again with
 *                       no argument vector at all); then spins
 *                       SECS in `spread`, sampled as before; prints
 *                       "vfork N enoent N script N" (N: a status, errno
 *                       was ENOENT, the script's status)
 * Prints the CPU seconds spent (or the child's pid). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "clock_work.h"

static double cpu(clockid_t c)
{
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static volatile unsigned long x;
__attribute__((noinline)) void spread(void)
{
#include "spread.h"
}

__attribute__((noinline)) void spin_spread(double secs)
{
  double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
  while (cpu(CLOCK_THREAD_CPUTIME_ID) - t0 < secs)
    for (int i = 0; i < 100; i++) spread();
}

int main(int argc, char **argv)
{
  if (argc < 3) return 2;
  double secs = atof(argv[2]);
  work_secs = secs;
  if (!strcmp(argv[1], "spread")) {
    spin_spread(secs);
  } else if (!strcmp(argv[1], "fixed")) {
    /* a fixed amount of work, ARGV[2] thousand calls of spread: prints
       the process's CPU time (the signals' cost shows as more of it) */
    for (long k = (long)(secs * 1000); k > 0; k--) spread();
    printf("%.6f\n", cpu(CLOCK_PROCESS_CPUTIME_ID));
    return 0;
  } else if (!strcmp(argv[1], "threads")) {
    pthread_t a, b;
    size_t size = 256 * 1024;
    char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return 1;
    pthread_create(&a, NULL, work_thread_a, NULL);
    pthread_create(&b, NULL, work_thread_b, NULL);
    if (clone(work_clone, stack + size, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND
              | CLONE_THREAD | CLONE_SYSVSEM, NULL) < 0)
      return 1;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    struct timespec ms = { 0, 1000000 };
    while (!__atomic_load_n(&work_clone_done, __ATOMIC_ACQUIRE)) nanosleep(&ms, NULL);
    nanosleep(&ms, NULL);
  } else if (!strcmp(argv[1], "foreign")) {
    pthread_t a;
    size_t size = 256 * 1024;
    char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return 1;
    pthread_create(&a, NULL, work_thread_spread, NULL);
    pthread_join(a, NULL);
    if (clone(work_clone_spread, stack + size, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND
              | CLONE_THREAD | CLONE_SYSVSEM, NULL) < 0)
      return 1;
    struct timespec ms = { 0, 1000000 };
    while (!__atomic_load_n(&work_clone_done, __ATOMIC_ACQUIRE)) nanosleep(&ms, NULL);
    nanosleep(&ms, NULL);
  } else if (!strcmp(argv[1], "found")) {
    pthread_t a;
    pthread_create(&a, NULL, work_thread_spread, NULL);
    pthread_join(a, NULL);
    spin_spread(secs);
  } else if (!strcmp(argv[1], "fds")) {
    /* past the 10 ms after which a thread takes its perf clock: the
       events mapped, and none of the process's descriptors one */
    spin_spread(secs);
    char line[512], path[64], to[256];
    int maps = 0, fds = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    while (f && fgets(line, sizeof line, f)) maps += strstr(line, "perf_event") != NULL;
    if (f) fclose(f);
    for (int fd = 0; fd < 1024; fd++) {
      snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(path, to, sizeof to - 1);
      if (n > 0) { to[n] = 0; fds += strstr(to, "perf_event") != NULL; }
    }
    printf("maps %d fds %d\n", maps, fds);
    return 0;
  } else if (!strcmp(argv[1], "kernel")) {
    static char buf[1 << 20];
    FILE *f = fopen("/dev/urandom", "rb");
    double in = 0;
    if (!f) return 1;
    setvbuf(f, NULL, _IONBF, 0);
    while (in < secs) {
      if (fread(buf, 1, sizeof buf, f) == 0) return 1;
      double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
      spin_spread(0.002);
      in += cpu(CLOCK_THREAD_CPUTIME_ID) - t0;
    }
    printf("%.3f\n", in);
    return 0;
  } else if (!strcmp(argv[1], "bigread")) {
    static char buf[32 << 20];
    int fd = argc > 3 ? open(argv[3], O_RDONLY) : -1;
    if (fd < 0) return 1;
    memset(buf, 1, sizeof buf);
    double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
    while (cpu(CLOCK_THREAD_CPUTIME_ID) - t0 < secs)
      if (read(fd, buf, sizeof buf) <= 0 && lseek(fd, 0, SEEK_SET) != 0) return 1;
    close(fd);
    spin_spread(secs);
  } else if (!strcmp(argv[1], "exec")) {
    spin_spread(secs);
    pid_t p = fork();
    if (p == 0) {
      execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done", (char *)NULL);
      _exit(127);
    }
    int st;
    if (p < 0 || waitpid(p, &st, 0) != p) return 1;
    if (WIFSIGNALED(st)) printf("signal %d\n", WTERMSIG(st));
    else printf("exit %d\n", WEXITSTATUS(st));
    return 0;
  } else if (!strcmp(argv[1], "execself")) {
    spin_spread(secs);
    execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; echo done", (char *)NULL);
    return 127;
  } else if (!strcmp(argv[1], "execfail")) {
    int st = -1, sst = -1;
    pid_t p = vfork();
    if (p == 0) {
      execlp("true", "true", (char *)NULL);
      _exit(127);
    }
    if (p < 0 || waitpid(p, &st, 0) != p) return 1;
    char *none[] = { "libprof-no-such-program", NULL };
    int r = execvp(none[0], none), enoent = r == -1 && errno == ENOENT;
    FILE *f = fopen("noshebang.sh", "w");
    if (!f) return 1;
    fputs("exit 7\n", f);
    fclose(f);
    chmod("noshebang.sh", 0755);
    if ((p = fork()) == 0) {
      execlp("./noshebang.sh", "noshebang.sh", (char *)NULL);
      _exit(127);
    }
    if (p < 0 || waitpid(p, &sst, 0) != p) return 1;
    int nst = -1;                /* (the same with no argument vector at all, as Linux allows) */
    if ((p = fork()) == 0) {
      /* (through a pointer: the C library's header declares the vector
         nonnull, and UBSan would stop the call) */
      int (*vp)(const char *, char *const[]) = execvp;
      vp("./noshebang.sh", NULL);
      _exit(127);
    }
    if (p < 0 || waitpid(p, &nst, 0) != p) return 1;
    if (!WIFEXITED(nst) || WEXITSTATUS(nst) != WEXITSTATUS(sst)) sst = nst;
    double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
    spin_spread(secs);
    printf("vfork %d enoent %d script %d %.3f\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), enoent,
           WIFEXITED(sst) ? WEXITSTATUS(sst) : 128 + WTERMSIG(sst), cpu(CLOCK_THREAD_CPUTIME_ID) - t0);
    return 0;
  } else if (!strcmp(argv[1], "tail")) {
    /* (reads of 16 MB: few returns to user code, where a user-time
       clock might yet signal) */
    static char buf[16 << 20];
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd < 0) return 1;
    double t0 = cpu(CLOCK_THREAD_CPUTIME_ID);
    spin_spread(secs);
    double t1 = cpu(CLOCK_THREAD_CPUTIME_ID);
    while (cpu(CLOCK_THREAD_CPUTIME_ID) - t1 < 2 * secs)
      if (read(fd, buf, sizeof buf) <= 0) return 1;
    printf("%.3f\n", t1 - t0);
    return 0;
  } else if (!strcmp(argv[1], "fork")) {
    pid_t p = fork();
    if (p == 0) {
      spin_spread(secs);
      exit(0);
    }
    int st;
    waitpid(p, &st, 0);
    printf("%d\n", (int)p);
    return 0;
  }
  printf("%.3f\n", cpu(CLOCK_PROCESS_CPUTIME_ID));
  return 0;
}
