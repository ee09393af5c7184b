/* basic_blocks.h -- basic-block execution counts (tag 2 records): kept in
 * the order read; with -l or -s handed to the symbols holding them (summed
 * per address, ten per symbol at most), from where -C, -A and gmon.sum
 * take them. */
#ifndef BASIC_BLOCKS_H
#define BASIC_BLOCKS_H
#include "util/util.h"
#include "gmon/enc.h"
#include "symtab.h"

typedef struct { vma_t addr, count; } BBCount;
typedef struct {
  BBCount *v;
  size_t n, cap;
} BBSet;

void bb_add(BBSet *bb, vma_t addr, vma_t count);
/* -l and -s: gives each block to the symbol holding its address (line symbols),
   summing repeated addresses; a symbol keeps the first SYM_NBBS addresses
   and silently drops the rest, as GNU does. */
void bb_assign(const BBSet *bb, SymTab *tab);
/* gmon.sum: one record of every symbol's blocks (bb_assign first), in
   address order, as GNU writes them. */
void bb_write_blocks(const BBSet *bb, const SymTab *tab, GmonOut *out);
#endif
