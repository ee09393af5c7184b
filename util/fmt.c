/* fmt.c -- see fmt.h.  %.Pf is done exactly: v = m * 2^e with m < 2^53,
   so v * 10^P = m * 10^P * 2^e; m * 10^P fits 64 bits for P <= 3, and the
   shift's remainder decides the rounding (ties to even, as glibc does). */
#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "util/fmt.h"
#include "util/util.h"

static const char pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

static char *digits(char *p, uint64_t v, int width, int left)
{
  char t[32], *e = t + 24, *q = e;   /* 8 bytes past e: see below */
  if (v < 4294967296u) {            /* 32-bit divisions are cheaper */
    uint32_t w = (uint32_t)v;
    while (w >= 100) {
      uint32_t r = w % 100;
      w /= 100;
      q -= 2;
      memcpy(q, pairs + 2 * r, 2);
    }
    v = w;
  } else {
    while (v >= 100) {
      unsigned r = (unsigned)(v % 100);
      v /= 100;
      q -= 2;
      memcpy(q, pairs + 2 * r, 2);
    }
  }
  if (v >= 10) {
    q -= 2;
    memcpy(q, pairs + 2 * v, 2);
  } else {
    *--q = (char)('0' + v);
  }
  int n = (int)(e - q);
  if (!left && width > n) p = fmt_spaces(p, width - n);
  memcpy(p, q, 8);                  /* within t; a slack write past n */
  if (n > 8) memcpy(p + 8, q + 8, (size_t)n - 8);
  p += n;
  if (left && width > n) p = fmt_spaces(p, width - n);
  return p;
}

void fmt_out_init(FmtOut *o, FILE *f)
{
  o->buf = o->p = xmalloc(FMT_OUT_CAP);
  o->f = f;
}

/* Straight to the file descriptor once the FILE's own buffer is out:
   copying 30 MB through stdio was 6% of a large report's instructions.
   Write errors are left unreported, as stdio's are elsewhere. */
void fmt_out_flush(FmtOut *o)
{
  const char *q = o->buf;
  size_t n = (size_t)(o->p - o->buf);
  o->p = o->buf;
  if (!n) return;
  if (fflush(o->f) != 0) {
    fwrite_unlocked(q, 1, n, o->f);
    return;
  }
  int fd = fileno(o->f);
  while (n > 0) {
    ssize_t w = write(fd, q, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    q += w;
    n -= (size_t)w;
  }
}

void fmt_out_free(FmtOut *o)
{
  fmt_out_flush(o);
  free(o->buf);
  o->buf = o->p = NULL;
}

void fmt_out_str(FmtOut *o, const char *s, size_t n)
{
  if (n > FMT_OUT_CAP / 2) {
    fmt_out_flush(o);
    fwrite_unlocked(s, 1, n, o->f);
    return;
  }
  char *p = fmt_room(o, n);
  memcpy(p, s, n);
  o->p = p + n;
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
  uint64_t q = 0, bits;
  memcpy(&bits, &v, sizeof bits);
  int ex = (int)(bits >> 52);                  /* sign is 0 here */
  uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
  if (ex) m |= UINT64_C(1) << 52;              /* v = m / 2^sh */
  int sh = ex ? 1075 - ex : 1074;              /* >= 3 below 2^50 */
  if (m && sh < 64) {
    uint64_t n = m * pow10_[prec];             /* < 2^63 */
    q = n >> sh;
    uint64_t rem = n & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
  } else if (m && sh == 64) {
    if (m * pow10_[prec] > (UINT64_C(1) << 63)) q = 1;
  }
  /* q's digits, at least prec + 1 of them, by pairs */
  char t[40], *e = t + sizeof t, *d = e;
  int need = prec + 1;
  while (q >= 100) {
    uint64_t r = q % 100;
    q /= 100;
    d -= 2;
    memcpy(d, pairs + 2 * r, 2);
  }
  if (q >= 10) { d -= 2; memcpy(d, pairs + 2 * q, 2); }
  else *--d = (char)('0' + q);
  while (e - d < need) *--d = '0';
  int nd = (int)(e - d), len = nd + (prec > 0);
  p = fmt_spaces(p, width - len);
  memcpy(p, d, (size_t)(nd - prec));
  p += nd - prec;
  if (prec) {
    *p++ = '.';
    memcpy(p, e - prec, (size_t)prec);
    p += prec;
  }
  return p;
}
