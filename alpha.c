/* alpha.c -- the static call graph (-c) for Alpha.
 *
 * Measured on GNU gprof 2.40 (multi-target build) with hand-made code
 * (doc/DESIGN.md, "Other targets"): every 4-byte word from the start of
 * the range, read in the object's byte order (always little-endian), is
 * decoded:
 * - BSR (opcode 0x34, any link register): the target is the address
 *   after the BSR plus the signed 21-bit displacement, *not* times 4,
 *   cut to 32 bits; it counts when it lies inside the histogram's range
 *   [lowpc, highpc) and a function starts exactly there (arc of count
 *   zero).  Real programs live above 4 GiB, so this finds nothing there;
 * - JSR and JSR_COROUTINE (opcode 0x1a, function bits 15..14 = 01 or 11;
 *   any registers and hint): an arc to the "<indirect child>"
 *   pseudo-function.
 * BR, JMP, RET and the conditional branches are ignored. */
#include "options.h"
#include "core.h"

void alpha_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
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
    unsigned op = insn >> 26;
    if (op == 0x34) {
      int64_t off = (int64_t)(insn & 0x1fffffu);
      if (off & 0x100000) off -= 0x200000;
      vma_t dest = (uint32_t)(pc + 4 + (vma_t)off);
      Sym *child = dest >= lowpc && dest < highpc ? sym_lookup(cs->syms, dest) : NULL;
      if (child && child->addr == dest) {
        DBG(DBG_STATIC_CG, "static: %s at 0x%llx calls %s\n", parent->name,
            (unsigned long long)pc, child->name);
        cs->add(cs->ctx, parent, child);
      } else {
        DBG(DBG_STATIC_CG, "static: %s at 0x%llx: no function at 0x%llx\n", parent->name,
            (unsigned long long)pc, (unsigned long long)dest);
      }
    } else if (op == 0x1a && (insn & 0x4000)) {
      DBG(DBG_STATIC_CG, "static: %s at 0x%llx calls through a register\n", parent->name,
          (unsigned long long)pc);
      cs->add(cs->ctx, parent, cs->indirect);
    }
  }
}
