/* Many arcs whose busiest is found last: four threads each call f0 ...
   f99 through one call site (a hundred arcs, first seen in that order),
   then, for ROUNDS rounds, f_i (i % 7 + 1) times each and hot() 2,000
   times, so that libprof's sampling handler rebuilds each thread's arc
   table busiest-first while the thread counts (tests/libprof/run.sh runs
   it at 1 kHz, with snapshots).  Every count is known: f_i is called
   4 * (1 + ROUNDS * (i % 7 + 1)) times, hot() 4 * ROUNDS * 2000.
   Usage: rehome [ROUNDS]   (default 3000) */
#include <pthread.h>
#include <stdlib.h>

static volatile unsigned long sink;
static long rounds = 3000;

#define F(n) __attribute__((noinline)) void f##n(void) { sink += n; }
#define F10(d) F(d##0) F(d##1) F(d##2) F(d##3) F(d##4) F(d##5) F(d##6) F(d##7) F(d##8) F(d##9)
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9)
F10(1) F10(2) F10(3) F10(4) F10(5) F10(6) F10(7) F10(8) F10(9)
#define P(n) f##n,
#define P10(d) P(d##0) P(d##1) P(d##2) P(d##3) P(d##4) P(d##5) P(d##6) P(d##7) P(d##8) P(d##9)
static void (*const fs[100])(void) = {
  P(0) P(1) P(2) P(3) P(4) P(5) P(6) P(7) P(8) P(9)
  P10(1) P10(2) P10(3) P10(4) P10(5) P10(6) P10(7) P10(8) P10(9)
};

__attribute__((noinline)) void hot(void)
{
  for (int i = 0; i < 40; i++) sink += (unsigned long)i;
}

__attribute__((noinline)) void call(int i) { fs[i](); }

__attribute__((noinline)) void *worker(void *arg)
{
  (void)arg;
  for (int i = 0; i < 100; i++) call(i);
  for (long r = 0; r < rounds; r++) {
    for (int i = 0; i < 100; i++)
      for (int k = 0; k <= i % 7; k++) call(i);
    for (int k = 0; k < 2000; k++) hot();
  }
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc > 1) rounds = atol(argv[1]);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  return 0;
}
