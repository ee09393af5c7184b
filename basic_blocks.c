/* basic_blocks.c -- basic-block count records. */
#include "basic_blocks.h"
#include "gmon_io.h"
#include "gmon_out.h"

typedef struct { vma_t addr, count; } Block;
static Block *blocks;
static size_t nblocks, cap;

void bb_add(vma_t addr, vma_t count)
{
  if (nblocks == cap) {
    cap = cap ? cap * 2 : 256;
    blocks = xrealloc(blocks, cap * sizeof *blocks);
  }
  blocks[nblocks].addr = addr;
  blocks[nblocks].count = count;
  nblocks++;
}

void bb_write_blocks(FILE *f)
{
  if (!nblocks) return;
  fputc(GMON_TAG_BB_COUNT, f);
  gmon_put_u32(f, (uint32_t)nblocks);
  for (size_t i = 0; i < nblocks; i++) {
    gmon_put_addr(f, blocks[i].addr);
    gmon_put_addr(f, blocks[i].count);
  }
}
