/* aarch64.c -- the static call graph (-c) for AArch64.
 *
 * Measured on GNU gprof 2.40 (multi-target build) with hand-made code
 * (doc/DESIGN.md, "Other targets"): every 4-byte word from the start of
 * the range, read in the object's byte order (so on big-endian aarch64_be
 * objects, whose code is little-endian all the same, GNU finds nothing
 * real), whose bits 30..26 are 00101 -- BL and the
 * plain branch B alike, so tail calls count -- is a call; the target is
 * the word's address plus the signed 26-bit immediate times 4, cut to 32
 * bits (targets at or above 4 GiB are never found).  Conditional branches,
 * CBZ/TBZ, BLR and BR are ignored.  A target counts when it lies inside
 * the histogram's range [lowpc, highpc) and a function starts exactly
 * there; the arc is added with count zero. */
#include "options.h"
#include "core.h"

void aarch64_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  vma_t base = cs->text_vma, lowpc = cs->lowpc, highpc = cs->highpc;
  size_t size = cs->text_size;
  const unsigned char *text = cs->text;
  for (vma_t pc = start; pc < end; pc = pc + 4 > pc ? pc + 4 : end) {
    if (pc < base || pc - base > size || size - (pc - base) < 4) continue;
    const unsigned char *p = text + (pc - base);
    uint32_t insn = cs->big_endian
      ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3]
      : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | (uint32_t)p[0];
    if ((insn & 0x7c000000u) != 0x14000000u) continue;
    int64_t off = (int64_t)(insn & 0x03ffffffu);
    if (off & 0x02000000) off -= 0x04000000;
    vma_t dest = (uint32_t)(pc + (vma_t)(off * 4));
    Sym *child = dest >= lowpc && dest < highpc ? sym_lookup(cs->syms, dest) : NULL;
    if (child && child->addr == dest) {
      DBG(DBG_STATIC_CG, "static: %s at 0x%llx calls %s\n", parent->name,
          (unsigned long long)pc, child->name);
      cs->add(cs->ctx, parent, child);
    } else {
      DBG(DBG_STATIC_CG, "static: %s at 0x%llx: no function at 0x%llx\n", parent->name,
          (unsigned long long)pc, (unsigned long long)dest);
    }
  }
}
