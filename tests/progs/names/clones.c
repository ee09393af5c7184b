/* clones.c -- a program whose hot work runs in GCC's clones of its
 * functions at -O2: an .isra.N (a struct passed by pointer, one field
 * read), a .part.N (a fast path inlined into the callers, the rest split
 * off), a .constprop.N (called with a constant from most places) and a
 * .cold part (the unlikely branch, taken often all the same).  GNU's
 * symbol rules leave every one of them out of the program's table, so
 * GNU's text reports name their time after the function before them;
 * the exports of ours must name them as they are (tests/names.sh). */
#include <stdio.h>
#include <stdlib.h>

struct big { unsigned a[64]; unsigned long n; const char *tag; };

volatile unsigned sink;

static __attribute__((noinline)) unsigned long isra_work(const struct big *b, unsigned rounds)
{
  unsigned long t = 0, n = b->n;
  for (unsigned r = 0; r < rounds; r++)
    for (unsigned i = 0; i < 64; i++) t = t * 31 + n + i + r;
  return t;
}

#define STEP(c) t = t * 2654435761u + r + c; t ^= t >> 13; t += sink; if (t % 1000003 == c) sink++;
static unsigned long part_work(unsigned x, unsigned rounds)
{
  if (__builtin_expect(x == 0, 1)) return 1;   /* the fast path, inlined into callers */
  unsigned long t = x;
  for (unsigned r = 0; r < rounds; r++) {
    STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) STEP(8)
    STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15) STEP(16)
  }
  return t;
}

static __attribute__((noinline)) unsigned long cp_work(unsigned rounds, unsigned k)
{
  unsigned long t = 7;
  for (unsigned r = 0; r < rounds; r++) t = t * k + (t >> 11) + r;
  return t;
}

static __attribute__((cold, noinline)) void rare(unsigned long t)
{
  sink = (unsigned)t;
}

static __attribute__((noinline)) unsigned long cold_work(unsigned rounds, unsigned every)
{
  unsigned long t = 3;
  for (unsigned r = 0; r < rounds; r++) {
    if (r % every == 0) {
      rare(t);
      for (unsigned j = 0; j < 4000; j++) t = t * 6364136223846793005ull + j + sink;
      sink = (unsigned)t;
    }
    t += r;
  }
  return t;
}

int main(int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 40;
  struct big b;
  for (unsigned i = 0; i < 64; i++) b.a[i] = i * 7u;
  b.n = 64;
  b.tag = "big";
  unsigned long t = 0;
  for (unsigned k = 0; k < n; k++) {
    t += isra_work(&b, 200000 + k);
    t += part_work(k & 1, 100000);
    t += part_work(sink, 100000 + k);
    t += part_work(sink + k, 100000 - k);
    t += cp_work(1000000, 33);
    t += cp_work(1000000, 33);
    t += cp_work(10, (unsigned)argc);
    t += cold_work(2000000 + k, 97 + (unsigned)argc);
  }
  printf("%lu\n", t);
  return 0;
}
