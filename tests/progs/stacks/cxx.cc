// tests/stacks.sh: demangled names in the folded stacks.
namespace ns {
volatile int sink;
int f(int x) { for (int i = 0; i < x; i++) sink += i; return sink; }
}
int main() { return ns::f(1000) & 0; }
