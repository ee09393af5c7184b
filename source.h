/* source.h -- source positions of symbols, looked up on demand in the
 * debug information of the object the symbol table came from, and the
 * opening of source files along the -I path. */
#ifndef SOURCE_H
#define SOURCE_H
#include "symtab.h"
/* The source file of S (basename, or the full path with -L: TAB's
   opts.print_path), or NULL when the object has no line information for
   it. */
const char *src_sym_file(const SymTab *tab, const Sym *s);
const char *src_sym_path(const SymTab *tab, const Sym *s);  /* as the debug info names it */
int src_sym_line(const SymTab *tab, const Sym *s);          /* 0 when unknown */
const char *src_base_name(const char *path);   /* after the last '/' */
/* Opens a source file named by the debug information: PATH itself, else
   its base name in each directory of DIRS (colon-separated: -I's, then
   GPROF_PATH's; may be NULL) in turn; NULL if none opens. */
FILE *src_open(const char *path, const char *dirs);
#endif
