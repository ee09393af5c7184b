/* nspatch LIB ROUNDS: each round opens LIB in a new link namespace (a
   copy of the C library comes with it) and, while libprof's poller finds
   it, a thread calls that copy's mcount without a pause for 60 ms. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static void (*volatile mc)(void);
static volatile int stop;
__attribute__((noinline, optimize("no-omit-frame-pointer"))) static void call_mc(void) { mc(); }
static void *spin(void *arg)
{
  (void)arg;
  long n = 0;
  while (!stop) { call_mc(); n++; }
  return (void *)n;
}
int main(int argc, char **argv)
{
  if (argc < 3) return 2;
  int rounds = atoi(argv[2]);
  long total = 0;
  for (int r = 0; r < rounds; r++) {
    void *h = dlmopen(LM_ID_NEWLM, argv[1], RTLD_NOW);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 2; }
    mc = (void (*)(void))dlsym(h, "mcount");
    if (!mc) { fprintf(stderr, "no mcount\n"); return 2; }
    stop = 0;
    pthread_t t;
    pthread_create(&t, NULL, spin, NULL);
    struct timespec d = { 0, 60000000 };
    nanosleep(&d, NULL);
    stop = 1;
    void *n;
    pthread_join(t, &n);
    total += (long)n;
    dlclose(h);
  }
  printf("rounds %d\n", rounds);
  fprintf(stderr, "calls %ld\n", total);
  return 0;
}
