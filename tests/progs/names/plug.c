/* plug.c -- a plugin (tests/names.sh): maps.c dlopens it; built twice,
 * with -DWHO=a and -DWHO=b, as two plugins whose functions lie at the
 * same addresses under different names (a load generation each). */
#ifndef WHO
#define WHO a
#endif
#define CAT(x, y) x##y
#define NAME(x, y) CAT(x, y)

volatile unsigned long plug_sink;

__attribute__((noinline, noclone)) unsigned long NAME(spin_, WHO)(unsigned long n)
{
  unsigned long t = 5;
  for (unsigned long i = 0; i < n; i++) t = t * 3935559000370003845ull + i + plug_sink;
  return t;
}

unsigned long plug_spin(unsigned long n)
{
  return NAME(spin_, WHO)(n) + 1;
}
