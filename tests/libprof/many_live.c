/* N (argv[1], default 10000) threads alive at once, each making a few
   profiled calls and then waiting until all have started; prints the
   peak resident size (VmHWM, kB) of the process, the C runtime's and
   the profiler's memory for N live threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static pthread_barrier_t all_up;
__attribute__((noinline)) void work(unsigned long i) { sink += i; }
__attribute__((noinline)) void more(unsigned long i) { work(i); work(i + 1); }
static void *body(void *arg) { more((unsigned long)arg); pthread_barrier_wait(&all_up); return NULL; }

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 10000;
  pthread_t *t = calloc((size_t)n, sizeof *t);
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, 64 * 1024);
  pthread_barrier_init(&all_up, NULL, (unsigned)n + 1);
  long made = 0;
  for (; made < n; made++)
    if (pthread_create(&t[made], &a, body, (void *)made) != 0) break;
  if (made < n) { fprintf(stderr, "only %ld threads\n", made); return 1; }
  pthread_barrier_wait(&all_up);
  char line[256];
  long hwm = -1;
  FILE *f = fopen("/proc/self/status", "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6)) hwm = atol(line + 6);
  if (f) fclose(f);
  for (long i = 0; i < n; i++) pthread_join(t[i], NULL);
  printf("%ld\n", hwm);
  return 0;
}
