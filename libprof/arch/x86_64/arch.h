/* arch/x86_64/arch.h -- what libprof's C code and the stub (mcount.S)
 * need to know of x86-64: the stub's constants, and for C the
 * interrupted context's registers, the kernel's signal frame, DWARF's
 * register numbers, the code the stack walk reads (arch/x86/x86.h), the
 * stub's other entries and trampolines, how another runtime's mcount is
 * made to jump to libprof's, and a raw system call.  Included through
 * arch/arch.h by prof.h; the C part is macros and static inline
 * functions, used by gmon.c's modules. */
#ifndef LIBPROF_ARCH_X86_64_H
#define LIBPROF_ARCH_X86_64_H

#define PROF_WORD 8              /* bytes of an address */
#define PROF_RAW 1               /* the program's path counts raw slots (prof.h) */
#define PROF_TRAMP_SIZE 16       /* bytes between two trampolines of a kind */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <elf.h>

#define X86_MOV_FP_SP(b) ((b)[0] == 0x48 && (((b)[1] == 0x89 && (b)[2] == 0xe5) || ((b)[1] == 0x8b && (b)[2] == 0xec)))
#include "../x86/x86.h"

/* the interrupted context (a ucontext_t *): PC, stack pointer, frame
   pointer, link register (none: 0) */
#define ARCH_UC_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RIP])
#define ARCH_UC_SP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RSP])
#define ARCH_UC_FP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RBP])
#define ARCH_UC_LR(uc) ((void)(uc), (uintptr_t)0)

/* The kernel's signal frame, for the walk (cfi.c's UW_SIG rows, the
   sigreturn trampoline): the interrupted context's ucontext lies at the
   frame's sp; its stack pointer, frame pointer and PC at these offsets
   from it.  (ARCH_SIGFRAME 0: not read, the walk ends there.) */
#define ARCH_SIGFRAME 1
#define ARCH_SIG_SP offsetof(ucontext_t, uc_mcontext.gregs[REG_RSP])
#define ARCH_SIG_FP offsetof(ucontext_t, uc_mcontext.gregs[REG_RBP])
#define ARCH_SIG_PC offsetof(ucontext_t, uc_mcontext.gregs[REG_RIP])

/* DWARF's numbers of the stack pointer, the frame register and the
   return address column */
#define ARCH_DW_SP 7
#define ARCH_DW_FP 6
#define ARCH_DW_RA 16

/* mcount's kinds: mcount/_mcount (0) and __fentry__ (1, -mfentry) */
#define ARCH_FENTRY 1
/* A relocation's word-sized slot for mcount's address, by type: the
   GOT's (GLOB_DAT, JUMP_SLOT) or a plain pointer with no addend. */
#define ARCH_REL_SLOT(t) ((t) == R_X86_64_GLOB_DAT || (t) == R_X86_64_JUMP_SLOT || (t) == R_X86_64_64)

/* the stub's entries besides mcount's (libprof$entry_mc) and its
   trampolines (libprof$tramp_mc): __fentry__'s, the library paths, the
   trampolines' target while not counting, and the entry the C library's
   mcount is sent to (its caller's frame pointer checked) */
extern const char prof_tramp_fe[] PROF_SYM(tramp_fe) PROF_HIDDEN;
extern const char prof_lib_mc[] PROF_SYM(lib_mc) PROF_HIDDEN;
extern const char prof_lib_fe[] PROF_SYM(lib_fe) PROF_HIDDEN;
extern const char prof_lib_off[] PROF_SYM(lib_off) PROF_HIDDEN;
extern const char prof_entry_fe[] PROF_SYM(entry_fe) PROF_HIDDEN;
extern const char prof_entry_mc_chk[] PROF_SYM(entry_mc_chk) PROF_HIDDEN;
/* Counting on or off for the trampolines: they jump through
   __prof_lib_target, to the library path or to a ret. */
static inline void arch_lib_targets(int on)
{
  __prof_lib_target[0] = on ? prof_lib_mc : prof_lib_off;
  __prof_lib_target[1] = on ? prof_lib_fe : prof_lib_off;
}

/* Another runtime's mcount at FN made a jump to TO: `jmp *0(%rip)` and
   the address, ARCH_JUMP_BYTES in CODE; nothing to do once written (the
   instruction fetch sees stores to code). */
#define ARCH_JUMP_BYTES 14
static inline void arch_jump_code(unsigned char *code, uintptr_t fn, uintptr_t to)
{
  (void)fn;
  static const unsigned char jmp[6] = { 0xff, 0x25, 0, 0, 0, 0 };
  memcpy(code, jmp, 6);
  memcpy(code + 6, &to, sizeof to);
}
static inline void arch_code_written(uintptr_t fn, size_t n)
{
  (void)fn; (void)n;
}

/* mmap's system call (offset 0 only: bytes or pages alike) */
#define ARCH_SYS_MMAP SYS_mmap

/* A system call of up to three arguments without the C library's
   syscall() (stacks.c stk_syscall3). */
static inline long arch_syscall3(long nr, long a, long b, long c)
{
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
#endif
#endif
