/* A program that works in a shared library linked at start (libwork:
   lib_work), in one it dlopens, closes and opens again (libplug:
   plug_work, twice), and in libc (memchr over a buffer), besides its own
   app_work: with LIBPROF_OBJECTS=1 each object's time must land in its
   own profile.  argv[1] scales the work (default 20000000), argv[2] is
   libplug's path.  Prints the CPU seconds used. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double lib_work(long n);
static volatile unsigned long sink;
__attribute__((noinline)) void app_work(long n) { for (long i = 0; i < n; i++) sink += (unsigned long)i * 7; }

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 20000000;
  const char *plug = argc > 2 ? argv[2] : "./libplug.so";
  app_work(n);
  double r = lib_work(n);
  for (int round = 0; round < 2; round++) {
    void *h = dlopen(plug, RTLD_NOW);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    double (*pw)(long) = (double (*)(long))dlsym(h, "plug_work");
    r += pw(n / 2);
    dlclose(h);
  }
  static char buf[1 << 16];
  memset(buf, 'a', sizeof buf);
  size_t t = 0;
  for (long i = 0; i < n / 800; i++) t += (size_t)((char *)memchr(buf, 'b' + (int)(i & 1), sizeof buf) != NULL);
  struct timespec c;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
  printf("%.3f %g %zu\n", (double)c.tv_sec + (double)c.tv_nsec / 1e9, r, t);
  return 0;
}
