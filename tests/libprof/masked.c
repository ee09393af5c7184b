/* Worker threads that block every signal, as servers' and compressors'
   workers do so that signals go to the main thread: one blocks them
   itself (pthread_sigmask), one with sigprocmask, and two inherit a full
   mask that the main thread set before creating them.  Each burns
   SECONDS (argv[1], default 0.3) of CPU in spin(); the program prints
   the process's CPU time to stderr, so the test can see what share of
   it was sampled. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static double secs = 0.3;
__attribute__((noinline)) void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }

static double thread_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *work(void *how)
{
  sigset_t all;
  sigfillset(&all);
  if (how == (void *)1) pthread_sigmask(SIG_SETMASK, &all, NULL);
  if (how == (void *)2) sigprocmask(SIG_BLOCK, &all, NULL);
  double t0 = thread_cpu();
  while (thread_cpu() - t0 < secs) spin(2000000);   /* clock_gettime runs outside the text: seldom */
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc > 1) secs = atof(argv[1]);
  pthread_t t[4];
  pthread_create(&t[0], NULL, work, (void *)1);
  pthread_create(&t[1], NULL, work, (void *)2);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_create(&t[2], NULL, work, NULL);
  pthread_create(&t[3], NULL, work, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  struct timespec c;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
  fprintf(stderr, "%.3f\n", (double)c.tv_sec + (double)c.tv_nsec / 1e9);
  return 0;
}
