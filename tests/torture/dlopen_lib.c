/* dlopen_lib -- the -pg shared library of dlopen.c (built per mode as
 * libtorture.so): profiled calls inside it, a -pg IFUNC resolver, a
 * constructor and a destructor. */
static volatile long sink;
__attribute__((noinline)) long lib_leaf(long x) { sink += x; return x * 2; }
long lib_work(long x) { long s = 0; for (int k = 0; k < 20; k++) s += lib_leaf(x + k); return s; }
static long ifunc_a(long x) { return lib_leaf(x) + 1; }
static long ifunc_b(long x) { return lib_leaf(x) + 2; }
static volatile int flip;
static long (*lib_pick(void))(long) { lib_leaf(1); return flip ? ifunc_b : ifunc_a; }
long lib_ifunc(long) __attribute__((ifunc("lib_pick")));
__attribute__((constructor)) static void lib_init(void) { lib_leaf(3); }
__attribute__((destructor)) static void lib_fini(void) { lib_leaf(4); }
