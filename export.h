/* export.h -- the analysis as data for other tools: Graphviz DOT
 * (--dot), the callgrind profile format (--callgrind) and JSON (--json).
 *
 * The exports are a layer of their own above the reports: they read the
 * same structs the text reports print from (SymTab, HistSet, CallGraph),
 * after the analysis, and never the text.  The figures are the text's,
 * unrounded: times in seconds (samples / rate), percentages of the same
 * totals, the same entries, index numbers and arc lines.
 *
 * export_write_all writes every requested file whole or not at all
 * (util.h AtomicFile): all are opened first, then written, then renamed
 * into place; on any failure none is left behind, the message is
 * "gprof: FILE: reason" and the run exits with status 1.  FILE "-" is
 * standard output. */
#ifndef EXPORT_H
#define EXPORT_H
#include "hist.h"
#include "cg_arcs.h"

/* What the exports are given: the driver's state after the analysis. */
typedef struct {
  const char *program;          /* the object file as named */
  char **profiles;              /* the profile files read */
  int nprofiles;
  const SymTab *tab;
  const HistSet *hist;          /* NULL without histogram records */
  const CallGraph *cg;          /* NULL without call-graph records */
} ExportInput;

/* What was asked for on the command line. */
typedef struct {
  const char *dot, *callgrind, *json;   /* FILE, "-" or NULL (not wanted) */
  double node_threshold, edge_threshold; /* percent, for --dot */
} ExportOptions;

enum { EXPORT_DOT, EXPORT_CALLGRIND, EXPORT_JSON, EXPORT_KINDS };

void export_options_init(ExportOptions *eo);
/* Does any export go to standard output (which then holds nothing else)? */
int export_to_stdout(const ExportOptions *eo);
void export_write_all(const ExportOptions *eo, const ExportInput *in);

/* ---- shared by the writers (export.c) ---- */

/* The samples the call graph's percentages divide by: every symbol's
   propagated self time (cg_print.c's "print time"). */
double export_print_time(const SymTab *tab);
/* Is S's entry printed in the call graph (as cg_print decides)? */
int export_entry_printed(const Sym *s);
/* Writes V as a JSON number (shortest form that reads back the same);
   null when V is not finite. */
void export_json_number(FILE *f, double v);
/* Writes S as a JSON string (quoted; a byte that is not part of valid
   UTF-8 as the escape \udc80-\udcff, as Python's surrogateescape). */
void export_json_string(FILE *f, const char *s);
/* Writes S escaped for a double-quoted DOT string (no quotes added). */
void export_dot_text(FILE *f, const char *s);

/* The writers; each returns nothing and leaves errors to the FILE. */
void export_dot(FILE *f, const ExportInput *in, const ExportOptions *eo);
void export_callgrind(FILE *f, const ExportInput *in);
void export_json(FILE *f, const ExportInput *in);
#endif
