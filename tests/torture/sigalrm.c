/* sigalrm -- a SIGALRM handler that calls profiled code, at a high rate
 * (ITIMER_REAL every 50 us) while the program makes profiled calls and
 * finds new arcs (its first call of each of 64 functions comes under
 * fire): every call counted, the handlers' too (their number on stderr;
 * the handler itself is called from outside the program's text, so its
 * callee is what is counted). */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t ticks;
static volatile unsigned long sink, hsink;
__attribute__((noinline)) void tick_leaf(int i) { hsink += (unsigned long)i; }
__attribute__((noinline)) void on_tick(int sig) { ticks++; tick_leaf(sig); }
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }

#define F(n) __attribute__((noinline)) void f##n(unsigned long i) { leaf(i + n); }
#define F8(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7)
F8(1) F8(2) F8(3) F8(4) F8(5) F8(6) F8(7) F8(8)
#define C(n) f##n,
#define C8(n) C(n##0) C(n##1) C(n##2) C(n##3) C(n##4) C(n##5) C(n##6) C(n##7)
static void (*const fs[])(unsigned long) = { C8(1) C8(2) C8(3) C8(4) C8(5) C8(6) C8(7) C8(8) };

int main(void)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_tick;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 50 }, { 0, 50 } };
  setitimer(ITIMER_REAL, &it, NULL);
  unsigned long n = 0;
  for (int r = 0; r < 40; r++)
    for (unsigned k = 0; k < 64; k++)
      for (int j = 0; j < 200; j++, n++) fs[k](n);
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer(ITIMER_REAL, &off, NULL);
  printf("%lu\n", sink);
  printf("count leaf %lu\n", n);
  fprintf(stderr, "count tick_leaf %d\n", (int)ticks);
  return 0;
}
