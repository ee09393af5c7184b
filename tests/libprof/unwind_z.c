/* unwind_z.c -- hot work inside Debian's libz and libbz2, built without
   frame pointers: compress_z and compress_bz (this program's, -pg) each
   call the library in a loop; the stacks of their samples must reach
   main and _start through the libraries' frames.  Prints each phase's
   CPU seconds: "z S bz S". */
#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>

static unsigned char in[1 << 20], out[(1 << 20) + (1 << 16)];

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) static void fill(void)
{
  unsigned x = 12345;
  for (size_t i = 0; i < sizeof in; i++) {
    x = x * 1103515245 + 12345;
    in[i] = "abcdefgh"[(x >> 16) & 7] + ((x >> 24) & 1);
  }
}

__attribute__((noinline)) static unsigned long compress_z(int rounds)
{
  unsigned long sum = 0;
  for (int r = 0; r < rounds; r++) {
    uLongf n = sizeof out;
    if (compress2(out, &n, in, sizeof in, 9) != Z_OK) abort();
    sum += n;
  }
  return sum;
}

__attribute__((noinline)) static unsigned long compress_bz(int rounds)
{
  unsigned long sum = 0;
  for (int r = 0; r < rounds; r++) {
    unsigned n = sizeof out;
    if (BZ2_bzBuffToBuffCompress((char *)out, &n, (char *)in, sizeof in, 9, 0, 0) != BZ_OK) abort();
    sum += n;
  }
  return sum;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 4;
  fill();
  double t0 = cpu();
  unsigned long a = compress_z(rounds);
  double t1 = cpu();
  unsigned long b = compress_bz(rounds);
  double t2 = cpu();
  printf("z %.3f bz %.3f (%lu %lu)\n", t1 - t0, t2 - t1, a, b);
  return 0;
}
