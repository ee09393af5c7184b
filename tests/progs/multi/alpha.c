/* alpha: a static `step' and a static `helper' of its own. */
extern volatile unsigned long sink;
static void step(int n) { for (int i = 0; i < n; i++) sink += (unsigned long)i * 3; }
static void helper(int n) { step(n * 300); }
void alpha_run(int n) { helper(n); step(900); }
