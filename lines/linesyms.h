/* linesyms.h -- the line symbols of -l (line-by-line profiling).
 *
 * Contract: line_add_syms takes the function table core_create_function_syms
 * built and turns it into GNU 2.40's -l table: function symbols of sections
 * that hold no code are dropped, and a line symbol is added at every address
 * of the text section where the source position (file, line) that BFD reports
 * differs from the last address that had one.  A line symbol is named after
 * the function BFD reports there (the inlined one, inside inlined code) and
 * carries its file and line (Sym.is_line, file_done set); where it shares an
 * address with a function symbol, the function symbol stays (symtab_finalize).
 *
 * Cost: BFD is asked only at the addresses where the DWARF line table starts
 * a row or ends a sequence (read once from .debug_line), since between two
 * such addresses its answer cannot change.  Objects whose line table cannot
 * be read that way (relocatable files, stabs, an unknown format) are walked
 * byte by byte as GNU does.  Layer: object and symbols (core.c, symtab.c). */
#ifndef LINESYMS_H
#define LINESYMS_H
#include "core.h"

void line_add_syms(Core *core, SymTab *tab);
/* The start addresses, sorted and unique, of the table line_add_syms would
   make of FUNCS (a finalized function table, left unchanged), without
   making it: for callers that only need where the symbol holding an address
   starts (gmon.sum names callers by line).  *LAST_END is the last one's end
   address; an address past it, or below the first, is in none.  Returns the
   count; *STARTS is allocated (free it). */
size_t line_starts(Core *core, const SymTab *funcs, vma_t **starts, vma_t *last_end);
/* Every address of the text section where the source position (file,
   line) BFD reports differs from the last address that had one, in address
   order, with that position: the places line_add_syms would put line
   symbols (less those where only the function's name changes), for a
   function table FUNCS.  Returns the count (0 without line information);
   *POINTS is allocated (free it; the names are BFD's). */
typedef struct { vma_t addr; const char *file; int line; } LinePoint;
size_t line_points(Core *core, const SymTab *funcs, LinePoint **points);
#endif
