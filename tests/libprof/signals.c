/* A profiled signal handler firing every 200 microseconds while the main
   loop makes profiled calls: the program must run to the end and its calls
   be counted exactly.  Prints the number of handler runs. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long sink;
static volatile sig_atomic_t ticks;

__attribute__((noinline)) void in_handler(void) { sink++; }
__attribute__((noinline)) void work(unsigned long i) { sink += i; }
static void on_alarm(int sig) { (void)sig; ticks++; in_handler(); }

int main(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 200 }, { 0, 200 } };
  setitimer(ITIMER_REAL, &it, NULL);
  for (unsigned long i = 0; i < 3000000; i++) work(i);
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer(ITIMER_REAL, &it, NULL);
  printf("%d\n", (int)ticks);
  return 0;
}
