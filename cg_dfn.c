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
#include "cg_dfn.h"

#define DFN_BUSY (-1)

static Sym **stack;              /* stack[1..depth] */
static long *segs;               /* bottoms of the stack's segments */
static long depth, nsegs, cap;
static int dfn_counter;

void cg_dfn_reset(void)
{
  depth = nsegs = 0;
  dfn_counter = 0;
}

Sym *cg_dfn_head(Sym *s)
{
  Sym *r = s;
  while (r->uf != r) r = r->uf;
  while (s->uf != r) { Sym *n = s->uf; s->uf = r; s = n; }
  return r;
}

static void push(Sym *s)
{
  if (depth + 2 > cap) {
    cap = cap ? cap * 2 : 1024;
    stack = xrealloc(stack, (size_t)cap * sizeof *stack);
    segs = xrealloc(segs, (size_t)cap * sizeof *segs);
  }
  stack[++depth] = s;
  s->dfn_pos = depth;
  s->top_order = DFN_BUSY;
  s->dfn_next = s->children;
  segs[nsegs++] = depth;
  DBG(DBG_DFN, "dfn: enter %s at depth %ld\n", s->name, depth);
}

static void find_cycle(Sym *child)
{
  long top;
  if (child->dfn_pos > 0 && stack[child->dfn_pos] == child)
    top = child->dfn_pos;
  else
    top = cg_dfn_head(child)->dfn_pos;
  if (top <= 0 || top > depth || top == depth) return;
  Sym *head = cg_dfn_head(stack[top]);
  DBG(DBG_CYCLE, "dfn: back arc to %s closes a cycle headed by %s\n", child->name, head->name);
  long first = nsegs;
  while (first > 0 && segs[first - 1] > top) first--;
  for (long k = first; k < nsegs; k++) {
    Sym *h = stack[segs[k]];    /* bottom of a segment heads its cycle */
    head->cyc_tail->cyc_next = h;
    head->cyc_tail = h->cyc_tail;
    h->uf = head;
  }
  nsegs = first;
}

static void post_visit(Sym *s)
{
  if (cg_dfn_head(s) == s) {
    ++dfn_counter;
    for (Sym *m = s; m; m = m->cyc_next) m->top_order = dfn_counter;
    DBG(DBG_DFN, "dfn: number %s (and its cycle) %d\n", s->name, dfn_counter);
  }
  if (nsegs > 0 && segs[nsegs - 1] == depth) nsegs--;
  s->dfn_pos = 0;
  depth--;
}

void cg_dfn(Sym *root)
{
  if (root->top_order != 0) return;
  push(root);
  while (depth > 0) {
    Sym *s = stack[depth];
    Arc *a = s->dfn_next;
    if (!a) { post_visit(s); continue; }
    s->dfn_next = a->next_child;
    Sym *c = a->child;
    if (c->top_order > 0) continue;
    if (c->top_order == DFN_BUSY) { find_cycle(c); continue; }
    push(c);
  }
}
