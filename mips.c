/* mips.c -- the static call graph (-c) for MIPS.
 *
 * Measured on GNU gprof 2.40 (multi-target build) with hand-made code
 * (doc/DESIGN.md, "Other targets"): every 4-byte word from the start of
 * the range, in the object's byte order, is decoded:
 * - JAL (major opcode 3): the target is the 26-bit index times 4 inside
 *   the 256 MiB region of the JAL itself (not of its delay slot); it
 *   counts when it lies inside the histogram's range [lowpc, highpc) and
 *   a function starts exactly there (arc of count zero);
 * - JALR with rd = 31 (SPECIAL, function 9; rs, rt and the hint field
 *   may be anything): an arc to the "<indirect child>" pseudo-function.
 * J, BAL/BGEZAL, JR and JALR with another link register are ignored. */
#include "options.h"
#include "core.h"

void mips_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
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
    if ((insn & 0xfc000000u) == 0x0c000000u) {
      vma_t dest = ((uint32_t)pc & 0xf0000000u) | (insn & 0x03ffffffu) << 2;
      Sym *child = dest >= lowpc && dest < highpc ? sym_lookup(cs->syms, dest) : NULL;
      if (child && child->addr == dest) {
        DBG(DBG_STATIC_CG, "static: %s at 0x%llx calls %s\n", parent->name,
            (unsigned long long)pc, child->name);
        cs->add(cs->ctx, parent, child);
      } else {
        DBG(DBG_STATIC_CG, "static: %s at 0x%llx: no function at 0x%llx\n", parent->name,
            (unsigned long long)pc, (unsigned long long)dest);
      }
    } else if ((insn & 0xfc00f83fu) == 0x0000f809u) {
      DBG(DBG_STATIC_CG, "static: %s at 0x%llx calls through a register\n", parent->name,
          (unsigned long long)pc);
      cs->add(cs->ctx, parent, cs->indirect);
    }
  }
}
