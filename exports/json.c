/* exports/json.c -- the whole analysis as JSON (--json), in the schema of
 * doc/gprof.schema.json.
 *
 * Every figure is the one the text reports print, before rounding: times
 * in seconds (null when there is no rate, where the text prints nan),
 * percentages of the same totals, entries and lines in the text's order
 * and with its index numbers.  Sections are null when the profile has no
 * data for them, whatever reports the options select. */
#include <stdlib.h>
#include <string.h>
#include "exports/json.h"
#include "util/options.h"
#include "source.h"
#include "sym_ids.h"

#define NUM(v) export_json_number(f, (v))
#define STR(s) export_json_string(f, (s))

typedef struct {
  FILE *f;
  const ExportInput *in;
  double hz;
  Arc **arcs;
  size_t arcs_cap;
  Sym **syms;
  size_t syms_cap;
} Json;

static void key(FILE *f, const char *k, int first)
{
  if (!first) putc(',', f);
  fprintf(f, "\"%s\":", k);
}

static void str_or_null(FILE *f, const char *s)
{
  if (s) export_json_string(f, s);
  else fputs("null", f);
}

static void u64(FILE *f, uint64_t v)
{
  fprintf(f, "%llu", (unsigned long long)v);
}

/* S's label as --dot shortens it (export_short_name). */
static void short_name(Json *J, const Sym *s)
{
  FILE *f = J->f;
  char *sh = export_short_label(J->in->tab, s);
  STR(sh);
  free(sh);
}

/* What every function mentioned carries: names, address, source. */
static void sym_fields(Json *J, const Sym *s)
{
  FILE *f = J->f;
  const SymTab *tab = J->in->tab;
  key(f, "name", 1); STR(s->name);
  key(f, "display", 0); STR(sym_label(tab, s));
  key(f, "short_name", 0); short_name(J, s);
  key(f, "address", 0); u64(f, s->addr);
  key(f, "static", 0); fputs(s->is_static ? "true" : "false", f);
  key(f, "line_symbol", 0); fputs(export_is_line(s) ? "true" : "false", f);
  key(f, "file", 0); str_or_null(f, src_sym_path(tab, s));
  key(f, "line", 0);
  int line = src_sym_line(tab, s);
  if (line) fprintf(f, "%d", line);
  else fputs("null", f);
}

static void write_meta(Json *J)
{
  FILE *f = J->f;
  const ExportInput *in = J->in;
  key(f, "format", 1); STR("gprof-json");
  key(f, "version", 0); fputs("1", f);
  key(f, "program", 0); STR(in->program);
  key(f, "profiles", 0); putc('[', f);
  for (int i = 0; i < in->nprofiles; i++) {
    if (i) putc(',', f);
    STR(in->profiles[i]);
  }
  putc(']', f);
  key(f, "line_level", 0); fputs(in->tab->opts.line ? "true" : "false", f);
  key(f, "demangled", 0); fputs(in->tab->opts.demangle ? "true" : "false", f);
}

/* The histogram and the flat profile: the rows the flat profile lists, in
   its order (self time, calls, linkage name). */
static void write_flat(Json *J)
{
  FILE *f = J->f;
  const HistSet *hs = J->in->hist;
  const SymTab *tab = J->in->tab;
  double hz = hs->hz;
  key(f, "histogram", 0);
  putc('{', f);
  key(f, "rate", 1); NUM(hz);
  key(f, "dimension", 0); STR(hs->dimen);
  key(f, "dimension_abbrev", 0);
  char ab[2] = { hs->dimen_abbrev, 0 };
  STR(ab);
  key(f, "sample_seconds", 0); NUM(1.0 / hz);
  key(f, "granularity_bytes", 0); fprintf(f, "%ld", hist_granularity_bytes(hs));
  key(f, "ranges", 0); putc('[', f);
  for (size_t i = 0; i < hs->nrecs; i++) {
    if (i) putc(',', f);
    fputs("{\"low\":", f); u64(f, hs->recs[i].lowpc);
    fputs(",\"high\":", f); u64(f, hs->recs[i].highpc);
    fprintf(f, ",\"bins\":%u}", hs->recs[i].nbins);
  }
  putc(']', f);
  key(f, "total_samples", 0); NUM(hs->total_samples);
  key(f, "total_seconds", 0); NUM(hs->total_samples / hz);
  putc('}', f);

  size_t n = 0, i;
  Sym **v = xmalloc((tab->len + 1) * sizeof *v);
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s)) continue;
    if (!J->in->zeros && s->hist_time == 0 && s->ncalls == 0) continue;
    v[n++] = s;
  }
  export_flat_sort(v, n);
  /* the percentages divide by every sample read (1 when there are none,
     as the text does) */
  double total = hs->total_samples > 0 ? hs->total_samples : 1.0;
  /* the running total in samples, divided when written, as the text's
     (summing seconds differed: 2.3049999 where the text printed 2.31) */
  double cum = 0;
  key(f, "flat_profile", 0);
  putc('[', f);
  for (i = 0; i < n; i++) {
    Sym *s = v[i];
    double t = s->hist_time / hz;
    cum += s->hist_time;
    if (i) putc(',', f);
    fputs("\n{", f);
    sym_fields(J, s);
    key(f, "percent", 0); NUM(100.0 * s->hist_time / total);
    key(f, "cumulative_seconds", 0); NUM(cum / hz);
    key(f, "self_seconds", 0); NUM(t);
    key(f, "calls", 0);
    if (s->ncalls) {
      u64(f, s->ncalls);
      key(f, "self_seconds_per_call", 0); NUM(t / (double)s->ncalls);
      key(f, "total_seconds_per_call", 0);
      NUM((s->hist_time + s->child_time) / hz / (double)s->ncalls);
    } else {
      fputs("null", f);
      key(f, "self_seconds_per_call", 0); fputs("null", f);
      key(f, "total_seconds_per_call", 0); fputs("null", f);
    }
    key(f, "index", 0);
    if (s->index) fprintf(f, "%d", s->index);
    else fputs("null", f);
    putc('}', f);
  }
  fputs("]", f);
  free(v);
}

static uint64_t calls_of(const Sym *s)
{
  return s->cycle_num ? s->cyc_head->ncalls : s->ncalls;
}

/* One caller or callee line of ENTRY's block, naming OTHER. */
static void write_line(Json *J, const Arc *a, const Sym *entry, const Sym *other)
{
  FILE *f = J->f;
  putc('{', f);
  /* <indirect child> (-c on some ISAs) is outside the table: no index */
  key(f, "index", 1);
  if (other->index) fprintf(f, "%d", other->index);
  else fputs("null", f);
  key(f, "name", 0); STR(other->name);
  key(f, "display", 0); STR(sym_label(J->in->tab, other));
  key(f, "short_name", 0); short_name(J, other);
  key(f, "printed", 0); fputs(other->print_flag ? "true" : "false", f);
  key(f, "cycle", 0);
  if (other->cycle_num) fprintf(f, "%d", other->cycle_num);
  else fputs("null", f);
  key(f, "calls", 0); u64(f, a->count);
  int within = other == entry || (other->cycle_num && other->cycle_num == entry->cycle_num);
  key(f, "within", 0); fputs(within ? "true" : "false", f);
  if (!within) {
    key(f, "self_seconds", 0); NUM(a->time / J->hz);
    key(f, "children_seconds", 0); NUM(a->child_time / J->hz);
    key(f, "total_calls", 0); u64(f, calls_of(a->child));
  }
  putc('}', f);
}

static void write_entry(Json *J, const Sym *s, double print_time)
{
  FILE *f = J->f;
  const SymTab *tab = J->in->tab;
  fputs("\n{", f);
  key(f, "index", 1); fprintf(f, "%d", s->index);
  key(f, "kind", 0); STR(s->is_cycle ? "cycle" : "function");
  key(f, "cycle", 0);
  if (s->cycle_num) fprintf(f, "%d", s->cycle_num);
  else fputs("null", f);
  if (!s->is_cycle) {
    putc(',', f);
    sym_fields(J, s);
  }
  key(f, "percent", 0);
  NUM(print_time > 0 ? 100.0 * (s->prop_self + s->prop_child) / print_time : 0.0);
  key(f, "self_seconds", 0); NUM(s->prop_self / J->hz);
  key(f, "children_seconds", 0); NUM(s->prop_child / J->hz);
  key(f, "calls", 0); u64(f, s->ncalls);
  key(f, "self_calls", 0); u64(f, s->self_calls);
  if (s->is_cycle) {
    key(f, "members", 0); putc('[', f);
    size_t n = export_entry_members(s, &J->syms, &J->syms_cap);
    for (size_t i = 0; i < n; i++) {
      const Sym *m = J->syms[i];
      if (i) putc(',', f);
      putc('{', f);
      key(f, "index", 1); fprintf(f, "%d", m->index);
      key(f, "name", 0); STR(m->name);
      key(f, "display", 0); STR(sym_label(tab, m));
      key(f, "short_name", 0); short_name(J, m);
      key(f, "printed", 0); fputs(m->print_flag ? "true" : "false", f);
      key(f, "self_seconds", 0); NUM(m->prop_self / J->hz);
      key(f, "children_seconds", 0); NUM(m->prop_child / J->hz);
      key(f, "calls", 0); u64(f, m->ncalls);
      key(f, "self_calls", 0); u64(f, m->self_calls);
      putc('}', f);
    }
    putc(']', f);
  } else {
    for (int parents = 1; parents >= 0; parents--) {
      size_t n = export_entry_arcs(s, parents, &J->arcs, &J->arcs_cap);
      if (parents) {
        key(f, "spontaneous", 0); fputs(n ? "false" : "true", f);
      }
      key(f, parents ? "parents" : "children", 0);
      putc('[', f);
      for (size_t i = 0; i < n; i++) {
        if (i) putc(',', f);
        const Arc *a = J->arcs[i];
        write_line(J, a, s, parents ? a->parent : a->child);
      }
      putc(']', f);
    }
  }
  putc('}', f);
}

static int cmp_index_name(const void *a, const void *b)
{
  const Sym *x = *(Sym *const *)a, *y = *(Sym *const *)b;
  if (x->is_cycle != y->is_cycle) return x->is_cycle ? 1 : -1;
  if (x->is_cycle) return x->cycle_num - y->cycle_num;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  return (x > y) - (x < y);     /* equal names stay in address order */
}

static void write_graph(Json *J)
{
  FILE *f = J->f;
  const CallGraph *cg = J->in->cg;
  const SymTab *tab = J->in->tab;
  double print_time = export_print_time(tab);
  key(f, "call_graph", 0);
  putc('{', f);
  key(f, "propagated_seconds", 1); NUM(print_time / J->hz);
  key(f, "entries", 0); putc('[', f);
  int first = 1;
  for (size_t i = 0; i < cg->norder; i++) {
    const Sym *s = cg->order[i];
    if (!export_entry_printed(J->in, s)) continue;
    if (!first) putc(',', f);
    first = 0;
    write_entry(J, s, print_time);
  }
  putc(']', f);
  key(f, "cycles", 0); putc('[', f);
  for (int c = 1; c <= cg->ncycles; c++) {
    const Sym *cyc = &cg->cycles[c];
    if (c > 1) putc(',', f);
    fprintf(f, "\n{\"number\":%d,\"index\":%d,\"printed\":%s,\"members\":[", c, cyc->index,
            export_entry_printed(J->in, cyc) ? "true" : "false");
    size_t n = export_entry_members(cyc, &J->syms, &J->syms_cap);
    for (size_t k = 0; k < n; k++) fprintf(f, "%s%d", k ? "," : "", J->syms[k]->index);
    fputs("]}", f);
  }
  putc(']', f);
  /* the index by function name: what it lists and in its order */
  size_t k = 0;
  Sym **v = xmalloc((tab->len + (size_t)cg->ncycles + 1) * sizeof *v);
  for (size_t i = 0; i < tab->len + (size_t)cg->ncycles; i++) {
    Sym *s = i < tab->len ? &tab->base[i] : &cg->cycles[i - tab->len + 1];
    if (!s->index) continue;
    if (!s->is_cycle && !J->in->zeros && s->ncalls == 0 && !(s->hist_time != 0)) continue;
    v[k++] = s;
  }
  qsort(v, k, sizeof *v, cmp_index_name);
  key(f, "index", 0); putc('[', f);
  for (size_t i = 0; i < k; i++) {
    if (i) putc(',', f);
    fprintf(f, "\n{\"index\":%d,\"printed\":%s,", v[i]->index, v[i]->print_flag ? "true" : "false");
    if (v[i]->is_cycle) {
      fprintf(f, "\"kind\":\"cycle\",\"cycle\":%d}", v[i]->cycle_num);
      continue;
    }
    fputs("\"kind\":\"function\",\"display\":", f);
    STR(sym_label(tab, v[i]));
    fputs(",\"short_name\":", f);
    short_name(J, v[i]);
    fputs(",\"file\":", f);
    str_or_null(f, v[i]->is_static ? src_sym_file(tab, v[i]) : NULL);
    putc('}', f);
  }
  putc(']', f);
  free(v);
  putc('}', f);
}

/* The -C listing's rows, by address: calls per function (every function
   with -z) and, under -l, each symbol's basic-block counts after it. */
static void exec_row(Json *J, const Sym *s, int block, vma_t addr, uint64_t count, int *first)
{
  FILE *f = J->f;
  if (!*first) putc(',', f);
  *first = 0;
  fputs("\n{", f);
  sym_fields(J, s);
  key(f, "block", 0); fputs(block ? "true" : "false", f);
  if (block) { key(f, "block_address", 0); u64(f, addr); }
  key(f, "executions", 0); u64(f, count);
  putc('}', f);
}

static void write_exec(Json *J)
{
  FILE *f = J->f;
  const SymTab *tab = J->in->tab;
  key(f, "exec_counts", 0);
  putc('[', f);
  int first = 1;
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    if (!sym_id_in_exec(s)) continue;
    if (J->in->zeros || s->ncalls) exec_row(J, s, 0, 0, s->ncalls, &first);
    for (unsigned k = 0; k < export_nblocks(s); k++) {
      vma_t a;
      uint64_t c;
      export_block(s, k, &a, &c);
      if (J->in->zeros || c) exec_row(J, s, 1, a, c, &first);
    }
  }
  putc(']', f);
}

/* --stack-times: what the stacks measured beside the call graph's
   estimates (stack_times.h); null when not asked for. */
static void write_stack_times(Json *J)
{
  FILE *f = J->f;
  key(f, "stack_times", 0);
  const StackTimes *t = J->in->stack_times;
  if (!t) {
    fputs("null", f);
    return;
  }
  putc('{', f);
  key(f, "rate", 1); NUM(t->hz);
  key(f, "samples", 0); u64(f, t->total);
  key(f, "seconds", 0); NUM((double)t->total / t->hz);
  key(f, "truncated_samples", 0); u64(f, t->truncated);
  key(f, "dropped_samples", 0); u64(f, t->dropped);
  key(f, "functions", 0); putc('[', f);
  for (size_t i = 0; i < t->nfuncs; i++) {
    const StFunc *s = &t->funcs[i];
    if (i) putc(',', f);
    putc('{', f);
    key(f, "name", 1); STR(s->sym->name);
    key(f, "display", 0); STR(sym_label(J->in->tab, s->sym));
    key(f, "measured_seconds", 0); NUM((double)s->incl / t->hz);
    key(f, "measured_self_seconds", 0); NUM((double)s->self / t->hz);
    key(f, "estimated_seconds", 0);
    if (s->est < 0) fputs("null", f); else NUM(s->est);
    putc('}', f);
  }
  putc(']', f);
  key(f, "arcs", 0); putc('[', f);
  for (size_t i = 0; i < t->narcs; i++) {
    const StArc *a = &t->arcs[i];
    if (i) putc(',', f);
    putc('{', f);
    key(f, "caller", 1); STR(a->caller->name);
    key(f, "callee", 0); STR(a->callee->name);
    key(f, "measured_seconds", 0); NUM((double)a->incl / t->hz);
    key(f, "estimated_seconds", 0);
    if (a->est < 0) fputs("null", f); else NUM(a->est);
    key(f, "calls", 0);
    if (a->calls) u64(f, a->calls); else fputs("null", f);
    putc('}', f);
  }
  putc(']', f);
  putc('}', f);
}

void export_json(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  (void)eo;
  Json J = { f, in, in->hist ? in->hist->hz : 0.0, NULL, 0, NULL, 0 };
  putc('{', f);
  write_meta(&J);
  if (in->hist) write_flat(&J);
  else fputs(",\"histogram\":null,\"flat_profile\":null", f);
  if (in->cg) write_graph(&J);
  else fputs(",\"call_graph\":null", f);
  write_exec(&J);
  write_stack_times(&J);
  fputs("}\n", f);
  free(J.arcs);
  free(J.syms);
}
