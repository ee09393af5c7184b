/* flat.h -- the flat profile: every symbol the specs list, by self time,
 * with the seconds and per-call figures computed from the histogram's
 * samples (hist.c) and the calls the arc table counted.  Prints to stdout,
 * with its explanation unless -b. */
#ifndef FLAT_H
#define FLAT_H
#include "hist.h"
void flat_print(const HistSet *hs, const SymTab *tab);
/* The flat profile's order, for qsort over Sym pointers: self time
   descending, then calls descending, then linkage name. */
int flat_cmp(const void *a, const void *b);
#endif
