/* For the lines_alias case: linked without the C library, with a stub
   mcount and a hand-made profile (tests/gen-lines.sh). */
void mcount(void) {}
void a1(void);
void b1(void);
void c1(void);
void _start(void)
{
  a1();
  b1();
  c1();
  for (;;) ;
}
