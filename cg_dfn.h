/* cg_dfn.h -- depth-first numbering of the call graph.
 * Numbers every symbol so that children get lower numbers than parents;
 * members of a cycle share one number and are linked through cyc_next from
 * the cycle's head (the member first reached by the search), in the order
 * GNU gprof links them.  Runs in time linear in symbols plus arcs. */
#ifndef CG_DFN_H
#define CG_DFN_H
#include "gprof.h"
void cg_dfn_reset(void);          /* before numbering a new graph */
void cg_dfn(Sym *root);
Sym *cg_dfn_head(Sym *s);        /* the head of S's cycle (S if none) */
#endif
