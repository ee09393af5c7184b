/* export_dot.c -- the call graph as a Graphviz picture (--dot).
 *
 * One node per entry the text graph prints, functions and cycles as a
 * whole, whose share of the run (the graph's "% time": self plus
 * children, of the propagated total) reaches --node-threshold percent;
 * one edge per arc between two drawn nodes whose propagated time (self
 * plus children along the arc) reaches --edge-threshold percent.  Arcs
 * within a function or a cycle carry no time in gprof's analysis: they
 * are drawn, dashed and with their calls only, whenever both ends are.
 * A cycle's drawn members and its own node share a cluster.  Colour
 * (blue for little time through green and yellow to red for most) and
 * pen width grow with the share.  A profile with no time at all (no
 * histogram, or every function's time left out) weighs by calls instead:
 * a node's calls, an arc's calls, of all calls.  Symspecs, -e/-E/-f/-F,
 * -k and -z act through the analysis, as on the text graph. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export_dot.h"
#include "options.h"
#include "sym_ids.h"

typedef struct {
  FILE *f;
  const ExportInput *in;
  const ExportOptions *eo;
  double hz;
  double total;                 /* what shares divide by */
  int by_calls;                 /* no time: weigh by calls */
  double pt;                    /* the graph's propagated total */
  unsigned char *shown;         /* per index */
} Dot;

static double sym_weight(const Dot *D, const Sym *s)
{
  if (D->by_calls) return (double)(s->ncalls + s->self_calls) / D->total;
  return (s->prop_self + s->prop_child) / D->total;
}

static double arc_weight(const Dot *D, const Arc *a)
{
  if (D->by_calls) return (double)a->count / D->total;
  return (a->time + a->child_time) / D->total;
}

/* Blue through cyan, green and yellow to red as W goes from 0 to 1; the
   square root spreads the small shares, which are most of them. */
static void colour(double w, char *buf, size_t len, double *pen)
{
  if (!(w > 0)) w = 0;
  if (w > 1) w = 1;
  double g = sqrt(w);
  double h = (1.0 - g) * 240.0, s = 0.85, l = 0.28 + 0.12 * g;
  double c = (1 - fabs(2 * l - 1)) * s, hp = h / 60.0;
  double x = c * (1 - fabs(fmod(hp, 2.0) - 1)), r = 0, gr = 0, b = 0;
  if (hp < 1) { r = c; gr = x; }
  else if (hp < 2) { r = x; gr = c; }
  else if (hp < 3) { gr = c; b = x; }
  else if (hp < 4) { gr = x; b = c; }
  else { r = x; b = c; }
  double m = l - c / 2;
  snprintf(buf, len, "#%02x%02x%02x", (int)lround((r + m) * 255), (int)lround((gr + m) * 255),
           (int)lround((b + m) * 255));
  *pen = 0.5 + 3.5 * g;
}

static void calls_text(FILE *f, uint64_t calls, uint64_t self)
{
  if (calls + self == 0) return;
  if (self) fprintf(f, "\\n%llu+%llu calls", (unsigned long long)calls, (unsigned long long)self);
  else fprintf(f, "\\n%llu call%s", (unsigned long long)calls, calls == 1 ? "" : "s");
}

static void node(Dot *D, const Sym *s)
{
  FILE *f = D->f;
  char col[16];
  double pen, w = sym_weight(D, s);
  colour(w, col, sizeof col, &pen);
  double pt = D->pt;
  double total = pt > 0 ? 100.0 * (s->prop_self + s->prop_child) / pt : 0.0;
  double self = pt > 0 ? 100.0 * s->prop_self / pt : 0.0;
  if (s->is_cycle) {
    fprintf(f, "  c%d [shape=box, style=\"filled,dashed\", label=\"<cycle %d as a whole> [%d]",
            s->cycle_num, s->cycle_num, s->index);
  } else {
    fprintf(f, "  n%d [label=\"", s->index);
    export_dot_text(f, sym_label(D->in->tab, s));
    if (s->cycle_num) fprintf(f, " <cycle %d>", s->cycle_num);
    fprintf(f, " [%d]", s->index);
  }
  fprintf(f, "\\n%.2f%% total\\n%.2f%% self", total, self);
  calls_text(f, s->ncalls, s->self_calls);
  fprintf(f, "\", fillcolor=\"%s\", color=\"%s\", penwidth=%.2f];\n", col, col, pen);
}

static int drawn(const Dot *D, const Sym *s)
{
  return s->index > 0 && D->shown[s->index];
}

/* The node an arc's end is drawn as. */
static void node_id(FILE *f, const Sym *s)
{
  fprintf(f, "n%d", s->index);
}

static void edges(Dot *D)
{
  FILE *f = D->f;
  const CallGraph *cg = D->in->cg;
  for (size_t i = 0; i < cg->narcs; i++) {
    const Arc *a = cg->in_order[i];
    const Sym *p = a->parent, *c = a->child;
    if (!drawn(D, p) || !drawn(D, c)) continue;
    int within = p == c || (p->cycle_num && p->cycle_num == c->cycle_num);
    double w = arc_weight(D, a);
    if (!within && !(100.0 * w >= D->eo->edge_threshold)) continue;
    putc(' ', f); putc(' ', f);
    node_id(f, p);
    fputs(" -> ", f);
    node_id(f, c);
    if (within) {
      fprintf(f, " [style=dashed, color=\"#808080\", label=\"%llu call%s\"];\n",
              (unsigned long long)a->count, a->count == 1 ? "" : "s");
      continue;
    }
    char col[16];
    double pen;
    colour(w, col, sizeof col, &pen);
    double pt = D->pt;
    fprintf(f, " [label=\"%.2f%%\\n%.2f s\\n%llu call%s\", color=\"%s\", fontcolor=\"%s\", "
            "penwidth=%.2f, arrowsize=%.2f];\n",
            pt > 0 ? 100.0 * (a->time + a->child_time) / pt : 0.0, (a->time + a->child_time) / D->hz,
            (unsigned long long)a->count, a->count == 1 ? "" : "s", col, col, pen,
            0.5 + pen / 4);
  }
}

/* Without call-graph data: the functions by self time, no edges. */
static void flat_only(Dot *D)
{
  FILE *f = D->f;
  const SymTab *tab = D->in->tab;
  double total = D->in->hist ? D->in->hist->total_samples : 0;
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s) || !(total > 0)) continue;
    double w = s->hist_time / total;
    if (!(100.0 * w >= D->eo->node_threshold) || (s->hist_time == 0 && !opt.zeros)) continue;
    char col[16];
    double pen;
    colour(w, col, sizeof col, &pen);
    fprintf(f, "  s%zu [label=\"", i);
    export_dot_text(f, sym_label(tab, s));
    fprintf(f, "\\n%.2f%% self\", fillcolor=\"%s\", color=\"%s\"];\n", 100.0 * w, col, col);
  }
}

void export_dot(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  Dot D = { f, in, eo, in->hist ? in->hist->hz : 0.0, 0, 0, 0, NULL };
  fputs("digraph gprof {\n", f);
  fputs("  graph [fontname=\"Helvetica\", ranksep=0.3, nodesep=0.2, label=\"", f);
  export_dot_text(f, in->program);
  fprintf(f, ": nodes from %g%% of the time, edges from %g%%\", labelloc=t];\n",
          eo->node_threshold, eo->edge_threshold);
  fputs("  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=\"filled,rounded\", "
        "fontcolor=white];\n", f);
  fputs("  edge [fontname=\"Helvetica\", fontsize=9];\n", f);
  const CallGraph *cg = in->cg;
  if (!cg) {
    flat_only(&D);
    fputs("}\n", f);
    return;
  }
  D.total = D.pt = export_print_time(in->tab);
  if (!(D.total > 0)) {
    D.by_calls = 1;
    D.total = 0;
    for (size_t i = 0; i < cg->narcs; i++) D.total += (double)cg->in_order[i]->count;
    if (!(D.total > 0)) D.total = 1;
  }
  D.shown = xcalloc(cg->norder + 2, 1);
  for (size_t i = 0; i < cg->norder; i++) {
    const Sym *s = cg->order[i];
    if (export_entry_printed(s) && 100.0 * sym_weight(&D, s) >= eo->node_threshold)
      D.shown[s->index] = 1;
  }
  /* cycles, each in a cluster with its drawn members */
  for (int c = 1; c <= cg->ncycles; c++) {
    const Sym *cyc = &cg->cycles[c];
    int any = drawn(&D, cyc);
    for (const Sym *m = cyc->cyc_next; m && !any; m = m->cyc_next) any = drawn(&D, m);
    if (!any) continue;
    fprintf(f, "  subgraph cluster_cycle%d {\n    style=dashed; color=\"#808080\"; label=\"\";\n", c);
    if (drawn(&D, cyc)) { fputs("  ", f); node(&D, cyc); }
    for (const Sym *m = cyc->cyc_next; m; m = m->cyc_next)
      if (drawn(&D, m)) {
        fputs("  ", f);
        node(&D, m);
        /* keeps the cycle's own node above its members */
        if (drawn(&D, cyc)) fprintf(f, "    c%d -> n%d [style=invis];\n", c, m->index);
      }
    fputs("  }\n", f);
  }
  for (size_t i = 0; i < cg->norder; i++) {
    const Sym *s = cg->order[i];
    if (drawn(&D, s) && !s->is_cycle && !s->cycle_num) node(&D, s);
  }
  edges(&D);
  fputs("}\n", f);
  free(D.shown);
}
