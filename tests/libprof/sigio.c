/* sigio.c -- a program doing O_ASYNC I/O with its own SIGIO handler, on
   a pipe nobody writes: every SIGIO it sees is spurious (libprof's perf
   clock signal overflowing the queue falls back to SIGIO).  Runs wide()
   of libwide.so (stacks.sh), a sample there costing the walk 12 KB of
   frames; prints the SIGIOs seen (at the first, status 1). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void wide(long n);
static volatile sig_atomic_t seen;
/* (the first one ends the run: a storm of them, the queue full, made
   the program crawl for minutes) */
static void on_sigio(int sig) { (void)sig; seen++; static const char m[] = "sigio 1\n"; write(1, m, sizeof m - 1); _exit(1); }

__attribute__((noinline)) void caller(long n) { wide(n); }

int main(int argc, char **argv)
{
  int p[2];
  if (pipe(p) != 0) return 2;
  struct sigaction sa = { 0 };
  sa.sa_handler = on_sigio;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGIO, &sa, NULL);
  if (fcntl(p[0], F_SETOWN, getpid()) != 0 || fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK) != 0) return 2;
  caller(argc > 1 ? atol(argv[1]) : 100000000);
  printf("sigio %d\n", (int)seen);
  return 0;
}
