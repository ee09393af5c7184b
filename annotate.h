/* annotate.h -- the reports over source positions: the execution-count
 * listing (-C) and the annotated source listing (-A), both to stdout. */
#ifndef ANNOTATE_H
#define ANNOTATE_H
#include "symtab.h"
/* One line per called function (every function with -z), in GNU's order. */
void ann_print_exec_counts(const SymTab *tab);
/* The annotated source listing, to stdout (after "\f\n" when SEPARATOR)
   or, with -y, to FILE-ann files; returns whether it printed anything to
   stdout. */
int ann_print_source(const SymTab *tab, int separator);
#endif
