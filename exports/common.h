/* exports/common.h -- what the three exports share: what they are given,
 * what was asked of them, the call graph's totals and the writing of
 * strings and numbers in JSON and DOT.
 *
 * The exports read the same structs the text reports print from (SymTab,
 * HistSet, CallGraph), after the analysis, and never the text.  Their
 * figures are the text's (the text of --all-functions when the program
 * has functions GNU's rules drop: the exports are then drawn from an
 * analysis of that table, gprof.c exports_derive), unrounded: times in seconds (samples / rate),
 * percentages of the same totals, the same entries, index numbers and
 * arc lines. */
#ifndef EXPORT_COMMON_H
#define EXPORT_COMMON_H
#include "hist.h"
#include "cg_arcs.h"
#include "call_graph.h"
#include "stacks/stacks.h"
#include "reports/stack_times.h"
#include "analysis/fn_costs.h"

/* What the exports are given: the driver's state after the analysis. */
typedef struct ExportInput {
  const char *program;          /* the object file as named */
  char **profiles;              /* the profile files read */
  int nprofiles;
  const SymTab *tab;
  const HistSet *hist;          /* NULL without histogram records */
  const CallGraph *cg;          /* NULL without call-graph records */
  const ArcRecs *arc_recs;      /* the arc records as read (call sites), or
                                   NULL when not kept */
  const Stacks *stacks;         /* libprof's sampled stacks, resolved, or NULL
                                   when there are none or no requested
                                   export reads them */
  const StackTimes *stack_times; /* --stack-times: the measured times (the
                                   driver's, made once for the text report
                                   too), or NULL when not asked for */
  /* The options the exports follow beyond the table's (SymTab.opts: -l,
     -S, how names print): */
  int zeros;                    /* -z: symbols neither sampled nor called
                                   are listed too */
  int sum;                      /* -s: gmon.sum was written, which moved
                                   each kept arc record's caller address
                                   to the start of its line */
  const struct ExportInput *base; /* --diff-base: the profile before (its
                                   own table, stacks and histogram), or
                                   NULL */
  const char *src_dirs;         /* -I's and GPROF_PATH's directories, where
                                   --html looks for source files (source.h
                                   src_open); NULL: none */
  const FnCosts *fn_costs;      /* the costs --callgrind writes, made by
                                   the driver when a row needs them
                                   (EXPORT_NEEDS_FN_COSTS), or NULL */
  Objects *objects;             /* the one object model (objects.h): the
                                   program Object 0, the others; NULL: none
                                   (the file named is read then) */
} ExportInput;

/* How many rows export.c's table of exports may have. */
#define EXPORT_MAX_KINDS 8

/* What was asked for on the command line. */
typedef struct {
  /* per row of export.c's table (export_kinds): FILE, "-" or NULL (not
     wanted) */
  const char *target[EXPORT_MAX_KINDS];
  double node_threshold, edge_threshold; /* percent, for --dot */
  size_t max_nodes;                      /* --dot: at most this many, 0 = all */
  int full_names;                        /* --dot-full-names */
  /* the stacks' pictures (exports/flame.c) */
  int icicle;                            /* --icicle: the root on top */
  const char *icicle_callers;            /* --icicle=NAME: NAME's callers */
  int thread_roots;                      /* --stacks-thread=all: a root per
                                            thread (--folded, --flame) */
} ExportOptions;

/* --dot's name lines: at most this many characters. */
#define EXPORT_DOT_WIDTH 40

/* Is S a line symbol of -l (a stretch of one source line inside a
   function) rather than a function? */
static inline int export_is_line(const Sym *s) { return s->is_line; }

/* -l's basic-block counts of S (the -C listing prints them under S's own
   line): how many, and the K-th. */
static inline unsigned export_nblocks(const Sym *s) { return s->nbb; }
static inline void export_block(const Sym *s, unsigned k, vma_t *addr, uint64_t *count)
{
  *addr = s->bb_addr[k]; *count = s->bb_count[k];
}

/* The samples the call graph's percentages divide by: every symbol's
   propagated self time (cg_print.c's "print time"). */
double export_print_time(const SymTab *tab);
/* Is S's entry printed in the call graph (as cg_print decides, under
   IN's -z and its table's -l)? */
int export_entry_printed(const ExportInput *in, const Sym *s);
/* The text reports' orders, for the exports that list rows as they do
   (the one place the exports take them from the reports):
   the flat profile's rows (self time, calls, name) sorted in V[0..N);
   the per-call columns' SI prefix and *SCALE for seconds; an entry's
   caller (PARENTS) or callee arcs, a cycle's members, in the call
   graph's order, into *V (grown to *CAP). */
void export_flat_sort(Sym **v, size_t n);
const char *export_flat_call_unit(const HistSet *hs, const SymTab *tab, double *scale);
size_t export_entry_arcs(const Sym *s, int parents, Arc ***v, size_t *cap);
size_t export_entry_members(const Sym *cyc, Sym ***v, size_t *cap);
/* Writes V as a JSON number (shortest form that reads back the same);
   null when V is not finite. */
void export_json_number(FILE *f, double v);
/* Writes S as a JSON string (quoted; a byte that is not part of valid
   UTF-8 as the escape \udc80-\udcff, as Python's surrogateescape). */
void export_json_string(FILE *f, const char *s);
/* Writes S escaped for a double-quoted DOT string (no quotes added). */
void export_dot_text(FILE *f, const char *s);
/* Writes S as XML character data or a double-quoted attribute value,
   its first MAX characters at most (SIZE_MAX: all): a byte that is not
   part of valid UTF-8 is one character, U+FFFD; a control is '?'.
   Returns how many characters were written. */
size_t export_xml_text(FILE *f, const char *s, size_t max);
/* How many characters export_xml_text counts in S. */
size_t export_xml_chars(const char *s);
/* NAME (a demangled name) shortened for a picture: each template argument
   list is "<…>", each non-empty parameter list "(…)", a template
   function's return type is left out; namespaces, classes, operators,
   "(anonymous namespace)", "{lambda(…)#N}", "<lambda(…)>" and
   "[clone .x]" stay.  Returns a new string (xmalloc). */
char *export_short_name(const char *name);
/* S's label (sym_label) with its name shortened: a new string. */
char *export_short_label(const SymTab *tab, const Sym *s);
/* Writes S as export_dot_text does, in lines of at most WIDTH characters
   ("\n" between them), broken after "::" or a space outside parentheses
   where it can, else at WIDTH; returns the last line's length. */
size_t export_dot_wrapped(FILE *f, const char *s, size_t width);
#endif
