/* sym_ids.h -- symbol specifications ("symspecs") and the twelve
 * include/exclude tables of the GNU manual (section 4.5, chapter 9).
 *
 * Options add specs with sym_id_add during option parsing; once the symbol
 * table exists, sym_id_parse matches every spec against it, recording in
 * each Sym a bit per table.  GNU's default exclusions (the profiling
 * runtime's entry points) join EXCL_TIME, EXCL_GRAPH and EXCL_FLAT. */
#ifndef SYM_IDS_H
#define SYM_IDS_H
#include "gprof.h"

enum {
  INCL_GRAPH, EXCL_GRAPH, INCL_ARCS, EXCL_ARCS, INCL_FLAT, EXCL_FLAT,
  INCL_TIME, EXCL_TIME, INCL_ANNO, EXCL_ANNO, INCL_EXEC, EXCL_EXEC,
  NUM_TABLES
};

void sym_id_add(const char *spec, int table);
void sym_id_add_arc(const char *from, const char *to);   /* -k */
void sym_id_parse(void);
int sym_id_table_used(int table);      /* does the table have any symbol? */
int sym_id_in(const Sym *s, int table);

int sym_id_in_flat(const Sym *s);
int sym_id_in_exec(const Sym *s);
int sym_id_arc_ok(const Sym *parent, const Sym *child);
void sym_id_flags(Sym *s);       /* last word on print_flag and prop_fract */
const char *sym_print_name(const Sym *s);
const char *sym_label(const Sym *s);  /* print name, plus (file:line) if asked */
#endif
