/* nofp_lib -- a -pg library for i386 (cross.sh) with a function whose
 * mcount call comes without a frame pointer: %ebp is 0 at the call, as
 * in a function built without one (clang's -pg IFUNC resolvers, bound
 * lazily while counting, find the loader's %ebp).  mcount reads its
 * caller's return address at 4(%ebp): where another object's call can
 * arrive, it must check %ebp first. */
__attribute__((noinline)) int lib_work(int x)
{
  return x * 3 + 1;
}

__asm__(".text\n\t.globl lib_nofp\n\t.type lib_nofp, @function\nlib_nofp:\n\t"
        "pushl %ebp\n\tpushl %ebx\n\tcall 1f\n1:\tpopl %ebx\n\t"
        "addl $_GLOBAL_OFFSET_TABLE_+(.-1b), %ebx\n\t"
        "xorl %ebp, %ebp\n\tcall mcount@PLT\n\t"
        "popl %ebx\n\tpopl %ebp\n\tret\n\t.size lib_nofp, .-lib_nofp");
