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
#include "options.h"
#include "core.h"

/* Length of the operand specifier at P (N bytes available) for an
   operand of SIZE bytes, or 0 if it does not fit or is malformed. */
static size_t tahoe_operand_len(const unsigned char *p, size_t n, unsigned size)
{
  if (n < 1) return 0;
  unsigned mode = p[0] >> 4, reg = p[0] & 15;
  size_t len;
  switch (mode) {
  case 0: case 1: case 2: case 3: return 1;             /* short literal */
  case 4: {                                            /* indexed */
    if (n < 2 || (p[1] >> 4) <= 5) return 0;            /* base must be memory */
    size_t b = tahoe_operand_len(p + 1, n - 1, size);
    return b ? 1 + b : 0;
  }
  case 5: case 6: case 7: len = 1; break;
  case 8: len = reg == 15 ? 1 + size : 1; break;        /* immediate if PC */
  case 9: len = reg == 15 ? 5 : 1; break;               /* absolute if PC */
  case 10: case 11: len = 2; break;
  case 12: case 13: len = 3; break;
  default: len = 5; break;
  }
  return len <= n ? len : 0;
}

void tahoe_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  vma_t base = cs->text_vma, lowpc = cs->lowpc, highpc = cs->highpc;
  size_t size = cs->text_size;
  const unsigned char *text = cs->text;
  for (vma_t pc = start; pc < end; pc++) {
    if (pc < base || pc - base >= size) continue;
    const unsigned char *op = text + (pc - base);
    size_t avail = size - (pc - base);
    if (op[0] != 0xfe) continue;
    size_t a1 = tahoe_operand_len(op + 1, avail - 1, 1);
    if (!a1) continue;
    const unsigned char *d = op + 1 + a1;
    size_t a2 = tahoe_operand_len(d, avail - 1 - a1, 1);
    if (!a2) continue;
    unsigned mode = d[0] >> 4, reg = d[0] & 15;
    if (mode <= 3 || mode == 5) continue;         /* literal, register */
    vma_t next = pc + 1 + a1 + a2;                /* after the instruction */
    int known = 1;
    vma_t dest = 0;
    if (reg == 15 && (mode == 10 || mode == 12 || mode == 14)) {
      int32_t disp = mode == 10 ? (int8_t)d[1]
        : mode == 12 ? (int16_t)(uint16_t)(d[1] << 8 | d[2])
        : (int32_t)((uint32_t)d[1] << 24 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 8
                    | (uint32_t)d[4]);
      dest = (uint32_t)(next + (vma_t)(int64_t)disp);
    } else if (reg == 15 && mode == 9) {
      dest = (uint32_t)d[1] << 24 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 8
             | (uint32_t)d[4];
    } else {
      known = 0;
    }
    if (!known) {
      DBG(DBG_STATIC_CG, "static: %s at 0x%llx calls through memory\n", parent->name,
          (unsigned long long)pc);
      cs->add(cs->ctx, parent, cs->indirect);
    } else {
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
    pc = next - 1;
  }
}
