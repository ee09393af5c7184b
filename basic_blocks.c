/* basic_blocks.c -- basic-block count records. */
#include <stdlib.h>
#include "util/options.h"
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

void bb_write_blocks(const BBSet *bb, const SymTab *tab, GmonOut *out)
{
  if (!bb->n) return;
  size_t n = 0;
  for (size_t i = 0; i < tab->len; i++) n += tab->base[i].nbb;
  genc_put_u8(out, GMON_TAG_BB_COUNT);
  genc_put_u32(out, (uint32_t)n);
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    for (unsigned k = 0; k < s->nbb; k++) {
      genc_put_addr(out, s->bb_addr[k]);
      genc_put_addr(out, s->bb_count[k]);
    }
  }
}

void bb_assign(const BBSet *bb, SymTab *tab)
{
  for (size_t i = 0; i < bb->n; i++) {
    Sym *s = sym_lookup(tab, bb->v[i].addr);
    if (!s) continue;
    unsigned k;
    for (k = 0; k < s->nbb && s->bb_addr[k] != bb->v[i].addr; k++) {}
    if (k == s->nbb) {
      if (s->nbb == SYM_NBBS) continue;
      if (!s->bb_addr) {
        s->bb_addr = xmalloc(SYM_NBBS * sizeof *s->bb_addr);
        s->bb_count = xmalloc(SYM_NBBS * sizeof *s->bb_count);
      }
      s->bb_addr[k] = bb->v[i].addr;
      s->bb_count[k] = 0;
      s->nbb++;
    }
    s->bb_count[k] += bb->v[i].count;
  }
}
