/* core.h -- access to the profiled object through BFD.
 * core_init opens the object (exiting with GNU's messages when it cannot),
 * records the target's address size and byte order in opt, and keeps the
 * canonical symbol table for corefile.c. */
#ifndef CORE_H
#define CORE_H
#include "gprof.h"

void core_init(const char *filename);
void core_create_function_syms(void);   /* corefile.c: fills symtab */
void core_read_external_symtab(const char *filename);   /* -S */
/* Source position of an address from debug info; 0 when unknown. */
int core_src_info(vma_t addr, const char **file, int *line);
int core_has_line_info(void);     /* DWARF or stabs present */
#endif
