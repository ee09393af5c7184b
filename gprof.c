/* gprof.c -- options and the driver of the pipeline.
 *
 * Parses the command line into the run's Options (options.h) and the
 * symbol specifications, then runs the stages in order, holding what each
 * returns: the object (Core) and its symbol table, the profile data and
 * its call graph, the analysis, and the reports.  The Options stay here,
 * in the Run: each stage is handed the ones it follows (options.h says
 * which).  Nothing below calls back into this file. */
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/options.h"
#include "corefile.h"
#include "lines/linesyms.h"
#include "sym_ids.h"
#include "gmon_io.h"
#include "gmon_out.h"
#include "analysis/propagate.h"
#include "reports/flat.h"
#include "cg_print.h"
#include "reports/cg_order.h"
#include "reports/annotate.h"
#include "exports/export.h"
#include "stacks/objects.h"
#include "stacks/stacks.h"
#include "reports/stack_times.h"
#include "exports/stack_views.h"
#include "exports/diff_flat.h"
#include "stacks/sum.h"
#include <libiberty/demangle.h>
#include <libiberty/libiberty.h>

#define GPROF_VERSION "0.1"

/* GNU's long options, then the exports' (--dot[=FILE] ..., from
   export.c's table, with EXPORT_OPT + row), then our other ones: in
   this order (getopt's "ambiguous" message lists them so). */
enum { EXPORT_OPT = 1100 };
static const struct option gnu_opts[] = {
  { "annotated-source", optional_argument, 0, 'A' },
  { "brief", no_argument, 0, 'b' },
  { "demangle", optional_argument, 0, 1000 },
  { "no-demangle", no_argument, 0, 1001 },
  { "debug", optional_argument, 0, 'd' },
  { "directory-path", required_argument, 0, 'I' },
  { "display-unused-functions", no_argument, 0, 'z' },
  { "exec-counts", optional_argument, 0, 'C' },
  { "file-format", required_argument, 0, 'O' },
  { "file-info", no_argument, 0, 'i' },
  { "file-ordering", required_argument, 0, 'R' },
  { "flat-profile", optional_argument, 0, 'p' },
  { "function-ordering", no_argument, 0, 'r' },
  { "graph", optional_argument, 0, 'q' },
  { "help", no_argument, 0, 'h' },
  { "ignore-non-functions", no_argument, 0, 'D' },
  { "inline-file-names", no_argument, 0, 1002 },
  { "line", no_argument, 0, 'l' },
  { "min-count", required_argument, 0, 'm' },
  { "no-annotated-source", optional_argument, 0, 'J' },
  { "no-exec-counts", optional_argument, 0, 'Z' },
  { "no-flat-profile", optional_argument, 0, 'P' },
  { "no-graph", optional_argument, 0, 'Q' },
  { "no-static", no_argument, 0, 'a' },
  { "no-time", required_argument, 0, 'N' },
  { "print-path", no_argument, 0, 'L' },
  { "separate-files", no_argument, 0, 'y' },
  { "static-call-graph", no_argument, 0, 'c' },
  { "sum", no_argument, 0, 's' },
  { "table-length", required_argument, 0, 't' },
  { "time", required_argument, 0, 'n' },
  { "traditional", no_argument, 0, 'T' },
  { "version", no_argument, 0, 'v' },
  { "width", required_argument, 0, 'w' },
  { "all-lines", no_argument, 0, 'x' },
  { "external-symbol-table", required_argument, 0, 'S' },
};
/* our other long options (the exports' settings, --objects): long
   only, no GNU short option changes meaning */
static const struct option our_opts[] = {
  { "node-threshold", required_argument, 0, 1013 },
  { "edge-threshold", required_argument, 0, 1014 },
  { "max-nodes", required_argument, 0, 1015 },
  { "dot-full-names", no_argument, 0, 1016 },
  { "objects", no_argument, 0, 1020 },
  { "stack-times", no_argument, 0, 1021 },
  /* the stacks' views and the difference of two profiles */
  { "stacks-thread", required_argument, 0, 1030 },
  { "focus", required_argument, 0, 1031 },
  { "hide", required_argument, 0, 1032 },
  { "icicle", optional_argument, 0, 1033 },
  { "diff-base", required_argument, 0, 1034 },
  { "diff-base-program", required_argument, 0, 1035 },
  { "diff-flat", no_argument, 0, 1036 },
  { "all-functions", no_argument, 0, 1022 },
};
#define NOPTS(t) (sizeof t / sizeof t[0])

static const struct option *long_options(void)
{
  static struct option all[NOPTS(gnu_opts) + EXPORT_MAX_KINDS + NOPTS(our_opts) + 1];
  size_t n = NOPTS(gnu_opts);
  memcpy(all, gnu_opts, sizeof gnu_opts);
  for (int k = 0; k < export_nkinds; k++)
    all[n++] = (struct option){ export_kinds[k].name, optional_argument, 0, EXPORT_OPT + k };
  memcpy(all + n, our_opts, sizeof our_opts);
  return all;                   /* static: the rest is zero, the end */
}

/* --help's lines for export_kinds' rows of GROUP (each "[--NAME[=FILE]]"
   and its help), then MORE, in lines of at most 72 columns (a tab is 8). */
static void help_exports(FILE *f, int group, const char *more)
{
  int col = 0;
  for (int k = 0; k <= export_nkinds; k++) {
    char item[256];
    if (k < export_nkinds && export_kinds[k].group != group) continue;
    if (k < export_nkinds)
      snprintf(item, sizeof item, "[--%s[=FILE]]%s%s", export_kinds[k].name,
               export_kinds[k].help ? " " : "", export_kinds[k].help ? export_kinds[k].help : "");
    else if (more)
      snprintf(item, sizeof item, "%s", more);
    else
      break;
    /* an item with its help may be broken at its spaces */
    for (char *w = item; *w;) {
      size_t n = strcspn(w, " ");
      if (w != item && w[-1] == ' ' && w[0] == '(') n = strlen(w);   /* "(...)" stays whole */
      if (col && col + 1 + (int)n > 72) { fputc('\n', f); col = 0; }
      fprintf(f, "%s%.*s", col ? " " : "\t", (int)n, w);
      col += (col ? 1 : 8) + (int)n;
      w += n;
      while (*w == ' ') w++;
    }
  }
  if (col) fputc('\n', f);
}

/* The usage text as GNU prints it after an option error (stderr, exit
   1); --help (stdout, exit 0) adds the options GNU does not have. */
static void usage(FILE *f, int status)
{
  fprintf(f,
    "Usage: %s [-[abcDhilLrsTvwxyz]] [-[ABCeEfFJnNOpPqQRStZ][name]] [-I dirs]\n"
    "\t[-d[num]] [-k from/to] [-m min-count] [-t table-length]\n"
    "\t[--[no-]annotated-source[=name]] [--[no-]exec-counts[=name]]\n"
    "\t[--[no-]flat-profile[=name]] [--[no-]graph[=name]]\n"
    "\t[--[no-]time=name] [--all-lines] [--brief] [--debug[=level]]\n"
    "\t[--function-ordering] [--file-ordering] [--inline-file-names]\n"
    "\t[--directory-path=dirs] [--display-unused-functions]\n"
    "\t[--file-format=name] [--file-info] [--help] [--line] [--min-count=n]\n"
    "\t[--no-static] [--print-path] [--separate-files]\n"
    "\t[--static-call-graph] [--sum] [--table-length=len] [--traditional]\n"
    "\t[--version] [--width=n] [--ignore-non-functions]\n"
    "\t[--demangle[=STYLE]] [--no-demangle] [--external-symbol-table=name] [@FILE]\n"
    "\t[image-file] [profile-file...]\n",
    util_name());
  if (status == 0) {            /* --help: our own long options too */
    fprintf(f, "Exports (long options only; FILE \"-\" is standard output, which then\n"
               "holds only that):\n");
    help_exports(f, EXPORT_GROUP_DATA, NULL);
    fprintf(f, "Sampled stacks (libprof's PROFILE.stacks, LIBPROF_STACKS=DEPTH):\n");
    help_exports(f, EXPORT_GROUP_STACKS, "[--stack-times]");
    fprintf(f, "Other objects (libprof's PROFILE.objects/, LIBPROF_OBJECTS=1):\n"
               "\t[--objects]\n");
    fprintf(f, "Views of the stacks (--folded, --flame, --pprof), NAME a function:\n"
               "\t[--stacks-thread=TID|NAME[,...]|all] [--focus=NAME] [--hide=NAME]\n"
               "\t[--icicle[=NAME]] (--flame: root on top; NAME's callers)\n"
               "Before and after (OLD: the profile before, of PROGRAM or image-file):\n"
               "\t[--diff-base=OLD] [--diff-base-program=PROGRAM] [--diff-flat]\n");
    fprintf(f, "Names (GCC's clones as functions of their own, as the exports show them):\n"
               "\t[--all-functions]\n");
  }
  exit(status);
}

enum {
  STYLE_FLAT = 1, STYLE_GRAPH = 2, STYLE_EXEC = 4, STYLE_ANNO = 8,
  STYLE_FUNC_ORDER = 16, STYLE_FILE_ORDER = 32, STYLE_SUM = 64
};

/* -p -q -C -A: the report is on, limited to SPEC's symbols if given. */
static void report_on(SymSpecs *specs, unsigned *style, unsigned *user, unsigned bit, int table)
{
  if (optarg) sym_id_add(specs, optarg, table);
  *style |= bit;
  *user |= bit;
}

/* -P -Q -Z -J: without SPEC the report is off; with one it is on but
   leaves SPEC's symbols out. */
static void report_off(SymSpecs *specs, unsigned *style, unsigned *user, unsigned bit, int table)
{
  if (optarg) {
    sym_id_add(specs, optarg, table);
    *style |= bit;
  } else {
    *style &= ~bit;
  }
  *user |= bit;
}

/* -c: each call a finder reports becomes an arc of count zero. */
static void add_static_arc(void *cg, Sym *parent, Sym *callee)
{
  arc_add(cg, parent, callee, 0);
}

/* --node-threshold, --edge-threshold: a percentage. */
static double threshold(const char *arg)
{
  char *end;
  double v = strtod(arg, &end);
  if (end == arg || *end || !(v >= 0 && v <= 100))
    msg_fatal("invalid threshold `%s' (a percentage from 0 to 100)\n", arg);
  return v;
}

/* Everything the stages hand on to the next: what the command line
   asked for, then what each stage returns. */
typedef struct Run {
  Options options;              /* only the driver reads them all */
  SymSpecs specs;
  ExportOptions exports;
  unsigned style, user;         /* requested outputs, outputs named */
  const char *a_out;            /* the object */
  char **files;                 /* the profiles */
  int nfiles;
  Core core;
  CoreMap map;
  SymTab syms;
  Objects objs;
  Stacks stacks;                /* read when an export needs them */
  StackViewOptions views;       /* --stacks-thread, --focus, --hide */
  Stacks view;                  /* the stacks the exports draw, when a
                                   view was asked for */
  char **base_files;            /* --diff-base: the profiles before */
  int nbase;
  const char *base_program;     /* --diff-base-program */
  int diff_flat;                /* --diff-flat */
  struct Run *base;             /* the run of the profiles before */
  Profile prof;
  StackTimes times;             /* --stack-times: made once, for the text
                                   report and --json */
  int flat, graph, exec;        /* the reports chosen */
  int all_funcs;                /* the exports' run: SymTabOptions.all_funcs */
  int argc;                     /* the command line (the exports' run parses */
  char **argv;                  /* it again, for its own symspecs) */
  ArcPairs pairs;               /* the program's arc records as read, for
                                   the exports' run */
  struct Run *x;                /* the exports' run (exports_derive), or NULL */
} Run;

/* LIST, then DIR: a colon-separated search list one longer. */
static const char *path_append(const char *list, const char *dir)
{
  if (!list) return dir;
  char *d = xmalloc(strlen(list) + strlen(dir) + 2);
  sprintf(d, "%s:%s", list, dir);
  return d;
}

/* Stage 1: the command line into the Options, the symspecs and the
   exports. */
static void parse_options(Run *r, int argc, char **argv)
{
  int c;
  Options *o = &r->options;
  SymSpecs *specs = &r->specs;
  ExportOptions *ex = &r->exports;
  unsigned *style = &r->style, *user = &r->user;
  options_init(o);
  const struct option *long_opts = long_options();
  while ((c = getopt_long(argc, argv,
             "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::",
             long_opts, NULL)) != -1) {
    switch (c) {
    case 'a': o->no_static = 1; break;
    case 'A': report_on(specs, style, user, STYLE_ANNO, INCL_ANNO); break;
    case 'J': report_off(specs, style, user, STYLE_ANNO, EXCL_ANNO); break;
    case 'b': o->brief = 1; break;
    case 'c': o->static_cg = 1; break;
    case 'd': o->debug = optarg ? (unsigned)atoi(optarg) : ~0u; break;
    case 'D': o->ignore_non_func = 1; break;
    case 'e': sym_id_add(specs, optarg, EXCL_GRAPH); break;
    case 'E': sym_id_add(specs, optarg, EXCL_GRAPH); sym_id_add(specs, optarg, EXCL_TIME); break;
    case 'f': sym_id_add(specs, optarg, INCL_GRAPH); break;
    case 'F': sym_id_add(specs, optarg, INCL_GRAPH); sym_id_add(specs, optarg, INCL_TIME); break;
    case 'i': o->want_info = 1; break;
    case 'I': o->src_dirs = path_append(o->src_dirs, optarg); break;   /* each -I adds */
    case 'k': {
      /* GNU takes a spec without '/' and it deletes nothing */
      char *slash = strchr(optarg, '/');
      if (!slash) break;
      *slash = 0;
      sym_id_add_arc(specs, optarg, slash + 1);
      break;
    }
    case 'l': o->line = 1; break;
    case 'L': o->print_path = 1; break;
    case 'm': o->min_count = strtoul(optarg, NULL, 10); break;   /* decimal, as GNU */
    case 'n': sym_id_add(specs, optarg, INCL_TIME); break;
    case 'N': sym_id_add(specs, optarg, EXCL_TIME); break;
    case 'p': report_on(specs, style, user, STYLE_FLAT, INCL_FLAT); break;
    case 'P': report_off(specs, style, user, STYLE_FLAT, EXCL_FLAT); break;
    case 'q': report_on(specs, style, user, STYLE_GRAPH, INCL_GRAPH); break;
    case 'Q': report_off(specs, style, user, STYLE_GRAPH, EXCL_GRAPH); break;
    case 'C': report_on(specs, style, user, STYLE_EXEC, INCL_EXEC); break;
    case 'Z': report_off(specs, style, user, STYLE_EXEC, EXCL_EXEC); break;
    case 'r': *style |= STYLE_FUNC_ORDER; *user |= STYLE_FUNC_ORDER; break;
    case 'R': o->map_file = optarg; *style |= STYLE_FILE_ORDER; *user |= STYLE_FILE_ORDER; break;
    /* GNU's -s also turns on -l: with -p, -q, -A ... the reports are by line */
    case 's': o->want_sum = 1; o->line = 1; *style |= STYLE_SUM; *user |= STYLE_SUM; break;
    case 'S': o->ext_symtab = optarg; break;
    case 't': o->table_length = atoi(optarg); break;
    case 'T': o->traditional = 1; break;
    case 'w': o->width = atoi(optarg); break;
    case 'x': o->all_lines = 1; break;
    case 'y': o->separate_files = 1; break;
    case 'z': o->zeros = 1; break;
    case 'O':
      if (!strcmp(optarg, "auto")) o->file_format = FF_AUTO;
      else if (!strcmp(optarg, "bsd")) o->file_format = FF_BSD;
      else if (!strcmp(optarg, "4.4bsd")) o->file_format = FF_44BSD;
      else if (!strcmp(optarg, "magic")) o->file_format = FF_MAGIC;
      /* refused only when the first profile is to be read (after the
         object, -R and -S; not for -h or -v) */
      else if (!strcmp(optarg, "prof")) o->file_format = FF_PROF;
      else {
        /* sic: GNU prints the argument first and the program name last */
        fprintf(stderr, "%s: unknown file format %s\n", optarg, util_name());
        exit(1);
      }
      break;
    case 'v':
      printf("gprof (clean-room reimplementation) %s\n", GPROF_VERSION);
      printf("Reads and writes the data and reports of GNU gprof 2.40.\n");
      exit(0);
    case 'h': usage(stdout, 0); break;
    case 1000:
      o->demangle = 1;
      if (optarg) {
        enum demangling_styles st = cplus_demangle_name_to_style(optarg);
        if (st == unknown_demangling)   /* stdout is still empty */
          msg_fatal("unknown demangling style `%s'\n", optarg);
        cplus_demangle_set_style(st);
      }
      break;
    case 1001: o->demangle = 0; break;
    case 1002: o->inline_names = 1; break;
    case 1013: ex->node_threshold = threshold(optarg); break;
    case 1014: ex->edge_threshold = threshold(optarg); break;
    case 1015: {
      char *end;
      unsigned long v = strtoul(optarg, &end, 10);
      if (end == optarg || *end || optarg[0] == '-')
        msg_fatal("invalid --max-nodes `%s'\n", optarg);
      ex->max_nodes = v;
      break;
    }
    case 1016: ex->full_names = 1; break;
    case 1020: o->objects = 1; break;
    case 1021: o->stack_times = 1; break;
    case 1030: r->views.threads = optarg; break;
    case 1031:
      r->views.focus = xrealloc(r->views.focus, (r->views.nfocus + 1) * sizeof *r->views.focus);
      r->views.focus[r->views.nfocus++] = optarg;
      break;
    case 1032:
      r->views.hide = xrealloc(r->views.hide, (r->views.nhide + 1) * sizeof *r->views.hide);
      r->views.hide[r->views.nhide++] = optarg;
      break;
    case 1033:
      ex->icicle = 1;
      if (optarg && *optarg) ex->icicle_callers = optarg;
      break;
    case 1034:
      r->base_files = xrealloc(r->base_files, (size_t)(r->nbase + 1) * sizeof *r->base_files);
      r->base_files[r->nbase++] = optarg;
      break;
    case 1035: r->base_program = optarg; break;
    case 1036: r->diff_flat = 1; break;
    case 1022: o->all_functions = 1; break;
    case '?': usage(stderr, 1); break;
    default:
      if (c >= EXPORT_OPT && c < EXPORT_OPT + export_nkinds) {
        const ExportKind *x = &export_kinds[c - EXPORT_OPT];
        if (optarg && !strcmp(optarg, "-") && !x->to_stdout)
          msg_fatal("--%s cannot write to standard output\n", x->name);
        /* as gzip: compressed data is not sent to a terminal */
        if (optarg && !strcmp(optarg, "-") && x->to_stdout == EXPORT_STDOUT_BINARY && isatty(1))
          msg_fatal("--%s: binary data not written to a terminal\n", x->name);
        ex->target[c - EXPORT_OPT] = optarg ? optarg : x->default_file;
      }
      break;
    }
  }
  /* GPROF_PATH: more source directories, searched after -I's */
  const char *env_path = getenv("GPROF_PATH");
  if (env_path && *env_path) o->src_dirs = path_append(o->src_dirs, env_path);
  r->a_out = optind < argc ? argv[optind++] : "a.out";
  static char *deflt[] = { (char *)"gmon.out" };
  r->nfiles = argc - optind;
  r->files = r->nfiles ? argv + optind : deflt;
  if (!r->nfiles) r->nfiles = 1;
  o->keep_arcs = (export_needs(ex) & EXPORT_NEEDS_ARC_RECS) != 0;
  ex->thread_roots = stack_view_thread_roots(&r->views);
  if ((r->base_program || r->diff_flat) && !r->nbase)
    msg_fatal("--%s compares with the profile before: give it with --diff-base=FILE\n",
              r->diff_flat ? "diff-flat" : "diff-base-program");
  if ((*style & STYLE_FUNC_ORDER) && (*style & STYLE_FILE_ORDER))
    msg_fatal("Only one of --function-ordering and --file-ordering may be specified.\n");
}

/* An export that draws the sampled stacks was asked for, and no profile
   file has them beside it. */
_Noreturn static void no_stacks(const Run *r)
{
  const char *what = r->options.stack_times ? "stack-times" : "";
  for (int k = 0; k < export_nkinds && !*what; k++)
    if (r->exports.target[k] && (export_kinds[k].needs & EXPORT_NEEDS_STACKS)) what = export_kinds[k].name;
  msg_fatal("%s.stacks: no stack file: --%s draws the stacks libprof samples (run the program with "
            "LIBPROF_STACKS=64)\n", r->files[0], what);
}

/* Standard error muted while the exports' run does again what the first
   run did and said (its messages were the first's); returns what
   unmute_stderr needs. */
static int mute_stderr(void)
{
  fflush(stdout);
  fflush(stderr);
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null >= 0) dup2(null, 2);
  if (null >= 0) close(null);
  return saved;
}

static void unmute_stderr(int saved)
{
  fflush(stderr);
  if (saved >= 0) {
    dup2(saved, 2);
    close(saved);
  }
}

static void exports_derive(Run *r);

/* Whether the exports get a table of their own (exports_derive): an
   export asked for, and the program has functions GNU's table leaves out
   (GCC's clones), unless the table is already theirs. */
static int derives(Run *r)
{
  const Options *o = &r->options;
  return !r->all_funcs && export_any(&r->exports) && !o->all_functions && !o->ext_symtab && !o->no_static
         && core_dropped_funcs(&r->core);
}

/* Stage 2: the object and its symbols (--objects: other objects'
   symbols after the program's), then the symspecs matched to them.  The
   table carries the options its users share (symtab.h SymTabOptions). */
static void open_object(Run *r)
{
  const Options *o = &r->options;
  r->syms.opts = (SymTabOptions){
    .debug = o->debug, .line = o->line, .external = o->ext_symtab != NULL,
    .no_static = o->no_static, .demangle = o->demangle && !o->traditional,
    .inline_names = o->inline_names, .print_path = o->print_path,
    .all_funcs = r->all_funcs || o->all_functions,
  };
  core_init(&r->core, r->a_out);
  if (o->map_file) core_read_map(&r->map, o->map_file, o->debug);
  if (o->ext_symtab) core_read_external_symtab(&r->core, &r->syms, o->ext_symtab);
  else core_create_function_syms(&r->core, &r->map, &r->syms);
  /* -l's line table walked for the exports' table too: decoded once
     (the walk kept then serves --pprof's and --callgrind's line points) */
  r->core.line_share = o->line && !o->ext_symtab && derives(r);
  if (o->line && !o->ext_symtab) line_add_syms(&r->core, &r->syms);
  objects_program(&r->objs, &r->core, r->a_out);   /* Object 0 of the one model */
  if (o->objects) objects_load(&r->objs, &r->syms, r->files, r->nfiles);
  if ((export_needs(&r->exports) & (EXPORT_NEEDS_STACKS | EXPORT_USES_STACKS)) || o->stack_times) {
    stacks_load(&r->stacks, &r->objs, &r->syms, r->files, r->nfiles);
  }
  if (derives(r)) exports_derive(r);
  sym_id_parse(&r->specs, &r->syms);
  DBG(o->debug, ~0u, "debug: flags 0x%x\n", o->debug);
}

/* What the profile reader follows (gmon_io.h), for the program's files
   and the other objects' alike. */
static GmonOptions reader_options(const Options *o)
{
  return (GmonOptions){
    .file_format = o->file_format, .keep_arcs = o->want_sum || o->keep_arcs,
    .use_bb = o->line || o->want_sum, .info = o->want_info, .debug = o->debug,
  };
}

/* Stage 3: the profile data, checked against the object; -s writes
   gmon.sum. */
static void read_profiles(Run *r)
{
  const Options *o = &r->options;
  Profile *prof = &r->prof;
  gmon_init(prof, r->core.addr_size, r->core.big_endian);
  prof->cg.debug = o->debug;
  GmonContext cx = { .opts = reader_options(o), .syms = &r->syms, .specs = &r->specs };
  /* what tells a profile of another program (gmon_io.c check_origin) */
  unsigned char build_id[GMON_BUILD_ID_LEN];
  vma_t code[64][2];
  cx.object = r->a_out;
  cx.pairs = r->x ? &r->pairs : NULL;
  cx.build_id = core_build_id(&r->core, build_id, sizeof build_id) ? build_id : NULL;
  cx.code = (const vma_t (*)[2])code;
  cx.ncode = core_code_ranges(&r->core, code, 64);
  if (o->file_format == FF_PROF)
    msg_fatal("sorry, file format `prof' is not yet supported\n");
  for (int i = 0; i < r->nfiles; i++) gmon_out_read(prof, &cx, r->files[i]);
  gmon_finish(prof);
  if (o->want_info) exit(0);
  /* (not while summing: the sum keeps the facts, and reading it says so) */
  if (!(r->style & STYLE_SUM))
    gmon_facts_note(&prof->facts, r->nfiles == 1 ? r->files[0] : "the profiles", o->objects);
  if ((o->line || (r->style & STYLE_SUM)) && prof->have_bb) bb_assign(&prof->bb, &r->syms);
  if (r->style & STYLE_SUM) gmon_out_write(prof, &r->syms, "gmon.sum");
  if (r->style & STYLE_SUM) {   /* -s keeps the stacks, and the objects without --objects too */
    unsigned char id[OBJECTS_ID_MAX];
    int n = core_build_id(&r->core, id, sizeof id);
    stacks_sum_write(r->files, r->nfiles, n > 0 ? id : NULL,
                     n > 0 ? ((size_t)n < sizeof id ? (size_t)n : sizeof id) : 0, "gmon.sum");
    if (!o->objects) {
      GmonOptions go = reader_options(o);
      stacks_sum_objects(r->files, r->nfiles, r->core.addr_size, r->core.big_endian, &go, "gmon.sum");
    }
  }
}

/* The analysis of what was read over R's table: samples and arcs to
   its symbols, the call graph (-c scans [CG_LO, CG_HI), the program's
   histogram range, in CORE), the stacks' frames to its functions,
   --stack-times' table.  FREE_BINS: the histogram's bins go when no
   export reads them. */
static void analyse_table(Run *r, Core *core, vma_t cg_lo, vma_t cg_hi, int free_bins)
{
  const Options *o = &r->options;
  Profile *prof = &r->prof;
  if (prof->have_hist) hist_assign_samples(&prof->hist, &r->syms);
  if (objects_present(&r->objs)) objects_settle(&r->objs, &r->syms);
  if (objects_present(&r->objs)
      && objects_add_arcs(&r->objs, &prof->cg, o->keep_arcs ? &prof->arc_recs : NULL, &r->syms, &r->specs))
    prof->have_arcs = 1;
  /* peak memory: no report reads them, -l's and -s's neither (an export may) */
  if (free_bins && !(export_needs(&r->exports) & EXPORT_NEEDS_BINS)) hist_free_bins(&prof->hist);
  if (prof->have_arcs) {
    if (o->static_cg) core_find_calls(core, &r->syms, cg_lo, cg_hi, add_static_arc, &prof->cg);
    cg_assemble(&prof->cg, &r->syms);
  }
  /* no symbol moves any more: each frame's function */
  if (r->stacks.present) stacks_resolve(&r->stacks, &r->syms);
  /* once, for the text report and --json alike */
  if (o->stack_times)
    stack_times_compute(&r->times, &r->stacks, prof->have_arcs ? &prof->cg : NULL, prof->hist.hz);
}

/* The exports' run's profile, from what R read (after the objects'
   files): the histogram records and basic-block counts shared, the
   program's arc records replayed into its own call graph, the objects'
   arcs copied. */
static void derive_profile(Run *r)
{
  Run *x = r->x;
  Profile *p = &x->prof;
  gmon_derive(p, &r->prof);
  GmonOptions go = reader_options(&x->options);
  cg_pairs_replay(&r->pairs, &p->cg, go.keep_arcs ? &p->arc_recs : NULL, &x->syms, &x->specs);
  cg_pairs_free(&r->pairs);
  if (x->options.line && p->have_bb) bb_assign(&p->bb, &x->syms);
  if (objects_present(&r->objs)) objects_share(&x->objs, &r->objs);
}

/* Stage 4: the analysis, samples to symbols and the call graph, and
   --stack-times' table; the exports' run's too, from the same data. */
static void analyse(Run *r)
{
  const Options *o = &r->options;
  Profile *prof = &r->prof;
  vma_t cg_lo = 0, cg_hi = 0;
  /* (here, so that a profile file's own errors come first) */
  if (((export_needs(&r->exports) & EXPORT_NEEDS_STACKS) || o->stack_times) && !r->stacks.present)
    no_stacks(r);
  hist_range(&prof->hist, &cg_lo, &cg_hi);
  GmonOptions go = reader_options(o);
  if (objects_present(&r->objs) && (r->style & STYLE_SUM)) objects_want_sum(&r->objs);
  if (objects_present(&r->objs)
      && objects_read_hist(&r->objs, &prof->hist, r->core.addr_size, r->core.big_endian, &go))
    prof->have_hist = 1;
  if (objects_present(&r->objs) && (r->style & STYLE_SUM)) objects_write_sum(&r->objs, "gmon.sum");
  if (r->x) derive_profile(r);
  analyse_table(r, &r->core, cg_lo, cg_hi, !r->x);
  if (r->x) {
    int saved = mute_stderr();
    analyse_table(r->x, &r->core, cg_lo, cg_hi, 1);   /* (the bins are shared) */
    unmute_stderr(saved);
  }
}

/* Stage 5: the reports to print: those asked for or, when none was, the
   default (flat profile and call graph) less any the user switched off;
   by default a missing kind of data just drops its report, and with
   neither histogram nor arcs the execution counts stand in. */
static void choose_reports(Run *r)
{
  const Profile *prof = &r->prof;
  int explicit = r->style != 0;
  if (!explicit && r->diff_flat) {  /* the differences alone */
    r->flat = r->graph = r->exec = 0;
    return;
  }
  if (!explicit) {
    r->style = (STYLE_FLAT | STYLE_GRAPH) & ~r->user;
    if (!prof->have_hist && !prof->have_arcs && !(r->user & STYLE_EXEC)) r->style |= STYLE_EXEC;
  }
  r->flat = (r->style & STYLE_FLAT) != 0;
  r->graph = (r->style & STYLE_GRAPH) != 0;
  r->exec = (r->style & STYLE_EXEC) != 0;
  if (r->flat && !prof->have_hist) {
    if (explicit) msg_fatal("gmon.out file is missing histogram\n");
    r->flat = 0;
  }
  if (r->graph && !prof->have_arcs) {
    if (explicit) msg_fatal("gmon.out file is missing call-graph data\n");
    r->graph = 0;
  }
}

/* The stacks the exports draw: R's view when one was asked for, after
   a check that each function named is in some stack. */
static void make_view(Run *r)
{
  const StackViewOptions *v = &r->views;
  const ExportOptions *ex = &r->exports;
  if (!r->stacks.present) return;
  stack_view_check(v, &r->stacks);
  const char *none = NULL;
  for (size_t k = 0; k <= v->nfocus && !none; k++) {
    const char *name = k < v->nfocus ? v->focus[k] : ex->icicle_callers;
    if (!name) continue;
    int found = 0;
    for (size_t i = 0; i < r->stacks.n && !found; i++)
      for (uint32_t j = 0; j < r->stacks.v[i].n && !found; j++)
        found = stack_view_matches(stacks_frame_name(&r->stacks, &r->syms, r->stacks.v[i].first + j), name);
    if (!found) none = name;
  }
  if (none)
    msg_fatal("%s.stacks: no stack goes through `%s'\n", r->files[0], none);
  if (stack_view_active(v)) stack_view_make(&r->view, &r->stacks, &r->syms, v);
}

/* The profiles before (--diff-base), read and analysed as R's own are,
   with R's options (and an exports' run of their own when R's needs
   one): the same command line again, the program --diff-base-program or
   R's, the files --diff-base's. */
static Run *read_base(Run *r, int argc, char **argv)
{
  Run *b = xcalloc(1, sizeof *b);
  sym_id_init(&b->specs);
  export_options_init(&b->exports);
  optind = 0;                   /* getopt starts over */
  parse_options(b, argc, argv);
  b->argc = argc;
  b->argv = argv;
  b->a_out = r->base_program ? r->base_program : r->a_out;
  b->files = r->base_files;
  b->nfiles = r->nbase;
  b->nbase = 0;
  b->options.want_sum = 0;       /* -s sums the profiles after, not these */
  b->style &= ~STYLE_SUM;
  open_object(b);
  read_profiles(b);
  analyse(b);
  make_view(b);
  if (b->x) {
    int saved = mute_stderr();
    make_view(b->x);
    unmute_stderr(saved);
  }
  if (r->diff_flat && (!r->prof.have_hist || !b->prof.have_hist))
    msg_fatal("%s: no histogram: --diff-flat compares the flat profiles\n",
              !r->prof.have_hist ? r->files[0] : b->files[0]);
  return b;
}

/* The export input of the run before. */
static void base_input(Run *b, ExportInput *in)
{
  const Profile *prof = &b->prof;
  *in = (ExportInput){ b->a_out, b->files, b->nfiles, &b->syms,
                       prof->have_hist ? &prof->hist : NULL,
                       prof->have_arcs ? &prof->cg : NULL,
                       NULL,
                       b->stacks.present ? (b->view.v ? &b->view : &b->stacks) : NULL,
                       NULL, b->options.zeros, 0, NULL, NULL, NULL, &b->objs };
}

/* The exports name the functions that ran, GCC's clones too (f.isra.0,
   f.part.0, f.cold), which GNU's rules leave out of the table the text
   reports are made from, giving their samples and calls to the function
   before them.  When the program has such functions (and an export is
   asked for), the exports are drawn from a run of their own on a table
   that keeps them, derived from R's: the same object (R's Core: no
   second open), its symspecs parsed again from the command line, the
   other objects' symbols copied (objects_copy_syms), the stacks shared
   (each run resolves their frames in its own table).  read_profiles
   then keeps the arc records for it, and analyse analyses it beside R
   from what R read (derive_profile): no file is read twice.  Its
   messages were said by R's (standard error is muted meanwhile), and
   -s's files are written once. */
static void exports_derive(Run *r)
{
  int saved = mute_stderr();
  Run *x = xcalloc(1, sizeof *x);
  sym_id_init(&x->specs);
  export_options_init(&x->exports);
  optind = 0;                   /* (glibc: the scan starts afresh) */
  parse_options(x, r->argc, r->argv);
  x->options.debug = 0;
  x->style &= ~STYLE_SUM;
  x->all_funcs = 1;
  x->argc = r->argc;
  x->argv = r->argv;
  x->a_out = r->a_out;
  x->files = r->files;
  x->nfiles = r->nfiles;
  x->nbase = 0;                 /* (R's run before has its own: main) */
  x->syms.opts = r->syms.opts;
  x->syms.opts.debug = 0;
  x->syms.opts.all_funcs = 1;
  core_create_function_syms(&r->core, &r->map, &x->syms);
  if (x->options.line) line_add_syms(&r->core, &x->syms);
  if (r->syms.nmain && !objects_copy_syms(&x->syms, &r->syms)) {
    /* (the program's clones reach the objects' synthetic range: never
       on a real program) the exports keep GNU's table */
    free(x);
    unmute_stderr(saved);
    return;
  }
  if (r->stacks.present) {      /* the frames placed once; names per table */
    x->stacks = r->stacks;
    x->stacks.sym = NULL;
    x->stacks.objname = NULL;
    x->stacks.pcname = NULL;
    x->stacks.reader = NULL;
  }
  sym_id_parse(&x->specs, &x->syms);
  r->x = x;
  unmute_stderr(saved);
}

/* Stage 6: the exports, from the same analysis (or the exports' run's);
   returns whether one went to standard output, which then holds nothing
   else. */
static int write_exports(Run *r)
{
  const ExportOptions *ex = &r->exports;
  if (!export_any(ex)) return 0;
  int nout = export_to_stdout(ex);
  if (nout > 1) msg_fatal("only one export may go to standard output\n");
  Run *top = r;
  if (r->x) r = r->x;
  const Profile *prof = &r->prof;
  const Options *o = &r->options;
  ExportInput in = { r->a_out, r->files, r->nfiles, &r->syms,
                     prof->have_hist ? &prof->hist : NULL,
                     prof->have_arcs ? &prof->cg : NULL,
                     o->keep_arcs ? &prof->arc_recs : NULL,
                     r->stacks.present ? &r->stacks : NULL,
                     o->stack_times ? &r->times : NULL,
                     o->zeros, o->want_sum && (r->style & STYLE_SUM), NULL, o->src_dirs, NULL,
                     &top->objs };   /* (the exports' run shares its objects) */
  ExportInput base;
  if (r->base) {
    base_input(r->base, &base);
    in.base = &base;
  }
  if (r->stacks.present && r->view.v) in.stacks = &r->view;
  /* what the writers read beyond the analysis's structs, computed once */
  FnCosts fc;
  if (export_needs(ex) & EXPORT_NEEDS_FN_COSTS) {
    fn_costs_compute(&fc, in.tab, in.hist, in.arc_recs, in.cg, in.sum);
    in.fn_costs = &fc;
  }
  export_write_all(ex, &in);
  if (in.fn_costs) fn_costs_free(&fc);
  return nout != 0;
}

/* Stage 7: the text reports, separated by form feeds. */
static void print_reports(Run *r)
{
  const Options *o = &r->options;
  Profile *prof = &r->prof;
  CallGraph *cg = &prof->cg;
  SymTab *syms = &r->syms;
  double hz = prof->hist.hz;
  long gran = hist_granularity_bytes(&prof->hist);
  int printed = 0;
  if (o->traditional) {         /* BSD order: call graph, flat, index */
    if (r->graph) { cg_print(cg, syms, hz, gran, o); printed = 1; }
    if (r->flat) {
      if (printed) printf("\f\n");
      flat_print(&prof->hist, syms, o);
      printed = 1;
    }
    if (r->graph) cg_print_index(cg, syms, o);
  } else {
    if (r->flat) { flat_print(&prof->hist, syms, o); printed = 1; }
    if (r->graph) {
      if (printed) printf("\f\n");
      cg_print(cg, syms, hz, gran, o);
      cg_print_index(cg, syms, o);
      printed = 1;
    }
  }
  if (r->exec) {
    if (printed) printf("\f\n");
    ann_print_exec_counts(syms, o);
    printed = 1;
  }
  /* without call counts of any kind GNU annotates nothing, silently */
  if ((r->style & STYLE_ANNO) && (prof->arcs_read || prof->have_bb) && ann_print_source(syms, printed, o))
    printed = 1;
  if (r->style & STYLE_FUNC_ORDER) cg_print_function_ordering(cg, syms);
  if (r->style & STYLE_FILE_ORDER) cg_print_file_ordering(cg, syms, r->map.files, r->map.nfiles);
  if (o->stack_times) {         /* ours, after all of GNU's */
    if (printed) printf("\f\n");
    char *file = xmalloc(strlen(r->files[0]) + 8);
    sprintf(file, "%s.stacks", r->files[0]);
    stack_times_print(&r->times, syms, file, o->zeros);
    free(file);
    printed = 1;
  }
  if (r->diff_flat) {
    if (printed) printf("\f\n");
    ExportInput now = { r->a_out, r->files, r->nfiles, syms, prof->have_hist ? &prof->hist : NULL,
                        NULL, NULL, NULL, NULL, o->zeros, 0, NULL, NULL, NULL, NULL }, base;
    base_input(r->base, &base);
    now.base = &base;
    diff_flat_print(stdout, &now);
  }
}

int main(int argc, char **argv)
{
  static Run run;               /* zeroed: no stage has run */
  Run *r = &run;
  util_set_name(argv[0]);       /* what messages start with */
  util_memory_policy();
  expandargv(&argc, &argv);     /* @FILE: options read from FILE */
  /* reports run to tens of megabytes: write them in large blocks */
  static char outbuf[1 << 16];
  setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
  sym_id_init(&r->specs);
  export_options_init(&r->exports);

  r->argc = argc;
  r->argv = argv;
  parse_options(r, argc, argv);
  open_object(r);
  read_profiles(r);             /* -i ends the run here */
  analyse(r);
  make_view(r);
  if (r->x) {
    int saved = mute_stderr();
    make_view(r->x);
    unmute_stderr(saved);
  }
  if (r->nbase) r->base = read_base(r, argc, argv);
  if (r->x) r->x->base = r->base && r->base->x ? r->base->x : r->base;
  choose_reports(r);
  if (write_exports(r)) return 0;
  print_reports(r);
  return 0;
}
