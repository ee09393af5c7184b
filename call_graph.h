/* call_graph.h -- arc records from profile files into the call graph, and
 * back out to gmon.sum.
 *
 * cg_read_arc resolves a record's two addresses in the symbol table, drops
 * it when -k says so, adds it to the CallGraph and, when `keep' is given
 * (-s), keeps the record for cg_write_arcs -- records with the same two
 * addresses summed as they are read, so memory grows with distinct arcs,
 * not with files -- which writes them as GNU does: one record per (caller
 * line, callee), merged, in its order. */
#ifndef CALL_GRAPH_H
#define CALL_GRAPH_H
#include "cg_arcs.h"
#include "sym_ids.h"
#include "gmon_enc.h"

typedef struct ArcRec ArcRec;
typedef struct {
  ArcRec *v;                    /* distinct (from, self) pairs, first seen first */
  size_t n, cap;
  size_t *slot, nslots;         /* open hash on the pair: 1 + index, 0 = free */
} ArcRecs;

void cg_read_arc(CallGraph *cg, ArcRecs *keep, const SymTab *tab, const SymSpecs *specs,
                 vma_t from_pc, vma_t self_pc, uint64_t count);
/* A hint from a reader that has the record after next in hand: fetches
   into the cache what cg_read_arc will read for it (on big graphs the
   callee's symbol and the arc table's slot are cache misses).  Changes
   nothing. */
void cg_prefetch_arc(const CallGraph *cg, const SymTab *tab, vma_t from_pc, vma_t self_pc);
/* -s: passes to the arcs the calls of records seen again (cg_read_arc
   keeps them in the record: a merge of many files of one program sees
   the same records over and over). */
void cg_kept_settle(ArcRecs *keep);
void cg_write_arcs(ArcRecs *recs, const SymTab *tab, GmonOut *out);
#endif
