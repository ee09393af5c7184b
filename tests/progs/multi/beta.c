/* beta: another static `step' and `helper', and a recursion. */
extern volatile unsigned long sink;
static void step(int n) { for (int i = 0; i < n; i++) sink ^= (unsigned long)i; }
static void helper(int n) { if (n > 0) helper(n - 1); step(700); }
void beta_run(int n) { helper(n); step(100); }
