/* call_graph.h -- arc records from profile files into the arc table. */
#ifndef CALL_GRAPH_H
#define CALL_GRAPH_H
#include "gprof.h"
/* Records an arc read from a file; addresses are looked up once the symbol
   table exists (it always does before profile files are read). */
void cg_read_arc(vma_t from_pc, vma_t self_pc, uint64_t count);
void cg_write_arcs(FILE *f);
#endif
