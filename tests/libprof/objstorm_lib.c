/* objstorm.c's library, built with -pg: storm_work(n) calls storm_leaf n
   times and one function of a table of 900 pointers to its own exported
   functions -- 900 symbol relocations in RELRO, so that the loader takes
   a while over each load, while libprof's poller is scanning. */
static volatile long sink;
#define F(n) void storm_f##n(void) { sink += n; }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) F10(n##5) F10(n##6) F10(n##7) F10(n##8) F10(n##9)
F100(1) F100(2) F100(3)
#define P(n) storm_f##n,
#define P10(n) P(n##0) P(n##1) P(n##2) P(n##3) P(n##4) P(n##5) P(n##6) P(n##7) P(n##8) P(n##9)
#define P100(n) P10(n##0) P10(n##1) P10(n##2) P10(n##3) P10(n##4) P10(n##5) P10(n##6) P10(n##7) P10(n##8) P10(n##9)
void (*const storm_table[])(void) = { P100(1) P100(2) P100(3) P100(1) P100(2) P100(3) P100(1) P100(2) P100(3) };
__attribute__((noinline)) void storm_leaf(void) { sink++; }
long storm_work(long n)
{
  for (long i = 0; i < n; i++) storm_leaf();
  storm_table[n % 300]();
  return n;
}
