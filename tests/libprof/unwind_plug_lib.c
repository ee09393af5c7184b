/* unwind_plug_lib.c -- unwind_plug.c's plugins: built twice, with
   -DPLUG_A (plug_a_spin) and -DPLUG_B (plug_b_spin), the same code. */
volatile unsigned long plug_sink;
#ifdef PLUG_A
#define SPIN plug_a_spin
#else
#define SPIN plug_b_spin
#endif

__attribute__((noinline)) void SPIN(unsigned long n)
{
  for (unsigned long i = 0; i < n; i++) plug_sink += i ^ (i >> 3);
}

void plug_work(unsigned long n)
{
  SPIN(n);
  plug_sink++;
}
