/* analysis/propagate.h -- the analysis of a filled call graph.
 *
 * cg_assemble numbers the graph depth-first (cg_dfn.c), makes a Sym for
 * each cycle of two or more functions (CallGraph.cycles), decides from
 * the callers and the symspec bits which symbols are printed and how much
 * of their time reaches their callers, propagates time from children to
 * parents along the arcs (Arc.time, Arc.child_time, Sym.prop_self,
 * Sym.prop_child), and leaves in CallGraph.order the symbols and cycles in
 * print order, each with its index.  The rules are GNU 2.40's as measured
 * (doc/DESIGN.md). */
#ifndef CG_ANALYZE_H
#define CG_ANALYZE_H
#include "cg_arcs.h"
void cg_assemble(CallGraph *cg, SymTab *tab);
#endif
