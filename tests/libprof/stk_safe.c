/* stk_safe.c MODE -- what the stack-sampling handler met on real
   programs and must survive (tests/libprof/stksafe.sh; issue 35):
     hole   words on the stack pointing into every page of
            [__executable_start, etext) -- unmapped holes when linked with
            -z max-page-size=0x200000 -- while libc's memset runs
     alt    a signal handler of the program's running long on an 8 KB
            alternate stack with a guard page below it
     tiny   two threads on stacks of PTHREAD_STACK_MIN
     big    a frame of 40 KB between libc's memset and its caller
     co     a coroutine (makecontext) whose stack is an array in main's
            frame
   Each prints the same line however it is built, profiled or not. */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

extern char __executable_start[], etext[];
static volatile uintptr_t sink;

__attribute__((noinline)) void spin(long n)
{
  for (long i = 0; i < n; i++) sink += (uintptr_t)i;
}

/* hole: the words stay on the stack while memset, which has no frame
   pointer, runs under this frame (the walk scans for the caller) */
__attribute__((noinline)) int hole(void)
{
  enum { N = 1024 };
  volatile uintptr_t words[N];
  uintptr_t lo = (uintptr_t)__executable_start, hi = (uintptr_t)etext;
  int n = 0;
  for (uintptr_t a = lo + 8; a < hi && n < N; a += 2048) words[n++] = a;
  size_t size = 1 << 20;
  char *buf = malloc(size);
  for (int r = 0; r < 3000; r++) memset(buf, r, size);
  int v = buf[size / 2];
  free(buf);
  return v + (int)(words[0] != 0);
}

__attribute__((noinline)) void in_handler(void)
{
  spin(300000000);
}

static void on_usr1(int s)
{
  (void)s;
  in_handler();
}

__attribute__((noinline)) int alt(void)
{
  long pg = sysconf(_SC_PAGESIZE);
  char *m = mmap(NULL, 8192 + (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || mprotect(m, (size_t)pg, PROT_NONE) != 0) return -1;   /* the guard */
  stack_t ss = { .ss_sp = m + pg, .ss_size = 8192, .ss_flags = 0 };
  if (sigaltstack(&ss, NULL) != 0) return -1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1);
  return 1;
}

__attribute__((noinline)) void nest(int d)
{
  volatile char pad[512];
  pad[0] = (char)d;
  if (d) nest(d - 1); else spin(100000000);
  sink += (uintptr_t)pad[0];
}

static void *tiny_thread(void *a)
{
  (void)a;
  nest(10);
  return NULL;
}

__attribute__((noinline)) int tiny(void)
{
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&t[i], &at, tiny_thread, NULL) != 0) return -1;
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return 2;
}

__attribute__((noinline)) int big(void)
{
  char buf[40000];
  for (int r = 0; r < 200000; r++) {
    memset(buf, r, sizeof buf);
    __asm__ volatile("" : : "r"(buf) : "memory");
  }
  return buf[100];
}

static ucontext_t main_ctx, co_ctx;
__attribute__((noinline)) void co_body(void)
{
  spin(200000000);
}

__attribute__((noinline)) int co(char *stack, size_t n)
{
  getcontext(&co_ctx);
  co_ctx.uc_stack.ss_sp = stack;
  co_ctx.uc_stack.ss_size = n;
  co_ctx.uc_link = &main_ctx;
  makecontext(&co_ctx, co_body, 0);
  swapcontext(&main_ctx, &co_ctx);
  return 3;
}

int main(int argc, char **argv)
{
  char local[64 * 1024];
  const char *m = argc > 1 ? argv[1] : "";
  int r;
  if (!strcmp(m, "hole")) r = hole();
  else if (!strcmp(m, "alt")) r = alt();
  else if (!strcmp(m, "tiny")) r = tiny();
  else if (!strcmp(m, "big")) r = big();
  else if (!strcmp(m, "co")) r = co(local, sizeof local);
  else { fprintf(stderr, "usage: stk_safe hole|alt|tiny|big|co\n"); return 2; }
  printf("%s %d %d\n", m, r, sink != 0);
  return 0;
}
