// A C++ program for the --dot picture: the standard library (std::map,
// std::vector, std::sort with lambdas, std::function), templates, virtual
// calls, an anonymous namespace, operators and a mutual recursion (a
// cycle).  Built with g++ -O1 -pg; its names are long, nested and full of
// template arguments, as real C++ profiles' are.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

static volatile unsigned long sink;

namespace shapes {
class Shape {
public:
  virtual ~Shape() {}
  virtual double area() const = 0;
};
class Square : public Shape {
  double s;
public:
  explicit Square(double v) : s(v) {}
  double area() const override { for (int i = 0; i < 50; i++) sink += i; return s * s; }
};
class Circle : public Shape {
  double r;
public:
  explicit Circle(double v) : r(v) {}
  double area() const override { for (int i = 0; i < 80; i++) sink += i; return 3.14159 * r * r; }
};
}

namespace stats {
template <typename T, typename Compare = std::less<T>>
struct Ranked {
  std::vector<T> items;
  void add(const T &v) { items.push_back(v); }
  template <typename F> void sort_by(F key)
  {
    std::sort(items.begin(), items.end(), [&key](const T &a, const T &b) { return key(a) < key(b); });
  }
  __attribute__((noinline)) bool operator<(const Ranked &o) const { return items.size() < o.items.size(); }
  __attribute__((noinline)) T operator()(std::size_t i) const { return items[i % items.size()]; }
};

template <typename K, typename V>
std::map<K, V> histogram(const std::vector<K> &keys, std::function<V(const K &)> weigh)
{
  std::map<K, V> h;
  for (const K &k : keys) h[k] += weigh(k);
  return h;
}
}

namespace {
struct Tokenizer {
  std::string text;
  std::vector<std::string> words() const
  {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
      if (c == ' ') { if (!cur.empty()) out.push_back(cur); cur.clear(); }
      else cur += c;
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
  }
};

// a cycle: even/odd call each other
__attribute__((noinline)) int odd(int n);
__attribute__((noinline)) int even(int n) { for (int i = 0; i < 20; i++) sink += i; return n == 0 ? 1 : odd(n - 1); }
__attribute__((noinline)) int odd(int n) { for (int i = 0; i < 20; i++) sink += i; return n == 0 ? 0 : even(n - 1); }
}

__attribute__((noinline)) static double total_area(const std::vector<shapes::Shape *> &v)
{
  double t = 0;
  for (const shapes::Shape *s : v) t += s->area();
  return t;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 300;
  std::vector<shapes::Shape *> shapes;
  for (int i = 0; i < 200; i++)
    shapes.push_back(i % 3 ? static_cast<shapes::Shape *>(new shapes::Square(i)) : new shapes::Circle(i));
  Tokenizer tok;
  for (int i = 0; i < 300; i++) tok.text += std::string(1 + i % 7, char('a' + i * 13 % 26)) + "x ";
  double t = 0;
  long words = 0;
  for (int round = 0; round < n; round++) {
    t += total_area(shapes);
    stats::Ranked<int> r;
    for (int i = 0; i < 2000; i++) r.add((i * 7919 + round) % 1000);
    r.sort_by([](int v) { return -v; });
    stats::Ranked<std::string> rs;
    std::vector<std::string> w = tok.words();
    for (const std::string &s : w) rs.add(s);
    rs.sort_by([](const std::string &s) { return s.size(); });
    std::map<std::string, double> h =
        stats::histogram<std::string, double>(w, [](const std::string &s) { return s.size() * 0.5; });
    words += (long)h.size() + r(round) + (r < r);
    t += even(round % 50);
  }
  std::printf("%d %ld\n", t > 0, words > 0);
  for (shapes::Shape *s : shapes) delete s;
  return 0;
}
