/* The libraries of objcalls.c, built with -pg: libca.so (LIB_A), linked
   at start, and libcb.so (LIB_B, with -mfentry), opened with dlopen,
   which calls into libca.  libca also hands a comparison function to the
   C library's qsort, which calls it back. */
#include <stdlib.h>
static volatile long sink;
#ifdef LIB_A
long a_cmp_calls;               /* read by the program: qsort's calls */
__attribute__((noinline)) void a_leaf(void) { sink++; }
void a_work(long n) { for (long i = 0; i < n; i++) a_leaf(); }
int a_cmp(const void *x, const void *y)
{
  __atomic_fetch_add(&a_cmp_calls, 1, __ATOMIC_RELAXED);
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}
void a_sort(int *v, size_t n) { qsort(v, n, sizeof *v, a_cmp); }
#else
void a_leaf(void);
/* static: GNU gprof and ours know it from the symbol table only */
__attribute__((noinline)) static void b_leaf(void) { sink++; }
void b_work(long n)
{
  for (long i = 0; i < n; i++) b_leaf();
  for (long i = 0; i < n / 10; i++) a_leaf();
}
#endif
