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
#include "callscan.h"

void alpha_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  for (vma_t pc = start; pc < end; pc = pc + 4 > pc ? pc + 4 : end) {
    uint32_t insn;
    if (!callscan_word32(cs, pc, &insn)) continue;
    unsigned op = insn >> 26;
    if (op == 0x34) {
      int64_t off = (int64_t)(insn & 0x1fffffu);
      if (off & 0x100000) off -= 0x200000;
      vma_t dest = (uint32_t)(pc + 4 + (vma_t)off);
      callscan_call_to(cs, parent, pc, dest);
    } else if (op == 0x1a && (insn & 0x4000)) {
      callscan_call_indirect(cs, parent, pc, "a register");
    }
  }
}
