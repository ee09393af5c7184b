/* A program without the C library (tests/cross.sh, cases nostdlib_*):
   leaf is a local function, first in .text when this file is linked
   first (where MIPS's linker puts the global _ftext). */
static volatile long sink;

__attribute__((noinline)) static long leaf(long n)
{
  long s = 0;
  for (long i = 0; i < n; i++) s += i ^ sink;
  return s;
}

__attribute__((noinline)) long work(long n) { return leaf(n) + leaf(n / 2); }

__attribute__((noinline)) long top(long n)
{
  long s = 0;
  for (int k = 0; k < 4; k++) s += work(n);
  return s;
}
