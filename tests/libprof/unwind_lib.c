/* unwind_lib.c -- a -pg shared library (frame pointers, built with
   -pg): lib_outer calls lib_inner, which spins.  unwind_pg.c calls
   lib_outer through its function `via`; every stack of lib_inner's must
   read via;lib_outer;lib_inner. */
volatile unsigned long lib_sink;

__attribute__((noinline)) void lib_inner(unsigned long n)
{
  for (unsigned long i = 0; i < n; i++) lib_sink += i * i;
}

__attribute__((noinline)) void lib_outer(unsigned long n)
{
  for (int k = 0; k < 4; k++) lib_inner(n / 4);
  lib_sink++;
}
