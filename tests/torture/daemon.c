/* daemon -- what daemons do with descriptors: close every one, then open
 * their own (input as 0, output as 1, a log as 2, more after), and
 * stream the input through profiled code into the output while time
 * passes (so that snapshots are taken: the LIBPROF_INTERVAL variant).
 * libprof must own no descriptor the program can close or reuse: its
 * snapshot pipe used to land on the program's files (a NUL byte written
 * into the output, the input read dry).  The program checks its files
 * itself and writes what it found to torture.out (its stdout is gone;
 * the runner reads that file as its output); its exit status is 0 only
 * if every byte is where it belongs. */
// torture-variant: interval LIBPROF_INTERVAL=0.002
// torture-variant: dumpsig LIBPROF_DUMP_SIGNAL=USR2 TORTURE_RAISE=1
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
__attribute__((noinline)) unsigned char xform(unsigned char c, unsigned long i)
{
  sink += i;
  return (unsigned char)(c ^ 0x5a);
}
static void nap(void)
{
  struct timespec ts = { 0, 1000000 };
  nanosleep(&ts, NULL);
}

#define N 65536
static unsigned char in[N], out[N], back[N + 1];

int main(void)
{
  for (int i = 0; i < N; i++) in[i] = (unsigned char)(i * 7 + 1);   /* no zero byte */
  int fd = open("daemon.in", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write(fd, in, N) != N || close(fd)) return 2;
  int raise_it = getenv("TORTURE_RAISE") != NULL;

  for (int d = 0; d < 1024; d++) close(d);
  if (open("daemon.in", O_RDONLY) != 0) return 3;
  if (open("daemon.out", O_WRONLY | O_CREAT | O_TRUNC, 0644) != 1) return 4;
  if (open("daemon.log", O_WRONLY | O_CREAT | O_TRUNC, 0644) != 2) return 5;
  int extra[4];
  for (int k = 0; k < 4; k++) extra[k] = open("/dev/null", O_RDWR);

  size_t got = 0;
  unsigned long calls = 0;
  for (int round = 0; got < N; round++) {
    ssize_t r = read(0, out + got, 1024);
    if (r <= 0) break;
    for (ssize_t i = 0; i < r; i++, calls++) out[got + (size_t)i] = xform(out[got + (size_t)i], calls);
    if (write(1, out + got, (size_t)r) != r) return 6;
    got += (size_t)r;
    nap();
    if (raise_it && round % 8 == 0) raise(SIGUSR2);
  }
  for (int k = 0; k < 4; k++) close(extra[k]);
  close(0); close(1); close(2);

  /* the files as they should be: every byte read, written once, intact */
  int ok = got == N;
  fd = open("daemon.out", O_RDONLY);
  ssize_t r = fd >= 0 ? read(fd, back, N + 1) : -1;
  ok = ok && r == N;
  for (int i = 0; ok && i < N; i++) ok = back[i] == (unsigned char)(in[i] ^ 0x5a);
  if (fd >= 0) close(fd);
  fd = open("daemon.log", O_RDONLY);
  ok = ok && fd >= 0 && read(fd, back, 1) == 0;        /* nothing written on "stderr" */
  if (fd >= 0) close(fd);
  fd = open("torture.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    char line[128];
    int len = snprintf(line, sizeof line, "%s: %zu bytes read, %zd in the output\ncount xform %lu\n",
                       ok ? "intact" : "DAMAGED", got, r, calls);
    if (write(fd, line, (size_t)len) != len) ok = 0;
    close(fd);
  }
  return ok ? 0 : 1;
}
