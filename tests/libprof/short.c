/* One function burning about SECONDS (argv[1], default 0.06) of CPU time,
   then the CPU time the process used from main on, on stderr.  (Not the
   process's whole CPU time: the start-up before main -- exec, the dynamic
   linker, relocations -- runs before profiling starts and cannot be
   sampled by any runtime; it is 2 to 7 ms depending on the machine, up
   to a tenth of a 0.06 s run.) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void spin(double secs)
{
  double end = cpu() + secs;
  while (cpu() < end)
    for (int i = 0; i < 1000000; i++) sink += (unsigned long)i;  /* ~1 ms between clock reads */
}

int main(int argc, char **argv)
{
  double start = cpu();
  spin(argc > 1 ? atof(argv[1]) : 0.06);
  fprintf(stderr, "%.4f\n", cpu() - start);
  return 0;
}
