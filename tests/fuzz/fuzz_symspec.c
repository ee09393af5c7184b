/* fuzz_symspec.c -- symspec parsing and matching: each input line is a
 * spec for a table picked by its first byte ('k' lines are -k FROM/TO
 * pairs); the specs are matched against a fixed symbol table and the
 * results read back the way the stages do. */
#include "fuzz.h"
#include "sym_ids.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_options();
  char *text = xmalloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  SymTab tab;
  SymSpecs specs;
  fuzz_symtab(&tab, 16, 0x400000, 0x10);
  sym_id_init(&specs);
  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
      if (!*line) continue;
      unsigned t = (unsigned char)line[0];
      if (t == 'k') {
        char *slash = strchr(line + 1, '/');
        if (!slash) continue;
        *slash = 0;
        sym_id_add_arc(&specs, line + 1, slash + 1);
      } else {
        sym_id_add(&specs, line + 1, (int)(t % NUM_TABLES));
      }
    }
    sym_id_parse(&specs, &tab);
    for (size_t i = 0; i < tab.len; i++) {
      Sym *s = &tab.base[i];
      volatile int x = sym_id_in_flat(s) + sym_id_in_exec(s) + sym_id_in_anno(s);
      for (int k = 0; k < NUM_TABLES; k++) x += sym_id_in(s, k);
      x += sym_id_arc_ok(&specs, &tab, s, &tab.base[(i * 7) % tab.len]);
      sym_id_flags(s);
      (void)sym_label(&tab, s);
      (void)x;
    }
  }
  util_fatal_trap(NULL, 0);
  sym_id_free(&specs);
  fuzz_symtab_free(&tab, 0);
  free(text);
  return 0;
}
