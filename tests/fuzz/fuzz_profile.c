/* fuzz_profile.c -- the profile readers (GNU format in both byte orders and
 * address widths, BSD and 4.4BSD, auto-detected or forced), then what the
 * driver does with the data: crediting the histogram, the call graph's
 * analysis, the reports, and with -s the gmon.sum writers (to /dev/null).  The first byte picks the encoding and options;
 * the rest is the file. */
#include "fuzz.h"
#include "gmon_io.h"
#include "sym_ids.h"
#include "analysis/propagate.h"
#include "cg_print.h"
#include "reports/cg_order.h"
#include "reports/flat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1) return 0;
  unsigned sel = data[0];
  data++, size--;
  Options *o = fuzz_options();
  o->file_format = (sel >> 2) & 3;          /* auto, bsd, 4.4bsd, magic */
  o->want_sum = (sel >> 4) & 1;
  o->traditional = (sel >> 5) & 1;
  o->zeros = (sel >> 6) & 1;
  int as = (sel & 1) ? 4 : 8, be = (sel >> 1) & 1;

  SymTab tab;
  SymSpecs specs;
  Profile prof;
  fuzz_symtab(&tab, 12, 0x1000, 0x40);
  tab.opts.demangle = !o->traditional;
  sym_id_init(&specs);
  sym_id_parse(&specs, &tab);
  gmon_init(&prof, as, be);
  GmonContext cx = { .opts = { .file_format = o->file_format, .keep_arcs = o->want_sum,
                               .use_bb = o->want_sum },
                     .syms = &tab, .specs = &specs };
  BoundedIn in;
  FILE *f = fuzz_stream(data, size);
  bounded_wrap(&in, f, 1 << 20);

  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    gmon_read_stream(&prof, &cx, "fuzz.gmon", &in);
    gmon_finish(&prof);
    if (o->want_sum) gmon_out_write(&prof, &tab, "/dev/null");   /* -s's writers */
    if (prof.have_hist) hist_assign_samples(&prof.hist, &tab);
    if (prof.have_arcs) cg_assemble(&prof.cg, &tab);
    if (prof.have_hist) flat_print(&prof.hist, &tab, o);
    if (prof.have_arcs) {
      cg_print(&prof.cg, &tab, prof.hist.hz, hist_granularity_bytes(&prof.hist), o);
      cg_print_index(&prof.cg, &tab, o);
      cg_print_function_ordering(&prof.cg, &tab);
    }
  }
  util_fatal_trap(NULL, 0);
  bounded_close(&in);
  gmon_free(&prof);
  sym_id_free(&specs);
  fuzz_symtab_free(&tab, 0);
  return 0;
}
