/* lowfd -- a program that counts on open() returning the lowest free
 * descriptor while libprof's own threads work beside it: it closes every
 * descriptor, then opens and closes /dev/null 200,000 times, each time
 * expecting descriptor 0 (daemons set up 0, 1 and 2 this way).  A
 * descriptor libprof's snapshot helper or objects poller opens for a
 * moment in the same table (a profile file, /proc/self/maps, an object's
 * file) takes that number from the program (the daemon's log came out on
 * descriptor 3: exit 5, once in four loaded runs).  The verdict goes to
 * torture.out (its stdout is gone), as the daemon's does. */
// torture-variant: interval LIBPROF_INTERVAL=0.001
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;
__attribute__((noinline)) void step(unsigned long i)
{
  sink += i;
}

#define N 200000

int main(void)
{
  for (int d = 0; d < 1024; d++) close(d);
  unsigned long missed = 0, calls = 0;
  for (unsigned long i = 0; i < N; i++, calls++) {
    int fd = open("/dev/null", O_RDONLY);
    if (fd != 0) missed++;
    if (fd >= 0) close(fd);
    step(i);
  }
  int fd = open("torture.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return 2;
  char line[160];
  int len = snprintf(line, sizeof line, "opens that did not get descriptor 0: %lu of %d\ncount step %lu\n",
                     missed, N, calls);
  int ok = write(fd, line, (size_t)len) == len;
  close(fd);
  return ok ? 0 : 1;
}
