/* stk_chain.c -- a known chain for the stack walk: main -> a -> b -> spin.
   With an argument, spin also sends itself libprof's sampling signal
   (found as the real-time signal with a handler) now and then, so the
   walk runs where CPU-time timers never fire (qemu-user) and starts in
   libc's syscall wrapper, a leaf without a frame. */
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
volatile unsigned long sink;
static int sig;
__attribute__((noinline)) void spin(long n)
{
  for (long i = 0; i < n; i++) {
    sink += (unsigned long)i;
    if (sig && i % 100000 == 0) syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
  }
}
__attribute__((noinline)) void b(long n) { spin(n); sink++; }
__attribute__((noinline)) void a(long n) { b(n); sink++; }
int main(int argc, char **argv)
{
  (void)argv;
  if (argc > 1)
    for (int s = SIGRTMAX; s >= SIGRTMIN && !sig; s--) {
      struct sigaction old;
      if (sigaction(s, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO)) sig = s;
    }
  a(argc > 1 ? 20000000 : 400000000);
  return 0;
}
