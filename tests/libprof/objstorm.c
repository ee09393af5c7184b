/* objstorm LIB THREADS ITERATIONS [ns]: each thread opens LIB, calls its
   storm_work once and closes it, ITERATIONS times (with "ns": in a new
   link namespace, dlmopen(LM_ID_NEWLM), each time); prints the calls it
   made: "storm_work=N storm_leaf=M". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  for (long i = 1; i < nt; i++) pthread_create(&t[i], NULL, storm, (void *)i);
  storm((void *)0);
  for (long i = 1; i < nt; i++) pthread_join(t[i], NULL);
  printf("storm_work=%ld storm_leaf=%ld\n", work_calls, leaf_calls);
  return 0;
}
