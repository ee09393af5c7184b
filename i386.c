/* i386.c -- the static call graph (-c) for x86 and x86-64.
 *
 * Measured on GNU gprof 2.40 with hand-made code (doc/DESIGN.md, "-c"):
 * every byte of the function's range that holds 0xe8 (call rel32) is a
 * candidate, even inside another instruction; the target is the address
 * after the five bytes plus the displacement read *unsigned*, so calls
 * backwards are never found; a target is taken when it lies inside the
 * histogram's range [lowpc, highpc) and a function starts exactly there.
 * The arc is added with count zero and no -k filtering. */
#include "callscan.h"

void i386_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  for (vma_t pc = start; pc < end; pc++) {
    if (pc < cs->text_vma || pc - cs->text_vma + 5 > cs->text_size) continue;
    const unsigned char *op = cs->text + (pc - cs->text_vma);
    if (op[0] != 0xe8) continue;
    uint32_t disp = (uint32_t)op[1] | (uint32_t)op[2] << 8 | (uint32_t)op[3] << 16
                    | (uint32_t)op[4] << 24;
    vma_t dest = pc + 5 + disp;
    callscan_call_to(cs, parent, pc, dest);
  }
}
