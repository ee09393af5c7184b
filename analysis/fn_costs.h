/* analysis/fn_costs.h -- the costs --callgrind writes, computed once
 * after the analysis: the function-level call graph (under -l too, where
 * gprof's own graph is one of line symbols) with integer, balanced costs
 * in microseconds, and each function's self cost spread over its source
 * lines.
 *
 * Self cost by line: a function's self time (the flat profile's) is
 * spread over its source lines in proportion to the histogram's samples
 * in each line's addresses -- the line table (lines/linesyms.h
 * line_points) cut into pieces, each histogram bin credited to the pieces
 * it overlaps as hist.c credits symbols.  Under -l the line symbols are
 * those pieces already.  Without line information a function's time sits
 * at its first address.  The pieces' times are rounded cumulatively in
 * address order, so each function's sum is within 1 of its time and the
 * total is the flat profile's total rounded once.
 *
 * Calls: one site per return address the arc records carry (each arc
 * from its caller's start when none were kept), on the line of the byte
 * before it (the call), per callee.  Costs are balanced: for every
 * function, inclusive = self + the costs of its calls out = the costs of
 * its calls in (for a function that is called).  They are propagated
 * callees first by strongly connected components:
 *  - a function outside a cycle: its inclusive is shared out over the
 *    calls into it in proportion to their counts;
 *  - a cycle: its inclusive (the members' self time and their calls out of
 *    the cycle) is shared over the calls into the cycle from outside by
 *    counts, as gprof does.  A call inside the cycle carries the time that
 *    has to pass through it for each member to balance: the time a member
 *    owns beyond what its outside callers take flows, along the shortest
 *    call paths, to a hub (the member its outside callers take the most
 *    from) and from there to the members whose outside callers take more
 *    than they own.  Calls the flow does not use carry 0.
 *  - a self call carries 0 (its time is the function's own already).
 *  - a cycle, or a function, that only calls from inside it reach gets
 *    one call from "<spontaneous>" for its whole time (spont_*). */
#ifndef FN_COSTS_H
#define FN_COSTS_H
#include "hist.h"
#include "call_graph.h"

/* The file of a symbol without one. */
#define FN_COSTS_UNKNOWN_FILE "???"

/* A piece of a function: addresses [addr, next piece) of one line. */
typedef struct {
  vma_t addr;
  size_t owner;                 /* the function (its symbol's index) */
  const char *file;
  int line;
  double us, mass;              /* self time; histogram samples in it */
  uint64_t cost;                /* self time rounded */
} FcSeg;

/* Calls from one address of a function to another function. */
typedef struct {
  size_t p, c;                  /* caller and callee functions */
  vma_t addr;                   /* the return address */
  uint64_t count, cost;
  const char *file;             /* the call's position */
  int line;
} FcSite;

/* A piece's samples at one address (a bin's part of it): the cost lines. */
typedef struct {
  vma_t addr;
  size_t seg;
  double mass, us;
  uint64_t cost;
} FcPiece;

typedef struct FnCosts {
  size_t n;                     /* the table's symbols */
  const char **file;            /* per symbol: its source file, or "???" */
  size_t *owner;                /* per symbol: its function (-l: the
                                   function a line symbol is in) */
  FcSeg *seg;                   /* the pieces of lines, in address order */
  size_t nseg;
  FcPiece *pc;                  /* the cost lines, by address */
  size_t npc;
  uint64_t *self;               /* per function: its self cost */
  uint64_t total;               /* the sum of the self costs */
  FcSite *site;                 /* the calls, by caller, callee, address */
  size_t nsites;
  size_t *in0;                  /* function I is called when in0[I + 1] >
                                   in0[I] */
  size_t *spont_to;             /* the calls from <spontaneous>: to whom, */
  uint64_t *spont_cost;         /* at what cost */
  size_t nspont;
} FnCosts;

/* Fills FC from the analysed table TAB, its histogram HIST (NULL: none;
   its bins kept), the arc records as read ARC_RECS (NULL when not kept)
   or else the call graph CG (NULL: no arcs); SUM: -s moved each kept
   arc record's caller address to the start of its line. */
void fn_costs_compute(FnCosts *fc, const SymTab *tab, const HistSet *hist, const ArcRecs *arc_recs,
                      const CallGraph *cg, int sum);
void fn_costs_free(FnCosts *fc);
#endif
