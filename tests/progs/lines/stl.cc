// For the lines_stl case: -O2 C++ with the standard library inlined, and
// main split into main and main.cold (BFD names both parts main once asked
// about main first).
#include <vector>
#include <map>
#include <string>
#include <algorithm>
#include <cstdio>
std::map<std::string, int> count(const std::vector<std::string> &w)
{
  std::map<std::string, int> m;
  for (auto &s : w) m[s]++;
  return m;
}
int main(int argc, char **argv)
{
  std::vector<std::string> w;
  for (int i = 0; i < 300000; i++) w.push_back(std::to_string(i % 977) + "x");
  std::sort(w.begin(), w.end());
  auto m = count(w);
  long t = 0;
  for (auto &p : m) t += p.second * (long)p.first.size();
  std::printf("%ld\n", t);
  return 0;
}
