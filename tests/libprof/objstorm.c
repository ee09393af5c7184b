/* objstorm LIB THREADS ITERATIONS [ns]: each thread opens LIB, calls its
   storm_work once and closes it, ITERATIONS times (with "ns": in a new
   link namespace, dlmopen(LM_ID_NEWLM), each time); prints the calls it
   made: "storm_work=N storm_leaf=M".
   objstorm PREFIX 1 N many: opens PREFIX0.so ... PREFIX<N-1>.so, calls
   each one's storm_work once and keeps them all open.
   objstorm LIB 1 N nswait: opens LIB in a new link namespace, waits 0.1
   s, calls storm_work(N) once (N calls of storm_leaf).
   objstorm LIB 1 N nsnow: the same, calling at once, then waiting 0.1 s.
   objstorm - 1 N jit: runs N * 10^8 turns of a loop in code it wrote
   into an anonymous mapping, part of no object. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static const char *lib;
static long iters;
static int newns;
static long work_calls, leaf_calls;
static void *storm(void *arg)
{
  long id = (long)arg, w = 0, l = 0;
  for (long i = 0; i < iters; i++) {
    void *h = newns ? dlmopen(LM_ID_NEWLM, lib, RTLD_NOW) : dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); exit(2); }
    long (*f)(long) = (long (*)(long))dlsym(h, "storm_work");
    l += f(id + i % 7);
    w++;
    dlclose(h);
  }
  __atomic_fetch_add(&work_calls, w, __ATOMIC_RELAXED);
  __atomic_fetch_add(&leaf_calls, l, __ATOMIC_RELAXED);
  return NULL;
}
int main(int argc, char **argv)
{
  if (argc < 4) return 2;
  lib = argv[1];
  int nt = atoi(argv[2]);
  iters = atol(argv[3]);
  newns = argc > 4 && !strcmp(argv[4], "ns");
  pthread_t t[64];
  if (nt < 1 || nt > 64) return 2;
  if (argc > 4 && (!strcmp(argv[4], "nswait") || !strcmp(argv[4], "nsnow"))) {
    void *h = dlmopen(LM_ID_NEWLM, lib, RTLD_NOW);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 2; }
    struct timespec t = { 0, 100000000 };
    int now = !strcmp(argv[4], "nsnow");
    if (!now) nanosleep(&t, NULL);
    leaf_calls = ((long (*)(long))dlsym(h, "storm_work"))(iters);
    if (now) nanosleep(&t, NULL);
    printf("storm_work=1 storm_leaf=%ld\n", leaf_calls);
    return 0;
  }
  if (argc > 4 && !strcmp(argv[4], "jit")) {
#if defined(__x86_64__)
    /* mov $N, %rcx; 1: dec %rcx; jnz 1b; ret */
    unsigned char code[] = { 0x48, 0xb9, 0, 0, 0, 0, 0, 0, 0, 0, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3 };
    long n = iters * 100000000L;
    memcpy(code + 2, &n, 8);
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 2;
    memcpy(p, code, sizeof code);
    if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0) return 2;
    ((void (*)(void))p)();
    printf("jit=%ld\n", n);
    return 0;
#else
    return 2;
#endif
  }
  if (argc > 4 && !strcmp(argv[4], "many")) {
    char name[4096];
    for (long i = 0; i < iters; i++) {
      snprintf(name, sizeof name, "%s%ld.so", lib, i);
      void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!h) { fprintf(stderr, "%s\n", dlerror()); return 2; }
      leaf_calls += ((long (*)(long))dlsym(h, "storm_work"))(1 + i % 5);
      work_calls++;
    }
    printf("storm_work=%ld storm_leaf=%ld\n", work_calls, leaf_calls);
    return 0;
  }
  for (long i = 1; i < nt; i++) pthread_create(&t[i], NULL, storm, (void *)i);
  storm((void *)0);
  for (long i = 1; i < nt; i++) pthread_join(t[i], NULL);
  printf("storm_work=%ld storm_leaf=%ld\n", work_calls, leaf_calls);
  return 0;
}
