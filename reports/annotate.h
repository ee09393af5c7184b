/* annotate.h -- the reports over source positions: the execution-count
 * listing (-C) and the annotated source listing (-A), both to stdout, as
 * the Options O say (-z, -l, -x, -m, -t, -y, -I). */
#ifndef ANNOTATE_H
#define ANNOTATE_H
#include "symtab.h"
#include "util/options.h"
/* One line per called function (every function with -z), in GNU's order. */
void ann_print_exec_counts(const SymTab *tab, const Options *o);
/* The annotated source listing, to stdout (after "\f\n" when SEPARATOR)
   or, with -y, to FILE-ann files; returns whether it printed anything to
   stdout. */
int ann_print_source(const SymTab *tab, int separator, const Options *o);
/* One annotated line: LINE's count (the calls of the functions starting
   there) and, for -l, the lowest symbol on it and how many there are. */
typedef struct {
  int line;
  uint64_t count;
  Sym *first;                   /* -l only; may be NULL otherwise */
  unsigned nsyms;
} AnnLine;
/* -l: the last count shown, carried from line to line and file to file. */
typedef struct { uint64_t last; } AnnCarry;
/* One page of it: SRC copied to OUT with the annotations of V (N lines,
   sorted by line, no line twice) in front of their lines, then the "Top"
   table and the summary; with HEADER the "*** File PATH:" line first.
   Reads SRC to its end (at most 1 GiB of a pipe or device); does not
   close it.  CARRY may be NULL. */
void ann_print_file(const char *path, const AnnLine *v, size_t n, FILE *src, FILE *out,
                    int header, AnnCarry *carry, const Options *o);
#endif
