/* basic_blocks.h -- basic-block execution counts: kept, summed per address
 * and written back to gmon.sum in the order first seen. */
#ifndef BASIC_BLOCKS_H
#define BASIC_BLOCKS_H
#include "gprof.h"
void bb_add(vma_t addr, vma_t count);
void bb_write_blocks(FILE *f);
/* The execution-count listing (-C): one line per called function (every
   function with -z), in address order. */
void bb_print_exec_counts(void);
/* The annotated source listing (-A), to stdout (after "\f\n" when
   SEPARATOR) or, with -y, to FILE-ann files; returns whether it printed
   anything to stdout. */
int bb_print_annotated_source(int separator);
#endif
