/* sym_ids.h -- symbol specifications and the include/exclude tables.
 * Decides, per symbol or arc, whether it takes part in the flat profile,
 * the arc table, call-graph printing and time propagation.  Symbols named
 * in GNU's default exclusion list (the profiling runtime's own entry
 * points) are kept out of time propagation and call-graph printing. */
#ifndef SYM_IDS_H
#define SYM_IDS_H
#include "gprof.h"

int sym_id_in_flat(const Sym *s);
int sym_id_arc_ok(const Sym *parent, const Sym *child);
void sym_id_flags(Sym *s);       /* sets print_flag and prop_fract */
const char *sym_print_name(const Sym *s);
#endif
