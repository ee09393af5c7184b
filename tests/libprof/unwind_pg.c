/* unwind_pg.c -- the program of unwind_lib.c's -pg library: main ->
   via -> lib_outer -> lib_inner (the library's two frames must be in the
   stacks).  Argument: the work in millions of iterations. */
#include <stdlib.h>

void lib_outer(unsigned long n);

__attribute__((noinline)) static void via(unsigned long n)
{
  lib_outer(n);
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
  via((argc > 1 ? strtoul(argv[1], 0, 10) : 300) * 1000000ul);
  return 0;
}
