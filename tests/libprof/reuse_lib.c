/* reuse_lib.c -- reuse.c's plugins, built twice: -DPLUG_A gives
   libreuseA.so (a_never, then a_spin), -DPLUG_B libreuseB.so (b_spin,
   then b_never): the same code and sizes, so that B is loaded where A
   was, with the functions swapped, so that a sample in one plugin named
   after the other lands on a function that never runs (*_never). */
#include <time.h>

volatile unsigned long plug_sink;

#define SPIN(name) \
  __attribute__((noinline)) void name(unsigned long ms) \
  { \
    struct timespec t; \
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); \
    long long end = t.tv_sec * 1000000000ll + t.tv_nsec + (long long)ms * 1000000; \
    for (;;) { \
      for (unsigned long i = 0; i < 20000; i++) plug_sink += i ^ (i >> 3); \
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); \
      if (t.tv_sec * 1000000000ll + t.tv_nsec >= end) break; \
    } \
  }

#ifdef PLUG_A
SPIN(a_never)
SPIN(a_spin)
#define WORK a_spin
#else
SPIN(b_spin)
SPIN(b_never)
#define WORK b_spin
#endif

/* spins MS ms of CPU time in this plugin's *_spin */
void plug_work(unsigned long ms)
{
  WORK(ms);
  plug_sink++;
}
