/* maplib.c -- maps.c's library linked at start (tests/names.sh). */
volatile unsigned long lib_sink;

__attribute__((noinline, noclone)) unsigned long lib_spin(unsigned long n)
{
  unsigned long t = 3;
  for (unsigned long i = 0; i < n; i++) t = t * 2862933555777941757ull + i + lib_sink;
  return t;
}
