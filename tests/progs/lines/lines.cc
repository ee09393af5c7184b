#include <cstdlib>
volatile unsigned long sink;
struct A {
  unsigned long v;
  unsigned long method(int n);
  template <class T> T tmpl(T x) { return x * 3 + v; }
};
unsigned long A::method(int n)
{
  unsigned long s = 0;
  for (int i = 0; i < n; i++)
    s += tmpl<unsigned long>(i);
  return s;
}
int samef(int n)
{
#line 10 "x1.c"
  n += 1;
#line 10 "x2.c"
  n *= 3;
#line 10 "x2.c"
  n -= 7;
#line 30 "q.cc"
  return n;
}
namespace ns { int g(int x) { return samef(x) + 1; } }
int main(int argc, char **argv)
{
  A a; a.v = 1;
  for (int r = 0; r < 20; r++) { sink += a.method(100000); sink += ns::g(r); }
  return 0;
}
