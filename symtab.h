/* symtab.h -- the sorted symbol table and address lookup.
 * Invariant after symtab_finalize: symtab.base is sorted by address, no two
 * entries share an address, and each entry's end_addr is one below the next
 * entry's address. */
#ifndef SYMTAB_H
#define SYMTAB_H
#include "gprof.h"

void sym_init(Sym *s);
void symtab_finalize(SymTab *tab);
Sym *sym_lookup(const SymTab *tab, vma_t addr);
#endif
