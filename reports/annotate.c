/* annotate.c -- the execution-count listing (-C) and annotated source
 * (-A). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "reports/annotate.h"
#include "source.h"
#include "sym_ids.h"

/* GNU's order for the listing: by file and line where both symbols have
   them, "equal" otherwise.  That is not a consistent order, so the result
   depends on the sort and on what is sorted: like GNU we take the symbols
   the -C/-Z specs select, in address order, and sort them with the C
   library's qsort (a merge sort); the test for calls comes after. */
typedef struct { Sym *s; const char *path; int line; } SrcPos;

static int cmp_src(const void *a, const void *b)
{
  const SrcPos *x = a, *y = b;
  if (!x->path || !y->path) return 0;
  int c = strcmp(x->path, y->path);
  if (c) return c;
  return (x->line > y->line) - (x->line < y->line);
}

void ann_print_exec_counts(const SymTab *tab, const Options *o)
{
  SrcPos *v = xmalloc((tab->len + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (!sym_id_in_exec(s)) continue;   /* what the specs select is sorted */
    v[n].s = s;
    v[n].path = src_sym_path(tab, s);
    v[n++].line = src_sym_line(tab, s);
  }
  if (n > 1) qsort(v, n, sizeof *v, cmp_src);
  for (size_t i = 0; i < n; i++) {
    Sym *s = v[i].s;
    const char *path = v[i].path ? v[i].path : "<unknown>";
    if (o->zeros || s->ncalls)
      printf("%s:%d: (%s:0x%llx) %llu executions\n", path, v[i].line, s->name,
             (unsigned long long)s->addr, (unsigned long long)s->ncalls);
    /* -l: then the symbol's basic blocks, under its position; -m does not
       apply */
    for (unsigned k = 0; k < s->nbb; k++)
      if (o->zeros || s->bb_count[k])  /* like the symbol's own line */
        printf("%s:%d: (%s:0x%llx) %llu executions\n", path, v[i].line, s->name,
             (unsigned long long)s->bb_addr[k], (unsigned long long)s->bb_count[k]);
  }
  free(v);
}

/* ---- -A: annotated source ----
 *
 * Measured on GNU gprof 2.40 (doc/DESIGN.md, "-A"), function-level data:
 * each function with a source line, selected by -A/-J specs, puts its
 * call count (calls from others) on its first line, "#####" when zero;
 * functions sharing a line add up.  Files come in the reverse of the
 * order their first function appears in the object's symbol table; a
 * file none of whose functions is selected is skipped, one that cannot
 * be opened too, with a message. */
typedef AnnLine LineCount;

typedef struct {
  const char *path;
  unsigned first_seq;           /* where the file first appears */
  int has_func;                 /* holds a selected called symbol (any, -z) */
  LineCount *v;                 /* annotated lines; by line after ann_merge */
  size_t n, cap;
} AnnFile;

static int cmp_file_seq(const void *a, const void *b)
{
  const AnnFile *x = a, *y = b;
  return (x->first_seq < y->first_seq) - (x->first_seq > y->first_seq);  /* newest first */
}

static int cmp_top_lines(const void *a, const void *b)
{
  const LineCount *x = a, *y = b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return (x->line > y->line) - (x->line < y->line);
}

static void ann_note(AnnFile *f, int line, uint64_t count, Sym *s)
{
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 16;
    f->v = xrealloc(f->v, f->cap * sizeof *f->v);
  }
  f->v[f->n].line = line;
  f->v[f->n].first = s;
  f->v[f->n].nsyms = 1;
  f->v[f->n++].count = count;
}

static int cmp_line_count(const void *a, const void *b)
{
  const LineCount *x = a, *y = b;
  if (x->line != y->line) return (x->line > y->line) - (x->line < y->line);
  return (x->first->addr > y->first->addr) - (x->first->addr < y->first->addr);
}

/* Sorts the lines; functions that start on one line add up. */
static void ann_merge(AnnFile *f)
{
  if (f->n < 2) return;
  qsort(f->v, f->n, sizeof *f->v, cmp_line_count);
  size_t m = 0;
  for (size_t i = 0; i < f->n; i++) {
    if (m && f->v[m - 1].line == f->v[i].line) {
      f->v[m - 1].count += f->v[i].count;
      f->v[m - 1].nsyms++;
    } else {
      f->v[m++] = f->v[i];
    }
  }
  f->n = m;
}

/* -l: the annotation of one line, from its lowest symbol (measured on GNU
   2.40 with hand-made basic-block records): a function's line starts with
   the calls of all functions on it; then come the counts of the symbol's blocks.  With -x a
   line symbol whose first block is not at its start, or that shares the
   line with another symbol, first repeats the last count shown, blocks
   equal to the count shown just before on the line are left out, and a line with nothing
   else repeats the last count.  Lines whose counts (repeated ones
   included) add up to less than -m's count (1 by default; -m 0 shows
   zeros) show "#####", as function lines do without -l.
   Returns 0 for a line left blank.  The last count carries over from line
   to line, and from file to file. */

static int line_text(const LineCount *lc, AnnCarry *c, char *buf, size_t len, const Options *o)
{
  const Sym *s = lc->first;
  size_t n = 0;
  uint64_t total = 0, shown = 0;
  int have = 0, have_shown = 0;
  buf[0] = 0;
#define ADD(v) (n += (size_t)snprintf(buf + n, len - n, "%s%llu", n ? "," : "", (unsigned long long)(v)))
  if (s->is_func && !s->is_line) {
    ADD(lc->count);             /* the calls of all functions on the line */
    c->last = shown = total = lc->count;
    have_shown = have = 1;
  } else if (o->all_lines && s->nbb && (s->bb_addr[0] > s->addr || lc->nsyms > 1)) {
    ADD(c->last);
    shown = total = c->last;
    have_shown = have = 1;
  }
  for (unsigned k = 0; k < s->nbb; k++) {
    c->last = s->bb_count[k];
    have = 1;
    total += c->last;
    if (o->all_lines && have_shown && c->last == shown) continue;
    ADD(c->last);
    shown = c->last;
    have_shown = 1;
  }
  if (o->all_lines && !n) {
    ADD(c->last);
    total = c->last;
    have = 1;
  }
#undef ADD
  if (!have) return 0;
  if (total < o->min_count) snprintf(buf, len, "#####");
  return 1;
}

/* A "source" that never ends (a link to /dev/zero) stops here. */
#define ANN_SOURCE_MAX (1ull << 30)

/* One page, as GNU prints it (measured): the source copied byte for byte
   (NUL bytes included, no newline added at the end), each line prefixed
   by its annotation, "#####" or blanks, cut at 16 characters; "Executable
   lines" counts the annotated lines actually met in the file (none for a
   directory or an empty file), the total all the file's counts; -t 0
   leaves the "Top" block out. */
void ann_print_file(const char *path, const AnnLine *v, size_t n, FILE *src, FILE *out,
                    int header, AnnCarry *carry, const Options *o)
{
  AnnCarry own = { 0 };
  if (!carry) carry = &own;
  if (header) fprintf(out, "*** File %s:\n", path);
  BoundedIn in;
  bounded_wrap(&in, src, ANN_SOURCE_MAX);
  static const char blanks[] = "                ";
  char buf[1 << 15];
  int at_start = 1;
  long line = 1;
  size_t k = 0;                 /* next annotated line, in v */
  size_t executed = 0, executable = 0;    /* of the lines the file has */
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, in.f)) > 0) {
    const char *p = buf, *end = buf + got;
    while (p < end) {
      if (at_start) {
        at_start = 0;
        while (k < n && v[k].line < line) k++;
        if (k < n && v[k].line == line) {
          executable++;
          /* GNU's prefix is cut at 16 characters: a count of 13 or more
             digits, or a long -l list, loses the arrow */
          char pre[64 * (SYM_NBBS + 2)];
          int shown = 1;
          if (o->line) {
            shown = line_text(&v[k], carry, pre, sizeof pre - 8, o);
            if (shown) strcat(pre, " -> ");
          } else if (v[k].count >= o->min_count) {
            snprintf(pre, sizeof pre, "%12llu -> ", (unsigned long long)v[k].count);
          } else {
            snprintf(pre, sizeof pre, "%12s -> ", "#####");
          }
          if (shown) {
            executed++;
            pre[16] = 0;
            fprintf(out, "%16s", pre);
          } else {
            fputs(blanks, out);
          }
        } else {
          fputs(blanks, out);
        }
      }
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      const char *stop = nl ? nl + 1 : end;
      fwrite(p, 1, (size_t)(stop - p), out);
      p = stop;
      if (nl) {
        at_start = 1;
        line++;
      }
    }
  }
  if (bounded_overrun(&in)) {
    fflush(out);
    fflush(stdout);
    fprintf(stderr, "%s: %s: no end of file after %llu bytes\n", util_name(), path,
            (unsigned long long)ANN_SOURCE_MAX);
  }
  if (in.f != in.raw) fclose(in.f);     /* the caller closes SRC */

  LineCount *top = xmalloc((n + 1) * sizeof *top);
  size_t nt = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    total += v[i].count;
    if (v[i].count) top[nt++] = v[i];
  }
  qsort(top, nt, sizeof *top, cmp_top_lines);
  int want = o->table_length;
  if (want > 0) {                /* -t 0 (or less): no such table */
    fprintf(out, "\n\nTop %d Lines:\n\n     Line      Count\n\n", want);
    for (size_t i = 0; i < nt && (int)i < want; i++)
      fprintf(out, "%9d %10llu\n", top[i].line, (unsigned long long)top[i].count);
  }
  fprintf(out, "\nExecution Summary:\n\n");
  fprintf(out, "%9zu   Executable lines in this file\n", executable);
  fprintf(out, "%9zu   Lines executed\n", executed);
  fprintf(out, "%9.2f   Percent of the file executed\n",
          executable ? 100.0 * (double)executed / (double)executable : 100.0);
  fprintf(out, "\n%9llu   Total number of line executions\n", (unsigned long long)total);
  fprintf(out, "%9.2f   Average executions per line\n", executable ? (double)total / (double)executable : 0.0);
  free(top);
}

typedef struct { const char *path; Sym *sym; } SymPath;

static int cmp_sym_path(const void *a, const void *b)
{
  const SymPath *x = a, *y = b;
  int c = strcmp(x->path, y->path);
  if (c) return c;
  return (x->sym > y->sym) - (x->sym < y->sym);
}

int ann_print_source(const SymTab *tab, int separator, const Options *o)
{
  /* group the functions by source file (sorting, not searching: there
     may be thousands of files) */
  SymPath *sp = xmalloc((tab->len + 1) * sizeof *sp);
  size_t nsp = 0;
  for (size_t i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    const char *path = src_sym_path(tab, s);
    if (!path || src_sym_line(tab, s) <= 0) continue;
    sp[nsp].path = path;
    sp[nsp++].sym = s;
  }
  if (nsp > 1) qsort(sp, nsp, sizeof *sp, cmp_sym_path);
  AnnFile *files = xcalloc(nsp + 1, sizeof *files);
  size_t nf = 0;
  for (size_t i = 0; i < nsp; i++) {
    Sym *s = sp[i].sym;
    if (!nf || strcmp(files[nf - 1].path, sp[i].path)) {
      files[nf].path = sp[i].path;
      files[nf].first_seq = ~0u;
      nf++;
    }
    AnnFile *f = &files[nf - 1];
    if (s->bfd_seq < f->first_seq) f->first_seq = s->bfd_seq;
    if (sym_id_in_anno(s)) {
      ann_note(f, src_sym_line(tab, s), s->ncalls, s);
      /* a file is listed when one of its functions was called (any
         with -z) */
      if (s->ncalls || o->zeros) f->has_func = 1;
    }
  }
  free(sp);
  for (size_t k = 0; k < nf; k++) ann_merge(&files[k]);
  if (nf > 1) qsort(files, nf, sizeof *files, cmp_file_seq);
  int printed = 0;
  AnnCarry carry = { 0 };
  for (size_t k = 0; k < nf; k++) {
    AnnFile *f = &files[k];
    if (!f->n || !f->has_func) continue;
    errno = 0;
    FILE *src = src_open(f->path, o->src_dirs);
    if (!src) {
      /* the last place tried decides: not there at all, or another
         reason (unreadable, a file where a directory should be) */
      int e = errno;
      fflush(stdout);
      if (e == ENOENT || e == 0)
        fprintf(stderr, "%s: could not locate `%s'\n", util_name(), f->path);
      else
        fprintf(stderr, "%s: %s\n", f->path, strerror(e));
      continue;
    }
    if (o->separate_files) {
      char *name = xmalloc(strlen(src_base_name(f->path)) + 5);
      sprintf(name, "%s-ann", src_base_name(f->path));
      FILE *out = fopen(name, "w");
      if (out) {
        ann_print_file(f->path, f->v, f->n, src, out, 0, &carry, o);
        fclose(out);
      } else {                  /* GNU says why (perror) and goes on */
        int e = errno;
        fflush(stdout);
        fprintf(stderr, "%s: %s\n", name, strerror(e));
      }
      free(name);
    } else {
      if (printed || separator) printf(printed ? "\n\f\n" : "\f\n");
      ann_print_file(f->path, f->v, f->n, src, stdout, 1, &carry, o);
      printed = 1;
    }
    fclose(src);
  }
  for (size_t k = 0; k < nf; k++) free(files[k].v);
  free(files);
  return printed;
}
