/* N (default 100000) short-lived threads, one after another in waves of
   four, each making one profiled call: the runtime's memory must not
   grow with the number of threads that ever ran.  Prints the peak
   resident size in kB and the CPU seconds used. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static volatile unsigned long sink;
__attribute__((noinline)) void work(unsigned long i) { sink += i; }
__attribute__((noinline)) void *body(void *arg) { work((unsigned long)arg); return NULL; }

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 100000;
  for (long i = 0; i < n; i += 4) {
    pthread_t t[4];
    int k = 0;
    for (; k < 4 && i + k < n; k++) pthread_create(&t[k], NULL, body, (void *)i);
    while (k--) pthread_join(t[k], NULL);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%ld %.3f\n", ru.ru_maxrss, (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6
         + (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
  return 0;
}
