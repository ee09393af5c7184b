#include "inl.h"
volatile unsigned long sink;
unsigned long spread(int n)
{
  unsigned long s = 0;
  for (int k = 0; k < n * 40; k++)
    s += mix(k);
  return s;
}
#line 200 "renamed.c"
unsigned long relined(int n)
{
  unsigned long s = 0;
  for (int k = 0; k < n; k++)
    s += spread(k & 3);
  return s;
}
