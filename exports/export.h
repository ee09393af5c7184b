/* export.h -- the analysis as data for other tools: Graphviz DOT
 * (--dot, exports/dot.h), the callgrind profile format (--callgrind,
 * exports/callgrind.h), JSON (--json, exports/json.h), pprof's gzipped
 * profile.proto (--pprof, exports/pprof.h), and libprof's sampled stacks
 * as folded stacks and a flame graph (--folded, --flame, exports/flame.h).
 *
 * The exports are the rows of one table (export_kinds, in export.c): an
 * export is added by adding a row; the driver makes each row's long
 * option and reads what the requested rows need from it.
 *
 * export_write_all writes every requested file whole or not at all
 * (util.h AtomicFile): all are opened first, then written, then renamed
 * into place; a file that cannot be opened stops the run before anything
 * is written, with "gprof: FILE: reason" and status 1.  FILE "-" is
 * standard output.  pprof's profile.proto (--pprof, exports/pprof.h) is
 * the one binary export. */
#ifndef EXPORT_H
#define EXPORT_H
#include "exports/common.h"

typedef void ExportWriter(FILE *f, const ExportInput *in, const ExportOptions *eo);

/* What an export needs kept beyond what the reports keep. */
enum {
  EXPORT_NEEDS_ARC_RECS = 1,    /* the arc records as read (call sites) */
  EXPORT_NEEDS_BINS = 2,        /* the histogram bins after assignment */
  EXPORT_NEEDS_STACKS = 4,      /* the stacks libprof sampled (PROFILE.stacks,
                                   stacks.h): without them the run fails */
  EXPORT_USES_STACKS = 8,       /* the same, read when there are any (none:
                                   the export writes what it can without) */
  EXPORT_NEEDS_FN_COSTS = 16    /* the function graph's balanced costs and
                                   the self costs by line (ExportInput
                                   fn_costs, analysis/fn_costs.h) */
};

enum { EXPORT_STDOUT_BINARY = 2 };

typedef struct {
  const char *name;             /* the long option: --NAME[=FILE] */
  const char *default_file;     /* FILE when none is given */
  ExportWriter *write;
  int to_stdout;                /* may FILE be "-" (standard output)?
                                   EXPORT_STDOUT_BINARY: yes, but not
                                   when that is a terminal */
  unsigned needs;               /* EXPORT_NEEDS_* */
  int group;                    /* where --help lists it: EXPORT_GROUP_* */
  const char *help;             /* what --help shows after [--NAME[=FILE]]:
                                   its settings, or a word on what it is */
} ExportKind;

/* --help's groups of exports */
enum { EXPORT_GROUP_DATA, EXPORT_GROUP_STACKS };

extern const ExportKind export_kinds[];
extern const int export_nkinds;

void export_options_init(ExportOptions *eo);
/* Is any export requested? */
int export_any(const ExportOptions *eo);
/* How many requested exports go to standard output (which then holds
   nothing else)? */
int export_to_stdout(const ExportOptions *eo);
/* The EXPORT_NEEDS_* of the requested exports, together. */
unsigned export_needs(const ExportOptions *eo);
void export_write_all(const ExportOptions *eo, const ExportInput *in);
#endif
