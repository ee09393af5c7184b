/* fuzz_calls.c -- the -c call finders of every architecture through
 * core_scan_calls, over text from the input: the first bytes give the
 * finder, the byte order, the histogram range and the symbols, the rest
 * is the code. */
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
  static const CoreFinder finders[] = {
    i386_find_call, aarch64_find_call, sparc_find_call, mips_find_call,
    alpha_find_call, vax_find_call, tahoe_find_call
  };
  CoreFinder finder = finders[(data[1] >> 3) % 7];
  static Sym indirect;
  indirect.name = "<indirect child>";
  cs.big_endian = (data[1] >> 6) & 1;
  cs.indirect = &indirect;
  cs.syms = &tab;
  cs.add = add;
  cs.ctx = &found;
  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    core_scan_calls(&cs, finder);
  }
  util_fatal_trap(NULL, 0);
  fuzz_symtab_free(&tab, 0);
  return 0;
}
