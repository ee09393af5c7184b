/* Two builds of one program for the build-id tests (buildid.sh): built
   with -DLATER the code differs (another function, longer loops), as
   after an edit, so the build-id and the addresses differ. */
static volatile int sink;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) sink += i; }
#ifdef LATER
__attribute__((noinline)) void added(void) { sink *= 3; leaf(2); }
#endif
__attribute__((noinline)) void mid(void) { for (int i = 0; i < 10; i++) leaf(i); }

int main(void)
{
  for (int i = 0; i < 20; i++) mid();
#ifdef LATER
  added();
#endif
  return 0;
}
