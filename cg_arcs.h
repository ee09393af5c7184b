/* cg_arcs.h -- the call graph's storage: the arc table.
 *
 * A CallGraph is filled by the profile readers (arc_add, through
 * call_graph.c) and, for -c, by the object's call finders; the analysis
 * (cg_analyze.h) then fills in its cycles and print order, and the
 * printers take it as it stands after that.
 *
 * Arcs are hashed on (parent, child); each is on its parent's children
 * list and its child's parents list, newest first, as GNU keeps them, and
 * in `in_order' in the order first added. */
#ifndef CG_ARCS_H
#define CG_ARCS_H
#include "symtab.h"

/* One arc of the dynamic call graph: parent called child COUNT times. */
typedef struct Arc Arc;
struct Arc {
  Sym *parent, *child;
  uint64_t count;
  double time;                  /* child's self time propagated to parent */
  double child_time;            /* child's descendants' time propagated */
  Arc *next_parent;             /* next arc in child->parents */
  Arc *next_child;              /* next arc in parent->children */
};

typedef struct {
  uint32_t *table;              /* open hash: 1 + place in in_order, 0 = free;
                                   size a power of two, at most half full */
  size_t table_size;
  Arc **in_order;               /* every arc, in the order first added */
  size_t narcs, cap;
  Arc *chunk;                   /* arcs are carved from chunks */
  size_t chunk_left;
  /* filled by cg_assemble (cg_analyze.c) */
  Sym *cycles;                  /* cycles[1..ncycles], each a whole cycle */
  int ncycles;
  Sym **order;                  /* symbols and cycles in print order */
  size_t norder;
  double print_time;            /* sum of prop_self, in GNU's order */
} CallGraph;

void cg_init(CallGraph *cg);
/* Frees everything CG holds and leaves it empty (fuzz targets reuse it). */
void cg_free(CallGraph *cg);
Arc *arc_lookup(const CallGraph *cg, const Sym *parent, const Sym *child);
/* Adds COUNT calls from PARENT to CHILD, making the arc if new, and counts
   them in CHILD's ncalls (or self_calls). */
Arc *arc_add(CallGraph *cg, Sym *parent, Sym *child, uint64_t count);
/* COUNT more calls along A, an arc arc_add returned (no look-up). */
void arc_add_again(Arc *a, uint64_t count);
/* Frees the lookup table once every arc is in (the analysis only walks
   the lists); a later arc_add or arc_lookup builds it again. */
void cg_arcs_settle(CallGraph *cg);
#endif
