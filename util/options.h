/* options.h -- the run's options, as the command line set them.
 *
 * The driver (gprof.c) owns the one Options of a run: it fills it while
 * it parses the command line and never after, and no stage reads it
 * through global state.  Each stage is handed what it needs, explicitly:
 *
 *   - the symbol table carries the options its users share (SymTab.opts,
 *     symtab.h: -d, -l, -S, -a, how names print), for every stage that
 *     holds the table (corefile.c, linesyms.c, sym_ids.c, source.c,
 *     objects.c, stacks.c, call_graph.c, -c's finders);
 *   - the profile reader gets GmonOptions in its GmonContext (gmon_io.h:
 *     -O, -i, -d, which records are kept, -l/-s for basic blocks);
 *   - the call graph carries -d's bits (CallGraph.debug: cg_arcs.c,
 *     cg_dfn.c, analysis/propagate.c);
 *   - the text reports (flat.c, cg_print.c, annotate.c, stack_times.c)
 *     take a const Options *;
 *   - the exports get -z and -s in their ExportInput (exports/common.h)
 *     and the --stack-times table made once by the driver.
 *
 * What the inputs turn out to hold (kinds of records, the object's byte
 * order and address width) is not an option: it lives with the stage
 * that finds it out (Profile, Core).  The program's name, which messages
 * start with, is the message helper's (util.h util_set_name, util_name). */
#ifndef OPTIONS_H
#define OPTIONS_H

#include <stdio.h>

typedef struct {
  int brief, zeros, no_static, ignore_non_func, traditional;
  int want_info, want_sum;
  int keep_arcs;                /* keep the arc records (--callgrind's call sites) */
  int print_path, inline_names, demangle, line;
  int static_cg, all_lines, separate_files, table_length;
  unsigned long min_count;
  const char *map_file;         /* -R */
  const char *ext_symtab;       /* -S */
  const char *src_dirs;         /* -I, then GPROF_PATH: colon-separated source directories */
  int width;
  int file_format;              /* FF_AUTO ... */
  unsigned debug;               /* DBG_* bits */
  int objects;                  /* --objects: other objects' profiles too */
  int stack_times;              /* --stack-times: measured inclusive time */
  int all_functions;            /* --all-functions: GCC's clones and other
                                   functions GNU's rules drop are listed */
} Options;

enum { FF_AUTO, FF_BSD, FF_44BSD, FF_MAGIC, FF_PROF };

/* O with GNU's defaults (demangled names, -w 80, -t 10, -m 1; the rest
   off). */
void options_init(Options *o);

/* -d flags, as the manual numbers them; traces go to stdout.  DBG's
   first argument is the bits the stage was handed (SymTab.opts.debug,
   GmonOptions.debug, CallGraph.debug). */
enum {
  DBG_DFN = 2, DBG_CYCLE = 4, DBG_TALLY = 16, DBG_ARCSORT = 32,
  DBG_RECORDS = 64, DBG_SYMTAB = 128, DBG_STATIC_CG = 256, DBG_LOOKUP = 512,
  DBG_PROP = 1024, DBG_BB = 2048, DBG_SYMSPEC = 4096, DBG_ANNO = 8192
};
#define DBG(dbg, flag, ...) \
  do { if ((dbg) & (flag)) printf(__VA_ARGS__); } while (0)

#endif
