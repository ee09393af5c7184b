/* Unit test: fmt.c's fields are byte for byte what printf prints, on
   ties (k + 0.5 units of the last place, exact in binary), their binary
   neighbours, sums and quotients like the reports', and random values.
// objs: util/fmt.o util/util.o
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/fmt.h"

static long bad, n;

static void check_f(double v, int w, int prec)
{
  char a[512], b[512];
  snprintf(a, sizeof a, "%*.*f", w, prec, v);
  *fmt_fixed(b, v, w, prec) = 0;
  n++;
  if (strcmp(a, b) && bad++ < 20) printf("%%%d.%df of %.17g: printf \"%s\", fmt \"%s\"\n", w, prec, v, a, b);
}

static void check_u(unsigned long long v, int w, int left)
{
  char a[64], b[64];
  snprintf(a, sizeof a, left ? "%-*llu" : "%*llu", w, v);
  *fmt_u64(b, v, w, left) = 0;
  n++;
  if (strcmp(a, b) && bad++ < 20) printf("%llu: \"%s\" vs \"%s\"\n", v, a, b);
}

static double rnd(void) { return (double)rand() / RAND_MAX; }

int main(void)
{
  static const int precs[] = { 0, 1, 2, 3 };
  srand(15);
  for (int pi = 0; pi < 4; pi++) {
    int p = precs[pi];
    for (long k = 0; k < 200000; k++) {
      double t = (k + 0.5) / pow(10, p);
      check_f(t, 8, p);
      check_f(nextafter(t, 0), 8, p);
      check_f(nextafter(t, 1e300), 8, p);
      double x = k / 100.0;
      check_f(x, 5, p);
      check_f(x * 3 / 7, 9, p);
      check_f(rnd() * pow(10, rand() % 16 - 6), 7, p);
    }
    check_f(0.0, 6, p);
    check_f(-0.0, 6, p);
    check_f(-1.5, 6, p);
    check_f(NAN, 6, p);
    check_f(-NAN, 6, p);
    check_f(INFINITY, 6, p);
    check_f(1e300, 6, p);
    check_f(4.9e-324, 6, p);
    check_f(1125899906842623.5, 6, p);
    check_f(1125899906842624.0, 6, p);
    check_f(0x1p-60, 6, p);
    check_f(0x1p-64, 6, p);
    check_f(0x1.8p-11, 6, p);
  }
  for (int i = 0; i < 200000; i++) {
    unsigned long long v = ((unsigned long long)rand() << 33) ^ rand();
    v >>= rand() % 64;
    check_u(v, 7, i & 1);
    check_u(v, 0, 0);
  }
  check_u(0, 7, 0);
  check_u(18446744073709551615ull, 7, 1);
  printf("%ld checks, %ld wrong\n", n, bad);
  return bad != 0;
}
