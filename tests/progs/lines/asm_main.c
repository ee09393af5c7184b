/* For the lines_asm case: linked without the C library, with a stub mcount
   and a hand-made profile (tests/gen-lines.sh). */
int dummy_data __attribute__((weak)) = 3;
void mcount(void) {}
int f1(int x)
{
  x += 1;
  return x;
}
int f2(int x)
{
  x += 2;
  return f1(x);
}
void _start(void)
{
  f2(3);
  for (;;) ;
}
