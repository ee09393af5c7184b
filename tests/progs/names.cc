// C++ names for the differential tests: namespaces, overloads, templates.
#include <cstdio>
#include <cstdlib>

static volatile unsigned long sink;
namespace geom {
struct Vec { double x, y; };
double dot(const Vec &a, const Vec &b) { for (int i = 0; i < 200; i++) sink += i; return a.x * b.x + a.y * b.y; }
double dot(double a, double b) { for (int i = 0; i < 100; i++) sink += i; return a * b; }
template <typename T> T twice(T v) { for (int i = 0; i < 300; i++) sink += i; return v + v; }
class Shape {
public:
  virtual ~Shape() {}
  virtual double area() const = 0;
};
class Square : public Shape {
  double s;
public:
  explicit Square(double v) : s(v) {}
  double area() const override { for (int i = 0; i < 500; i++) sink += i; return s * s; }
};
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 40000;
  geom::Vec a{1, 2}, b{3, 4};
  geom::Square sq(2.0);
  const geom::Shape &sh = sq;
  double t = 0;
  for (int i = 0; i < n; i++) {
    t += geom::dot(a, b) + geom::dot(1.0, 2.0);
    t += geom::twice<int>(i) + geom::twice<double>(0.5);
    t += sh.area();
  }
  std::printf("%d\n", t > 0);
  return 0;
}
