/* flat.h -- the flat profile: every symbol the specs list, by self time,
 * with the seconds and per-call figures computed from the histogram's
 * samples (hist.c) and the calls the arc table counted.  Prints to stdout,
 * with its explanation unless -b. */
#ifndef FLAT_H
#define FLAT_H
#include "hist.h"
#include "util/options.h"
/* O: -z, -T, -b. */
void flat_print(const HistSet *hs, const SymTab *tab, const Options *o);
/* Sorts V[0..N) into the flat profile's order: self time descending,
   then calls descending, then linkage name; equals keep their order. */
void flat_sort(Sym **v, size_t n);
/* The per-call columns' SI prefix ("m" for ms/call ...) and *SCALE, the
   factor seconds are multiplied by (not under -T, whose unit is ms). */
const char *flat_call_unit(const HistSet *hs, const SymTab *tab, double *scale);
#endif
