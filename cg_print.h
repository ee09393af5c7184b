/* cg_print.h -- printing what cg_arcs.c computed: the call graph entries
 * in ORDER (as cg_assemble returns them), the index by function name, and
 * the -r function ordering.  Each prints to stdout, with its explanation
 * unless -b. */
#ifndef CG_PRINT_H
#define CG_PRINT_H
#include "gprof.h"
void cg_print(Sym **order, size_t n);
void cg_print_index(void);
void cg_print_function_ordering(void);   /* -r */
void cg_print_file_ordering(void);       /* -R: needs core_read_map */
void print_notice(void);
void cg_print_name(const Sym *s);   /* name <cycle N> [index] */
#endif
