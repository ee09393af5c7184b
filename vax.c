/* vax.c -- the static call graph (-c) for the VAX.
 *
 * The multi-target GNU gprof 2.40 has no VAX object format (a VAX ELF
 * opens as "elf32-little", architecture unknown, and -c gets "not
 * supported"), so this finder follows the VAX architecture manual and is
 * tested on a hand-assembled VAX ELF and byte buffers (tests/unit/vax.c):
 * each byte of the range holding CALLS (0xfb) starts a candidate.  Its
 * first operand (the argument count, a longword read) and its second (the
 * destination, an address operand) are decoded by the general operand
 * specifier rules (mode in the high nibble, register in the low one,
 * r15 = PC):
 * - byte, word or longword displacement off the PC (0xaf, 0xcf, 0xef):
 *   the target is the address after the displacement plus the
 *   sign-extended little-endian displacement;
 * - absolute (0x9f): the target is the longword that follows;
 * - any other memory mode (register deferred, displacements off other
 *   registers, deferred modes, auto-increment/decrement, indexed): the
 *   target is not known, so an arc to "<indirect child>";
 * - a literal or register destination is not a call.
 * A known target counts when it lies inside the histogram's range
 * [lowpc, highpc) and a function starts exactly there (arc of count
 * zero).  After a call the scan goes on after its last operand byte; an
 * instruction that would run past the end of the text is ignored. */
#include "callscan.h"

/* Length of the operand specifier at P (N bytes available) for an
   operand of SIZE bytes, or 0 if it does not fit or is malformed. */
static size_t vax_operand_len(const unsigned char *p, size_t n, unsigned size)
{
  if (n < 1) return 0;
  unsigned mode = p[0] >> 4, reg = p[0] & 15;
  size_t len;
  switch (mode) {
  case 0: case 1: case 2: case 3: return 1;             /* short literal */
  case 4: {                                            /* indexed */
    if (n < 2 || (p[1] >> 4) <= 5) return 0;            /* base must be memory */
    size_t b = vax_operand_len(p + 1, n - 1, size);
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

/* N bytes at P as an integer in the given byte order. */
static uint32_t vax_get(const unsigned char *p, int n, int big_endian)
{
  uint32_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint32_t)p[big_endian ? i : n - 1 - i] << (8 * (n - 1 - i));
  return v;
}

void vax_like_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end,
                        unsigned opcode, unsigned argsize, int big_endian)
{
  vma_t base = cs->text_vma;
  size_t size = cs->text_size;
  for (vma_t pc = start; pc < end; pc++) {
    if (pc < base || pc - base >= size) continue;
    const unsigned char *op = cs->text + (pc - base);
    size_t avail = size - (pc - base);
    if (op[0] != opcode) continue;
    size_t a1 = vax_operand_len(op + 1, avail - 1, argsize);
    if (!a1) continue;
    const unsigned char *d = op + 1 + a1;
    size_t a2 = vax_operand_len(d, avail - 1 - a1, 1);
    if (!a2) continue;
    unsigned mode = d[0] >> 4, reg = d[0] & 15;
    if (mode <= 3 || mode == 5) continue;         /* literal, register */
    vma_t next = pc + 1 + a1 + a2;                /* after the instruction */
    if (reg == 15 && (mode == 10 || mode == 12 || mode == 14)) {
      int32_t disp = mode == 10 ? (int8_t)d[1]
        : mode == 12 ? (int16_t)(uint16_t)vax_get(d + 1, 2, big_endian)
        : (int32_t)vax_get(d + 1, 4, big_endian);
      callscan_call_to(cs, parent, pc, (uint32_t)(next + (vma_t)(int64_t)disp));
    } else if (reg == 15 && mode == 9) {
      callscan_call_to(cs, parent, pc, vax_get(d + 1, 4, big_endian));
    } else {
      callscan_call_indirect(cs, parent, pc, "memory");
    }
    pc = next - 1;
  }
}

void vax_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end)
{
  vax_like_find_call(cs, parent, start, end, 0xfb, 4, 0);   /* CALLS */
}
