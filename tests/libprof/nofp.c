/* nofp -- calls of a -pg library function without a frame pointer
 * (nofp_lib.c), from the library linked (its calls patched to libprof's
 * library path at start-up, LIBPROF_OBJECTS=1) and from a copy
 * dlopen'ed and called at once (its first calls through the C library's
 * mcount, redirected to libprof's): not counted, said at exit; the
 * program's own arcs counted as ever. */
#include <dlfcn.h>
#include <stdio.h>

int lib_work(int);
void lib_nofp(void);
static volatile int sink;
__attribute__((noinline)) void twice(int x) { sink += 2 * x; }

int main(int argc, char **argv)
{
  for (int i = 0; i < 10; i++) {
    lib_nofp();
    twice(lib_work(i));
  }
  if (argc > 1) {
    void *h = dlopen(argv[1], RTLD_NOW);
    void (*f)(void) = h ? (void (*)(void))dlsym(h, "lib_nofp") : NULL;
    if (!f) return 2;
    f();
  }
  printf("%d\n", sink);
  return 0;
}
