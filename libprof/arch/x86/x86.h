/* arch/x86/x86.h -- x86 code as libprof's stack walk reads it, the same
 * in 64-bit and 32-bit mode (x86_64/arch.h and i386/arch.h include it;
 * X86_MOV_FP_SP, the frame pointer's `mov %rsp, %rbp` or `mov %esp,
 * %ebp` at B, comes from them).  Every function reads code bytes the
 * caller has checked are mapped (stacks.c's code_end). */
#ifndef LIBPROF_ARCH_X86_H
#define LIBPROF_ARCH_X86_H
#ifndef __ASSEMBLER__
#include <stdint.h>
#include <string.h>

#define ARCH_JUMP_INSN "jmp"     /* an unconditional jump, for asm() */

/* Q past an endbr32/endbr64, if it starts with one. */
static inline const unsigned char *x86_past_endbr(const unsigned char *q)
{
  return q[0] == 0xf3 && q[1] == 0x0f && q[2] == 0x1e && (q[3] & 0xfe) == 0xfa ? q + 4 : q;
}

/* Does a call instruction end at A (8 bytes before it mapped)? */
static inline int arch_call_before(uintptr_t a)
{
  const unsigned char *p = (const unsigned char *)a;
  if (p[-5] == 0xe8) return 1;                               /* call rel32 */
  if (p[-2] == 0xff && (p[-1] & 0x38) == 0x10 && (p[-1] & 0xc0) != 0x40 && (p[-1] & 0xc0) != 0x80)
    return 1;                                                /* call *%reg, *(%reg) */
  if (p[-3] == 0xff && (p[-2] & 0xf8) == 0x50) return 1;     /* call *d8(%reg) */
  if (p[-6] == 0xff && ((p[-5] & 0xf8) == 0x90 || p[-5] == 0x15)) return 1; /* d32, rip */
  return 0;
}

/* The target of the direct call (e8 rel32) that returns to A, or 0 when
   the call before A is another kind (indirect). */
static inline uintptr_t arch_call_target(uintptr_t a)
{
  const unsigned char *p = (const unsigned char *)a;
  if (p[-5] != 0xe8) return 0;
  int32_t rel;
  memcpy(&rel, p - 4, 4);
  return a + (uintptr_t)(intptr_t)rel;
}

/* Is the code at T (ARCH_PLT_BYTES mapped) a PLT stub, `jmp *GOT`? */
#define ARCH_PLT_BYTES 12
static inline int arch_plt_stub(uintptr_t t)
{
  const unsigned char *q = x86_past_endbr((const unsigned char *)t);
  if (q[0] == 0xf2) q++;                                     /* bnd */
  return q[0] == 0xff && (q[1] == 0x25 || q[1] == 0xa3);
}

/* Where a leaf interrupted at the code B (ARCH_LEAF_BYTES of it, or
   zeros) keeps its return address while its frame record is not made
   (at its `push %rbp`, its `mov %rsp, %rbp`) or no more (at its ret):
   the word at sp, the one above, the link register, or none known. */
enum { ARCH_RA_NONE, ARCH_RA_SP0, ARCH_RA_SP1, ARCH_RA_LR };
#define ARCH_LEAF_BYTES 5
static inline int arch_leaf_ra(const unsigned char *b)
{
  int at_push = b[0] == 0x55 || (x86_past_endbr(b) != b && b[4] == 0x55);
  if (at_push || b[0] == 0xc3) return ARCH_RA_SP0;
  if (X86_MOV_FP_SP(b)) return ARCH_RA_SP1;
  return ARCH_RA_NONE;
}

/* The frame already popped (stacks.c frame_gone): an epilogue scheduled
   early or a tail call leaves the return address at sp.  Does the code
   at PC (mapped up to LIM, 0: not mapped; at most 48 bytes read) leave
   the function (ret, jmp, jmp *) before it pops a frame (pop %rbp,
   leave)?  And does the code at T (ARCH_ENTRY_BYTES mapped) start as -pg functions do (push %rbp,
   after an endbr, or call __fentry__)? */
#define ARCH_FRAME_GONE 1
#define ARCH_ENTRY_BYTES 8
static inline int arch_leaves_first(uintptr_t pc, uintptr_t lim)
{
  const unsigned char *c = (const unsigned char *)pc;
  for (int i = 0; i < 48 && pc + (uintptr_t)i + 1 < lim; i++) {
    if (c[i] == 0x5d || c[i] == 0xc9) return 0;
    if (c[i] == 0xc3 || c[i] == 0xe9 || (c[i] == 0xff && (c[i + 1] & 0x38) == 0x20)) return 1;
  }
  return 0;
}
static inline int arch_pg_entry(uintptr_t t)
{
  const unsigned char *q = x86_past_endbr((const unsigned char *)t);
  return q[0] == 0x55 || q[0] == 0xe8;
}

/* A row whose CFA is a DWARF expression, at the leaf, is a PLT stub's:
   its return address at sp (cfi.c's UW_EXPR) */
#define ARCH_PLT_EXPR_AT_SP 1
/* no link register: a return address is on the stack from the call on */
#define ARCH_HAS_LR 0
#endif
#endif
