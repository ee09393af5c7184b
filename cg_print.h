/* cg_print.h -- printing what the call-graph analysis computed: the call
 * graph entries in the CallGraph's print order and the index by function
 * name.  Each prints to stdout, with its
 * explanation unless -b.  HZ is the histogram's rate (samples to seconds),
 * GRANULARITY its bytes per bin. */
#ifndef CG_PRINT_H
#define CG_PRINT_H
#include "cg_arcs.h"
void cg_print(const CallGraph *cg, const SymTab *tab, double hz, long granularity);
void cg_print_index(const CallGraph *cg, const SymTab *tab);
void print_notice(void);
void cg_print_name(const SymTab *tab, const Sym *s);   /* name <cycle N> [index] */
#endif
