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
#include "callscan.h"

void mips_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  for (vma_t pc = start; pc < end; pc = pc + 4 > pc ? pc + 4 : end) {
    uint32_t insn;
    if (!callscan_word32(cs, pc, &insn)) continue;
    if ((insn & 0xfc000000u) == 0x0c000000u) {
      vma_t dest = ((uint32_t)pc & 0xf0000000u) | (insn & 0x03ffffffu) << 2;
      callscan_call_to(cs, parent, pc, dest);
    } else if ((insn & 0xfc00f83fu) == 0x0000f809u) {
      callscan_call_indirect(cs, parent, pc, "a register");
    }
  }
}
