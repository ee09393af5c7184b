/* fmt.h -- fast formatting of the reports' fixed-width fields.
 *
 * Part of the bottom layer (uses only util.h).  Each fmt_* appends to a
 * caller's buffer at P and returns the new end; the text is byte for byte
 * what the printf conversion named in the comment gives (glibc: exact
 * binary value, ties to even), so the printers can build whole lines
 * without vfprintf and write them with fmt_put.  Values printf would print
 * unusually (NaN, infinities, negative numbers, -0, huge magnitudes) go
 * through snprintf itself.  Speed: the fmt_* may write up to 32 bytes
 * past the end they return (garbage the next field overwrites), so a
 * buffer needs the field's width plus 32 bytes of room. */
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
  static const char sp[32] = "                                ";
  if (n <= 0) return p;
  if (n <= 32) {
    memcpy(p, sp, 32);
    return p + n;
  }
  memset(p, ' ', (size_t)n);
  return p + n;
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
/* An output buffer in front of a FILE: fmt_room(o, n) gives a pointer
   with at least N bytes free (flushing first if need be; N at most
   FMT_OUT_CAP), fmt_done(o, p) keeps what was written up to P.  Flush
   before anything else writes to the FILE, and at the end. */
#define FMT_OUT_CAP 65536
typedef struct {
  char *buf, *p;
  FILE *f;
} FmtOut;
void fmt_out_init(FmtOut *o, FILE *f);
void fmt_out_flush(FmtOut *o);
void fmt_out_free(FmtOut *o);          /* flushes */
static inline char *fmt_room(FmtOut *o, size_t n)
{
  if ((size_t)(o->buf + FMT_OUT_CAP - o->p) < n) fmt_out_flush(o);
  return o->p;
}
static inline void fmt_done(FmtOut *o, char *p) { o->p = p; }
/* appends S (any length) */
void fmt_out_str(FmtOut *o, const char *s, size_t n);

/* writes BUF..END to F */
static inline void fmt_put(FILE *f, const char *buf, const char *end)
{
  fwrite_unlocked(buf, 1, (size_t)(end - buf), f);
}
#endif
