/* export.c -- writing the exports whole or not at all (export.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "exports/export.h"
#include "exports/dot.h"
#include "exports/callgrind.h"
#include "exports/json.h"
#include "exports/pprof.h"
#include "exports/flame.h"
#include "exports/html.h"

/* The exports, in the order they are opened and written. */
const ExportKind export_kinds[] = {
  { "dot", "gprof.dot", export_dot, 1, 0, EXPORT_GROUP_DATA,
    "[--node-threshold=PCT] [--edge-threshold=PCT] [--max-nodes=N] [--dot-full-names]" },
  /* callgrind maps samples to lines and keeps the call sites */
  { "callgrind", "callgrind.out.gprof", export_callgrind, 1,
    EXPORT_NEEDS_ARC_RECS | EXPORT_NEEDS_BINS | EXPORT_NEEDS_FN_COSTS, EXPORT_GROUP_DATA, NULL },
  { "json", "gprof.json", export_json, 1, 0, EXPORT_GROUP_DATA, NULL },
  /* gzip data: to standard output as gzip -c writes it, not to a terminal */
  { "pprof", "gprof.pb.gz", export_pprof, EXPORT_STDOUT_BINARY, EXPORT_USES_STACKS, EXPORT_GROUP_DATA,
    "(pprof's profile.proto, gzipped)" },
  /* the stacks libprof sampled (LIBPROF_STACKS) */
  { "folded", "gprof.folded", export_folded, 1, EXPORT_NEEDS_STACKS, EXPORT_GROUP_STACKS, NULL },
  { "flame", "gprof.svg", export_flame, 1, EXPORT_NEEDS_STACKS, EXPORT_GROUP_STACKS, NULL },
  /* one page of everything: the flame graph too when there are stacks */
  { "html", "gprof.html", export_html, 1, EXPORT_USES_STACKS, EXPORT_GROUP_DATA,
    "(one page: flat profile, call graph, flame graph, objects)" },
};
#define EXPORT_KINDS ((int)(sizeof export_kinds / sizeof export_kinds[0]))
const int export_nkinds = EXPORT_KINDS;
_Static_assert(EXPORT_KINDS <= EXPORT_MAX_KINDS, "raise EXPORT_MAX_KINDS");

void export_options_init(ExportOptions *eo)
{
  memset(eo, 0, sizeof *eo);
  eo->node_threshold = 0.5;     /* the thresholds people are used to */
  eo->edge_threshold = 0.1;
  eo->max_nodes = 200;          /* what dot draws in seconds, and a person reads */
}

static const char *target(const ExportOptions *eo, int kind)
{
  return eo->target[kind];
}

int export_any(const ExportOptions *eo)
{
  for (int k = 0; k < EXPORT_KINDS; k++)
    if (target(eo, k)) return 1;
  return 0;
}

int export_to_stdout(const ExportOptions *eo)
{
  int n = 0;
  for (int k = 0; k < EXPORT_KINDS; k++)
    if (target(eo, k) && !strcmp(target(eo, k), "-")) n++;
  return n;
}

unsigned export_needs(const ExportOptions *eo)
{
  unsigned needs = 0;
  for (int k = 0; k < EXPORT_KINDS; k++)
    if (target(eo, k)) needs |= export_kinds[k].needs;
  return needs;
}

static void write_one(int kind, FILE *f, const ExportOptions *eo, const ExportInput *in)
{
  export_kinds[kind].write(f, in, eo);
}

void export_write_all(const ExportOptions *eo, const ExportInput *in)
{
  AtomicFile af[EXPORT_KINDS];
  int open[EXPORT_KINDS] = { 0 }, k, e;
  /* open every file first, so an unwritable one stops the run before
     anything is written */
  for (k = 0; k < EXPORT_KINDS; k++) {
    const char *path = target(eo, k);
    if (!path || !strcmp(path, "-")) continue;
    if ((e = atomic_open(&af[k], path)) != 0) {
      for (int j = 0; j < k; j++) if (open[j]) atomic_abort(&af[j]);
      msg_fatal("%s: %s\n", path, strerror(e));
    }
    open[k] = 1;
  }
  for (k = 0; k < EXPORT_KINDS; k++) {
    const char *path = target(eo, k);
    if (!path) continue;
    if (!open[k]) {             /* "-": standard output */
      write_one(k, stdout, eo, in);
      if (fflush(stdout) || ferror(stdout)) msg_fatal("standard output: %s\n", strerror(errno));
      continue;
    }
    write_one(k, af[k].f, eo, in);
  }
  for (k = 0; k < EXPORT_KINDS; k++) {
    if (!open[k]) continue;
    if ((e = atomic_commit(&af[k])) != 0) {
      open[k] = 0;
      for (int j = k + 1; j < EXPORT_KINDS; j++) if (open[j]) atomic_abort(&af[j]);
      msg_fatal("%s: %s\n", target(eo, k), strerror(e));
    }
  }
}
