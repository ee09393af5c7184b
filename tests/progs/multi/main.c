/* Several source files with same-named static functions, for file:name
   symspecs. */
#include <stdio.h>
#include <stdlib.h>
extern void alpha_run(int n);
extern void beta_run(int n);
extern volatile unsigned long sink;
volatile unsigned long sink;
static void step(int n) { for (int i = 0; i < n; i++) sink += (unsigned long)i; }
int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 4000;
  for (int i = 0; i < n; i++) { alpha_run(i % 7); beta_run(i % 5); step(200); }
  printf("%lu\n", sink & 1);
  return 0;
}
