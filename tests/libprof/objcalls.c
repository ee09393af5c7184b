/* Calls into and inside -pg shared libraries, for LIBPROF_OBJECTS=1:
   four threads call into libca (linked at start); libcb is opened with
   dlopen, called from four threads, closed, opened again (after another
   library took its place, so at another address if the loader allows)
   and called again; libcb calls into libca, and the C library's qsort
   calls libca back.  Prints the calls made, for the counts to be checked
   against.  argv[1]: libcb's path, argv[2]: libfill's (the library that
   takes libcb's place), argv[3]: "run", "snap" (libprof_dump(argv[4])
   after the calls into libca), "fork" (a child calls a_work(7) and exits
   before the rest) or "die" (SIGTERM to itself at the end). */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "libprof.h"

#define T 4
void a_work(long n);
void a_sort(int *v, size_t n);
extern long a_cmp_calls;
static void (*b_work)(long);
static long n_a = 0, n_b = 0, n_ab = 0;

__attribute__((noinline)) static void *worker_a(void *arg) { a_work((long)arg); return NULL; }
__attribute__((noinline)) static void *worker_b(void *arg) { b_work((long)arg); return NULL; }

static void run(void *(*fn)(void *), long n)
{
  pthread_t th[T];
  for (int t = 0; t < T; t++) pthread_create(&th[t], NULL, fn, (void *)(n + t));
  for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
}

/* libcb opened, called from T threads with N + t each, closed; returns
   where it was */
static void *round_b(const char *path, long n)
{
  void *h = dlopen(path, RTLD_NOW);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  b_work = (void (*)(long))dlsym(h, "b_work");
  run(worker_b, n);
  for (int t = 0; t < T; t++) {
    n_b += n + t;
    n_ab += (n + t) / 10;
  }
  void *at = (void *)b_work;
  dlclose(h);
  return at;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 3 ? argv[3] : "run";
  run(worker_a, 200000);
  for (int t = 0; t < T; t++) n_a += 200000 + t;
  if (!strcmp(mode, "snap") && argc > 4) libprof_dump(argv[4]);
  if (!strcmp(mode, "fork")) {
    pid_t p = fork();
    if (p == 0) { a_work(7); exit(0); }
    int st;
    waitpid(p, &st, 0);
    printf("child=%d ", (int)p);
  }
  int v[5000];
  for (int i = 0; i < 5000; i++) v[i] = (i * 7919) % 5003;
  a_sort(v, 5000);
  void *at1 = round_b(argv[1], 100000);
  void *fill = dlopen(argv[2], RTLD_NOW);   /* in libcb's place, perhaps */
  void *at2 = round_b(argv[1], 150000);
  if (fill) dlclose(fill);
  printf("a_work=%d a_leaf=%ld b_work=%d b_leaf=%ld a_leaf_from_b=%ld a_cmp=%ld moved=%d\n",
         T, n_a, 2 * T, n_b, n_ab, a_cmp_calls, at1 != at2);
  fflush(stdout);
  if (!strcmp(mode, "die")) raise(SIGTERM);
  return 0;
}
