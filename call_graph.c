/* call_graph.c -- turning call-graph records into arcs, and writing them. */
#include "call_graph.h"
#include "cg_arcs.h"
#include "gmon_io.h"
#include "gmon_out.h"
#include "symtab.h"
#include "sym_ids.h"

void cg_read_arc(vma_t from_pc, vma_t self_pc, uint64_t count)
{
  Sym *parent = sym_lookup(&symtab, from_pc);
  Sym *child = sym_lookup(&symtab, self_pc);
  if (!parent || !child) return;
  if (!sym_id_arc_ok(parent, child)) return;
  arc_add(parent, child, count);
}

/* gmon.sum holds one record per arc, each at its symbols' addresses, in
   symbol order and, within a symbol, newest arc first. */
void cg_write_arcs(FILE *f)
{
  for (size_t i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    for (Arc *a = s->children; a; a = a->next_child) {
      fputc(GMON_TAG_CG_ARC, f);
      gmon_put_addr(f, a->parent->addr);
      gmon_put_addr(f, a->child->addr);
      gmon_put_u32(f, (uint32_t)a->count);
    }
  }
}
