/* unwind_gone.c -- a leaf caught after its epilogue popped the frame
   register: `tailer` (hand-written, with exact CFI) pops %rbp and then
   spins in code whose immediates hold 0x5d bytes (the byte of `pop
   %rbp`) before it returns.  The old walk's guess (frame_gone: a 0x5d or
   0xc9 byte ahead means the frame is still there) skipped tailer's caller
   `outer`; the unwind tables say where the return address is. */
#include <stdlib.h>

#if defined(__x86_64__)
__asm__(".text\n.globl tailer\n.type tailer, @function\ntailer:\n"
        ".cfi_startproc\n"
        "push %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset %rbp, -16\n"
        "mov %rsp, %rbp\n.cfi_def_cfa_register %rbp\n"
        "mov %rdi, %rcx\n"
        "pop %rbp\n.cfi_def_cfa %rsp, 8\n"
        "1: mov $0x5d5d5d5d, %eax\n"
        "dec %rcx\n"
        "jnz 1b\n"
        "ret\n"
        ".cfi_endproc\n.size tailer, .-tailer\n");
void tailer(unsigned long n);
#else
void tailer(unsigned long n) { for (volatile unsigned long i = 0; i < n; i++); }
#endif

__attribute__((noinline)) void outer(unsigned long n)
{
  tailer(n);
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
  outer((argc > 1 ? strtoul(argv[1], 0, 10) : 300) * 1000000ul);
  return 0;
}
