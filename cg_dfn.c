/* cg_dfn.c -- depth-first numbering and cycle discovery.
 *
 * The classic gprof search pushes each symbol on a stack, marks it busy,
 * visits its children (newest arc first) and, when it meets a busy symbol,
 * glues every stack entry above that symbol's position into one cycle,
 * appending each glued entry's member list to the head's list.  A symbol is
 * numbered when it leaves the stack if it heads its cycle (with all its
 * members); other members stay busy until their head is numbered.
 *
 * Done naively that costs a stack walk per back edge.  Here the stack is
 * kept as segments (contiguous runs of one cycle: merges always cover a
 * top-of-stack run, so a cycle's entries are contiguous with its head at
 * the bottom), heads are found by union-find, and member lists carry tail
 * pointers: each merge pops segments once, so the whole search is linear,
 * yet heads, member order and numbers are exactly those of the naive one.
 *
 * The search reads neither symbols nor arcs in its inner loop: callees come
 * as numbers (CallGraph.kid_num: a table symbol's position, arc ends
 * outside the table after them), state is kept in dense arrays by number.
 * Most arcs of a big graph lead to a symbol already seen, and reading the
 * arc and then the callee's state from a 256-byte Sym, in random order,
 * cost two to four cache misses per arc; arrays of a few bytes per symbol
 * mostly stay in the cache. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "cg_dfn.h"

#define DFN_BUSY (-1)

void cg_dfn_init(Dfn *d, const CallGraph *cg, Sym *base, size_t n)
{
  memset(d, 0, sizeof *d);
  d->cg = cg;
  d->base = base;
  d->n = n;
  size_t nodes = n + cg->nforeign;
  d->st = xmalloc((nodes + 1) * sizeof *d->st);
  d->hot = xmalloc((nodes + 1) * sizeof *d->hot);
  for (size_t i = 0; i < nodes; i++) {
    d->hot[i] = (DfnHot){ 0, 0, (int32_t)i, -1 };
    d->st[i] = (DfnNode){ (int32_t)i, 0, 0, 0 };
  }
}

/* S's node number when S is in the table, else -1. */
static int32_t table_node(const Dfn *d, const Sym *s)
{
  uintptr_t off = (uintptr_t)s - (uintptr_t)d->base;
  return off < d->n * sizeof(Sym) ? (int32_t)(off / sizeof(Sym)) : -1;
}

static Sym *sym_of(const Dfn *d, int32_t i)
{
  return (size_t)i < d->n ? &d->base[i] : d->cg->foreign[(size_t)i - d->n];
}

static int32_t head_of(Dfn *d, int32_t i)
{
  int32_t r = i;
  while (d->hot[r].uf != r) r = d->hot[r].uf;
  while (d->hot[i].uf != r) { int32_t nx = d->hot[i].uf; d->hot[i].uf = r; i = nx; }
  return r;
}

static void push(Dfn *d, int32_t i)
{
  if (d->depth + 2 > d->cap) {
    d->cap = d->cap ? d->cap * 2 : 1024;
    d->stack = xrealloc(d->stack, (size_t)d->cap * sizeof *d->stack);
    d->segs = xrealloc(d->segs, (size_t)d->cap * sizeof *d->segs);
  }
  d->stack[++d->depth] = i;
  DfnNode *e = &d->st[i];
  const Sym *s = sym_of(d, i);
  d->hot[i].pos = (int32_t)d->depth;
  e->next_arc = 0;
  e->kid0 = s->nchildren ? (uint32_t)(s->children - d->cg->lists) : 0;
  e->nkid = s->nchildren;
  d->hot[i].top = DFN_BUSY;
  /* the callees' states will be read next */
  const uint32_t *kn = d->cg->kid_num + e->kid0;
  for (unsigned k = 0; k < e->nkid && k < 16; k++) __builtin_prefetch(&d->hot[kn[k]]);
  d->segs[d->nsegs++] = d->depth;
  DBG(d->cg->debug, DBG_DFN, "dfn: enter %s at depth %ld\n", s->name, d->depth);
}

static void find_cycle(Dfn *d, int32_t c)
{
  long top;
  if (d->hot[c].pos > 0 && d->stack[d->hot[c].pos] == c)
    top = d->hot[c].pos;
  else
    top = d->hot[head_of(d, c)].pos;
  if (top <= 0 || top > d->depth || top == d->depth) return;
  int32_t head = head_of(d, d->stack[top]);
  DBG(d->cg->debug, DBG_CYCLE, "dfn: back arc to %s closes a cycle headed by %s\n",
      sym_of(d, c)->name, sym_of(d, head)->name);
  long first = d->nsegs;
  while (first > 0 && d->segs[first - 1] > top) first--;
  for (long k = first; k < d->nsegs; k++) {
    int32_t h = d->stack[d->segs[k]];   /* bottom of a segment heads its cycle */
    d->hot[d->st[head].tail].next = h;
    d->st[head].tail = d->st[h].tail;
    d->hot[h].uf = head;
  }
  d->nsegs = first;
}

static void post_visit(Dfn *d, int32_t i)
{
  if (head_of(d, i) == i) {
    ++d->counter;
    for (int32_t m = i; m >= 0; m = d->hot[m].next) d->hot[m].top = d->counter;
    DBG(d->cg->debug, DBG_DFN, "dfn: number %s (and its cycle) %d\n", sym_of(d, i)->name,
        d->counter);
  }
  if (d->nsegs > 0 && d->segs[d->nsegs - 1] == d->depth) d->nsegs--;
  d->hot[i].pos = 0;
  d->depth--;
}

void cg_dfn(Dfn *d, Sym *root)
{
  int32_t r = table_node(d, root);
  if (r < 0 || d->hot[r].top != 0) return;
  push(d, r);
  while (d->depth > 0) {
    int32_t i = d->stack[d->depth];
    DfnNode *e = &d->st[i];
    uint32_t j = e->next_arc;
    if (j == e->nkid) { post_visit(d, i); continue; }
    const uint32_t *kn = d->cg->kid_num + e->kid0;
    /* read ahead: back from a deep search, the callees' states have left
       the cache */
    if (j + 4 < e->nkid) __builtin_prefetch(&d->hot[kn[j + 4]]);
    e->next_arc = j + 1;
    int32_t c = (int32_t)kn[j];
    if (d->hot[c].top > 0) continue;
    if (d->hot[c].top == DFN_BUSY) { find_cycle(d, c); continue; }
    push(d, c);
  }
}

void cg_dfn_settle(Dfn *d)
{
  size_t nodes = d->n + d->cg->nforeign;
  for (size_t k = 0; k < nodes; k++) {
    int32_t i = (int32_t)k;
    Sym *s = sym_of(d, i);
    const DfnNode *e = &d->st[i];
    s->top_order = d->hot[i].top;
    s->uf = sym_of(d, head_of(d, i));
    s->cyc_next = d->hot[i].next >= 0 ? sym_of(d, d->hot[i].next) : NULL;
    s->cyc_tail = sym_of(d, e->tail);
  }
}

Sym *cg_dfn_next(const Dfn *d, Sym *m)
{
  int32_t t = table_node(d, m);
  if (t < 0) return m->cyc_next;
  return d->hot[t].next >= 0 ? sym_of(d, d->hot[t].next) : NULL;
}

void cg_dfn_free(Dfn *d)
{
  free(d->stack);
  free(d->segs);
  free(d->st);
  free(d->hot);
  memset(d, 0, sizeof *d);
}

Sym *cg_dfn_head(Sym *s)
{
  Sym *r = s;
  while (r->uf != r) r = r->uf;
  while (s->uf != r) { Sym *n = s->uf; s->uf = r; s = n; }
  return r;
}
