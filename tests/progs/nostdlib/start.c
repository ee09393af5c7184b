/* The program's own entry point: no C library, nothing to return to. */
long top(long n);
static volatile long sink;

void _start(void)
{
  sink = top(1000);
  for (;;) continue;
}
