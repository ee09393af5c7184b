/* For the lines_two case: two functions on one line, each in a section of
   its own (-ffunction-sections: the line table has a gap between them). */
volatile int s;
__attribute__((noinline)) int f(int x) { s += x; return x * 3; } __attribute__((noinline)) int g(int x) { s -= x; return x + 1; }
int main(void) { return f(1) + g(2); }
