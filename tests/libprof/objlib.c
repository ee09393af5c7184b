/* The libraries of objects.c: built as libwork.so (LIB_WORK) and as
   libplug.so (PLUG_WORK), with -g and a symbol table, so that GNU gprof
   can read their profiles. */
static volatile double acc;
__attribute__((noinline)) static double inner(long i) { return (double)i * 0.5; }
#ifdef LIB_WORK
double lib_work(long n) { for (long i = 0; i < n; i++) acc += inner(i); return acc; }
#else
double plug_work(long n) { for (long i = 0; i < n; i++) acc += inner(i) * 2; return acc; }
#endif
