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
 * -k and -z act through the analysis, as on the text graph.  So that
 * dot can draw it (in seconds) and a person read it, at most
 * --max-nodes nodes (200 by default; 0 for no limit) are drawn, the
 * heaviest, and at most three times as many edges, the heaviest (timed
 * arcs by share, then arcs within a cycle by calls); the graph's label
 * says when that cut anything. */
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

/* An edge that may be drawn, with what ranks it against the others. */
typedef struct { const Arc *a; size_t pos; int within; double w; } Edge;

/* Heavier first: arcs carrying time by their share, then arcs within a
   function or cycle by calls; ties in the order the arcs were read. */
static int cmp_edge(const void *x, const void *y)
{
  const Edge *p = x, *q = y;
  if (p->within != q->within) return p->within - q->within;
  double a = p->within ? (double)p->a->count : p->w, b = q->within ? (double)q->a->count : q->w;
  if (a != b) return a > b ? -1 : 1;
  return (p->pos > q->pos) - (p->pos < q->pos);
}

static int cmp_pos(const void *x, const void *y)
{
  const Edge *p = x, *q = y;
  return (p->pos > q->pos) - (p->pos < q->pos);
}

/* The edges the threshold keeps, at most MAX (0: all), heaviest first;
   returns how many there were before the cut in *ALL. */
static size_t pick_edges(Dot *D, Edge **out, size_t max, size_t *all)
{
  const CallGraph *cg = D->in->cg;
  Edge *v = xmalloc((cg->narcs + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < cg->narcs; i++) {
    const Arc *a = cg_arc(cg, i);
    const Sym *p = a->parent, *c = a->child;
    if (!drawn(D, p) || !drawn(D, c)) continue;
    int within = p == c || (p->cycle_num && p->cycle_num == c->cycle_num);
    double w = arc_weight(D, a);
    if (!within && !(100.0 * w >= D->eo->edge_threshold)) continue;
    v[n].a = a; v[n].pos = i; v[n].within = within; v[n].w = w;
    n++;
  }
  *all = n;
  if (max && n > max) {
    qsort(v, n, sizeof *v, cmp_edge);
    n = max;
    qsort(v, n, sizeof *v, cmp_pos);
  }
  *out = v;
  return n;
}

static void edges(Dot *D, const Edge *v, size_t n)
{
  FILE *f = D->f;
  for (size_t i = 0; i < n; i++) {
    const Arc *a = v[i].a;
    putc(' ', f); putc(' ', f);
    node_id(f, a->parent);
    fputs(" -> ", f);
    node_id(f, a->child);
    if (v[i].within) {
      fprintf(f, " [style=dashed, color=\"#808080\", label=\"%llu call%s\"];\n",
              (unsigned long long)a->count, a->count == 1 ? "" : "s");
      continue;
    }
    char col[16];
    double pen;
    colour(v[i].w, col, sizeof col, &pen);
    double pt = D->pt;
    fprintf(f, " [label=\"%.2f%%\\n%.2f s\\n%llu call%s\", color=\"%s\", fontcolor=\"%s\", "
            "penwidth=%.2f, arrowsize=%.2f];\n",
            pt > 0 ? 100.0 * (a->time + a->child_time) / pt : 0.0, (a->time + a->child_time) / D->hz,
            (unsigned long long)a->count, a->count == 1 ? "" : "s", col, col, pen,
            0.5 + pen / 4);
  }
}

/* A node that may be drawn. */
typedef struct { const Sym *s; double w; } Cand;

static int cmp_cand(const void *x, const void *y)
{
  const Cand *p = x, *q = y;
  if (p->w != q->w) return p->w > q->w ? -1 : 1;
  return p->s->index - q->s->index;
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
  fputs("  graph [fontname=\"Helvetica\", ranksep=0.3, nodesep=0.2, labelloc=t];\n", f);
  fputs("  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=\"filled,rounded\", "
        "fontcolor=white];\n", f);
  fputs("  edge [fontname=\"Helvetica\", fontsize=9];\n", f);
  const CallGraph *cg = in->cg;
  if (!cg) {
    fputs("  label=\"", f);
    export_dot_text(f, in->program);
    fprintf(f, ": functions from %g%% of the time\";\n", eo->node_threshold);
    flat_only(&D);
    fputs("}\n", f);
    return;
  }
  D.total = D.pt = export_print_time(in->tab);
  if (!(D.total > 0)) {
    D.by_calls = 1;
    D.total = 0;
    for (size_t i = 0; i < cg->narcs; i++) D.total += (double)cg_arc(cg, i)->count;
    if (!(D.total > 0)) D.total = 1;
  }
  /* the nodes the threshold keeps; past --max-nodes, the heaviest */
  D.shown = xcalloc(cg->norder + 2, 1);
  Cand *cand = xmalloc((cg->norder + 1) * sizeof *cand);
  size_t nc = 0, all_nodes;
  for (size_t i = 0; i < cg->norder; i++) {
    const Sym *s = cg->order[i];
    double w = sym_weight(&D, s);
    if (export_entry_printed(s) && 100.0 * w >= eo->node_threshold) {
      cand[nc].s = s;
      cand[nc++].w = w;
    }
  }
  all_nodes = nc;
  if (eo->max_nodes && nc > eo->max_nodes) {
    qsort(cand, nc, sizeof *cand, cmp_cand);
    nc = eo->max_nodes;
  }
  for (size_t i = 0; i < nc; i++) D.shown[cand[i].s->index] = 1;
  free(cand);
  Edge *ev;
  size_t all_edges, ne = pick_edges(&D, &ev, 3 * eo->max_nodes, &all_edges);
  fputs("  label=\"", f);
  export_dot_text(f, in->program);
  fprintf(f, ": nodes from %g%% of the %s", eo->node_threshold, D.by_calls ? "calls" : "time");
  if (nc < all_nodes) fprintf(f, " (the %zu heaviest of %zu)", nc, all_nodes);
  fprintf(f, ", edges from %g%%", eo->edge_threshold);
  if (ne < all_edges) fprintf(f, " (the %zu heaviest of %zu)", ne, all_edges);
  fputs("\";\n", f);
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
  edges(&D, ev, ne);
  fputs("}\n", f);
  free(ev);
  free(D.shown);
}
