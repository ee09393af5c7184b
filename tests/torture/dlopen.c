/* dlopen -- a storm of dlopen / call / dlclose of a -pg shared library
 * (dlopen_lib.c, which has a -pg IFUNC resolver and a constructor and a
 * destructor that call profiled code), from the main thread for 0.3 s,
 * and from two threads at once.  With LIBPROF_OBJECTS=1 libprof read
 * the map of objects while the loader still relocated one, and patched
 * it: the loop crashed. */
// torture-lib: dlopen_lib.c
// torture-libs: -ldl -lpthread
// torture-static: dlopen in a static program loads a second C library
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *path;
static volatile int wrong;

/* one round: open, call, close; the library's answer checked */
__attribute__((noinline)) void round_trip(long i)
{
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); exit(2); }
  long (*work)(long) = (long (*)(long))dlsym(h, "lib_work");
  long (*pick)(long) = (long (*)(long))dlsym(h, "lib_ifunc");
  if (!work || !pick) { fprintf(stderr, "dlsym: %s\n", dlerror()); exit(2); }
  /* lib_work: sum of 2 (i + k), k < 20; lib_ifunc: 2 i + 1 */
  if (work(i) != 40 * i + 380 || pick(i) != 2 * i + 1) wrong = 1;
  dlclose(h);
}
__attribute__((noinline)) void *storm(void *arg)
{
  for (long i = 0; i < 100; i++) round_trip(i);
  return arg;
}
static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
  path = argc > 1 ? argv[1] : "./libtorture.so";
  long n = 0;
  double t0 = now();
  while (n < 200 || now() - t0 < 0.3) round_trip(n++);
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, storm, NULL);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("every round's answers %s\n", wrong ? "WRONG" : "right");
  fprintf(stderr, "count round_trip %ld\n", n + 200);
  return 0;
}
