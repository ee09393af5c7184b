/* unwind_plug.c -- a plugin dlclose'd and another loaded at its address:
   ./libplugA.so's plug_work spins in plug_a_spin, then (A closed)
   ./libplugB.so's in plug_b_spin.  Prints each phase's CPU seconds and
   where each plugin was loaded: "a S b S at A B". */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static double run(const char *path, unsigned long n, void **at)
{
  void *h = dlopen(path, RTLD_NOW);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  void (*work)(unsigned long) = (void (*)(unsigned long))dlsym(h, "plug_work");
  *at = (void *)work;
  double t0 = cpu();
  work(n);
  double t = cpu() - t0;
  dlclose(h);
  return t;
}

int main(int argc, char **argv)
{
  unsigned long n = (argc > 1 ? strtoul(argv[1], 0, 10) : 200) * 1000000ul;
  void *a, *b;
  double ta = run("./libplugA.so", n, &a), tb = run("./libplugB.so", n, &b);
  printf("a %.3f b %.3f at %p %p\n", ta, tb, a, b);
  return 0;
}
