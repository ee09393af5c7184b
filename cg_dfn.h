/* cg_dfn.h -- depth-first numbering of the call graph.
 * Numbers every symbol so that children get lower numbers than parents;
 * members of a cycle share one number and are linked through cyc_next from
 * the cycle's head (the member first reached by the search), in the order
 * GNU gprof links them.  Runs in time linear in symbols plus arcs.
 *
 * Use: cg_dfn_init over the symbol table BASE[0..N) and its settled call
 * graph (cg_arcs_settle: runs, kid_num, foreign), cg_dfn from each root,
 * then cg_dfn_settle, which writes the results into the symbols (top_order;
 * uf pointing at the cycle's head; cyc_next, cyc_tail); until cg_dfn_free,
 * cg_dfn_next gives a member's successor from the search's own arrays (as
 * cyc_next does, without reading the symbol).  The search keeps its state
 * in the Dfn, not in the symbols; arc ends outside the table take part
 * too; every symbol's cyc_head is left alone. */
#ifndef CG_DFN_H
#define CG_DFN_H
#include <stdint.h>
#include "cg_arcs.h"

typedef struct {                /* a node's search state (cg_dfn.c): what */
  int32_t top;                  /* an arc to it reads: depth-first number, */
  int32_t pos;                  /* 0 none, -1 busy; stack position while on */
  int32_t uf;                   /* it; union-find link towards its head; */
  int32_t next;                 /* next cycle member (-1 none) */
} DfnHot;

typedef struct {                /* and what only its own visit reads */
  int32_t tail;                 /* last cycle member, valid on a head */
  uint32_t next_arc;            /* index of the next callee to visit */
  uint32_t kid0, nkid;          /* its callees: kid_num[kid0 .. kid0 + nkid) */
} DfnNode;

typedef struct {
  const CallGraph *cg;          /* nodes n..: cg->foreign */
  Sym *base;                    /* nodes 0..n-1: the table */
  size_t n;
  DfnHot *hot;
  DfnNode *st;
  int32_t *stack;               /* stack[1..depth]: nodes */
  long *segs;                   /* bottoms of the stack's segments */
  long depth, nsegs, cap;
  int counter;                  /* the last number given */
} Dfn;

void cg_dfn_init(Dfn *d, const CallGraph *cg, Sym *base, size_t n);
void cg_dfn(Dfn *d, Sym *root);
void cg_dfn_settle(Dfn *d);
Sym *cg_dfn_next(const Dfn *d, Sym *m);
void cg_dfn_free(Dfn *d);
Sym *cg_dfn_head(Sym *s);        /* the head of S's cycle (S if none) */
#endif
