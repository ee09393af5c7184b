/* Unit test: sort_keyval (util.c) must give what a stable comparison sort
   gives -- keys ascending, equal keys in their first order -- on keys of
   every shape: sorted, reversed, all equal, few distinct, high bytes only,
   random 64-bit; and name_cmp on name_prefix copies must have strcmp's
   sign on names that share prefixes of every length up to and past 16
   bytes, with bytes above 0x7f.
// objs: util/util.o util/options.o
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int cmp(const void *a, const void *b)
{
  const KeyVal *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->val > y->val) - (x->val < y->val);   /* val = input position */
}

int main(void)
{
  int bad = 0, runs = 0;
  for (int shape = 0; shape < 6; shape++) {
    for (size_t n = 0; n < 3000; n = n * 3 + 1) {
      KeyVal *v = malloc((n + 1) * sizeof *v), *r = malloc((n + 1) * sizeof *r);
      for (size_t i = 0; i < n; i++) {
        uint64_t x = next();
        switch (shape) {
        case 0: v[i].key = i * 16; break;
        case 1: v[i].key = (n - i) * 8; break;
        case 2: v[i].key = 42; break;
        case 3: v[i].key = x % 7; break;
        case 4: v[i].key = (x % 5) << 56 | 0x401000; break;
        default: v[i].key = x; break;
        }
        v[i].val = i;
      }
      for (size_t i = 0; i < n; i++) r[i] = v[i];
      qsort(r, n, sizeof *r, cmp);
      sort_keyval(v, n);
      for (size_t i = 0; i < n; i++)
        if (v[i].key != r[i].key || v[i].val != r[i].val) {
          printf("FAIL shape %d n %zu at %zu\n", shape, n, i);
          bad++;
          break;
        }
      runs++;
      free(v);
      free(r);
    }
  }
  /* name_cmp */
  static const char alpha[] = "ab_\xe9Z";
  for (int t = 0; t < 200000; t++) {
    char a[40], b[40];
    int la = (int)(next() % 36), lb;
    for (int i = 0; i < la; i++) a[i] = alpha[next() % 5];
    a[la] = 0;
    /* b: a copy of a's first few bytes, then its own */
    int common = la ? (int)(next() % (la + 1)) : 0;
    lb = common + (int)(next() % 4);
    if (lb > 38) lb = 38;
    for (int i = 0; i < lb; i++) b[i] = i < common ? a[i] : alpha[next() % 5];
    b[lb] = 0;
    int want = strcmp(a, b), got = name_cmp(name_prefix(a), a, name_prefix(b), b);
    if ((want > 0) != (got > 0) || (want < 0) != (got < 0)) {
      printf("FAIL name_cmp \"%s\" \"%s\": %d, strcmp %d\n", a, b, got, want);
      bad++;
      break;
    }
    runs++;
  }
  printf("%d runs, %d failed\n", runs, bad);
  return bad != 0;
}
