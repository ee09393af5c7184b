/* cg_arcs.c -- the arc table, cycles and time propagation. */
#include <stdlib.h>
#include <string.h>
#include "cg_arcs.h"
#include "cg_dfn.h"
#include "symtab.h"
#include "sym_ids.h"

Sym *cycle_syms;
int num_cycles;
size_t num_arcs;
Arc **arcs_in_order;

static Arc **table;
static size_t table_size;        /* a power of two */
static size_t arcs_cap;

static size_t hash_pair(const Sym *p, const Sym *c)
{
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(uintptr_t)c + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return (size_t)(h ^ (h >> 31));
}

static void grow(void)
{
  size_t n = table_size ? table_size * 2 : 1024;
  Arc **t = xcalloc(n, sizeof *t);
  for (size_t i = 0; i < num_arcs; i++) {
    Arc *a = arcs_in_order[i];
    size_t k = hash_pair(a->parent, a->child) & (n - 1);
    a->hash_next = t[k];
    t[k] = a;
  }
  free(table);
  table = t;
  table_size = n;
}

/* Arcs come from chunks: fewer allocations, and neighbours in memory. */
static Arc *new_arc(void)
{
  static Arc *chunk;
  static size_t left;
  if (!left) {
    left = 4096;
    chunk = xcalloc(left, sizeof *chunk);
  }
  left--;
  return chunk++;
}

Arc *arc_lookup(Sym *parent, Sym *child)
{
  if (!table_size) return NULL;
  for (Arc *a = table[hash_pair(parent, child) & (table_size - 1)]; a; a = a->hash_next)
    if (a->parent == parent && a->child == child) return a;
  return NULL;
}

void arc_add(Sym *parent, Sym *child, uint64_t count)
{
  Arc *a = arc_lookup(parent, child);
  if (a) {
    a->count += count;
  } else {
    if (num_arcs + 1 > table_size / 2) grow();
    a = new_arc();
    a->parent = parent;
    a->child = child;
    a->count = count;
    size_t k = hash_pair(parent, child) & (table_size - 1);
    a->hash_next = table[k];
    table[k] = a;
    a->next_child = parent->children;
    parent->children = a;
    a->next_parent = child->parents;
    child->parents = a;
    if (num_arcs == arcs_cap) {
      arcs_cap = arcs_cap ? arcs_cap * 2 : 1024;
      arcs_in_order = xrealloc(arcs_in_order, arcs_cap * sizeof *arcs_in_order);
    }
    arcs_in_order[num_arcs++] = a;
  }
  if (parent == child) child->self_calls += count;
  else child->ncalls += count;
  DBG(DBG_TALLY, "tally: %s -> %s +%llu: arc %llu, %s called %llu (+%llu self)\n",
      parent->name, child->name, (unsigned long long)count, (unsigned long long)a->count,
      child->name, (unsigned long long)child->ncalls, (unsigned long long)child->self_calls);
}

/* Gives every cycle of two or more members a number, in the address order
   of the cycles' heads, and a Sym standing for the cycle as a whole. */
static void cycle_link(void)
{
  size_t i;
  num_cycles = 0;
  for (i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    if (cg_dfn_head(s) == s && s->cyc_next) num_cycles++;
  }
  cycle_syms = xcalloc((size_t)num_cycles + 1, sizeof(Sym));
  int n = 0;
  for (i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    if (cg_dfn_head(s) != s || !s->cyc_next) continue;
    Sym *cyc = &cycle_syms[++n];
    cyc->is_cycle = 1;
    cyc->cycle_num = n;
    cyc->name = "";
    cyc->cyc_head = cyc;
    cyc->cyc_next = s;
    cyc->top_order = s->top_order;
    DBG(DBG_CYCLE, "cycle %d: head %s, members", n, s->name);
    for (Sym *m = s; m; m = m->cyc_next) {
      m->cycle_num = n;
      m->cyc_head = cyc;
      DBG(DBG_CYCLE, " %s", m->name);
    }
    DBG(DBG_CYCLE, "\n");
  }
  /* calls into each cycle from outside, and among its members */
  for (int c = 1; c <= num_cycles; c++) {
    Sym *cyc = &cycle_syms[c];
    for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
      for (Arc *a = m->parents; a; a = a->next_parent) {
        if (a->parent == a->child) continue;   /* GNU leaves self calls out */
        if (a->parent->cycle_num == c) cyc->self_calls += a->count;
        else cyc->ncalls += a->count;
      }
  }
}

static int cmp_top(const void *a, const void *b)
{
  const Sym *x = *(Sym *const *)a, *y = *(Sym *const *)b;
  return (x->top_order > y->top_order) - (x->top_order < y->top_order);
}

/* What a symbol (or, for a cycle member, its whole cycle) inherits from
   its callers: printed if any caller is, and the share of its time that
   reaches callers, weighted by the calls each caller made.  Callers inside
   the same cycle do not count. */
static void inherit_flags(Sym *child)
{
  if (!child->cycle_num) {
    child->print_flag = 0;
    child->prop_fract = 0.0;
    for (Arc *a = child->parents; a; a = a->next_parent) {
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
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    for (Arc *a = m->parents; a; a = a->next_parent) {
      Sym *p = a->parent;
      if (p->cycle_num == cyc->cycle_num) continue;
      cyc->print_flag |= p->print_flag;
      if (cyc->ncalls)
        cyc->prop_fract += p->prop_fract * ((double)a->count / (double)cyc->ncalls);
    }
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next) {
    m->print_flag = cyc->print_flag;
    m->prop_fract = cyc->prop_fract;
  }
}

/* Parents before children: inherit, then let the symbol specifications
   (and GNU's default exclusions) have the last word for each symbol. */
static void propagate_flags(Sym **top, size_t n)
{
  Sym *old_head = NULL;
  for (size_t k = n; k-- > 0;) {
    Sym *s = top[k];
    Sym *head = s->cycle_num ? s->cyc_head : s;
    if (head != old_head) {
      old_head = head;
      inherit_flags(s);
    }
    sym_id_flags(s);
  }
}

static void propagate_time(Sym *parent)
{
  /* a function that passes no time on collects none either (GNU: its
     flat-profile total then shows only its own time) */
  if (parent->prop_fract == 0.0) return;
  for (Arc *a = parent->children; a; a = a->next_child) {
    Sym *child = a->child;
    if (a->count == 0 || child == parent || child->prop_fract == 0.0) continue;
    if (child->cycle_num) {
      if (parent->cycle_num == child->cycle_num) continue;
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
    DBG(DBG_PROP, "propagate: %s -> %s: %llu/%llu calls, self %g + children %g, "
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
static int cmp_total(const void *a, const void *b)
{
  const Sym *x = *(Sym *const *)a, *y = *(Sym *const *)b;
  double tx = x->prop_self + x->prop_child, ty = y->prop_self + y->prop_child;
  if (tx > ty) return -1;
  if (tx < ty) return 1;
  if (x->is_cycle != y->is_cycle) return x->is_cycle ? -1 : 1;
  if (x->is_cycle) return x->cycle_num - y->cycle_num;
  int ux = x->name[0] == '_', uy = y->name[0] == '_';
  if (ux != uy) return ux - uy;
  if (x->ncalls > y->ncalls) return -1;
  if (x->ncalls < y->ncalls) return 1;
  return strcmp(x->name, y->name);
}

Sym **cg_assemble(size_t *nout)
{
  size_t i, n = symtab.len;
  for (i = 0; i < n; i++) {
    Sym *s = &symtab.base[i];
    s->uf = s;
    s->cyc_tail = s;
    s->cyc_next = NULL;
    s->cyc_head = s;
    s->top_order = 0;
    s->dfn_pos = 0;
    s->cycle_num = 0;
  }
  cg_dfn_reset();
  for (i = 0; i < n; i++) cg_dfn(&symtab.base[i]);
  cycle_link();

  Sym **top = xmalloc((n + 1) * sizeof *top);
  for (i = 0; i < n; i++) top[i] = &symtab.base[i];
  qsort(top, n, sizeof *top, cmp_top);

  propagate_flags(top, n);
  for (i = 0; i < n; i++) {
    Sym *s = &symtab.base[i];
    s->prop_self = s->hist_time * s->prop_fract;
    s->child_time = 0;
    s->prop_child = 0;
  }
  /* A cycle's time, which its callers' arcs share, is the samples of the
     members that pass time on; its own printed share is that times the
     cycle's fraction.  (Measured: see doc/DESIGN.md.) */
  for (int c = 1; c <= num_cycles; c++) {
    Sym *cyc = &cycle_syms[c];
    for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
      if (m->prop_fract != 0.0) cyc->hist_time += m->hist_time;
    cyc->prop_self = cyc->hist_time * cyc->prop_fract;
  }
  for (i = 0; i < n; i++) propagate_time(top[i]);
  free(top);

  Sym **v = xmalloc((n + (size_t)num_cycles + 1) * sizeof *v);
  size_t k = 0;
  for (int c = 1; c <= num_cycles; c++) v[k++] = &cycle_syms[c];
  for (i = 0; i < n; i++) v[k++] = &symtab.base[i];
  qsort(v, k, sizeof *v, cmp_total);
  /* index numbers follow print order, printed or not */
  for (i = 0; i < k; i++) v[i]->index = (int)i + 1;
  *nout = k;
  return v;
}
