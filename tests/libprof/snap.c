/* Snapshots: N calls of phase1, then a snapshot asked for as argv[1]
   says ("signal": raise SIGUSR1, with LIBPROF_DUMP_SIGNAL=USR1 set by
   the test, and wait for gmon.out to appear; "call": libprof_dump(argv[2]);
   "interval": run phase1 until gmon.out appears, LIBPROF_INTERVAL being
   set), then N calls of phase2, and a normal exit.  The snapshot is moved
   to argv[2] in the first and last cases so the final file does not
   replace it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <libprof.h>

static volatile unsigned long sink;
__attribute__((noinline)) void phase1(unsigned long i) { sink += i; }
__attribute__((noinline)) void phase2(unsigned long i) { sink += i; }

static int wait_for(const char *f)
{
  struct stat st;
  struct timespec ms = { 0, 1000000 };
  for (int i = 0; i < 5000; i++) {
    if (stat(f, &st) == 0) return 1;
    nanosleep(&ms, NULL);
  }
  return 0;
}

int main(int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "call", *dst = argc > 2 ? argv[2] : "snap.out";
  const long n = 1000;
  long done = 0;
  if (!strcmp(how, "interval")) {
    struct stat st;
    time_t give_up = time(NULL) + 10;
    while (stat("gmon.out", &st) != 0) {
      phase1((unsigned long)done);
      if (++done % 100000 == 0 && time(NULL) > give_up) return 2;
    }
    if (rename("gmon.out", dst) != 0) return 2;
  } else {
    for (; done < n; done++) phase1((unsigned long)done);
    if (!strcmp(how, "signal")) {
      raise(SIGUSR1);
      if (!wait_for("gmon.out") || rename("gmon.out", dst) != 0) return 2;
    } else if (libprof_dump(dst) != 0) {
      return 2;
    }
  }
  for (long i = 0; i < n; i++) phase2((unsigned long)i);
  printf("%ld\n", done);
  return 0;
}
