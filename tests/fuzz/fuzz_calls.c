/* fuzz_calls.c -- the -c call finders (x86/x86-64: i386_find_call)
 * through core_scan_calls, over text from the input: the first bytes give
 * the histogram range and the symbols, the rest is the code. */
#include "fuzz.h"
#include "core.h"

static void add(void *ctx, Sym *parent, Sym *callee)
{
  (void)parent;
  (void)callee;
  ++*(size_t *)ctx;
}

static uint32_t word(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 12) return 0;
  fuzz_options();
  vma_t base = 0x1000;
  CallScan cs;
  SymTab tab;
  size_t nsyms = 1 + data[0] % 16, found = 0;
  /* symbols at input-chosen offsets (sorted and de-duplicated by
     symtab_finalize), some beyond the text */
  fuzz_symtab(&tab, nsyms, base, 1);
  for (size_t i = 0; i < nsyms && 4 + i < size; i++)
    tab.base[i].addr = base + (vma_t)data[4 + i] * (1 + (data[1] & 7));
  symtab_finalize(&tab);
  cs.lowpc = base + (data[2] & 0x1f) - 0x10;
  cs.highpc = cs.lowpc + word(data + 8) % 0x10000;
  cs.text = data + 12;
  cs.text_size = size - 12;
  cs.text_vma = base + (data[3] & 0xf);
  cs.syms = &tab;
  cs.add = add;
  cs.ctx = &found;
  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    core_scan_calls(&cs, i386_find_call);
  }
  util_fatal_trap(NULL, 0);
  fuzz_symtab_free(&tab, 0);
  return 0;
}
