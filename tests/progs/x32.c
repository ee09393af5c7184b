/* x32 (ELF32, x86-64 machine): linked without libc, profiled by
   tests/tools/nullprof.py with 4-byte addresses. */
int leaf(int x) { return x * 3; }
int mid(int x) { return leaf(x) + leaf(x + 1); }
void _start(void) { mid(2); for (;;) ; }
