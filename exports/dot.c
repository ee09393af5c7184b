/* exports/dot.c -- the call graph as a Graphviz picture (--dot).
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
#include "exports/dot.h"
#include "util/options.h"
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
  unsigned char *cycle_node;    /* per cycle: drawn as a node (cycle_node()) */
} Dot;

static double sym_weight(const Dot *D, const Sym *s)
{
  if (D->by_calls) return (double)(s->ncalls + s->self_calls) / D->total;
  return (s->prop_self + s->prop_child) / D->total;
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

static void calls_text(FILE *f, uint64_t calls, uint64_t self, const char *nl)
{
  if (calls + self == 0) return;
  if (self) fprintf(f, "%s%llu+%llu calls", nl, (unsigned long long)calls, (unsigned long long)self);
  else fprintf(f, "%s%llu call%s", nl, (unsigned long long)calls, calls == 1 ? "" : "s");
}

/* S's name and, unless no index (-1), its cycle and index, as the text
   prints them: by default with the name shortened and in lines of at most
   EXPORT_DOT_WIDTH characters, under --dot-full-names on one line. */
static void name_lines(Dot *D, const Sym *s, int index)
{
  FILE *f = D->f;
  char tail[64] = "";
  if (index >= 0) {
    if (s->cycle_num) snprintf(tail, sizeof tail, " <cycle %d> [%d]", s->cycle_num, index);
    else snprintf(tail, sizeof tail, " [%d]", index);
  }
  if (D->eo->full_names) {
    export_dot_text(f, sym_label(D->in->tab, s));
    fputs(tail, f);
    return;
  }
  char *sh = export_short_label(D->in->tab, s);
  size_t col = export_dot_wrapped(f, sh, EXPORT_DOT_WIDTH);
  free(sh);
  if (col && col + strlen(tail) > EXPORT_DOT_WIDTH) fprintf(f, "\\n%s", tail + 1);
  else fputs(tail, f);
}

/* S's figures after its name: shares of the run, calls. */
static void figures(Dot *D, const Sym *s, const char *nl)
{
  double pt = D->pt;
  double total = pt > 0 ? 100.0 * (s->prop_self + s->prop_child) / pt : 0.0;
  double self = pt > 0 ? 100.0 * s->prop_self / pt : 0.0;
  fprintf(D->f, "%s%.2f%% total%s%.2f%% self", nl, total, nl, self);
  calls_text(D->f, s->ncalls, s->self_calls, nl);
}

static void node(Dot *D, const Sym *s)
{
  FILE *f = D->f;
  char col[16];
  double pen, w = sym_weight(D, s);
  colour(w, col, sizeof col, &pen);
  if (s->is_cycle) {
    fprintf(f, "  c%d [shape=box, style=\"filled,dashed\", label=\"<cycle %d as a whole> [%d]",
            s->cycle_num, s->cycle_num, s->index);
  } else {
    fprintf(f, "  n%d [label=\"", s->index);
    name_lines(D, s, s->index);
  }
  figures(D, s, "\\n");
  fprintf(f, "\", fillcolor=\"%s\", color=\"%s\", penwidth=%.2f];\n", col, col, pen);
}

static int drawn(const Dot *D, const Sym *s)
{
  return s->index > 0 && D->shown[s->index];
}

/* Is cycle C drawn as a node of its own?  When some member is drawn the
   cycle is the box around its members instead, labelled with its
   figures; when none is, a node that the arcs to and from its members
   go to. */
static int cycle_node(const Dot *D, int c)
{
  return c > 0 && D->cycle_node[c];
}

/* The node an arc's end S is drawn as: n<index> for a drawn function,
   -<cycle> for the node of S's cycle, 0 for none. */
static int end_id(const Dot *D, const Sym *s)
{
  if (drawn(D, s)) return s->index;
  if (cycle_node(D, s->cycle_num)) return -s->cycle_num;
  return 0;
}

static void node_id(FILE *f, int id)
{
  if (id > 0) fprintf(f, "n%d", id);
  else fprintf(f, "c%d", -id);
}

/* An edge that may be drawn, with what ranks it against the others: one
   arc, or all the arcs between a node and a cycle's node. */
typedef struct {
  int from, to;                 /* end_id's */
  size_t pos;                   /* the (first) arc's place */
  int within;                   /* within a function or cycle: no time */
  double w;                     /* share */
  uint64_t count;
  double time;                  /* samples along it */
} Edge;

/* Heavier first: arcs carrying time by their share, then arcs within a
   function or cycle by calls; ties in the order the arcs were read. */
static int cmp_edge(const void *x, const void *y)
{
  const Edge *p = x, *q = y;
  if (p->within != q->within) return p->within - q->within;
  double a = p->within ? (double)p->count : p->w, b = q->within ? (double)q->count : q->w;
  if (a != b) return a > b ? -1 : 1;
  return (p->pos > q->pos) - (p->pos < q->pos);
}

static int cmp_pos(const void *x, const void *y)
{
  const Edge *p = x, *q = y;
  return (p->pos > q->pos) - (p->pos < q->pos);
}

static int cmp_ends(const void *x, const void *y)
{
  const Edge *p = x, *q = y;
  if (p->from != q->from) return p->from < q->from ? -1 : 1;
  if (p->to != q->to) return p->to < q->to ? -1 : 1;
  return (p->pos > q->pos) - (p->pos < q->pos);
}

/* The edges the threshold keeps, at most MAX (0: all), heaviest first;
   returns how many there were before the cut in *ALL. */
static size_t pick_edges(Dot *D, Edge **out, size_t max, size_t *all)
{
  const CallGraph *cg = D->in->cg;
  Edge *v = xmalloc((cg->narcs + 1) * sizeof *v);
  size_t n = 0, nc = 0;
  for (size_t i = 0; i < cg->narcs; i++) {
    const Arc *a = cg_arc(cg, i);
    const Sym *p = a->parent, *c = a->child;
    int from = end_id(D, p), to = end_id(D, c);
    if (!from || !to) continue;
    int within = p == c || (p->cycle_num && p->cycle_num == c->cycle_num);
    if (within && (from < 0 || to < 0)) continue;  /* inside a cycle's node */
    v[n].from = from; v[n].to = to; v[n].pos = i; v[n].within = within;
    v[n].count = a->count; v[n].time = a->time + a->child_time;
    n++;
  }
  /* the arcs to or from one cycle's node: one edge per other end, first
     in the array; then the shares and the threshold */
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    Edge e = v[i];
    if (e.from < 0 || e.to < 0) { v[i] = v[k]; v[k++] = e; }
  }
  if (k) {
    qsort(v, k, sizeof *v, cmp_ends);
    for (size_t i = 0; i < k; i++) {
      if (nc && v[nc - 1].from == v[i].from && v[nc - 1].to == v[i].to) {
        v[nc - 1].count += v[i].count;
        v[nc - 1].time += v[i].time;
      } else {
        v[nc++] = v[i];
      }
    }
    memmove(v + nc, v + k, (n - k) * sizeof *v);
    n = nc + (n - k);
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    Edge e = v[i];
    e.w = D->by_calls ? (double)e.count / D->total : e.time / D->total;
    if (!e.within && !(100.0 * e.w >= D->eo->edge_threshold)) continue;
    v[m++] = e;
  }
  n = m;
  *all = n;
  if (max && n > max) {
    qsort(v, n, sizeof *v, cmp_edge);
    n = max;
  }
  qsort(v, n, sizeof *v, cmp_pos);
  *out = v;
  return n;
}

/* Each line of an edge's label has a space on either side: dot sets the
   labels of two edges between one pair of nodes (a call each way) side by
   side with no gap, which ran "11276 calls" and "12688 calls" together. */
static void edges(Dot *D, const Edge *v, size_t n)
{
  FILE *f = D->f;
  for (size_t i = 0; i < n; i++) {
    const Edge *e = &v[i];
    putc(' ', f); putc(' ', f);
    node_id(f, e->from);
    fputs(" -> ", f);
    node_id(f, e->to);
    if (e->within) {
      fprintf(f, " [style=dashed, color=\"#808080\", label=\" %llu call%s \"];\n",
              (unsigned long long)e->count, e->count == 1 ? "" : "s");
      continue;
    }
    char col[16];
    double pen;
    colour(e->w, col, sizeof col, &pen);
    double pt = D->pt;
    fprintf(f, " [label=\" %.2f%% \\n %.2f s \\n %llu call%s \", color=\"%s\", fontcolor=\"%s\", "
            "penwidth=%.2f, arrowsize=%.2f];\n",
            pt > 0 ? 100.0 * e->time / pt : 0.0, e->time / D->hz,
            (unsigned long long)e->count, e->count == 1 ? "" : "s", col, col, pen,
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
    if (!(100.0 * w >= D->eo->node_threshold) || (s->hist_time == 0 && !D->in->zeros)) continue;
    char col[16];
    double pen;
    colour(w, col, sizeof col, &pen);
    fprintf(f, "  s%zu [label=\"", i);
    name_lines(D, s, -1);
    fprintf(f, "\\n%.2f%% self\", fillcolor=\"%s\", color=\"%s\"];\n", 100.0 * w, col, col);
  }
}

void export_dot(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  Dot D = { f, in, eo, in->hist ? in->hist->hz : 0.0, 0, 0, 0, NULL, NULL };
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
    if (export_entry_printed(in, s) && 100.0 * w >= eo->node_threshold) {
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
  D.cycle_node = xcalloc((size_t)cg->ncycles + 2, 1);
  for (int c = 1; c <= cg->ncycles; c++) {
    const Sym *cyc = &cg->cycles[c];
    int members = 0;
    for (const Sym *m = cyc->cyc_next; m && !members; m = m->cyc_next) members = drawn(&D, m);
    D.cycle_node[c] = drawn(&D, cyc) && !members;
  }
  Edge *ev;
  size_t all_edges, ne = pick_edges(&D, &ev, 3 * eo->max_nodes, &all_edges);
  fputs("  label=\"", f);
  export_dot_text(f, in->program);
  fprintf(f, ": nodes from %g%% of the %s", eo->node_threshold, D.by_calls ? "calls" : "time");
  if (nc < all_nodes) fprintf(f, " (the %zu heaviest of %zu)", nc, all_nodes);
  fprintf(f, ", edges from %g%%", eo->edge_threshold);
  if (ne < all_edges) fprintf(f, " (the %zu heaviest of %zu)", ne, all_edges);
  fputs("\";\n", f);
  /* a cycle with members drawn: a box around them, labelled with the
     cycle's figures and drawn in its colour */
  for (int c = 1; c <= cg->ncycles; c++) {
    const Sym *cyc = &cg->cycles[c];
    int any = 0;
    for (const Sym *m = cyc->cyc_next; m && !any; m = m->cyc_next) any = drawn(&D, m);
    if (!any) continue;
    char col[16] = "#808080";
    double pen = 1;
    if (drawn(&D, cyc)) colour(sym_weight(&D, cyc), col, sizeof col, &pen);
    fprintf(f, "  subgraph cluster_cycle%d {\n    style=dashed; color=\"%s\"; fontcolor=\"%s\"; fontsize=10; labeljust=l; "
            "penwidth=%.2f;\n    label=\"<cycle %d as a whole> [%d]", c, col, col, pen, c, cyc->index);
    figures(&D, cyc, "\\l");   /* left-justified: edges come in at the middle */
    fputs("\\l\";\n", f);
    for (const Sym *m = cyc->cyc_next; m; m = m->cyc_next)
      if (drawn(&D, m)) {
        fputs("  ", f);
        node(&D, m);
      }
    fputs("  }\n", f);
  }
  for (size_t i = 0; i < cg->norder; i++) {
    const Sym *s = cg->order[i];
    if (s->is_cycle ? cycle_node(&D, s->cycle_num) : drawn(&D, s) && !s->cycle_num) node(&D, s);
  }
  edges(&D, ev, ne);
  fputs("}\n", f);
  free(ev);
  free(D.shown);
  free(D.cycle_node);
}
