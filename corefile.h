/* corefile.h -- building the symbol table from the object (or from an
 * external nm-style table, -S), and the -R function-to-object map.
 *
 * Which BFD symbols become functions follows GNU 2.40's rules as measured
 * (doc/DESIGN.md).  With a map read first, core_create_function_syms
 * renames each mapped function to its object file and sets its map_file. */
#ifndef COREFILE_H
#define COREFILE_H
#include "core.h"

typedef struct CoreMapEnt CoreMapEnt;
typedef struct {
  CoreMapEnt *ents;             /* records, sorted by name */
  size_t len;
  const char **files;           /* the distinct object names, sorted */
  size_t nfiles;
  char *text;                   /* the map file's contents */
} CoreMap;

/* DEBUG: -d's bits (options.h; DBG_SYMTAB traces the map's size). */
void core_read_map(CoreMap *m, const char *filename, unsigned debug);
void core_map_free(CoreMap *m);
/* TAB's options (SymTab.opts) set: -a leaves static functions out. */
void core_create_function_syms(const Core *c, const CoreMap *m, SymTab *tab);
/* How many static functions GNU's rules leave out of the table for their
   names (GCC's clones), which SymTabOptions.all_funcs keeps. */
size_t core_dropped_funcs(const Core *c);
void core_read_external_symtab(const Core *c, SymTab *tab, const char *filename);
/* The same from an open stream (fuzz targets); C may be NULL. */
void core_read_map_stream(CoreMap *m, const char *filename, BoundedIn *in, unsigned debug);
void core_read_external_symtab_stream(const Core *c, SymTab *tab, const char *filename,
                                      BoundedIn *in);
#endif
