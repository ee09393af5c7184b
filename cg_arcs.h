/* cg_arcs.h -- the call graph's storage: the arc table.
 *
 * A CallGraph is filled by the profile readers (arc_add, through
 * call_graph.c) and, for -c, by the object's call finders; the analysis
 * (analysis/propagate.h) then fills in its cycles and print order, and the
 * printers take it as it stands after that.
 *
 * Arcs are hashed on (parent, child) and numbered in the order first
 * added (cg_arc).  Once all are in, cg_arcs_settle gives each symbol its
 * children and its parents as runs of one array, newest first, as GNU
 * keeps its lists: the analysis and the printers walk them many times,
 * and a run of pointers can be read ahead where a chain of arcs spread
 * over memory cannot. */
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
  /* how the printers rank it among an entry's lines (analysis/propagate.c): 0 a
     self call, 1 within one cycle, 2 any other */
  unsigned char rank;
};

/* Arcs live in chunks of CG_CHUNK, numbered in the order first added:
   arc I is cg_arc(cg, I).  (A directory of chunks, not one array: arcs
   never move, so an Arc pointer stays good while arcs are added.) */
#define CG_CHUNK_BITS 17            /* 48-byte arcs: three 2 MiB pages */
#define CG_CHUNK ((size_t)1 << CG_CHUNK_BITS)

typedef struct {
  uint32_t *table;              /* open hash: 1 + arc number, 0 = free;
                                   size a power of two, at most half full */
  size_t table_size;
  Arc **chunks;                 /* chunks[I >> CG_CHUNK_BITS] holds arc I */
  size_t narcs, nchunks;
  unsigned debug;               /* -d's bits (options.h), set by the driver:
                                   the traces of the arcs and the analysis */
  /* filled by cg_assemble (analysis/propagate.c) */
  Sym *cycles;                  /* cycles[1..ncycles], each a whole cycle */
  int ncycles;
  Sym **members;                /* cycle C's members, in its cyc_next order, */
  size_t *member_start;         /* are members[member_start[C] .. [C + 1]) */
  Sym **order;                  /* symbols and cycles in print order */
  size_t norder;
  double print_time;            /* sum of prop_self, in GNU's order */
  Arc **lists;                  /* cg_arcs_settle: every symbol's runs */
  /* also from cg_arcs_settle: the number of each children run entry's
     callee (kid_num[k] for lists[k], k < narcs): its place in the table,
     or past it for the ends outside it, foreign[0..nforeign).  The
     depth-first walk reads these instead of the arcs; cg_assemble frees
     them after it. */
  uint32_t *kid_num;
  Sym **foreign;
  size_t nforeign;
} CallGraph;

/* Fetches arc A into the cache, both lines of it: 48-byte arcs in an
   array straddle two cache lines one time in two. */
static inline void cg_prefetch_arc_rec(const Arc *a)
{
  __builtin_prefetch(a);
  __builtin_prefetch((const char *)a + sizeof *a - 1);
}

/* Fetches the first 16 entries of a run of arc pointers (two lines). */
static inline void cg_prefetch_run(Arc *const *r, unsigned len)
{
  if (len) __builtin_prefetch(r);
  if (len > 8) __builtin_prefetch(r + 8);
}

static inline Arc *cg_arc(const CallGraph *cg, size_t i)
{
  return &cg->chunks[i >> CG_CHUNK_BITS][i & (CG_CHUNK - 1)];
}

/* Reads ahead for a walk over the symbols V[0..N), from V[I] on in
   direction DIR (1 or -1), that reads each one's PARENTS (else children)
   and the symbols at their other ends: on big graphs each of those is a
   cache miss, and the walk's order is known.  Fetches a few symbols on,
   one stage each: the symbol, its run, its first arcs, their other ends
   where the arc is of rank 2 (the walks skip the others' ends; the ranks
   must be set). */
static inline void cg_walk_prefetch(Sym *const *v, size_t n, size_t i, int dir, int parents)
{
  for (size_t d = 1; d <= 4; d++) {
    if (dir > 0 ? i + d >= n : i < d) break;
    const Sym *s = v[dir > 0 ? i + d : i - d];
    if (d == 4) {               /* the symbol: line 1 (nchildren), line 2 */
      __builtin_prefetch(s);
      __builtin_prefetch((const char *)s + 64);
      continue;
    }
    Arc *const *r = parents ? s->parents : s->children;
    unsigned len = parents ? s->nparents : s->nchildren;
    if (len > 8) len = 8;
    if (d == 3) {
      cg_prefetch_run(r, len);
    } else if (d == 2) {
      for (unsigned k = 0; k < len; k++) cg_prefetch_arc_rec(r[k]);
    } else {
      for (unsigned k = 0; k < len; k++)
        if (r[k]->rank == 2) __builtin_prefetch(parents ? r[k]->parent : r[k]->child);
    }
  }
}

void cg_init(CallGraph *cg);
/* Frees everything CG holds and leaves it empty (fuzz targets reuse it). */
void cg_free(CallGraph *cg);
Arc *arc_lookup(const CallGraph *cg, const Sym *parent, const Sym *child);
/* Adds COUNT calls from PARENT to CHILD, making the arc if new, and counts
   them in CHILD's ncalls (or self_calls). */
Arc *arc_add(CallGraph *cg, Sym *parent, Sym *child, uint64_t count);
/* Fetches into the cache the table slot arc_add would look at first. */
void arc_prefetch(const CallGraph *cg, const Sym *parent, const Sym *child);
/* COUNT more calls along A, an arc arc_add returned to CG (no look-up). */
void arc_add_again(const CallGraph *cg, Arc *a, uint64_t count);
/* Once every arc is in: sets the children and parents of each symbol of
   TAB and of the few arc ends outside it (-c's <indirect child>), and
   frees the lookup table
   (the analysis only walks the runs); a later arc_add or arc_lookup
   builds the table again, but the runs only another settle. */
void cg_arcs_settle(CallGraph *cg, SymTab *tab);
#endif
