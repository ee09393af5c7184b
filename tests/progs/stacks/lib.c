/* tests/stacks.sh: a shared library the stack files name.  Each function
   starts a 64-byte block, so there is padding between them: a PC there is
   in no function (the library's "[libstk.so]"). */
static volatile unsigned long sink;

__attribute__((aligned(64))) void lib_work(int n) { for (int i = 0; i < n; i++) sink += (unsigned long)i; }
__attribute__((aligned(64))) void lib_inner(int n) { lib_work(n); }
__attribute__((aligned(64))) void lib_call(int n) { lib_inner(n); sink++; }
