/* ifunc_dso_lib -- ifunc_dso.c's -pg library: a -pg IFUNC resolver that
 * calls profiled code, and a constructor that does too. */
static volatile long sink;
__attribute__((noinline)) long dso_leaf(long x) { sink += x; return x + 1; }
long dso_work(long x) { return dso_leaf(x) * 3; }
static long impl_a(long x) { return dso_leaf(x) + 10; }
static long impl_b(long x) { return dso_leaf(x) + 20; }
static volatile int flip;
static long (*dso_pick(void))(long) { dso_leaf(7); return flip ? impl_b : impl_a; }
long dso_ifunc(long) __attribute__((ifunc("dso_pick")));
__attribute__((constructor)) static void dso_init(void) { dso_leaf(1); }
