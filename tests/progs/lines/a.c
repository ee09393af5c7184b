#include "inl.h"
extern volatile unsigned long sink;
unsigned long spread(int n);
unsigned long a_loop(int n)
{
  unsigned long acc = 1;
  for (int i = 0; i < n; i++) {
    acc += i * 3;
    if (i & 1)
      acc ^= mix(acc);
    else
      acc += spread(i & 7);
  }
  return acc;
}
unsigned long twofile(int n)
{
  unsigned long acc = 0;
#include "body.inc"
  sink += acc;
  return acc;
}
