/* maps.c -- a PIE program whose time is spent in itself, in a library
 * linked at start (maplib.c) and in a plugin it dlopens (plug.c), for
 * tests/names.sh: --pprof's mappings must let `go tool pprof
 * -symbolize=force` find the same functions as the names gprof wrote.
 * Usage: maps PLUGIN ROUNDS */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

unsigned long lib_spin(unsigned long n);

volatile unsigned long prog_sink;

__attribute__((noinline, noclone)) unsigned long prog_spin(unsigned long n)
{
  unsigned long t = 1;
  for (unsigned long i = 0; i < n; i++) t = t * 6364136223846793005ull + i + prog_sink;
  return t;
}

int main(int argc, char **argv)
{
  if (argc < 3) return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  unsigned long (*plug)(unsigned long) = (unsigned long (*)(unsigned long))dlsym(h, "plug_spin");
  if (!plug) return 1;
  unsigned long t = 0, rounds = strtoul(argv[2], NULL, 10);
  for (unsigned long r = 0; r < rounds; r++) {
    t += prog_spin(3000000);
    t += lib_spin(3000000);
    t += plug(3000000);
  }
  printf("%lu\n", t);
  return 0;
}
