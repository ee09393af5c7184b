/* call_graph.h -- arc records from profile files into the call graph, and
 * back out to gmon.sum.
 *
 * cg_read_arcs resolves each record's two addresses in the symbol table,
 * drops it when -k says so, adds it to the CallGraph and, when `keep' is given
 * (-s), keeps the record for cg_write_arcs -- records with the same two
 * addresses summed as they are read, so memory grows with distinct arcs,
 * not with files -- which writes them as GNU does: one record per (caller
 * line, callee), merged, in its order. */
#ifndef CALL_GRAPH_H
#define CALL_GRAPH_H
#include "cg_arcs.h"
#include "sym_ids.h"
#include "gmon/enc.h"

typedef struct ArcRec ArcRec;
typedef struct ArcSlot ArcSlot;
typedef struct {
  ArcRec *v;                    /* distinct (from, self) pairs, first seen first */
  size_t n, cap;
  ArcSlot *slot;                /* open hash on the pair, the pair in the slot */
  size_t nslots;
} ArcRecs;

/* The arc records as read, whatever table they are resolved in: in the
   order read, a pair seen again merged into its first record now and
   then (call_graph.c, cg_pairs_add), its calls summed.  Handed to
   cg_read_arcs again (cg_pairs_replay) they make, in any table, the arcs
   reading the files would have made, in the same order, with the same
   counts (the exports' table: doc/DESIGN.md section 8): the files are
   not read twice. */
typedef struct {
  vma_t *from, *self;
  uint64_t *count;
  size_t n, cap;
  size_t compact_at;            /* merge repeated pairs at this many (0: the first growth) */
} ArcPairs;
void cg_pairs_add(ArcPairs *p, vma_t from, vma_t self, uint64_t count);
/* Every pair of P into CG through TAB and SPECS (as cg_read_arcs reads
   records; KEEP as there), then cg_kept_settle. */
void cg_pairs_replay(const ArcPairs *p, CallGraph *cg, ArcRecs *keep, const SymTab *tab,
                     const SymSpecs *specs);
void cg_pairs_free(ArcPairs *p);

/* N records in a row (the readers decode them in batches): record i is FROM[i] -> SELF[i], COUNT[i] calls, read in order.  What
   the records ahead will need (hash slots for -s, else symbols and arc
   slots) is fetched into the cache while earlier ones are read: on big
   graphs and long merges nearly every record is otherwise a few cache
   misses, one after another.  Reads them all when ALL is set; else
   leaves unread the last few, those the last read records fetched for,
   for the caller to pass again at the start of its next batch (so the
   reading ahead runs on across batches).  Returns how many it read. */
size_t cg_read_arcs(CallGraph *cg, ArcRecs *keep, const SymTab *tab, const SymSpecs *specs,
                    const vma_t *from, const vma_t *self, const uint64_t *count, size_t n,
                    int all);
/* -s: passes to the records and their arcs the calls of pairs seen
   again (cg_read_arcs adds them in the hash slot, the one cache line a
   repeated pair touches: a merge of many files of one program sees the
   same pairs over and over); the arcs are CG's. */
void cg_kept_settle(ArcRecs *keep, const CallGraph *cg);
/* An arc added to the call graph after the files were read (--objects:
   another object's), kept too, for the exports' call sites (COUNT was
   added to A already). */
void cg_kept_add(ArcRecs *keep, vma_t from_pc, vma_t self_pc, uint64_t count, Arc *a);
void cg_write_arcs(ArcRecs *recs, const SymTab *tab, GmonOut *out);
/* The records kept (-s, or --callgrind for its call sites), after
   gmon_finish: how many, and the I-th's caller address (the return address
   as read; once gmon.sum is written, the start of the caller's line), its
   calls and its arc's two ends. */
size_t cg_kept_count(const ArcRecs *keep);
void cg_kept_get(const ArcRecs *keep, size_t i, vma_t *from, uint64_t *count, const Sym **parent,
                 const Sym **child);
#endif
