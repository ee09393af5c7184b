/* export_callgrind.c -- the profile in the callgrind format (--callgrind),
 * as valgrind's cl-format.html specifies it, for callgrind_annotate and
 * KCachegrind.
 *
 * Layout: one part, "positions: instr line", one event, TimeEstIncl, in
 * microseconds.  Each function's cost line holds its self time (the flat
 * profile's, rounded so the file's total is the flat profile's total
 * rounded once) at its own address and first line (line 0 without line
 * information).  Under -l the line symbols that follow a function (up to
 * the next function) put their self time and their calls in that
 * function's block, each at its own address and line, after an fi= line
 * when its file is not the function's (inlined code).  Each arc with calls is a calls= line from the caller's
 * position to the callee's, whose cost is the inclusive time gprof
 * estimates for it (the self and children seconds the text graph prints
 * on that arc's line): an estimate from call counts, not a measurement,
 * as the event's long name says.  Arcs within a cycle and self calls
 * carry 0, as in the text.  Names: the printed (demangled) name; two
 * functions of one file with one name get " [0xADDR]" after the second
 * and later.  Names and files are compressed as "(N) name". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export_callgrind.h"
#include "options.h"
#include "source.h"
#include "sym_ids.h"

typedef struct {
  FILE *f;
  const SymTab *tab;
  double hz;
  const char **file;            /* per symbol: its file or "???" */
  unsigned *file_id;            /* per symbol */
  const char **name;            /* per symbol: the name written */
  unsigned char *fn_defined, *fl_defined;
} Cg;

static size_t sidx(const Cg *C, const Sym *s) { return (size_t)(s - C->tab->base); }

/* A file name's compressed id: equal strings share one. */
static unsigned *intern_files(const SymTab *tab, const char **file)
{
  size_t n = tab->len, cap = 16;
  while (cap < 2 * n + 2) cap *= 2;
  long *slot = xmalloc(cap * sizeof *slot);
  for (size_t i = 0; i < cap; i++) slot[i] = -1;
  unsigned *id = xmalloc((n + 1) * sizeof *id), next = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)file[i]; *p; p++)
      h = (h ^ *p) * 1099511628211ull;
    for (size_t k = (size_t)h & (cap - 1);; k = (k + 1) & (cap - 1)) {
      if (slot[k] < 0) { slot[k] = (long)i; id[i] = ++next; break; }
      if (!strcmp(file[slot[k]], file[i])) { id[i] = id[slot[k]]; break; }
    }
  }
  free(slot);
  return id;
}

typedef struct { size_t i; const char *file, *name; } Named;

static int cmp_file_name(const void *a, const void *b)
{
  const Named *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (!c) c = strcmp(x->name, y->name);
  if (!c) c = (x->i > y->i) - (x->i < y->i);
  return c;
}

/* The names written: the printed name, made unique within its file. */
static void name_functions(Cg *C)
{
  size_t n = C->tab->len;
  Named *v = xmalloc((n + 1) * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    v[i].i = i;
    v[i].file = C->file[i];
    v[i].name = C->name[i] = sym_print_name(&C->tab->base[i]);
  }
  qsort(v, n, sizeof *v, cmp_file_name);
  for (size_t k = 1; k < n; k++) {
    if (strcmp(v[k - 1].file, v[k].file) || strcmp(v[k - 1].name, v[k].name)) continue;
    size_t len = strlen(v[k].name) + 32;
    char *b = xmalloc(len);
    snprintf(b, len, "%s [0x%llx]", v[k].name, (unsigned long long)C->tab->base[v[k].i].addr);
    C->name[v[k].i] = b;
  }
  free(v);
}

/* A name on a spec line: no control characters (a newline would end it). */
static void put_name(FILE *f, const char *s)
{
  for (; *s; s++) putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
  putc('\n', f);
}

static void spec(Cg *C, const char *what, unsigned id, unsigned char *defined, size_t at,
                 const char *text)
{
  fprintf(C->f, "%s=(%u)", what, id);
  if (defined[at]) {
    putc('\n', C->f);
    return;
  }
  defined[at] = 1;
  putc(' ', C->f);
  put_name(C->f, text);
}

/* The position of S: address and first line. */
static void position(Cg *C, const Sym *s)
{
  fprintf(C->f, "0x%llx %d", (unsigned long long)s->addr, src_sym_line(C->tab, s));
}

static uint64_t usec(const Cg *C, double samples)
{
  if (!(C->hz > 0) || !(samples > 0)) return 0;
  return (uint64_t)llround(samples / C->hz * 1e6);
}

static int has_calls(const Sym *s)
{
  for (unsigned i = 0; i < s->nchildren; i++)
    if (s->children[i]->count) return 1;
  for (unsigned i = 0; i < s->nparents; i++)
    if (s->parents[i]->count) return 1;
  return 0;
}

/* S's calls, in the order the arcs were first read, from S's position to
   each callee's function (OWNER maps a line symbol to its function). */
static void write_calls(Cg *C, const Sym *s, const size_t *owner, unsigned char *fl_seen)
{
  FILE *f = C->f;
  for (size_t k = s->nchildren; k-- > 0;) {     /* oldest first */
    const struct Arc *a = s->children[k];
    if (!a->count) continue;
    size_t c = owner[sidx(C, a->child)];
    fprintf(f, "cfi=(%u)", C->file_id[c]);
    if (!fl_seen[C->file_id[c]]) { fl_seen[C->file_id[c]] = 1; putc(' ', f); put_name(f, C->file[c]); }
    else putc('\n', f);
    spec(C, "cfn", (unsigned)c + 1, C->fn_defined, c, C->name[c]);
    fprintf(f, "calls=%llu ", (unsigned long long)a->count);
    position(C, a->child);
    putc('\n', f);
    position(C, s);
    fprintf(f, " %llu\n", (unsigned long long)usec(C, a->time + a->child_time));
  }
}

void export_callgrind(FILE *f, const ExportInput *in)
{
  const SymTab *tab = in->tab;
  size_t n = tab->len, i;
  Cg C = { f, tab, in->hist ? in->hist->hz : 0.0, NULL, NULL, NULL, NULL, NULL };
  C.file = xmalloc((n + 1) * sizeof *C.file);
  for (i = 0; i < n; i++) {
    const char *p = src_sym_path(tab, &tab->base[i]);
    C.file[i] = p ? p : "???";
  }
  C.file_id = intern_files(tab, C.file);
  C.name = xmalloc((n + 1) * sizeof *C.name);
  name_functions(&C);
  C.fn_defined = xcalloc(n + 1, 1);
  C.fl_defined = xcalloc(n + 1, 1);
  unsigned char *fl_seen = xcalloc(n + 2, 1);   /* per file id */

  /* self costs, rounded so that they add up to the rounded total */
  uint64_t *self = xcalloc(n + 1, sizeof *self), total = 0;
  double cum = 0;
  for (i = 0; i < n; i++) {
    const Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s) || !(s->hist_time > 0) || !(C.hz > 0)) continue;
    cum += s->hist_time / C.hz * 1e6;
    uint64_t upto = (uint64_t)llround(cum);
    self[i] = upto - total;
    total = upto;
  }

  fputs("# callgrind format\nversion: 1\ncreator: gprof (clean-room reimplementation)\n", f);
  fputs("cmd: ", f);
  put_name(f, in->program);
  fputs("positions: instr line\n", f);
  fputs("event: TimeEstIncl : Time in microseconds (self: sampled; inclusive: "
        "estimated by gprof from call counts)\n", f);
  fputs("events: TimeEstIncl\n", f);
  fprintf(f, "summary: %llu\n\n", (unsigned long long)total);
  fputs("ob=(1) ", f);
  put_name(f, in->program);

  /* each function with the line symbols (-l) that follow it, up to the
     next function: one fn= block, a cost line per symbol at its own
     position, and each symbol's calls from that position */
  size_t *owner = xmalloc((n + 1) * sizeof *owner);
  for (i = 0; i < n; i++)
    owner[i] = export_is_line(&tab->base[i]) && i > 0 ? owner[i - 1] : i;
  for (i = 0; i < n;) {
    size_t j = i + 1, k;
    while (j < n && owner[j] == i) j++;
    int used = opt.zeros;
    for (k = i; k < j && !used; k++) used = self[k] || has_calls(&tab->base[k]);
    if (used) {
      putc('\n', f);
      /* fl= ids are per file; a file is defined the first time it is named */
      fprintf(f, "fl=(%u)", C.file_id[i]);
      if (!fl_seen[C.file_id[i]]) { fl_seen[C.file_id[i]] = 1; putc(' ', f); put_name(f, C.file[i]); }
      else putc('\n', f);
      spec(&C, "fn", (unsigned)i + 1, C.fn_defined, i, C.name[i]);
      unsigned cur = C.file_id[i];
      for (k = i; k < j; k++) {
        const Sym *s = &tab->base[k];
        int calls = 0;
        for (unsigned c = 0; c < s->nchildren && !calls; c++) calls = s->children[c]->count != 0;
        if (!self[k] && k != i && !calls) continue;
        if (C.file_id[k] != cur) {     /* a line of another file (inlined) */
          cur = C.file_id[k];
          fprintf(f, "fi=(%u)", cur);
          if (!fl_seen[cur]) { fl_seen[cur] = 1; putc(' ', f); put_name(f, C.file[k]); }
          else putc('\n', f);
        }
        if (self[k] || k == i) {
          position(&C, s);
          fprintf(f, " %llu\n", (unsigned long long)self[k]);
        }
        write_calls(&C, s, owner, fl_seen);
      }
    }
    i = j;
  }
  free(owner);
  fprintf(f, "\ntotals: %llu\n", (unsigned long long)total);
  free(self); free(fl_seen); free(C.fl_defined); free(C.fn_defined);
  for (i = 0; i < n; i++)
    if (C.name[i] != sym_print_name(&tab->base[i])) free((char *)C.name[i]);
  free(C.name); free(C.file_id); free(C.file);
}
