/* export_common.c -- what the exports share (export_common.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export_common.h"
#include "cg_print.h"

double export_print_time(const SymTab *tab)
{
  double t = 0;
  for (size_t i = 0; i < tab->len; i++) t += tab->base[i].prop_self;
  return t;
}

int export_entry_printed(const Sym *s)
{
  return cg_entry_printed(s);
}

void export_json_number(FILE *f, double v)
{
  if (!isfinite(v)) {
    fputs("null", f);
    return;
  }
  if (v == 0) {                 /* no "-0" */
    fputs("0", f);
    return;
  }
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  fputs(buf, f);
}

/* Length of the valid UTF-8 sequence at S (its code point in *CP), or 0
   when the byte at S does not start one. */
static int utf8_seq(const unsigned char *s, unsigned *cp)
{
  unsigned c = s[0];
  int n;
  if (c < 0x80) { *cp = c; return 1; }
  if (c >= 0xc2 && c <= 0xdf) { n = 2; c &= 0x1f; }
  else if (c >= 0xe0 && c <= 0xef) { n = 3; c &= 0x0f; }
  else if (c >= 0xf0 && c <= 0xf4) { n = 4; c &= 0x07; }
  else return 0;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    c = c << 6 | (s[i] & 0x3f);
  }
  if ((n == 3 && c < 0x800) || (n == 3 && c >= 0xd800 && c <= 0xdfff) ||
      (n == 4 && (c < 0x10000 || c > 0x10ffff)))
    return 0;
  *cp = c;
  return n;
}

void export_json_string(FILE *f, const char *str)
{
  const unsigned char *s = (const unsigned char *)str;
  putc('"', f);
  while (*s) {
    unsigned cp;
    int n = utf8_seq(s, &cp);
    if (n == 0) {               /* a stray byte: U+DC80 + byte, as Python's
                                   surrogateescape reads it (lossless) */
      fprintf(f, "\\u%04x", 0xdc00 + *s++);
      continue;
    }
    if (cp == '"' || cp == '\\') fprintf(f, "\\%c", (int)cp);
    else if (cp < 0x20 || cp == 0x7f) fprintf(f, "\\u%04x", cp);
    else fwrite(s, 1, (size_t)n, f);
    s += n;
  }
  putc('"', f);
}

void export_dot_text(FILE *f, const char *str)
{
  const unsigned char *s = (const unsigned char *)str;
  while (*s) {
    unsigned cp;
    int n = utf8_seq(s, &cp);
    if (n == 0) {               /* a stray byte: its Latin-1 character */
      putc(0xc0 | *s >> 6, f);
      putc(0x80 | (*s & 0x3f), f);
      s++;
      continue;
    }
    if (cp == '"' || cp == '\\') fprintf(f, "\\%c", (int)cp);
    else if (cp == '&') fputs("&amp;", f);   /* dot reads entities in labels */
    else if (cp < 0x20 || cp == 0x7f) putc('?', f);
    else fwrite(s, 1, (size_t)n, f);
    s += n;
  }
}
