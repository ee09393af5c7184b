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
 * yet heads, member order and numbers are exactly those of the naive one. */
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "cg_dfn.h"

#define DFN_BUSY (-1)

void cg_dfn_init(Dfn *d)
{
  memset(d, 0, sizeof *d);
}

void cg_dfn_free(Dfn *d)
{
  free(d->stack);
  free(d->segs);
  memset(d, 0, sizeof *d);
}

Sym *cg_dfn_head(Sym *s)
{
  Sym *r = s;
  while (r->uf != r) r = r->uf;
  while (s->uf != r) { Sym *n = s->uf; s->uf = r; s = n; }
  return r;
}

static void push(Dfn *d, Sym *s)
{
  if (d->depth + 2 > d->cap) {
    d->cap = d->cap ? d->cap * 2 : 1024;
    d->stack = xrealloc(d->stack, (size_t)d->cap * sizeof *d->stack);
    d->segs = xrealloc(d->segs, (size_t)d->cap * sizeof *d->segs);
  }
  d->stack[++d->depth] = s;
  s->dfn_pos = d->depth;
  s->top_order = DFN_BUSY;
  s->dfn_next = 0;
  /* its arcs will be read next, and they lie anywhere on big graphs */
  for (unsigned k = 0; k < s->nchildren && k < 16; k++) __builtin_prefetch(s->children[k]);
  d->segs[d->nsegs++] = d->depth;
  DBG(DBG_DFN, "dfn: enter %s at depth %ld\n", s->name, d->depth);
}

static void find_cycle(Dfn *d, Sym *child)
{
  long top;
  if (child->dfn_pos > 0 && d->stack[child->dfn_pos] == child)
    top = child->dfn_pos;
  else
    top = cg_dfn_head(child)->dfn_pos;
  if (top <= 0 || top > d->depth || top == d->depth) return;
  Sym *head = cg_dfn_head(d->stack[top]);
  DBG(DBG_CYCLE, "dfn: back arc to %s closes a cycle headed by %s\n", child->name, head->name);
  long first = d->nsegs;
  while (first > 0 && d->segs[first - 1] > top) first--;
  for (long k = first; k < d->nsegs; k++) {
    Sym *h = d->stack[d->segs[k]];    /* bottom of a segment heads its cycle */
    head->cyc_tail->cyc_next = h;
    head->cyc_tail = h->cyc_tail;
    h->uf = head;
  }
  d->nsegs = first;
}

static void post_visit(Dfn *d, Sym *s)
{
  if (cg_dfn_head(s) == s) {
    ++d->counter;
    for (Sym *m = s; m; m = m->cyc_next) m->top_order = d->counter;
    DBG(DBG_DFN, "dfn: number %s (and its cycle) %d\n", s->name, d->counter);
  }
  if (d->nsegs > 0 && d->segs[d->nsegs - 1] == d->depth) d->nsegs--;
  s->dfn_pos = 0;
  d->depth--;
}

void cg_dfn(Dfn *d, Sym *root)
{
  if (root->top_order != 0) return;
  push(d, root);
  while (d->depth > 0) {
    Sym *s = d->stack[d->depth];
    if (s->dfn_next == s->nchildren) { post_visit(d, s); continue; }
    if (s->dfn_next + 1 < s->nchildren) __builtin_prefetch(s->children[s->dfn_next + 1]->child);
    Sym *c = s->children[s->dfn_next++]->child;
    if (c->top_order > 0) continue;
    if (c->top_order == DFN_BUSY) { find_cycle(d, c); continue; }
    push(d, c);
  }
}
