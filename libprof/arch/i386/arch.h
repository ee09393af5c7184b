/* arch/i386/arch.h -- what libprof's C code and the stub (mcount.S)
 * need to know of i386: the stub's constants, and for C the interrupted
 * context's registers, DWARF's register numbers, the code the stack walk
 * reads (arch/x86/x86.h), how another runtime's mcount is made to jump
 * to libprof's, and a raw system call.  Included through arch/arch.h by
 * prof.h; the C part is macros and static inline functions. */
#ifndef LIBPROF_ARCH_I386_H
#define LIBPROF_ARCH_I386_H

#define PROF_WORD 4              /* bytes of an address */
#define PROF_RAW 0               /* every path counts key slots (prof.h) */
#define PROF_TRAMP_SIZE 16       /* bytes between two trampolines */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <elf.h>

#define X86_MOV_FP_SP(b) (((b)[0] == 0x89 && (b)[1] == 0xe5) || ((b)[0] == 0x8b && (b)[1] == 0xec))
#include "../x86/x86.h"

/* the interrupted context (a ucontext_t *): PC, stack pointer, frame
   pointer, link register (none: 0) */
#define ARCH_UC_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_EIP])
#define ARCH_UC_SP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_ESP])
#define ARCH_UC_FP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_EBP])
#define ARCH_UC_LR(uc) ((void)(uc), (uintptr_t)0)

/* the kernel's signal frame is not read: the walk ends there */
#define ARCH_SIGFRAME 0
#define ARCH_SIG_SP 0
#define ARCH_SIG_FP 0
#define ARCH_SIG_PC 0

/* DWARF's numbers of the stack pointer, the frame register and the
   return address column */
#define ARCH_DW_SP 4
#define ARCH_DW_FP 5
#define ARCH_DW_RA 8

/* mcount's kinds: mcount/_mcount only */
#define ARCH_FENTRY 0
/* A relocation's word-sized slot for mcount's address: the GOT's
   (R_386_32's addend is in the slot) */
#define ARCH_REL_SLOT(t) ((t) == R_386_GLOB_DAT || (t) == R_386_JMP_SLOT)

/* one kind (mcount); the C library's mcount is sent to an entry that
   checks its caller's frame pointer, and __prof_other switches the
   library path (no target to set) */
#define prof_tramp_fe prof_tramp_mc
#define prof_entry_fe prof_entry_mc
extern const char prof_entry_mc_chk[] PROF_SYM(entry_mc_chk) PROF_HIDDEN;
static inline void arch_lib_targets(int on)
{
  (void)on;
}

/* Another runtime's mcount at FN made a jump to TO: `jmp rel32`,
   ARCH_JUMP_BYTES in CODE; nothing to do once written. */
#define ARCH_JUMP_BYTES 5
static inline void arch_jump_code(unsigned char *code, uintptr_t fn, uintptr_t to)
{
  uint32_t rel = (uint32_t)(to - (fn + 5));
  code[0] = 0xe9;
  memcpy(code + 1, &rel, 4);
}
static inline void arch_code_written(uintptr_t fn, size_t n)
{
  (void)fn; (void)n;
}

/* mmap's system call (offset 0 only: bytes or pages alike) */
#define ARCH_SYS_MMAP SYS_mmap2

/* A system call of up to three arguments without the C library's
   syscall() (stacks.c stk_syscall3); %ebx may be the PIC register:
   swapped in and out by hand. */
static inline long arch_syscall3(long nr, long a, long b, long c)
{
  long r;
  __asm__ volatile("xchg %%edi, %%ebx\n\tint $0x80\n\txchg %%edi, %%ebx"
                   : "=a"(r) : "0"(nr), "D"(a), "c"(b), "d"(c) : "memory");
  return r;
}
#endif
#endif
