/* fuzz_annotate.c -- one page of annotated source (-A): the first byte
 * gives -t and -z, the next ones the annotated lines and counts, the rest
 * is the source file (NUL bytes, no final newline, huge lines...). */
#include "fuzz.h"
#include "reports/annotate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 2) return 0;
  Options *o = fuzz_options();
  o->table_length = (int)(data[0] % 7) - 2;
  size_t n = data[1] % 12;
  if (size < 2 + 2 * n) return 0;
  AnnLine v[12];
  int line = 0;
  for (size_t i = 0; i < n; i++) {
    line += 1 + data[2 + 2 * i] % 9;
    v[i].line = line;
    v[i].first = NULL;
    v[i].nsyms = 1;
    v[i].count = data[3 + 2 * i] > 200 ? 0 : (uint64_t)data[3 + 2 * i] << (data[3 + 2 * i] % 40);
  }
  const uint8_t *src = data + 2 + 2 * n;
  FILE *f = fuzz_stream(src, size - 2 - 2 * n);
  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    ann_print_file("fuzz.c", v, n, f, stdout, data[0] & 0x80, NULL, o);
  }
  util_fatal_trap(NULL, 0);
  fclose(f);
  return 0;
}
