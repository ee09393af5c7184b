/* libcwork.c -- a program that spends a good part of its time in the C
   library (memchr, memcpy, strlen over 64 KB buffers) and the rest in its
   own arithmetic: libc's share of the samples under LIBPROF_OBJECTS=1
   must be near perf's on the same program built without -pg
   (objperf.sh).  argv[1] scales the work (default 300). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static volatile unsigned long sink;
static char a[1 << 16], b[1 << 16];
__attribute__((noinline)) void own_work(long n)
{
  unsigned long s = 0;
  for (long i = 0; i < n; i++) s += (unsigned long)(i * i) ^ (s >> 7);
  sink = s;
}
__attribute__((noinline)) void libc_work(int reps)
{
  for (int r = 0; r < reps; r++) {
    memcpy(b, a, sizeof a);
    sink += strlen(b);
    sink += (unsigned long)(memchr(a, 'z', sizeof a) != NULL);
  }
}
int main(int argc, char **argv)
{
  int k = argc > 1 ? atoi(argv[1]) : 300;
  memset(a, 'x', sizeof a - 1);
  /* fine-grained turns (tens of microseconds), far shorter than the
     kernel's tick, so that samples do not beat with the phases */
  for (int i = 0; i < k * 50; i++) {
    own_work(20000);
    libc_work(4);
  }
  printf("%lu\n", sink);
  return 0;
}
