/* stk_hostile.c -- stacks a frame-pointer walk must survive without a
   fault or a hang: a frame register full of junk (pointers into the
   stack, odd, descending, huge), libc code without frame pointers
   calling back into the program (qsort), a coroutine on a stack of its
   own (makecontext), and named threads.  Run at 10 kHz. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
static volatile uintptr_t sink;
#if defined(__x86_64__)
/* the frame register as a general one, holding each of VALS in turn */
__attribute__((noinline)) void junk_fp(const uintptr_t *vals, int n, long spins)
{
  for (int k = 0; k < n; k++) {
    long left = spins;
    __asm__ volatile("push %%rbp\n\tmov %1, %%rbp\n\t"
                     "1: dec %0\n\tjnz 1b\n\tpop %%rbp"
                     : "+r"(left) : "r"(vals[k]) : "memory", "cc");
  }
}
#else
__attribute__((noinline)) void junk_fp(const uintptr_t *vals, int n, long spins)
{
  for (int k = 0; k < n; k++) for (long i = 0; i < spins; i++) sink += vals[k];
}
#endif
static int cmp(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  for (int i = 0; i < 20; i++) sink += (uintptr_t)i;
  return (x > y) - (x < y);
}
__attribute__((noinline)) void sorter(void)
{
  int n = 200000, *v = malloc(sizeof *v * (size_t)n);
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < n; i++) v[i] = (i * 7919) % n;
    qsort(v, (size_t)n, sizeof *v, cmp);
  }
  free(v);
}
static ucontext_t main_ctx, co_ctx;
__attribute__((noinline)) void co_work(void)
{
  for (long i = 0; i < 100000000; i++) sink += (uintptr_t)i;
  swapcontext(&co_ctx, &main_ctx);
}
__attribute__((noinline)) void coroutine(void)
{
  static char stack[256 * 1024];
  getcontext(&co_ctx);
  co_ctx.uc_stack.ss_sp = stack;
  co_ctx.uc_stack.ss_size = sizeof stack;
  co_ctx.uc_link = &main_ctx;
  makecontext(&co_ctx, co_work, 0);
  swapcontext(&main_ctx, &co_ctx);
}
static void *named(void *arg)
{
  char name[16];
  snprintf(name, sizeof name, "worker-%d", (int)(intptr_t)arg);
  pthread_setname_np(pthread_self(), name);
  uintptr_t here = (uintptr_t)&name;
  uintptr_t vals[] = { here, here + 8, here - 4096, here | 1, 8, UINTPTR_MAX - 15,
                       (uintptr_t)&sink, 0, here + (1 << 20) };
  junk_fp(vals, (int)(sizeof vals / sizeof *vals), 20000000);
  sorter();
  return NULL;
}
int main(void)
{
  pthread_t t[3];
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, named, (void *)(intptr_t)i);
  coroutine();
  sorter();
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  puts("done");
  return 0;
}
