/* fmt.c -- see fmt.h.  %.Pf is done exactly: v = m * 2^e with m < 2^53,
   so v * 10^P = m * 10^P * 2^e; m * 10^P fits 64 bits for P <= 3, and the
   shift's remainder decides the rounding (ties to even, as glibc does). */
#include <math.h>
#include "fmt.h"

static char *digits(char *p, uint64_t v, int width, int left)
{
  char t[24];
  int n = 0;
  do { t[n++] = (char)('0' + v % 10); v /= 10; } while (v);
  if (!left) p = fmt_spaces(p, width - n);
  for (int i = n; i-- > 0;) *p++ = t[i];
  if (left) p = fmt_spaces(p, width - n);
  return p;
}

char *fmt_u64(char *p, uint64_t v, int width, int left)
{
  return digits(p, v, width, left);
}

char *fmt_int(char *p, long v, int width)
{
  if (v >= 0) return digits(p, (uint64_t)v, width, 0);
  return p + sprintf(p, "%*ld", width, v);
}

static const uint64_t pow10_[] = { 1, 10, 100, 1000 };

char *fmt_fixed(char *p, double v, int width, int prec)
{
  /* beyond 2^50 the exact method's 64 bits could overflow */
  if (!(v >= 0) || v >= 1125899906842624.0 || signbit(v) || prec < 0 || prec > 3)
    return p + sprintf(p, "%*.*f", width, prec, v);
  uint64_t q = 0;
  if (v != 0) {
    int ex;
    double f = frexp(v, &ex);                  /* v = f * 2^ex, f in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(f, 53);       /* exact */
    int sh = 53 - ex;                          /* v = m / 2^sh, sh >= 3 here */
    uint64_t n = m * pow10_[prec];             /* < 2^63 */
    if (sh < 64) {
      q = n >> sh;
      uint64_t rem = n & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
      if (rem > half || (rem == half && (q & 1))) q++;
    } else if (sh == 64) {
      /* q = 0; the half is 2^63 */
      if (n > (UINT64_C(1) << 63)) q = 1;
    }
  }
  char t[40];
  int k = 0;
  uint64_t ip = q / pow10_[prec], fp = q % pow10_[prec];
  for (int i = 0; i < prec; i++) { t[k++] = (char)('0' + fp % 10); fp /= 10; }
  if (prec) t[k++] = '.';
  do { t[k++] = (char)('0' + ip % 10); ip /= 10; } while (ip);
  p = fmt_spaces(p, width - k);
  while (k) *p++ = t[--k];
  return p;
}
