/* analysis/propagate.c -- the call-graph analysis: depth-first numbering (cg_dfn.c),
 * cycles, which symbols are printed and pass time on, time propagation
 * from children to parents, and the print order. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "analysis/propagate.h"
#include "cg_dfn.h"
#include "sym_ids.h"

/* Ranks every arc for the analysis and the printers (Arc.rank): 0 a
   self call, 1 within one cycle, 2 any other; counts the cycles' calls.  One pass in the arcs'
   memory order, reading ahead: the walks that follow skip the arcs that
   pass no time without reading their ends, which on big graphs are cache
   misses in an order that cannot be read ahead as well. */
static void rank_arcs(CallGraph *cg)
{
  size_t n = cg->narcs;
  for (size_t i = 0; i < n; i++) {
    if (i + 16 < n) __builtin_prefetch(cg_arc(cg, i + 16));
    if (i + 8 < n) {
      const Arc *b = cg_arc(cg, i + 8);
      __builtin_prefetch(b->parent);
      __builtin_prefetch(b->child);
    }
    Arc *a = cg_arc(cg, i);
    const Sym *p = a->parent, *c = a->child;
    a->rank = p == c ? 0 : p->cycle_num && p->cycle_num == c->cycle_num ? 1 : 2;
    /* and the calls into each cycle from outside and among its members
       (self calls left out, as GNU does); integer sums, so in any order */
    if (c->cycle_num > 0 && c->cycle_num <= cg->ncycles && a->rank) {
      Sym *cyc = &cg->cycles[c->cycle_num];
      if (a->rank == 1) cyc->self_calls += a->count;
      else cyc->ncalls += a->count;
    }
  }
}

/* Gives every cycle of two or more members a number, in the address order
   of the cycles' heads, and a Sym standing for the cycle as a whole. */
static void cycle_link(CallGraph *cg, SymTab *tab, const Dfn *dfn)
{
  size_t i;
  int ncycles = 0;
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (cg_dfn_head(s) == s && s->cyc_next) ncycles++;
  }
  cg->ncycles = ncycles;
  cg->cycles = xcalloc((size_t)ncycles + 1, sizeof(Sym));
  cg->member_start = xmalloc(((size_t)ncycles + 2) * sizeof *cg->member_start);
  /* the members also as arrays, so walks over them can read ahead (the
     cyc_next chain can only be followed one miss at a time); a symbol is
     in one cycle at most */
  cg->members = xmalloc((tab->len + 1) * sizeof *cg->members);
  size_t nm = 0;
  int n = 0;
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (cg_dfn_head(s) != s || !s->cyc_next) continue;
    Sym *cyc = &cg->cycles[++n];
    cyc->is_cycle = 1;
    cyc->cycle_num = n;
    cyc->name = "";
    cyc->cyc_head = cyc;
    cyc->cyc_next = s;
    cyc->top_order = s->top_order;
    cg->member_start[n] = nm;
    DBG(cg->debug, DBG_CYCLE, "cycle %d: head %s, members", n, s->name);
    for (Sym *m = s; m; m = cg_dfn_next(dfn, m)) {   /* not the chain: no misses */
      m->cycle_num = n;
      m->cyc_head = cyc;
      cg->members[nm++] = m;
      DBG(cg->debug, DBG_CYCLE, " %s", m->name);
    }
    DBG(cg->debug, DBG_CYCLE, "\n");
  }
  cg->member_start[ncycles + 1] = nm;
  rank_arcs(cg);
}

/* What a symbol (or, for a cycle member, its whole cycle) inherits from
   its callers: printed if any caller is, and the share of its time that
   reaches callers, weighted by the calls each caller made.  Callers inside
   the same cycle do not count. */
static void inherit_flags(const CallGraph *cg, Sym *child)
{
  if (!child->cycle_num) {
    child->print_flag = 0;
    child->prop_fract = 0.0;
    for (unsigned i = 0; i < child->nparents; i++) {
      const Arc *a = child->parents[i];
      Sym *p = a->parent;
      if (p == child) continue;
      child->print_flag |= p->print_flag;
      if (child->ncalls)
        child->prop_fract += p->prop_fract * ((double)a->count / (double)child->ncalls);
    }
    return;
  }
  Sym *cyc = child->cyc_head;
  cyc->print_flag = 0;
  cyc->prop_fract = 0.0;
  Sym **mem = cg->members + cg->member_start[cyc->cycle_num];
  size_t len = cg->member_start[cyc->cycle_num + 1] - cg->member_start[cyc->cycle_num];
  for (size_t j = 0; j < len; j++) {
    const Sym *m = mem[j];
    cg_walk_prefetch(mem, len, j, 1, 1);
    for (unsigned i = 0; i < m->nparents; i++) {
      const Arc *a = m->parents[i];
      if (a->rank < 2) continue;        /* a caller in the cycle */
      Sym *p = a->parent;
      cyc->print_flag |= p->print_flag;
      if (cyc->ncalls)
        cyc->prop_fract += p->prop_fract * ((double)a->count / (double)cyc->ncalls);
    }
  }
  for (size_t j = 0; j < len; j++) {
    mem[j]->print_flag = cyc->print_flag;
    mem[j]->prop_fract = cyc->prop_fract;
  }
}

/* Parents before children: inherit, then let the symbol specifications
   (and GNU's default exclusions) have the last word for each symbol.
   The total that the call graph's percentages divide by is summed here,
   in this order, as GNU does (its -d1024 trace shows the running sum). */
static double propagate_flags(const CallGraph *cg, Sym **top, size_t n)
{
  Sym *old_head = NULL;
  double print_time = 0;
  for (size_t k = n; k-- > 0;) {
    Sym *s = top[k];
    cg_walk_prefetch(top, n, k, -1, 1);
    Sym *head = s->cycle_num ? s->cyc_head : s;
    if (head != old_head) {
      old_head = head;
      inherit_flags(cg, s);
    }
    sym_id_flags(s);
    s->prop_self = s->hist_time * s->prop_fract;
    print_time += s->prop_self;
    DBG(cg->debug, DBG_PROP, "flags: %s time %f propself %f print_time %f\n", s->name,
        s->hist_time, s->prop_self, print_time);
  }
  return print_time;
}

static void propagate_time(const CallGraph *cg, Sym *parent)
{
  /* a function that passes no time on collects none either (GNU: its
     flat-profile total then shows only its own time) */
  if (parent->prop_fract == 0.0) return;
  for (unsigned i = 0; i < parent->nchildren; i++) {
    Arc *a = parent->children[i];
    /* read ahead: arcs and symbols lie anywhere in big graphs */
    if (i + 8 < parent->nchildren) cg_prefetch_arc_rec(parent->children[i + 8]);
    if (i + 4 < parent->nchildren && parent->children[i + 4]->rank == 2)
      __builtin_prefetch(parent->children[i + 4]->child);
    /* a self call or one within a cycle passes nothing */
    if (a->rank < 2 || a->count == 0) continue;
    Sym *child = a->child;
    if (child->prop_fract == 0.0) continue;
    if (child->cycle_num) {
      if (parent->top_order <= child->top_order) continue;
      child = child->cyc_head;
    } else if (parent->top_order <= child->top_order) {
      continue;
    }
    if (child->ncalls == 0) continue;
    double ratio = (double)a->count / (double)child->ncalls;
    a->time = child->hist_time * ratio;
    a->child_time = child->child_time * ratio;
    double share = a->time + a->child_time;
    parent->child_time += share;
    double prop_share = parent->prop_fract * share;
    parent->prop_child += prop_share;
    a->time *= parent->prop_fract;
    a->child_time *= parent->prop_fract;
    DBG(cg->debug, DBG_PROP, "propagate: %s -> %s: %llu/%llu calls, self %g + children %g, "
        "parent passes %g\n", parent->name, child->is_cycle ? "<cycle>" : child->name,
        (unsigned long long)a->count, (unsigned long long)child->ncalls, a->time,
        a->child_time, parent->prop_fract);
    /* the cycle gathers its members' shares: whole for its callers' arcs,
       scaled for its printed children column */
    if (parent->cycle_num) {
      parent->cyc_head->child_time += share;
      parent->cyc_head->prop_child += prop_share;
    }
  }
}

/* Print order: most time first; among equals cycles before functions,
   names without a leading underscore before those with one, then more
   calls, then by linkage name. */
typedef struct {                /* what cmp_total reads of a symbol, */
  double t;                     /* copied: on big tables each symbol a */
  uint64_t calls;               /* comparison read would be a cache miss */
  const char *name;
  Sym *s;
  int cycle;                    /* cycle number of a cycle, else 0 */
  int under;                    /* the name starts with '_' */
  NamePrefix np;
} TotalKey;

static int cmp_total(const void *a, const void *b)
{
  const TotalKey *x = a, *y = b;
  if (x->t > y->t) return -1;
  if (x->t < y->t) return 1;
  if (!x->cycle != !y->cycle) return x->cycle ? -1 : 1;
  if (x->cycle) return x->cycle - y->cycle;
  if (x->under != y->under) return x->under - y->under;
  if (x->calls > y->calls) return -1;
  if (x->calls < y->calls) return 1;
  return name_cmp(x->np, x->name, y->np, y->name);
}

/* DESIGN's invariants of the assembled graph (a -DGPROF_CHECKS build):
   every symbol's children and parents runs hold its own arcs; an arc's
   rank is 0 for a self call, 1 within one cycle, 2 otherwise; cycle
   members' arrays hold the cycle's members; index numbers are the print
   order, 1-based. */
static void check_graph(const CallGraph *cg, const SymTab *tab)
{
#ifdef GPROF_CHECKS
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    for (unsigned j = 0; j < s->nchildren; j++) {
      const Arc *a = s->children[j];
      INVARIANT(a->parent == s);
      INVARIANT(a->rank == (a->parent == a->child ? 0
                            : s->cycle_num && s->cycle_num == a->child->cycle_num ? 1 : 2));
    }
    for (unsigned j = 0; j < s->nparents; j++) INVARIANT(s->parents[j]->child == s);
  }
  for (int c = 1; c <= cg->ncycles; c++) {
    INVARIANT(cg->cycles[c].is_cycle);
    for (size_t j = cg->member_start[c]; j < cg->member_start[c + 1]; j++)
      INVARIANT(cg->members[j]->cycle_num == c);
  }
  for (size_t i = 0; i < cg->norder; i++) INVARIANT(cg->order[i]->index == (int)i + 1);
#else
  (void)cg; (void)tab;
#endif
}

void cg_assemble(CallGraph *cg, SymTab *tab)
{
  size_t i, n = tab->len;
  cg_arcs_settle(cg, tab);
  for (i = 0; i < n; i++) {
    Sym *s = &tab->base[i];
    s->cyc_head = s;
    s->cycle_num = 0;
  }
  Dfn dfn;
  cg_dfn_init(&dfn, cg, tab->base, n);
  for (i = 0; i < n; i++) cg_dfn(&dfn, &tab->base[i]);
  cg_dfn_settle(&dfn);
  cycle_link(cg, tab, &dfn);
  cg_dfn_free(&dfn);
  free(cg->kid_num);            /* the walk's only */
  cg->kid_num = NULL;

  /* by top_order, equal ones in address order: what glibc's (stable)
     qsort with cmp_top gives, by counting */
  Sym **top = xmalloc((n + 1) * sizeof *top);
  {
    int lo = 0, hi = 0;
    for (i = 0; i < n; i++) {
      int t = tab->base[i].top_order;
      if (!i || t < lo) lo = t;
      if (!i || t > hi) hi = t;
    }
    size_t *at = xcalloc((size_t)(hi - lo) + 2, sizeof *at);
    for (i = 0; i < n; i++) at[tab->base[i].top_order - lo + 1]++;
    for (size_t k = 1; k < (size_t)(hi - lo) + 2; k++) at[k] += at[k - 1];
    for (i = 0; i < n; i++) top[at[tab->base[i].top_order - lo]++] = &tab->base[i];
    free(at);
  }

  cg->print_time = propagate_flags(cg, top, n);
  for (i = 0; i < n; i++) {
    Sym *s = &tab->base[i];
    s->child_time = 0;
    s->prop_child = 0;
  }
  /* A cycle's time, which its callers' arcs share, is the samples of the
     members that pass time on; its own printed share is that times the
     cycle's fraction.  (Measured: see doc/DESIGN.md.) */
  for (int c = 1; c <= cg->ncycles; c++) {
    Sym *cyc = &cg->cycles[c];
    for (size_t j = cg->member_start[c]; j < cg->member_start[c + 1]; j++) {
      if (j + 8 < cg->member_start[c + 1]) __builtin_prefetch(cg->members[j + 8]);
      if (cg->members[j]->prop_fract != 0.0) cyc->hist_time += cg->members[j]->hist_time;
    }
    cyc->prop_self = cyc->hist_time * cyc->prop_fract;
  }
  for (i = 0; i < n; i++) {
    cg_walk_prefetch(top, n, i, 1, 0);
    propagate_time(cg, top[i]);
  }
  free(top);

  Sym **v = xmalloc((n + (size_t)cg->ncycles + 1) * sizeof *v);
  size_t k = 0;
  for (int c = 1; c <= cg->ncycles; c++) v[k++] = &cg->cycles[c];
  for (i = 0; i < n; i++) v[k++] = &tab->base[i];
  TotalKey *key = xmalloc((k + 1) * sizeof *key);
  for (i = 0; i < k; i++) {
    Sym *s = v[i];
    sym_prefetch_names(v, i, k);
    if (i + 8 < k) __builtin_prefetch(&v[i + 8]->prop_self);   /* the line holding the times */
    key[i] = (TotalKey){ s->prop_self + s->prop_child, s->ncalls, s->name, s,
                         s->is_cycle ? s->cycle_num : 0, !s->is_cycle && s->name[0] == '_',
                         name_prefix(s->name) };
  }
  qsort(key, k, sizeof *key, cmp_total);   /* glibc's is a stable merge sort */
  for (i = 0; i < k; i++) v[i] = key[i].s;
  free(key);
  /* index numbers follow print order, printed or not */
  for (i = 0; i < k; i++) v[i]->index = (int)i + 1;
  cg->order = v;
  cg->norder = k;
  check_graph(cg, tab);
}
