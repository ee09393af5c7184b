/* A daemon's start: every descriptor closed, then its own opened, the
   lowest numbers first -- 0 its input, 1 its output, 2 a second reader
   of the input, 3 a third, 4 its output again (appending).  While it
   runs (SECONDS, argv[3]), it sends itself LIBPROF_DUMP_SIGNAL (USR1)
   five times when that is set, and watches gmon.out: each new file there
   is a snapshot (each is a new inode).  Then it reads its input through
   3 and writes what it got to 1 and "done" to 4.  With "sandbox"
   (argv[4]) it first calls prctl(PR_SET_NO_NEW_PRIVS) (libprof then
   keeps a copy of stderr, see before_sandbox), opens its output on 3
   too, reads through 2 and closes 2 before it exits.  Prints on its output: "read N snapshots M".
   Before libprof owned no descriptor, the snapshot helper's pipe was on
   3 and 4: the helper read the input dry through 3 and the dump signal's
   handler wrote a NUL byte into the output through 4. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
  if (argc < 4) return 2;
  double secs = atof(argv[3]);
  int sandbox = argc > 4 && !strcmp(argv[4], "sandbox");
  if (sandbox) prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  for (int fd = 0; fd < 1024; fd++) close(fd);
  /* (sandbox: 3 is the output too, where libprof's copy of stderr was) */
  if (open(argv[1], O_RDONLY) != 0 || open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644) != 1
      || open(argv[1], O_RDONLY) != 2
      || (sandbox ? open(argv[2], O_WRONLY | O_APPEND) : open(argv[1], O_RDONLY)) != 3
      || open(argv[2], O_WRONLY | O_APPEND) != 4)
    return 3;
  int dump = getenv("LIBPROF_DUMP_SIGNAL") != NULL, sent = 0, snaps = 0;
  ino_t last = 0;
  double t0 = now();
  for (;;) {
    double t = now() - t0;
    if (t >= secs) break;
    spin(100000);
    struct stat st;
    if (stat("gmon.out", &st) == 0 && st.st_ino != last) { snaps++; last = st.st_ino; }
    if (dump && sent < 5 && t >= secs * (sent + 1) / 6) { kill(getpid(), SIGUSR1); sent++; }
  }
  char buf[4096];
  ssize_t n = read(sandbox ? 2 : 3, buf, sizeof buf);
  dprintf(1, "read %zd snapshots %d\n", n, snaps);
  if (write(4, "done\n", 5) != 5) return 4;
  if (sandbox) close(2);
  return 0;
}
