// demo.cc -- a small C++ program for the flame graph's browser test and
// the before/after difference: namespaces, a template, a lambda, two
// named worker threads.  `demo N`: N = 1 before, 2 after a "change"
// (parse::tokens works half as long, render::draw<int> twice as long).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

// one sink per thread: a shared one is a cache line the two threads
// fight over, and how often they fight depends on how their phases
// line up -- the same work then took three times as long in one run as
// in the next, and the before/after difference came out reversed
static __thread volatile unsigned long sink;

// each function's time its own (inlined loop), so that the flat profile
// shows the change too
#define SPIN(n) for (unsigned long i = 0; i < (n); i++) sink += i * 7

__attribute__((noinline)) static void spin(unsigned long n) { SPIN(n); }

namespace parse {
__attribute__((noinline)) void tokens(int mode) { SPIN(mode == 1 ? 150000000UL : 75000000UL); }
__attribute__((noinline)) void tree(int mode) { tokens(mode); spin(50000000UL); }
}

namespace render {
template <typename T> struct Canvas {
  std::vector<T> px;
  __attribute__((noinline)) void fill(unsigned long n) { SPIN(n); }
};
template <typename T> __attribute__((noinline)) void draw(Canvas<T> &c, int mode)
{
  c.fill(mode == 1 ? 50000000UL : 100000000UL);
}
}

__attribute__((noinline)) static void work(int mode)
{
  parse::tree(mode);
  render::Canvas<int> c;
  render::draw(c, mode);
  auto lam = [](unsigned long n) { spin(n); };
  lam(40000000UL);
}

static void *worker(void *arg)
{
  int mode = *(int *)arg;
  pthread_setname_np(pthread_self(), "worker");
  work(mode);
  return NULL;
}

int main(int argc, char **argv)
{
  int mode = argc > 1 ? atoi(argv[1]) : 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, &mode);
  work(mode);
  pthread_join(t, NULL);
  printf("%lu\n", (unsigned long)sink & 1);
  return 0;
}
