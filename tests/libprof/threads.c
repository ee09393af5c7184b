/* Four threads, each making N calls to one leaf function and then burning
   CPU in a loop (argv[2] turns, default 300000000): libprof must count
   every call and sample every thread.
   Prints the process CPU time in seconds on stderr. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static long calls_per_thread = 5000000, burn_per_thread = 300000000;

__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }

__attribute__((noinline)) void burn(long n)
{
  for (long i = 0; i < n; i++) sink += (unsigned long)i;
}

__attribute__((noinline)) void *worker(void *arg)
{
  (void)arg;
  for (long i = 0; i < calls_per_thread; i++) leaf((unsigned long)i);
  burn(burn_per_thread);
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc > 1) calls_per_thread = atol(argv[1]);
  if (argc > 2) burn_per_thread = atol(argv[2]);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  fprintf(stderr, "%.3f\n", ts.tv_sec + ts.tv_nsec / 1e9);
  return 0;
}
