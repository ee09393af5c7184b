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
#include "callscan.h"

void aarch64_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  for (vma_t pc = start; pc < end; pc = pc + 4 > pc ? pc + 4 : end) {
    uint32_t insn;
    if (!callscan_word32(cs, pc, &insn)) continue;
    if ((insn & 0x7c000000u) != 0x14000000u) continue;
    int64_t off = (int64_t)(insn & 0x03ffffffu);
    if (off & 0x02000000) off -= 0x04000000;
    vma_t dest = (uint32_t)(pc + (vma_t)(off * 4));
    callscan_call_to(cs, parent, pc, dest);
  }
}
