/* fmt.h -- fast formatting of the reports' fixed-width fields.
 *
 * Part of the bottom layer (uses only util.h).  Each fmt_* appends to a
 * caller's buffer at P and returns the new end; the text is byte for byte
 * what the printf conversion named in the comment gives (glibc: exact
 * binary value, ties to even), so the printers can build whole lines
 * without vfprintf and write them with fmt_put.  Values printf would print
 * unusually (NaN, infinities, negative numbers, -0, huge magnitudes) go
 * through snprintf itself.  Buffers must hold the field: widths here are
 * small, so callers size lines as 64 bytes plus their strings. */
#ifndef FMT_H
#define FMT_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* "%W.Pf" (right-aligned in W), P = 0..3 */
char *fmt_fixed(char *p, double v, int width, int prec);
/* "%Wllu", or "%-Wllu" when LEFT */
char *fmt_u64(char *p, uint64_t v, int width, int left);
/* "%Wd" */
char *fmt_int(char *p, long v, int width);
/* N spaces */
static inline char *fmt_spaces(char *p, int n)
{
  if (n > 0) { memset(p, ' ', (size_t)n); p += n; }
  return p;
}
/* "%s" */
static inline char *fmt_str(char *p, const char *s)
{
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}
/* "%-Ws" (padded on the right to W) */
static inline char *fmt_str_left(char *p, const char *s, int width)
{
  size_t n = strlen(s);
  memcpy(p, s, n);
  return fmt_spaces(p + n, width - (int)n);
}
/* writes BUF..END to F */
static inline void fmt_put(FILE *f, const char *buf, const char *end)
{
  fwrite_unlocked(buf, 1, (size_t)(end - buf), f);
}
#endif
