/* exports/common.c -- what the exports share (exports/common.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exports/common.h"
#include "cg_print.h"
#include "reports/flat.h"
#include "sym_ids.h"
#include "util/util.h"

double export_print_time(const SymTab *tab)
{
  double t = 0;
  for (size_t i = 0; i < tab->len; i++) t += tab->base[i].prop_self;
  return t;
}

int export_entry_printed(const ExportInput *in, const Sym *s)
{
  return cg_entry_printed(s, in->zeros, in->tab->opts.line);
}

void export_flat_sort(Sym **v, size_t n)
{
  flat_sort(v, n);
}

const char *export_flat_call_unit(const HistSet *hs, const SymTab *tab, double *scale)
{
  return flat_call_unit(hs, tab, scale);
}

size_t export_entry_arcs(const Sym *s, int parents, Arc ***v, size_t *cap)
{
  return cg_entry_arcs(s, parents, v, cap);
}

size_t export_entry_members(const Sym *cyc, Sym ***v, size_t *cap)
{
  return cg_entry_members(cyc, v, cap);
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

size_t export_xml_text(FILE *f, const char *str, size_t max)
{
  const unsigned char *s = (const unsigned char *)str;
  size_t k = 0;
  for (; *s && k < max; k++) {
    unsigned cp;
    int n = utf8_seq(s, &cp);
    if (n == 0) {               /* a stray byte: XML holds only UTF-8 */
      fputs("\xef\xbf\xbd", f);
      s++;
      continue;
    }
    if (cp == '&') fputs("&amp;", f);
    else if (cp == '<') fputs("&lt;", f);
    else if (cp == '>') fputs("&gt;", f);
    else if (cp == '"') fputs("&quot;", f);
    else if (cp < 0x20 || cp == 0x7f) putc('?', f);   /* not XML 1.0 characters */
    else fwrite(s, 1, (size_t)n, f);
    s += n;
  }
  return k;
}

size_t export_xml_chars(const char *str)
{
  const unsigned char *s = (const unsigned char *)str;
  size_t k = 0;
  while (*s) {
    unsigned cp;
    int n = utf8_seq(s, &cp);
    s += n ? n : 1;
    k++;
  }
  return k;
}

/* export_dot_text on the first N bytes of STR. */
static void dot_text_n(FILE *f, const char *str, size_t len)
{
  const unsigned char *s = (const unsigned char *)str, *end = s + len;
  while (s < end) {
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

void export_dot_text(FILE *f, const char *s)
{
  dot_text_n(f, s, strlen(s));
}

/* Characters (code points; a stray byte is one) in S[0..N). */
static size_t nchars(const char *s, size_t n)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xc0) != 0x80;
  return k;
}

/* Bytes of S's first K characters (S has at least K). */
static size_t char_bytes(const char *s, size_t k)
{
  size_t i = 0;
  while (k--) {
    i++;
    while (((unsigned char)s[i] & 0xc0) == 0x80) i++;
  }
  return i;
}

size_t export_dot_wrapped(FILE *f, const char *s, size_t width)
{
  size_t len = strlen(s), line = 0, col = 0, seg = 0;
  int depth = 0;
  /* segments end after "::" and after a space outside parentheses; they
     are packed greedily into lines, a segment too long for one cut */
  while (seg < len) {
    size_t i = seg;
    while (i < len) {
      char c = s[i++];
      if (c == '(') depth++;
      else if (c == ')' && depth > 0) depth--;
      else if (c == ':' && s[i] == ':') { i++; break; }
      else if (c == ' ' && depth == 0) break;
    }
    size_t n = nchars(s + seg, i - seg);
    if (col && col + n > width) {
      dot_text_n(f, s + line, seg - line);
      fputs("\\n", f);
      line = seg;
      col = 0;
    }
    while (n > width) {
      size_t b = char_bytes(s + line, width);
      dot_text_n(f, s + line, b);
      fputs("\\n", f);
      line += b;
      n -= width;
    }
    col += n;
    seg = i;
  }
  dot_text_n(f, s + line, len - line);
  return col;
}

/* A growing string. */
typedef struct { char *p; size_t n, cap; } Buf;

static void put(Buf *b, const char *s, size_t n)
{
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = xrealloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static int is_id(int c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Does the word "operator" start at S[I]? */
static int at_operator(const char *s, size_t i, size_t e)
{
  return e - i >= 8 && !memcmp(s + i, "operator", 8) && (i == 0 || !is_id((unsigned char)s[i - 1])) &&
         (i + 8 == e || !is_id((unsigned char)s[i + 8]));
}

/* Length of the operator's symbol at S (after "operator"), 0 for none
   (operator new, a conversion, a literal operator). */
static size_t op_symbol(const char *s, size_t n)
{
  static const char *const ops[] = {
    "()", "[]", "<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++",
    "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "<", ">", "+", "-", "*", "/", "%",
    "^", "&", "|", "~", "!", "=", ",", NULL };
  for (int k = 0; ops[k]; k++) {
    size_t l = strlen(ops[k]);
    if (l <= n && !memcmp(s, ops[k], l)) return l;
  }
  return 0;
}

/* Just past the bracket that closes the one at S[I], or 0 when none
   does.  Operators' symbols and "->" are not brackets; a '>' that closes
   no '<' is a comparison, and a '<' that a ')', ']' or '}' finds open
   was one. */
static size_t group_end(const char *s, size_t i, size_t e)
{
  char open[256];
  int depth = 0;
  while (i < e) {
    if (at_operator(s, i, e)) {
      i += 8;
      i += op_symbol(s + i, e - i);
      continue;
    }
    char c = s[i++];
    if (c == '-' && i < e && s[i] == '>') { i++; continue; }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (depth == (int)sizeof open) return 0;
      open[depth++] = c;
    } else if (c == '>') {
      if (depth > 0 && open[depth - 1] == '<' && --depth == 0) return i;
    } else if (c == ')' || c == ']' || c == '}') {
      char o = c == ')' ? '(' : c == ']' ? '[' : '{';
      while (depth > 0 && open[depth - 1] == '<') depth--;
      if (depth == 0 || open[depth - 1] != o) return 0;
      if (--depth == 0) return i;
    }
  }
  return 0;
}

static const char anon[] = "(anonymous namespace)";
static const char ellipsis[] = "\xe2\x80\xa6";      /* U+2026 */

/* Appends S[B..E) shortened to OUT; TOP: the whole name, whose return
   type goes. */
static void shorten(Buf *out, const char *s, size_t b, size_t e, int top)
{
  size_t start = out->n, cut = 0;
  int depth = 0, params = 0, in_op = 0;
  size_t i = b;
  while (i < e) {
    char c = s[i];
    if (at_operator(s, i, e)) {
      size_t n = op_symbol(s + i + 8, e - i - 8);
      put(out, s + i, 8 + n);
      i += 8 + n;
      in_op = 1;                /* its spaces are not the return type's */
      continue;
    }
    if (c == '(' && e - i >= sizeof anon - 1 && !memcmp(s + i, anon, sizeof anon - 1)) {
      put(out, anon, sizeof anon - 1);
      i += sizeof anon - 1;
      continue;
    }
    /* a '<' after neither a name nor a space ("<spontaneous>") is text */
    int lambda = c == '<' && e - i > 8 && !memcmp(s + i, "<lambda(", 8);
    if (c == '<' && !lambda && (i == b || (!is_id((unsigned char)s[i - 1]) && s[i - 1] != ' '))) {
      put(out, s + i, 1);
      i++;
      continue;
    }
    if (c == '(' || c == '<') {
      size_t j = group_end(s, i, e);
      if (!j) {                 /* unbalanced: the rest as it is */
        put(out, s + i, e - i);
        break;
      }
      if (j == i + 2) put(out, s + i, 2);                 /* () or <> */
      else if (lambda) {
        put(out, "<", 1);
        shorten(out, s, i + 1, j - 1, 0);
        put(out, ">", 1);
      } else {
        put(out, s + i, 1);
        put(out, ellipsis, sizeof ellipsis - 1);
        put(out, s + j - 1, 1);
      }
      if (c == '(' && depth == 0) { params = 1; in_op = 0; }
      i = j;
      continue;
    }
    if (c == '{' || c == '[') depth++;
    else if ((c == '}' || c == ']') && depth > 0) depth--;
    else if (c == ' ' && top && depth == 0 && !params && !in_op) cut = out->n + 1 - start;
    put(out, s + i, 1);
    i++;
  }
  if (top && params && cut) {   /* drop the return type */
    memmove(out->p + start, out->p + start + cut, out->n - start - cut + 1);
    out->n -= cut;
  }
}

char *export_short_name(const char *name)
{
  Buf b = { NULL, 0, 0 };
  put(&b, "", 0);
  shorten(&b, name, 0, strlen(name), 1);
  return b.p;
}

char *export_short_label(const SymTab *tab, const Sym *s)
{
  const char *n = sym_print_name(tab, s), *l = sym_label(tab, s);
  size_t nl = strlen(n);
  char *sh = export_short_name(n);
  if (strncmp(l, n, nl) || !l[nl]) return sh;
  /* the label's " (file:line)" after the name */
  size_t sl = strlen(sh), rest = strlen(l + nl);
  sh = xrealloc(sh, sl + rest + 1);
  memcpy(sh + sl, l + nl, rest + 1);
  return sh;
}
