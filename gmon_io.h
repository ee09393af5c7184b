/* gmon_io.h -- reading profile data files and writing gmon.sum.
 * gmon_out_read reads one file, adding its histogram to hist.c, its arcs to
 * cg_arcs.c and its basic-block counts to basic_blocks.c, and records in opt
 * what kinds of records were seen.  Errors exit through fatal(). */
#ifndef GMON_IO_H
#define GMON_IO_H
#include "gprof.h"

void gmon_out_read(const char *filename);
void gmon_out_write(const char *filename);

/* Reader over a byte buffer holding a whole file. */
typedef struct {
  const unsigned char *p, *end;
} GmonBuf;
int gmon_get_u32(GmonBuf *b, uint32_t *v);
int gmon_get_addr(GmonBuf *b, vma_t *v);
void gmon_put_u32(FILE *f, uint32_t v);
void gmon_put_addr(FILE *f, vma_t v);
#endif
