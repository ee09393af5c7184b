/* exec -- a program that execs: forked children that run a while and
 * exec a shell, a vfork child that execs, and at the end the program
 * exec'ing itself, the new image making profiled calls and exiting (it
 * writes the profile the harness reads).  A sampling signal left pending
 * at an exec stays pending in the new image, at its default
 * disposition, and kills it ("Profiling timer expired", or a real-time
 * signal's death): each child's status and the second image's output
 * say so.  Run at 1 kHz too, where every exec after a thread's first
 * 10 ms of CPU was killed before libprof stopped its clocks around exec.
 */
// torture-variant: hz1k LIBPROF_HZ=1000
// torture-variant: itimer LIBPROF_HZ=1000 LIBPROF_CLOCK=itimer
// torture-variant: timer LIBPROF_HZ=1000 LIBPROF_CLOCK=timer
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i * i; }

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* SECS of the thread's CPU in leaf calls; their number */
__attribute__((noinline)) unsigned long burn(double secs)
{
  unsigned long n = 0;
  double t0 = cpu();
  while (cpu() - t0 < secs)
    for (int k = 0; k < 1000; k++, n++) leaf(n);
  return n;
}

static int status_of(pid_t p)
{
  int st;
  if (p < 0 || waitpid(p, &st, 0) != p) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "again")) {
    for (unsigned long i = 0; i < 5000; i++) leaf(i);
    printf("second image: ran\n");
    fprintf(stderr, "count leaf 5000\n");
    return 0;
  }
  burn(0.03);
  for (int i = 0; i < 4; i++) {            /* forked: 20 ms, then a shell */
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
      burn(0.02);
      if (i & 1) execlp("sh", "sh", "-c", "exit 3", (char *)NULL);
      else {
        char *av[] = { "sh", "-c", "exit 3", NULL };
        execv("/bin/sh", av);
      }
      _exit(99);
    }
    printf("fork child %d: status %d\n", i, status_of(p));
  }
  fflush(stdout);
  pid_t v = vfork();                       /* shares our memory and clocks */
  if (v == 0) {
    execl("/bin/sh", "sh", "-c", "exit 4", (char *)NULL);
    _exit(99);
  }
  printf("vfork child: status %d\n", status_of(v));
  burn(0.02);
  printf("first image: exec'ing itself\n");
  fflush(stdout);
  char *self[] = { argv[0], "again", NULL };
  execv("/proc/self/exe", self);
  perror("execv");
  return 1;
}
