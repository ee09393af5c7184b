/* cg_order.h -- suggested link orders from the call graph, printed to
 * stdout one name a line: of functions (-r, --function-ordering) and of
 * object files (-R, --file-ordering, for the functions a map renamed to
 * their objects).  Both follow GNU 2.40's layout as measured
 * (doc/DESIGN.md "-r" and "-R"). */
#ifndef CG_ORDER_H
#define CG_ORDER_H
#include "cg_arcs.h"
void cg_print_function_ordering(const CallGraph *cg, const SymTab *tab);
/* FILES are the map's object names, sorted (CoreMap.files). */
void cg_print_file_ordering(const CallGraph *cg, const SymTab *tab,
                            const char *const *files, size_t nfiles);
#endif
