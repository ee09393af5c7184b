/* fuzz_stacks.c -- the stack file reader (stacks.c) on arbitrary bytes,
 * then the objects' settle, the resolution, --stack-times' table and the
 * exports that read stacks (--folded, --flame, --pprof). */
#include <unistd.h>
#include "fuzz.h"
#include "stacks/stacks.h"
#include "exports/export.h"
#include "exports/flame.h"
#include "exports/stack_views.h"
#include "exports/pprof.h"
#include "reports/stack_times.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_options();
  /* stacks_load reads PROFILE.stacks by name */
  static char prof[64], path[80];
  if (!prof[0]) {
    snprintf(prof, sizeof prof, "/tmp/fuzz_stacks.%d", (int)getpid());
    snprintf(path, sizeof path, "%s.stacks", prof);
  }
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  SymTab tab;
  fuzz_symtab(&tab, 16, 0x1000, 0x40);
  Objects objs;
  Stacks st;
  memset(&objs, 0, sizeof objs);
  memset(&st, 0, sizeof st);
  char *files[] = { prof };
  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    stacks_load(&st, &objs, &tab, files, 1);
    objects_settle(&objs, &tab);
    if (st.present) {
      stacks_resolve(&st, &tab);
      for (size_t i = 0; i < st.nframes; i++) (void)stacks_frame_name(&st, &tab, i);
      ExportInput in;
      memset(&in, 0, sizeof in);
      in.program = "fuzz";
      in.tab = &tab;
      in.stacks = &st;
      FILE *out = fopen("/dev/null", "w");
      ExportOptions eo;
      export_options_init(&eo);
      export_folded(out, &in, &eo);
      export_flame(out, &in, &eo);
      export_pprof(out, &in, &eo);
      /* the views (stack_views.h) and the difference with itself, the
         names those of the first stack's frames */
      if (st.n) {
        const char *name = stacks_frame_name(&st, &tab, st.v[0].first);
        const char *leaf[] = { name };
        StackViewOptions vo = { "all", leaf, 1, leaf, 1 };
        Stacks view;
        stack_view_check(&vo, &st);
        stack_view_make(&view, &st, &tab, &vo);
        ExportInput vin = in, base = in;
        vin.stacks = &view;
        vin.base = &base;
        eo.thread_roots = 1;
        eo.icicle = 1;
        eo.icicle_callers = name;
        export_folded(out, &vin, &eo);
        export_flame(out, &vin, &eo);
        export_pprof(out, &vin, &eo);
        stack_view_free(&view);
      }
      fclose(out);
      StackTimes t;             /* (no call graph: no estimates) */
      stack_times_compute(&t, &st, NULL, 0);
      stack_times_print(&t, &tab, "fuzz.stacks", size & 1);
      stack_times_free(&t);
    }
  }
  util_fatal_trap(NULL, 0);
  stacks_free(&st);
  tab.len += tab.ntail;         /* (the stacks' objects' symbols too) */
  fuzz_symtab_free(&tab, 0);
  objects_free(&objs);
  return 0;
}
