/* A call graph with known counts: main calls a 3 times, a calls b 5 times
   per call, b calls c twice per call, c recurses into itself once per
   call from b; then it forks, the child calls d 7 times and the parent d
   4 times. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;
__attribute__((noinline)) void d(void) { sink++; }
__attribute__((noinline)) void c(int deep) { sink++; if (deep) c(0); }
__attribute__((noinline)) void b(void) { c(1); c(1); }
__attribute__((noinline)) void a(void) { for (int i = 0; i < 5; i++) b(); }

int main(int argc, char **argv)
{
  for (int i = 0; i < 3; i++) a();
  if (argc > 1) {
    pid_t p = fork();
    if (p == 0) { for (int i = 0; i < 7; i++) d(); exit(0); }
    for (int i = 0; i < 4; i++) d();
    waitpid(p, NULL, 0);
    printf("%d\n", (int)p);
  }
  return 0;
}
