/* gprof.c -- options and the driver of the pipeline.
 *
 * Parses the command line into the Options (options.h) and the symbol
 * specifications, then runs the stages in order, holding what each
 * returns: the object (Core) and its symbol table, the profile data and
 * its call graph, the analysis, and the reports.  Nothing below calls
 * back into this file. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "corefile.h"
#include "linesyms.h"
#include "sym_ids.h"
#include "gmon_io.h"
#include "gmon_out.h"
#include "cg_analyze.h"
#include "flat.h"
#include "cg_print.h"
#include "cg_order.h"
#include "annotate.h"
#include "export.h"
#include "objects.h"
#include <libiberty/demangle.h>
#include <libiberty/libiberty.h>

#define GPROF_VERSION "0.1"

static const struct option long_opts[] = {
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
  /* the exports: long options only, no GNU short option changes meaning */
  { "dot", optional_argument, 0, 1010 },
  { "callgrind", optional_argument, 0, 1011 },
  { "json", optional_argument, 0, 1012 },
  { "node-threshold", required_argument, 0, 1013 },
  { "edge-threshold", required_argument, 0, 1014 },
  { "max-nodes", required_argument, 0, 1015 },
  { "dot-full-names", no_argument, 0, 1016 },
  { "objects", no_argument, 0, 1020 },
  { 0, 0, 0, 0 }
};

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
    opt.whoami);
  if (status == 0)              /* --help: our own long options too */
    fprintf(f,
      "Exports (long options only; FILE \"-\" is standard output, which then\n"
      "holds only that):\n"
      "\t[--dot[=FILE]] [--node-threshold=PCT] [--edge-threshold=PCT]\n"
      "\t[--max-nodes=N] [--dot-full-names]\n\t[--callgrind[=FILE]] [--json[=FILE]]\n"
      "Other objects (libprof's PROFILE.objects/, LIBPROF_OBJECTS=1):\n"
      "\t[--objects]\n");
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
    fatal("%s: invalid threshold `%s' (a percentage from 0 to 100)\n", opt.whoami, arg);
  return v;
}

int main(int argc, char **argv)
{
  const char *a_out = "a.out";
  int c;
  unsigned style = 0, user = 0;     /* requested outputs, outputs named */
  Options *o = options_for_startup();
  SymSpecs specs;
  sym_id_init(&specs);
  ExportOptions exports;
  export_options_init(&exports);
  o->whoami = argv[0];
  expandargv(&argc, &argv);     /* @FILE: options read from FILE */
  util_set_name(argv[0]);
  /* reports run to tens of megabytes: write them in large blocks */
  static char outbuf[1 << 16];
  setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
  o->demangle = 1;
  o->width = 80;
  o->table_length = 10;
  o->min_count = 1;             /* -A: counts below it show as ##### */
  while ((c = getopt_long(argc, argv,
             "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::",
             long_opts, NULL)) != -1) {
    switch (c) {
    case 'a': o->no_static = 1; break;
    case 'A': report_on(&specs, &style, &user, STYLE_ANNO, INCL_ANNO); break;
    case 'J': report_off(&specs, &style, &user, STYLE_ANNO, EXCL_ANNO); break;
    case 'b': o->brief = 1; break;
    case 'c': o->static_cg = 1; break;
    case 'd': o->debug = optarg ? atoi(optarg) : ~0; break;
    case 'D': o->ignore_non_func = 1; break;
    case 'e': sym_id_add(&specs, optarg, EXCL_GRAPH); break;
    case 'E': sym_id_add(&specs, optarg, EXCL_GRAPH); sym_id_add(&specs, optarg, EXCL_TIME); break;
    case 'f': sym_id_add(&specs, optarg, INCL_GRAPH); break;
    case 'F': sym_id_add(&specs, optarg, INCL_GRAPH); sym_id_add(&specs, optarg, INCL_TIME); break;
    case 'i': o->want_info = 1; break;
    case 'I':                           /* each -I adds to the search list */
      if (o->src_dirs) {
        char *d = xmalloc(strlen(o->src_dirs) + strlen(optarg) + 2);
        sprintf(d, "%s:%s", o->src_dirs, optarg);
        o->src_dirs = d;
      } else {
        o->src_dirs = optarg;
      }
      break;
    case 'k': {
      /* GNU takes a spec without '/' and it deletes nothing */
      char *slash = strchr(optarg, '/');
      if (!slash) break;
      *slash = 0;
      sym_id_add_arc(&specs, optarg, slash + 1);
      break;
    }
    case 'l': o->line = 1; break;
    case 'L': o->print_path = 1; break;
    case 'm': o->min_count = strtoul(optarg, NULL, 10); break;   /* decimal, as GNU */
    case 'n': sym_id_add(&specs, optarg, INCL_TIME); break;
    case 'N': sym_id_add(&specs, optarg, EXCL_TIME); break;
    case 'p': report_on(&specs, &style, &user, STYLE_FLAT, INCL_FLAT); break;
    case 'P': report_off(&specs, &style, &user, STYLE_FLAT, EXCL_FLAT); break;
    case 'q': report_on(&specs, &style, &user, STYLE_GRAPH, INCL_GRAPH); break;
    case 'Q': report_off(&specs, &style, &user, STYLE_GRAPH, EXCL_GRAPH); break;
    case 'C': report_on(&specs, &style, &user, STYLE_EXEC, INCL_EXEC); break;
    case 'Z': report_off(&specs, &style, &user, STYLE_EXEC, EXCL_EXEC); break;
    case 'r': style |= STYLE_FUNC_ORDER; user |= STYLE_FUNC_ORDER; break;
    case 'R': o->map_file = optarg; style |= STYLE_FILE_ORDER; user |= STYLE_FILE_ORDER; break;
    /* GNU's -s also turns on -l: with -p, -q, -A ... the reports are by line */
    case 's': o->want_sum = 1; o->line = 1; style |= STYLE_SUM; user |= STYLE_SUM; break;
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
        fprintf(stderr, "%s: unknown file format %s\n", optarg, o->whoami);
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
        if (st == unknown_demangling) {
          fprintf(stderr, "%s: unknown demangling style `%s'\n", o->whoami, optarg);
          exit(1);
        }
        cplus_demangle_set_style(st);
      }
      break;
    case 1001: o->demangle = 0; break;
    case 1002: o->inline_names = 1; break;
    case 1010: exports.dot = optarg ? optarg : "gprof.dot"; break;
    case 1011: exports.callgrind = optarg ? optarg : "callgrind.out.gprof"; break;
    case 1012: exports.json = optarg ? optarg : "gprof.json"; break;
    case 1013: exports.node_threshold = threshold(optarg); break;
    case 1014: exports.edge_threshold = threshold(optarg); break;
    case 1015: {
      char *end;
      unsigned long v = strtoul(optarg, &end, 10);
      if (end == optarg || *end || optarg[0] == '-')
        fatal("%s: invalid --max-nodes `%s'\n", opt.whoami, optarg);
      exports.max_nodes = v;
      break;
    }
    case 1016: exports.full_names = 1; break;
    case 1020: o->objects = 1; break;
    case '?': usage(stderr, 1); break;
    default: break;
    }
  }
  /* GPROF_PATH: more source directories, searched after -I's */
  const char *env_path = getenv("GPROF_PATH");
  if (env_path && *env_path) {
    if (o->src_dirs) {
      char *d = xmalloc(strlen(o->src_dirs) + strlen(env_path) + 2);
      sprintf(d, "%s:%s", o->src_dirs, env_path);
      o->src_dirs = d;
    } else {
      o->src_dirs = env_path;
    }
  }
  if (optind < argc) a_out = argv[optind++];
  o->keep_arcs = exports.callgrind != NULL;     /* its call sites */
  if ((style & STYLE_FUNC_ORDER) && (style & STYLE_FILE_ORDER))
    fatal("%s: Only one of --function-ordering and --file-ordering may be specified.\n",
          o->whoami);

  /* the object and its symbols */
  Core core;
  CoreMap map;
  SymTab syms;
  memset(&map, 0, sizeof map);
  memset(&syms, 0, sizeof syms);
  core_init(&core, a_out);
  if (opt.map_file) core_read_map(&map, opt.map_file);
  if (opt.ext_symtab) core_read_external_symtab(&core, &syms, opt.ext_symtab);
  else core_create_function_syms(&core, &map, &syms);
  if (opt.line && !opt.ext_symtab) line_add_syms(&core, &syms);
  int nfiles = argc - optind;
  char *deflt[] = { (char *)"gmon.out" };
  char **files = nfiles ? argv + optind : deflt;
  if (!nfiles) nfiles = 1;
  /* --objects: other objects' symbols after the program's */
  Objects objs = { 0, 0 };
  if (opt.objects) objects_load(&objs, &syms, files, nfiles);
  sym_id_parse(&specs, &syms);
  DBG(~0, "debug: flags 0x%x\n", (unsigned)opt.debug);

  /* the profile data */
  Profile prof;
  gmon_init(&prof, core.addr_size, core.big_endian);
  GmonContext cx = { .syms = &syms, .specs = &specs };
  /* what tells a profile of another program (gmon_io.c check_origin) */
  unsigned char build_id[GMON_BUILD_ID_LEN];
  vma_t code[64][2];
  cx.object = a_out;
  cx.build_id = core_build_id(&core, build_id, sizeof build_id) ? build_id : NULL;
  cx.code = (const vma_t (*)[2])code;
  cx.ncode = core_code_ranges(&core, code, 64);
  if (opt.file_format == FF_PROF)
    fatal("%s: sorry, file format `prof' is not yet supported\n", o->whoami);
  for (int i = 0; i < nfiles; i++) gmon_out_read(&prof, &cx, files[i]);
  gmon_finish(&prof);
  if (opt.want_info) return 0;

  if ((opt.line || (style & STYLE_SUM)) && prof.have_bb) bb_assign(&prof.bb, &syms);
  if (style & STYLE_SUM) gmon_out_write(&prof, &syms, "gmon.sum");

  /* the analysis (-c scans the program's histogram range only) */
  vma_t cg_lo = 0, cg_hi = 0;
  hist_range(&prof.hist, &cg_lo, &cg_hi);
  if (objs.n && objects_read_hist(&objs, &prof.hist, core.addr_size, core.big_endian)) prof.have_hist = 1;
  if (prof.have_hist) hist_assign_samples(&prof.hist, &syms);
  if (objs.n) objects_settle(&objs, &syms);
  /* peak memory: no report reads them (--callgrind maps them to lines) */
  if (!opt.line && !exports.callgrind) hist_free_bins(&prof.hist);
  CallGraph *cg = &prof.cg;
  if (prof.have_arcs) {
    if (opt.static_cg) core_find_calls(&core, &syms, cg_lo, cg_hi, add_static_arc, cg);
    cg_assemble(cg, &syms);
  }

  /* What to print: the outputs asked for or, when none was, the default
     (flat profile and call graph) less any the user switched off; by
     default a missing kind of data just drops its report, and with
     neither histogram nor arcs the execution counts stand in. */
  int explicit = style != 0;
  if (!explicit) {
    style = (STYLE_FLAT | STYLE_GRAPH) & ~user;
    if (!prof.have_hist && !prof.have_arcs && !(user & STYLE_EXEC)) style |= STYLE_EXEC;
  }
  int flat = (style & STYLE_FLAT) != 0, graph = (style & STYLE_GRAPH) != 0;
  int exec = (style & STYLE_EXEC) != 0;
  if (flat && !prof.have_hist) {
    if (explicit) fatal("%s: gmon.out file is missing histogram\n", opt.whoami);
    flat = 0;
  }
  if (graph && !prof.have_arcs) {
    if (explicit) fatal("%s: gmon.out file is missing call-graph data\n", opt.whoami);
    graph = 0;
  }
  /* the exports, from the same analysis; one sent to standard output
     takes the place of the text */
  if (exports.dot || exports.callgrind || exports.json) {
    int nout = (exports.dot && !strcmp(exports.dot, "-")) +
               (exports.callgrind && !strcmp(exports.callgrind, "-")) +
               (exports.json && !strcmp(exports.json, "-"));
    if (nout > 1) fatal("%s: only one export may go to standard output\n", opt.whoami);
    ExportInput in = { a_out, files, nfiles, &syms, prof.have_hist ? &prof.hist : NULL,
                       prof.have_arcs ? cg : NULL,
                       opt.keep_arcs ? &prof.arc_recs : NULL };
    export_write_all(&exports, &in);
    if (nout) return 0;
  }
  double hz = prof.hist.hz;
  long gran = hist_granularity_bytes(&prof.hist);
  /* sections are separated by form feeds */
  int printed = 0;
  if (opt.traditional) {        /* BSD order: call graph, flat, index */
    if (graph) { cg_print(cg, &syms, hz, gran); printed = 1; }
    if (flat) {
      if (printed) printf("\f\n");
      flat_print(&prof.hist, &syms);
      printed = 1;
    }
    if (graph) cg_print_index(cg, &syms);
  } else {
    if (flat) { flat_print(&prof.hist, &syms); printed = 1; }
    if (graph) {
      if (printed) printf("\f\n");
      cg_print(cg, &syms, hz, gran);
      cg_print_index(cg, &syms);
      printed = 1;
    }
  }
  if (exec) {
    if (printed) printf("\f\n");
    ann_print_exec_counts(&syms);
    printed = 1;
  }
  /* without call counts of any kind GNU annotates nothing, silently */
  if ((style & STYLE_ANNO) && (prof.arcs_read || prof.have_bb) && ann_print_source(&syms, printed))
    printed = 1;
  if (style & STYLE_FUNC_ORDER) cg_print_function_ordering(cg, &syms);
  if (style & STYLE_FILE_ORDER) cg_print_file_ordering(cg, &syms, map.files, map.nfiles);
  return 0;
}
