/* Lines of different weights in one function, a two-function cycle and
   self recursion: --callgrind's self time by line and its inclusive
   costs (tests/exports.sh). */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static unsigned long rnd(unsigned long *s)
{
  *s = *s * 6364136223846793005ul + 1442695040888963407ul;
  return *s >> 33;
}

static void generate_text(unsigned long *s, int n)
{
  for (int i = 0; i < n; i++) {
    unsigned long r = rnd(s);
    for (int k = 0; k < 60; k++) sink ^= r + k;     /* hot */
    for (int k = 0; k < 20; k++) sink += k * r;     /* warm */
  }
}

int odd(int n);
int even(int n)
{
  for (int k = 0; k < 2000; k++) sink += k;
  return n == 0 ? 1 : odd(n - 1);
}

int odd(int n)
{
  for (int k = 0; k < 6000; k++) sink ^= k;
  return n == 0 ? 0 : even(n - 1);
}

unsigned long depth(unsigned n)
{
  for (int k = 0; k < 3000; k++) sink += k;
  return n ? depth(n - 1) : 0;
}

int main(int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 8000;
  unsigned long s = 1;
  for (int r = 0; r < rounds; r++) {
    generate_text(&s, 200);
    even(r % 9);
    depth(6);
  }
  printf("%lu\n", sink & 1);
  return 0;
}
