/* For the fatal-signal tests: makes N profiled calls, then ends as told:
   a signal name sent to itself or caused (INT TERM HUP QUIT SEGV BUS FPE
   ILL ABRT), "overflow" (SIGSEGV by endless recursion), "handler" (its
   own SIGTERM handler, which exits with status 3), or "wait" (sleeps
   until killed). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile int zero, one = 1;
__attribute__((noinline)) void work(unsigned long i) { sink += i; }
static void on_term(int sig) { (void)sig; exit(3); }
__attribute__((noinline)) unsigned long deep(unsigned long d)
{
  volatile char pad[256];
  pad[d % 256] = (char)d;
  return deep(d + 1) + pad[(d + 1) % 256];
}

/* The faults are the point: under make check-sanitize UBSan must let
   them happen rather than stop the program first. */
#if defined(__GNUC__)
__attribute__((no_sanitize("undefined")))
#endif
int main(int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "";
  long n = argc > 2 ? atol(argv[2]) : 1000;
  for (long i = 0; i < n; i++) work((unsigned long)i);
  if (!strcmp(how, "handler")) { signal(SIGTERM, on_term); raise(SIGTERM); }
  else if (!strcmp(how, "wait")) { puts("ready"); fflush(stdout); for (;;) pause(); }
  else if (!strcmp(how, "SEGV")) sink = *(volatile int *)(uintptr_t)zero;
  else if (!strcmp(how, "overflow")) sink = deep(0);
  else if (!strcmp(how, "FPE")) sink = (unsigned long)(one / zero);
  else if (!strcmp(how, "ILL")) __builtin_trap();
  else if (!strcmp(how, "ABRT")) abort();
  else if (!strcmp(how, "INT")) kill(getpid(), SIGINT);
  else if (!strcmp(how, "TERM")) kill(getpid(), SIGTERM);
  else if (!strcmp(how, "HUP")) kill(getpid(), SIGHUP);
  else if (!strcmp(how, "QUIT")) kill(getpid(), SIGQUIT);
  else if (!strcmp(how, "BUS")) kill(getpid(), SIGBUS);
  return 0;
}
