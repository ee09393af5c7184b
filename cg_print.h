/* cg_print.h -- printing what the call-graph analysis computed: the call
 * graph entries in the CallGraph's print order and the index by function
 * name.  Each prints to stdout, with its explanation unless -b, as the
 * Options O say (-b, -T, -z, -l, --inline-file-names, -w; -d's arcsort
 * trace).  HZ is the histogram's rate (samples to seconds), GRANULARITY
 * its bytes per bin. */
#ifndef CG_PRINT_H
#define CG_PRINT_H
#include "cg_arcs.h"
#include "util/options.h"
void cg_print(const CallGraph *cg, const SymTab *tab, double hz, long granularity, const Options *o);
void cg_print_index(const CallGraph *cg, const SymTab *tab, const Options *o);
void print_notice(void);
void cg_print_name(const SymTab *tab, const Sym *s);   /* name <cycle N> [index] */
/* For the exports: whether S's entry is printed (ZEROS: -z; LINE: -l,
   under which only functions get entries), and the lines of an
   entry in the order the graph prints them -- S's caller arcs (PARENTS)
   or callee arcs, a cycle's members -- into *V (grown to *CAP). */
int cg_entry_printed(const Sym *s, int zeros, int line);
size_t cg_entry_arcs(const Sym *s, int parents, Arc ***v, size_t *cap);
size_t cg_entry_members(const Sym *cyc, Sym ***v, size_t *cap);
#endif
