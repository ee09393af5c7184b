/* basic_blocks.c -- basic-block count records. */
#include <stdlib.h>
#include "options.h"
#include "basic_blocks.h"
#include "gmon_out.h"

void bb_add(BBSet *bb, vma_t addr, vma_t count)
{
  if (bb->n == bb->cap) {
    bb->cap = bb->cap ? bb->cap * 2 : 256;
    bb->v = xrealloc(bb->v, bb->cap * sizeof *bb->v);
  }
  bb->v[bb->n].addr = addr;
  bb->v[bb->n].count = count;
  bb->n++;
}

void bb_write_blocks(const BBSet *bb, GmonOut *out)
{
  if (!bb->n) return;
  genc_put_u8(out, GMON_TAG_BB_COUNT);
  genc_put_u32(out, (uint32_t)bb->n);
  for (size_t i = 0; i < bb->n; i++) {
    genc_put_addr(out, bb->v[i].addr);
    genc_put_addr(out, bb->v[i].count);
  }
}
