#include <stdlib.h>
extern volatile unsigned long sink;
unsigned long a_loop(int n);
unsigned long twofile(int n);
unsigned long relined(int n);
static void helper(int n) { sink += a_loop(n); }
int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  for (int r = 0; r < 3; r++) {
    helper(n);
    sink += twofile(n * 10);
    sink += relined(n / 4);
  }
  return 0;
}
