/* arch/aarch64/arch.h -- what libprof's C code and the stub (mcount.S)
 * need to know of AArch64: the stub's constants, and for C the
 * interrupted context's registers, DWARF's register numbers, the code
 * the stack walk reads (calls, PLT stubs, a leaf's prologue), how
 * another runtime's mcount is made to jump to libprof's, and a raw
 * system call.  Included through arch/arch.h by prof.h; the C part is
 * macros and static inline functions.  Every function reading code
 * reads bytes the caller has checked are mapped (stacks.c's code_end). */
#ifndef LIBPROF_ARCH_AARCH64_H
#define LIBPROF_ARCH_AARCH64_H

#define PROF_WORD 8              /* bytes of an address */
#define PROF_RAW 0               /* every path counts key slots (prof.h) */
#define PROF_TRAMP_SIZE 8        /* bytes between two trampolines */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <elf.h>

#define ARCH_JUMP_INSN "b"       /* an unconditional jump, for asm() */

/* the interrupted context (a ucontext_t *): PC, stack pointer, frame
   pointer (x29), link register (x30) */
#define ARCH_UC_PC(uc) ((uintptr_t)(uc)->uc_mcontext.pc)
#define ARCH_UC_SP(uc) ((uintptr_t)(uc)->uc_mcontext.sp)
#define ARCH_UC_FP(uc) ((uintptr_t)(uc)->uc_mcontext.regs[29])
#define ARCH_UC_LR(uc) ((uintptr_t)(uc)->uc_mcontext.regs[30])
/* a link register: a leaf's return address may be in it, not yet on
   the stack; a coroutine's first frame returns to makecontext's LR */
#define ARCH_HAS_LR 1

/* the kernel's signal frame is not read: the walk ends there */
#define ARCH_SIGFRAME 0
#define ARCH_SIG_SP 0
#define ARCH_SIG_FP 0
#define ARCH_SIG_PC 0

/* DWARF's numbers of the stack pointer, the frame register and the
   return address column */
#define ARCH_DW_SP 31
#define ARCH_DW_FP 29
#define ARCH_DW_RA 30

/* Does a call instruction (bl, blr) end at A (4 bytes before it mapped)? */
static inline int arch_call_before(uintptr_t a)
{
  uint32_t i;
  memcpy(&i, (const void *)(a - 4), 4);
  return (i & 0xfc000000u) == 0x94000000u || (i & 0xfffffc1fu) == 0xd63f0000u;
}

/* The target of the direct call (bl) that returns to A, or 0 when the
   call before A is another kind (blr). */
static inline uintptr_t arch_call_target(uintptr_t a)
{
  uint32_t i;
  memcpy(&i, (const void *)(a - 4), 4);
  if ((i & 0xfc000000u) != 0x94000000u) return 0;
  int32_t imm = (int32_t)(i << 6) >> 6;
  return a - 4 + (uintptr_t)((intptr_t)imm * 4);
}

/* Is the code at T (ARCH_PLT_BYTES mapped) a PLT stub (adrp x16)? */
#define ARCH_PLT_BYTES 4
static inline int arch_plt_stub(uintptr_t t)
{
  uint32_t j;
  memcpy(&j, (const void *)t, 4);
  return (j & 0x9f00001fu) == 0x90000010u;
}

/* Where a leaf interrupted at the code B (ARCH_LEAF_BYTES of it, or
   zeros) keeps its return address: in the link register at its frame
   record's store (stp x29, x30, [sp, #-N]!) and at its ret. */
enum { ARCH_RA_NONE, ARCH_RA_SP0, ARCH_RA_SP1, ARCH_RA_LR };
#define ARCH_LEAF_BYTES 4
static inline int arch_leaf_ra(const unsigned char *b)
{
  uint32_t i;
  memcpy(&i, b, 4);
  return (i & 0xffc07fffu) == 0xa9807bfdu || i == 0xd65f03c0u ? ARCH_RA_LR : ARCH_RA_NONE;
}

/* (x86's frame already popped: not looked for here) */
#define ARCH_FRAME_GONE 0
#define ARCH_ENTRY_BYTES 4
static inline int arch_leaves_first(uintptr_t pc, uintptr_t lim)
{
  (void)pc; (void)lim;
  return 0;
}
static inline int arch_pg_entry(uintptr_t t)
{
  (void)t;
  return 0;
}
#define ARCH_PLT_EXPR_AT_SP 0

/* mcount's kinds: _mcount only */
#define ARCH_FENTRY 0
/* A relocation's word-sized slot for mcount's address, by type: the
   GOT's (GLOB_DAT, JUMP_SLOT) or a plain pointer with no addend. */
#define ARCH_REL_SLOT(t) ((t) == R_AARCH64_GLOB_DAT || (t) == R_AARCH64_JUMP_SLOT || (t) == R_AARCH64_ABS64)

/* one kind, one entry: the C library's mcount is sent to _mcount itself,
   and __prof_other switches the library path (no target to set) */
#define prof_tramp_fe prof_tramp_mc
#define prof_entry_fe prof_entry_mc
#define prof_entry_mc_chk prof_entry_mc
static inline void arch_lib_targets(int on)
{
  (void)on;
}

/* Another runtime's mcount at FN made a jump to TO: `ldr x16, #8; br
   x16` and the address, ARCH_JUMP_BYTES in CODE (x16 is free at a
   call); once written, the new instructions made seen by every core's
   fetch (no libgcc call: __clear_cache would join the program's listed
   functions). */
#define ARCH_JUMP_BYTES 16
static inline void arch_jump_code(unsigned char *code, uintptr_t fn, uintptr_t to)
{
  (void)fn;
  const uint32_t ins[2] = { 0x58000050, 0xd61f0200 };
  memcpy(code, ins, 8);
  memcpy(code + 8, &to, 8);
}
static inline void arch_code_written(uintptr_t fn, size_t n)
{
  for (uintptr_t p = fn; p < fn + n; p += 4)
    __asm__ volatile("dc cvau, %0" :: "r"(p) : "memory");
  __asm__ volatile("dsb ish" ::: "memory");
  for (uintptr_t p = fn; p < fn + n; p += 4)
    __asm__ volatile("ic ivau, %0" :: "r"(p) : "memory");
  __asm__ volatile("dsb ish\n\tisb" ::: "memory");
}

/* mmap's system call (offset 0 only: bytes or pages alike) */
#define ARCH_SYS_MMAP SYS_mmap

/* A system call of up to three arguments without the C library's
   syscall() (stacks.c stk_syscall3). */
static inline long arch_syscall3(long nr, long a, long b, long c)
{
  register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
}
#endif
#endif
