/* sparc.c -- the static call graph (-c) for SPARC (32- and 64-bit).
 *
 * Measured on GNU gprof 2.40 (multi-target build) with hand-made code
 * (doc/DESIGN.md, "Other targets"): every 4-byte word from the start of
 * the range, read in the object's byte order, whose two top bits (the format field "op")
 * are not both zero is taken for a CALL -- so not only CALL (op 01) but
 * every arithmetic, memory and jmpl word (op 10, 11) is a candidate,
 * while SETHI, branches and NOP (op 00) are not.  The target is the
 * word's address plus its low 30 bits as a signed number, *not* times 4,
 * cut to 32 bits.  A target counts when it lies inside the histogram's
 * range [lowpc, highpc) and a function starts exactly there; the arc is
 * added with count zero.  (So on real code GNU finds calls only by
 * accident; we find the same ones.) */
#include "callscan.h"

void sparc_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  for (vma_t pc = start; pc < end; pc = pc + 4 > pc ? pc + 4 : end) {
    uint32_t insn;
    if (!callscan_word32(cs, pc, &insn)) continue;
    if ((insn & 0xc0000000u) == 0) continue;
    int64_t off = (int64_t)(insn & 0x3fffffffu);
    if (off & 0x20000000) off -= 0x40000000;
    vma_t dest = (uint32_t)(pc + (vma_t)off);
    callscan_call_to(cs, parent, pc, dest);
  }
}
