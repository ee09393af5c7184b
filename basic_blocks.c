/* basic_blocks.c -- basic-block count records. */
#include "basic_blocks.h"
#include <stdlib.h>
#include <string.h>
#include "gmon_io.h"
#include "gmon_out.h"
#include "source.h"
#include "symtab.h"
#include "sym_ids.h"

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

/* GNU's order for the listing: by file and line where both symbols have
   them, "equal" otherwise.  That is not a consistent order, so the result
   depends on the sort: like GNU we sort the address-ordered table with the
   C library's qsort. */
static int cmp_src(const void *a, const void *b)
{
  const Sym *x = *(Sym *const *)a, *y = *(Sym *const *)b;
  const char *fx = src_sym_path(x), *fy = src_sym_path(y);
  if (!fx || !fy) return 0;
  int c = strcmp(fx, fy);
  if (c) return c;
  return (x->line > y->line) - (x->line < y->line);
}

void bb_print_exec_counts(void)
{
  Sym **v = xmalloc((symtab.len + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < symtab.len; i++) v[n++] = &symtab.base[i];
  if (n > 1) qsort(v, n, sizeof *v, cmp_src);
  for (size_t i = 0; i < n; i++) {
    Sym *s = v[i];
    if (!opt.zeros && s->ncalls == 0) continue;
    if (!sym_id_in_exec(s)) continue;   /* -m applies to line counts only */
    const char *f = src_sym_path(s);
    printf("%s:%d: (%s:0x%llx) %llu executions\n", f ? f : "<unknown>", src_sym_line(s),
           s->name, (unsigned long long)s->addr, (unsigned long long)s->ncalls);
  }
  free(v);
}
