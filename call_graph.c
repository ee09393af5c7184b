/* call_graph.c -- turning call-graph records into arcs, and writing them. */
#include <stdlib.h>
#include <string.h>
#include "call_graph.h"
#include "core.h"
#include "cg_arcs.h"
#include "gmon_io.h"
#include "gmon_out.h"
#include "symtab.h"
#include "sym_ids.h"

/* Arcs as read, kept for gmon.sum: GNU writes them per source line. */
typedef struct {
  vma_t from, self;
  uint64_t count;
  size_t seq;
  Sym *parent, *child;
} RawArc;
static RawArc *raw;
static size_t nraw, raw_cap;

void cg_read_arc(vma_t from_pc, vma_t self_pc, uint64_t count)
{
  Sym *parent = sym_lookup(&symtab, from_pc);
  Sym *child = sym_lookup(&symtab, self_pc);
  if (!parent || !child) return;
  if (!sym_id_arc_ok(parent, child)) return;
  arc_add(parent, child, count);
  if (opt.want_sum) {
    if (nraw == raw_cap) {
      raw_cap = raw_cap ? raw_cap * 2 : 1024;
      raw = xrealloc(raw, raw_cap * sizeof *raw);
    }
    raw[nraw].from = from_pc;
    raw[nraw].self = self_pc;
    raw[nraw].count = count;
    raw[nraw].seq = nraw;
    raw[nraw].parent = parent;
    raw[nraw].child = child;
    nraw++;
  }
}

/* Start of the source line holding ADDR within symbol S: GNU's gmon.sum
   names each arc end by the line symbol it falls in when the object has
   line information, by the function otherwise. */
static vma_t line_start(Sym *s, vma_t addr)
{
  const char *f0, *f;
  int l0, l;
  if (!core_has_line_info() || !core_src_info(addr, &f0, &l0)) return s->addr;
  vma_t a = addr;
  while (a > s->addr) {
    if (!core_src_info(a - 1, &f, &l) || l != l0 || strcmp(f, f0)) break;
    a--;
  }
  return a;
}

static int cmp_raw(const void *a, const void *b)
{
  const RawArc *x = a, *y = b;
  if (x->from != y->from) return x->from < y->from ? -1 : 1;
  return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/* gmon.sum holds one record per (caller line, callee line), in address
   order of the caller line and, within it, newest first. */
void cg_write_arcs(FILE *f)
{
  size_t i, k, n = 0;
  for (i = 0; i < nraw; i++) {
    raw[i].from = line_start(raw[i].parent, raw[i].from);
    raw[i].self = raw[i].child->addr;
  }
  /* merge equal pairs into the first occurrence (hash on the pair) */
  size_t cap = 16;
  while (cap < 2 * nraw + 2) cap *= 2;
  long *slot = xmalloc(cap * sizeof *slot);
  for (i = 0; i < cap; i++) slot[i] = -1;
  for (i = 0; i < nraw; i++) {
    uint64_t h = (raw[i].from * 0x9E3779B97F4A7C15ull) ^ (raw[i].self + 0x632BE59BD9B4E019ull);
    h ^= h >> 29;
    for (k = (size_t)h & (cap - 1);; k = (k + 1) & (cap - 1)) {
      if (slot[k] < 0) { raw[n] = raw[i]; slot[k] = (long)n++; break; }
      RawArc *r = &raw[slot[k]];
      if (r->from == raw[i].from && r->self == raw[i].self) { r->count += raw[i].count; break; }
    }
  }
  free(slot);
  nraw = n;
  for (i = 0; i < n; i++) raw[i].seq = i;
  if (n > 1) qsort(raw, n, sizeof *raw, cmp_raw);
  for (i = 0; i < n; i++) {
    fputc(GMON_TAG_CG_ARC, f);
    gmon_put_addr(f, raw[i].from);
    gmon_put_addr(f, raw[i].self);
    gmon_put_u32(f, (uint32_t)raw[i].count);
  }
}
