/* fuzz_map.c -- the -R map reader and the -S table reader on the same
 * bytes; the map then renames symbols of a table as -R does. */
#include "fuzz.h"
#include "corefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_options();
  jmp_buf env;
  CoreMap map;
  memset(&map, 0, sizeof map);
  BoundedIn in;
  bounded_wrap(&in, fuzz_stream(data, size), 1 << 20);
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    core_read_map_stream(&map, "fuzz.map", &in, 0);
  }
  util_fatal_trap(NULL, 0);
  bounded_close(&in);
  core_map_free(&map);

  SymTab tab;
  memset(&tab, 0, sizeof tab);
  bounded_wrap(&in, fuzz_stream(data, size), 1 << 20);
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    core_read_external_symtab_stream(NULL, &tab, "fuzz.syms", &in);
    for (size_t i = 0; i < tab.len; i++) (void)sym_lookup(&tab, tab.base[i].addr + 1);
  }
  util_fatal_trap(NULL, 0);
  bounded_close(&in);
  fuzz_symtab_free(&tab, 1);
  return 0;
}
