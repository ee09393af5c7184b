/* Snapshots while threads keep finding new arcs.  Four threads each call
   every function of fns.h (made by the test: f0 ... and the table fns[]
   of NF entries) from 16 call sites of their own, a little work between
   calls, so each thread's table keeps growing (tens of thousands of
   arcs) while the main thread writes snapshot after snapshot with
   libprof_dump (at most argv[1], to argv[2]) -- or LIBPROF_INTERVAL
   writes them.  Prints the number of calls made to the f functions; the
   program must end (no snapshot may hang) and the profile must hold
   every call. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <libprof.h>
#include "fns.h"

static volatile int running = 4;
static volatile unsigned long spin_sink;
static int spin = 200;

#define SITE(n) \
  __attribute__((noinline)) static void site##n(void) \
  { for (int i = 0; i < NF; i++) { fns[i](); for (int k = 0; k < spin; k++) spin_sink += (unsigned long)k; } }
#define SITE4(a, b, c, d) SITE(a) SITE(b) SITE(c) SITE(d)
SITE4(0, 1, 2, 3) SITE4(4, 5, 6, 7) SITE4(8, 9, 10, 11) SITE4(12, 13, 14, 15)
SITE4(16, 17, 18, 19) SITE4(20, 21, 22, 23) SITE4(24, 25, 26, 27) SITE4(28, 29, 30, 31)
SITE4(32, 33, 34, 35) SITE4(36, 37, 38, 39) SITE4(40, 41, 42, 43) SITE4(44, 45, 46, 47)
SITE4(48, 49, 50, 51) SITE4(52, 53, 54, 55) SITE4(56, 57, 58, 59) SITE4(60, 61, 62, 63)
#define S4(a, b, c, d) site##a, site##b, site##c, site##d
static void (*const sites[64])(void) = {
  S4(0, 1, 2, 3), S4(4, 5, 6, 7), S4(8, 9, 10, 11), S4(12, 13, 14, 15),
  S4(16, 17, 18, 19), S4(20, 21, 22, 23), S4(24, 25, 26, 27), S4(28, 29, 30, 31),
  S4(32, 33, 34, 35), S4(36, 37, 38, 39), S4(40, 41, 42, 43), S4(44, 45, 46, 47),
  S4(48, 49, 50, 51), S4(52, 53, 54, 55), S4(56, 57, 58, 59), S4(60, 61, 62, 63) };

static void *body(void *arg)
{
  long k = (long)arg;
  for (int s = 0; s < 16; s++) sites[k * 16 + s]();
  __atomic_fetch_sub(&running, 1, __ATOMIC_RELEASE);
  return NULL;
}

int main(int argc, char **argv)
{
  long dumps = argc > 1 ? atol(argv[1]) : 0;
  const char *path = argc > 2 ? argv[2] : "snap.out";
  if (argc > 3) spin = atoi(argv[3]);
  pthread_t t[4];
  for (long k = 0; k < 4; k++) pthread_create(&t[k], NULL, body, (void *)k);
  for (long d = 0; d < dumps && __atomic_load_n(&running, __ATOMIC_ACQUIRE); d++)
    if (libprof_dump(path) != 0) { perror("libprof_dump"); return 1; }
  for (int k = 0; k < 4; k++) pthread_join(t[k], NULL);
  printf("%lu\n", 64UL * NF);
  return 0;
}
