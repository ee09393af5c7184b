/* basic -- a known call graph and two threads: the baseline every mode
 * and variant must pass (main -> a 3 times, a -> b 5 times each, b -> c
 * 2 times each, and 2 threads calling c 1000 times each). */
// torture-libs: -lpthread
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;
__attribute__((noinline)) void c(unsigned long i) { __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED); }
__attribute__((noinline)) void b(unsigned long i) { c(i); c(i + 1); }
__attribute__((noinline)) void a(unsigned long i) { for (int k = 0; k < 5; k++) b(i + (unsigned long)k); }
__attribute__((noinline)) void *worker(void *arg)
{
  for (int k = 0; k < 1000; k++) c((unsigned long)k);
  return arg;
}

int main(void)
{
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (unsigned long i = 0; i < 3; i++) a(i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("sum %lu\n", sink);
  printf("count a 3\ncount b 15\ncount c %d\n", 30 + 2000);
  return 0;
}
