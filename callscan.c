/* callscan.c -- the finders' shared steps: reading an instruction word
 * and reporting a call (see callscan.h). */
#include "util/options.h"
#include "callscan.h"

int callscan_word32(const CallScan *cs, vma_t pc, uint32_t *w)
{
  vma_t base = cs->text_vma;
  if (pc < base || pc - base > cs->text_size || cs->text_size - (pc - base) < 4) return 0;
  const unsigned char *p = cs->text + (pc - base);
  *w = cs->big_endian
    ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3]
    : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | (uint32_t)p[0];
  return 1;
}

void callscan_call_to(const CallScan *cs, Sym *parent, vma_t pc, vma_t dest)
{
  unsigned dbg = cs->syms->opts.debug;
  Sym *child = dest >= cs->lowpc && dest < cs->highpc ? sym_lookup(cs->syms, dest) : NULL;
  if (child && child->addr == dest) {
    DBG(dbg, DBG_STATIC_CG, "static: %s at 0x%llx calls %s\n", parent->name,
        (unsigned long long)pc, child->name);
    cs->add(cs->ctx, parent, child);
  } else {
    DBG(dbg, DBG_STATIC_CG, "static: %s at 0x%llx: no function at 0x%llx\n", parent->name,
        (unsigned long long)pc, (unsigned long long)dest);
  }
}

void callscan_call_indirect(const CallScan *cs, Sym *parent, vma_t pc, const char *how)
{
  DBG(cs->syms->opts.debug, DBG_STATIC_CG, "static: %s at 0x%llx calls through %s\n", parent->name,
      (unsigned long long)pc, how);
  cs->add(cs->ctx, parent, cs->indirect);
}
