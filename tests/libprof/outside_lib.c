/* outside_lib.c -- the work of outside.c's "lib" mode, in a shared
   library built without -pg: time libprof's histogram of the program
   cannot hold. */
unsigned lib_spin(unsigned n)
{
  volatile unsigned s = 0;
  for (unsigned i = 0; i < n; i++) s = s * 31 + i;
  return s;
}
