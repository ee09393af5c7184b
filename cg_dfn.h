/* cg_dfn.h -- depth-first numbering of the call graph.
 * Numbers every symbol so that children get lower numbers than parents;
 * members of a cycle share one number and are linked through cyc_next from
 * the cycle's head (the member first reached by the search), in the order
 * GNU gprof links them.  Runs in time linear in symbols plus arcs.  The
 * search's stack lives in a Dfn, one per numbering of a graph; symbols
 * must start with uf = cyc_tail = cyc_head = self and top_order, dfn_pos,
 * cyc_next zero. */
#ifndef CG_DFN_H
#define CG_DFN_H
#include "cg_arcs.h"

typedef struct {
  Sym **stack;                  /* stack[1..depth] */
  long *segs;                   /* bottoms of the stack's segments */
  long depth, nsegs, cap;
  int counter;                  /* the last number given */
} Dfn;

void cg_dfn_init(Dfn *d);
void cg_dfn(Dfn *d, Sym *root);
void cg_dfn_free(Dfn *d);
Sym *cg_dfn_head(Sym *s);        /* the head of S's cycle (S if none) */
#endif
