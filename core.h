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
/* -R: reads the function-to-object map (nm --print-file-name format);
   core_create_function_syms then renames each mapped function to its
   object file and sets its map_file.  core_map_files lists the distinct
   object names, sorted. */
void core_read_map(const char *filename);
const char *const *core_map_files(size_t *n);
/* Source position of an address from debug info; 0 when unknown. */
int core_src_info(vma_t addr, const char **file, int *line);
int core_has_line_info(void);     /* DWARF or stabs present */
const unsigned char *core_text_space(vma_t *vma, size_t *size);
/* -c: adds the calls found in the code of each function (its part inside
   [lowpc, highpc), the histogram's range) as arcs of count zero. */
void core_find_calls(vma_t lowpc, vma_t highpc);
/* The same with a given scanner (unit tests reach vax.c this way). */
void core_scan_calls(void (*scan)(Sym *, vma_t, vma_t, vma_t, vma_t), vma_t lowpc,
                     vma_t highpc);
/* The per-architecture scanners: PARENT's code in [start, end). */
void i386_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
void aarch64_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
void sparc_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
void mips_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
void alpha_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
void vax_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
void tahoe_find_call(Sym *parent, vma_t start, vma_t end, vma_t lowpc, vma_t highpc);
/* The pseudo-function "<indirect child>" that calls through a register
   or memory lead to (mips, alpha, vax, tahoe); not in symtab. */
Sym *core_indirect_child(void);
#endif
