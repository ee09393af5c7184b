/* exports/callgrind.c -- the profile in the callgrind format (--callgrind),
 * as valgrind's cl-format.html specifies it, for callgrind_annotate and
 * KCachegrind.
 *
 * Layout: one part, "positions: instr line", one event, Time, in
 * microseconds: on a cost line the sampled self time of that address and
 * line, on a call the inclusive time of those calls.  The costs are the
 * analysis's (analysis/fn_costs.h: self time by line, calls per call
 * site, balanced so that callgrind_annotate --inclusive and KCachegrind
 * agree and never show inclusive below self); this file writes them.
 * Cost lines and calls of a function in address order; a line of another
 * file (inlined) is told with fi=; a cycle, or a function, only calls
 * from inside it reach gets one call from "<spontaneous>".
 * Names: the printed (demangled) name; two functions of one file with one
 * name get " [0xADDR]" after the second and later.  Names and files are
 * compressed as "(N) name". */
#include <stdlib.h>
#include <string.h>
#include "exports/callgrind.h"
#include "source.h"
#include "sym_ids.h"

typedef struct {
  FILE *f;
  const SymTab *tab;
  const char **file;            /* per symbol: its file or "???" */
  const char **name;            /* per symbol: the name written */
  unsigned char *fn_defined;
  /* file names and their ids */
  const char **fl_str;
  unsigned *fl_id;
  size_t fl_cap, fl_n;
  unsigned char *fl_seen;
} Cg;

static const char unknown_file[] = FN_COSTS_UNKNOWN_FILE;

/* ---- file names: equal strings share one id ---- */
static uint64_t str_hash(const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) h = (h ^ *p) * 1099511628211ull;
  return h;
}

static unsigned file_id(Cg *C, const char *s)
{
  if (2 * (C->fl_n + 1) > C->fl_cap) {
    size_t cap = C->fl_cap ? 2 * C->fl_cap : 64;
    const char **str = xcalloc(cap, sizeof *str);
    unsigned *id = xcalloc(cap, sizeof *id);
    for (size_t i = 0; i < C->fl_cap; i++) {
      if (!C->fl_str[i]) continue;
      size_t k = (size_t)str_hash(C->fl_str[i]) & (cap - 1);
      while (str[k]) k = (k + 1) & (cap - 1);
      str[k] = C->fl_str[i];
      id[k] = C->fl_id[i];
    }
    free(C->fl_str); free(C->fl_id);
    C->fl_str = str; C->fl_id = id; C->fl_cap = cap;
  }
  size_t k = (size_t)str_hash(s) & (C->fl_cap - 1);
  for (;; k = (k + 1) & (C->fl_cap - 1)) {
    if (!C->fl_str[k]) {
      C->fl_str[k] = s;
      return C->fl_id[k] = (unsigned)++C->fl_n;
    }
    if (!strcmp(C->fl_str[k], s)) return C->fl_id[k];
  }
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
    v[i].name = C->name[i] = sym_print_name(C->tab, &C->tab->base[i]);
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

/* "WHAT=(id)", with the name the first time. */
static void spec_fn(Cg *C, const char *what, size_t fn, const char *text)
{
  fprintf(C->f, "%s=(%zu)", what, fn + 1);
  if (C->fn_defined[fn]) {
    putc('\n', C->f);
    return;
  }
  C->fn_defined[fn] = 1;
  putc(' ', C->f);
  put_name(C->f, text);
}

static void spec_fl(Cg *C, const char *what, const char *file)
{
  unsigned id = file_id(C, file);
  fprintf(C->f, "%s=(%u)", what, id);
  if (C->fl_seen[id]) {
    putc('\n', C->f);
    return;
  }
  C->fl_seen[id] = 1;
  putc(' ', C->f);
  put_name(C->f, file);
}

/* ---- writing ---- */
static void position(Cg *C, vma_t addr, int line)
{
  fprintf(C->f, "0x%llx %d", (unsigned long long)addr, line);
}

static void write_call(Cg *C, const FcSite *s, uint64_t count, uint64_t cost)
{
  const Sym *c = &C->tab->base[s->c];
  spec_fl(C, "cfi", C->file[s->c]);
  spec_fn(C, "cfn", s->c, C->name[s->c]);
  fprintf(C->f, "calls=%llu ", (unsigned long long)count);
  position(C, c->addr, src_sym_line(C->tab, c));
  putc('\n', C->f);
  position(C, s->addr, s->line);
  fprintf(C->f, " %llu\n", (unsigned long long)cost);
}

void export_callgrind(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  (void)eo;
  const SymTab *tab = in->tab;
  size_t n = tab->len, i, k;
  Cg C;
  memset(&C, 0, sizeof C);
  C.f = f;
  C.tab = tab;
  C.file = in->fn_costs->file;
  C.name = xmalloc((n + 1) * sizeof *C.name);
  name_functions(&C);
  C.fn_defined = xcalloc(n + 2, 1);

  const FnCosts *fc = in->fn_costs;
  const size_t *owner = fc->owner;
  const FcSeg *seg = fc->seg;
  const FcPiece *pc = fc->pc;
  const FcSite *site = fc->site;
  const uint64_t *self = fc->self;
  size_t nseg = fc->nseg, npc = fc->npc, nsites = fc->nsites;
  uint64_t total = fc->total;

  fputs("# callgrind format\nversion: 1\ncreator: gprof (clean-room reimplementation)\n", f);
  fputs("cmd: ", f);
  put_name(f, in->program);
  fputs("positions: instr line\n", f);
  fputs("event: Time : Time in microseconds: self time sampled by the histogram; "
        "a call's time estimated by gprof from call counts\n", f);
  fputs("events: Time\n", f);
  fprintf(f, "summary: %llu\n\n", (unsigned long long)total);
  fputs("ob=(1) ", f);
  put_name(f, in->program);
  /* file ids: the functions' files first, in table order */
  for (i = 0; i < n; i++) file_id(&C, C.file[i]);
  for (k = 0; k < nseg; k++) file_id(&C, seg[k].file);
  file_id(&C, unknown_file);
  C.fl_seen = xcalloc(C.fl_n + 2, 1);

  size_t s0 = 0, q = 0;         /* the next cost line and call site */
  for (i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && owner[j] == i) j++;
    size_t se = s0, qe = q;
    while (se < npc && seg[pc[se].seg].owner == i) se++;
    while (qe < nsites && site[qe].p == i) qe++;
    int used = in->zeros || self[i] || qe > q || fc->in0[i + 1] > fc->in0[i];
    if (used) {
      putc('\n', f);
      spec_fl(&C, "fl", C.file[i]);
      spec_fn(&C, "fn", i, C.name[i]);
      const char *cur = C.file[i];
      /* the calls in address order */
      size_t nq = qe - q, *ord = xmalloc((nq + 1) * sizeof *ord);
      for (k = 0; k < nq; k++) ord[k] = q + k;
      for (k = 1; k < nq; k++) {      /* insertion sort: stable, few */
        size_t v = ord[k], t = k;
        while (t > 0 && site[ord[t - 1]].addr > site[v].addr) { ord[t] = ord[t - 1]; t--; }
        ord[t] = v;
      }
      size_t a = s0, b = 0;
      while (a < se || b < nq) {
        int take_seg = b == nq || (a < se && pc[a].addr <= site[ord[b]].addr);
        const FcSeg *sg = a < se ? &seg[pc[a].seg] : NULL;
        const char *file = take_seg ? sg->file : site[ord[b]].file;
        if (take_seg && !pc[a].cost && a != s0) { a++; continue; }
        if (strcmp(file, cur)) {      /* a line of another file (inlined) */
          cur = file;
          spec_fl(&C, "fi", file);
          if (!take_seg) {            /* callgrind_annotate wants a cost
                                         line in each file it is told of */
            position(&C, site[ord[b]].addr, site[ord[b]].line);
            fputs(" 0\n", f);
          }
        }
        if (take_seg) {
          position(&C, pc[a].addr, sg->line);
          fprintf(f, " %llu\n", (unsigned long long)pc[a].cost);
          a++;
        } else {
          const FcSite *s = &site[ord[b++]];
          write_call(&C, s, s->count, s->cost);
        }
      }
      free(ord);
    }
    s0 = se;
    q = qe;
    i = j;
  }
  if (fc->nspont) {               /* cycles nobody outside calls */
    putc('\n', f);
    spec_fl(&C, "fl", unknown_file);
    spec_fn(&C, "fn", n, "<spontaneous>");
    for (k = 0; k < fc->nspont; k++) {
      FcSite s = { n, fc->spont_to[k], 0, 1, fc->spont_cost[k], unknown_file, 0 };
      write_call(&C, &s, 1, fc->spont_cost[k]);
    }
  }
  fprintf(f, "\ntotals: %llu\n", (unsigned long long)total);

  free(C.fl_seen); free(C.fl_str); free(C.fl_id); free(C.fn_defined);
  for (i = 0; i < n; i++)
    if (C.name[i] != sym_print_name(tab, &tab->base[i])) free((char *)C.name[i]);
  free(C.name);
}
