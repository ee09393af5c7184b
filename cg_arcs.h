/* cg_arcs.h -- the arc table and call-graph analysis.
 * Arcs are hashed on (parent, child); each is on its parent's children list
 * and its child's parents list, newest first, as GNU keeps them.
 * cg_assemble numbers the graph depth-first (cg_dfn.c), builds the cycles,
 * propagates time from children to parents and returns the symbols and
 * cycles in call-graph print order. */
#ifndef CG_ARCS_H
#define CG_ARCS_H
#include "gprof.h"

extern Sym *cycle_syms;          /* cycle_syms[1..num_cycles] */
extern int num_cycles;
extern size_t num_arcs;
extern Arc **arcs_in_order;      /* every arc, in insertion order */

Arc *arc_lookup(Sym *parent, Sym *child);
void arc_add(Sym *parent, Sym *child, uint64_t count);
Sym **cg_assemble(size_t *n);
#endif
