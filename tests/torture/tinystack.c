/* tinystack -- threads on PTHREAD_STACK_MIN stacks (16 KB here) making
 * profiled calls (their first one goes through libprof's slow path on
 * that stack; libprof's sampling handler runs there too), while they
 * burn CPU so that they are sampled, 200 calls deep.  LIBPROF_STACKS
 * used to overflow such stacks (its handler's first calls bound lazily). */
// torture-variant: stacks256 LIBPROF_STACKS=256 LIBPROF_HZ=1000
// torture-libs: -lpthread
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }
__attribute__((noinline)) void rec(int d, unsigned long i) { if (d) rec(d - 1, i); else leaf(i); }
static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
__attribute__((noinline)) void *worker(void *arg)
{
  unsigned long n = 0;
  double t0 = cpu();
  while (n < 20000 || cpu() - t0 < 0.02)
    for (int k = 0; k < 100; k++, n++) rec(200, n);
  *(unsigned long *)arg = n;
  return NULL;
}

int main(void)
{
  enum { T = 6 };
  pthread_t t[T];
  unsigned long n[T], total = 0;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
  for (int i = 0; i < T; i++)
    if (pthread_create(&t[i], &at, worker, &n[i])) { perror("pthread_create"); return 2; }
  for (int i = 0; i < T; i++) { pthread_join(t[i], NULL); total += n[i]; }
  printf("%d threads done\n", T);
  fprintf(stderr, "count leaf %lu\n", total);
  return 0;
}
