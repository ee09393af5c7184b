/* dwarf.h -- source positions of a whole text section from DWARF, read once.
 *
 * Contract: dw_segments decodes the object's .debug_line (DWARF 2-5) and
 * the functions and inlined calls of .debug_info, and gives, in address
 * order, the pieces of [lo, hi) over which bfd_find_nearest_line's answer
 * (file, line, function name) stays the same, with that answer -- the
 * answer BFD 2.40 gives in GNU gprof's -l walk, after every function
 * symbol and every address of the text has been asked about once (see
 * doc/DESIGN.md, "-l at scale").  It returns NULL when the debug
 * information holds anything it does not decode exactly as BFD does (then
 * ask BFD).  The strings live until dw_free.  Layer: object and symbols
 * (core.c). */
#ifndef DWARF_H
#define DWARF_H
#include "core.h"

typedef struct {
  vma_t addr;                   /* from here to the next piece's address */
  const char *file;             /* NULL: BFD has no answer (or line 0) */
  const char *func;             /* NULL: none */
  int line;
} DwSeg;

typedef struct DwInfo DwInfo;

DwInfo *dw_open(Core *core);
/* The pieces covering [lo, hi), the first at lo; *N is their count.  Call
   once: it frees the decoded rows and functions.  The strings of the
   pieces live until dw_free (linesyms.c keeps them for the run: its
   symbols name them). */
const DwSeg *dw_segments(DwInfo *dw, vma_t lo, vma_t hi, size_t *n);
void dw_free(DwInfo *dw);
#endif
