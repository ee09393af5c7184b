/* tahoe.c -- the static call graph (-c) for the CCI Tahoe.
 *
 * BFD 2.40 has no Tahoe target, so GNU gprof 2.40 never reaches a Tahoe
 * finder and neither do we from an object file: this one follows the
 * Tahoe's VAX-like instruction set and is tested on byte buffers
 * (tests/unit/tahoe.c).  Each byte of the range holding CALLF (0xfe)
 * starts a candidate.  Its first operand (the size of the argument list,
 * a byte read) and its second (the destination, an address operand) are
 * decoded by the operand specifier rules the Tahoe shares with the VAX
 * (mode in the high nibble, register in the low one, r15 = PC), but with
 * the Tahoe's big-endian byte order:
 * - byte, word or longword displacement off the PC (0xaf, 0xcf, 0xef):
 *   the target is the address after the displacement plus the
 *   sign-extended big-endian displacement;
 * - absolute (0x9f): the target is the big-endian longword that follows;
 * - any other memory mode: the target is not known, so an arc to
 *   "<indirect child>";
 * - a literal or register destination is not a call.
 * A known target counts when it lies inside the histogram's range
 * [lowpc, highpc) and a function starts exactly there (arc of count
 * zero).  After a call the scan goes on after its last operand byte; an
 * instruction that would run past the end of the text is ignored. */
#include "callscan.h"

void tahoe_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  vax_like_find_call(cs, parent, start, end, 0xfe, 1, 1);   /* CALLF */
}
