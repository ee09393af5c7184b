/* diff_flat.h -- the flat profile's differences between two profiles of
 * the same program, before and after a change (--diff-base with
 * --diff-flat): per function (matched by its printed name, so that two
 * builds compare), self seconds before and after, the change in seconds
 * and percent, and the calls before and after; the largest changes
 * first, then a total line.  Both tables after their analysis. */
#ifndef DIFF_FLAT_H
#define DIFF_FLAT_H
#include "exports/common.h"

/* A function's row: its name (NOW's or the base's table's), self seconds
   and calls before and after. */
typedef struct {
  const char *name;
  double before, after;
  uint64_t cb, ca;
} DiffFlatRow;

/* The rows of NOW against NOW->base, the largest changes first, in an
   allocated array (*N of them). */
DiffFlatRow *diff_flat_rows(const ExportInput *now, size_t *n);

/* Prints the table to F: NOW against NOW->base. */
void diff_flat_print(FILE *f, const ExportInput *now);
#endif
