/* gprof.c -- options and the driver of the pipeline. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "core.h"
#include "symtab.h"
#include "gmon_io.h"
#include "hist.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "basic_blocks.h"

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
  { 0, 0, 0, 0 }
};

/* The synopsis GNU prints after an option error (exit 1). */
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
  exit(status);
}

static void help(void)
{
  printf("Usage: %s [options] [image-file [profile-file...]]\n"
    "Analyse the profile data written by a program built with -pg.\n\n"
    "Reports:\n"
    "  -p, --flat-profile        print the flat profile\n"
    "  -q, --graph               print the call graph and its index\n"
    "  -b, --brief               leave out the explanations after each table\n"
    "  -z, --display-unused-functions\n"
    "                            list functions never called and never sampled\n"
    "  -i, --file-info           describe the profile files and stop\n"
    "  -s, --sum                 write the summed profile data to gmon.sum\n"
    "Input:\n"
    "  -O, --file-format=FORMAT  profile data format: auto, bsd, 4.4bsd, magic\n"
    "Other:\n"
    "  -h, --help                show this text\n"
    "  -v, --version             show the version\n\n"
    "Without file names the program is a.out and the profile gmon.out;\n"
    "several profile files are summed.\n", opt.whoami);
  exit(0);
}


int main(int argc, char **argv)
{
  const char *a_out = "a.out";
  int c;
  opt.whoami = argv[0];
  /* reports run to tens of megabytes: write them in large blocks */
  static char outbuf[1 << 16];
  setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
  opt.demangle = 1;
  opt.width = 80;
  while ((c = getopt_long(argc, argv,
             "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::",
             long_opts, NULL)) != -1) {
    switch (c) {
    case 'a': opt.no_static = 1; break;
    case 'b': opt.brief = 1; break;
    case 'D': opt.ignore_non_func = 1; break;
    case 'i': opt.want_info = 1; break;
    case 'L': opt.print_path = 1; break;
    case 'p': opt.want_flat = 1; opt.explicit_flat = 1; break;
    case 'q': opt.want_graph = 1; opt.explicit_graph = 1; break;
    case 's': opt.want_sum = 1; break;
    case 'C': opt.want_exec = 1; break;
    case 'T': opt.traditional = 1; break;
    case 'z': opt.zeros = 1; break;
    case 'w': opt.width = atoi(optarg); break;
    case 'O':
      if (!strcmp(optarg, "auto")) opt.file_format = FF_AUTO;
      else if (!strcmp(optarg, "bsd")) opt.file_format = FF_BSD;
      else if (!strcmp(optarg, "4.4bsd")) opt.file_format = FF_44BSD;
      else if (!strcmp(optarg, "magic")) opt.file_format = FF_MAGIC;
      else if (!strcmp(optarg, "prof")) {
        fprintf(stderr, "%s: sorry, file format `prof' is not yet supported\n", opt.whoami);
        exit(1);
      } else {
        /* sic: GNU prints the argument first and the program name last */
        fprintf(stderr, "%s: unknown file format %s\n", optarg, opt.whoami);
        exit(1);
      }
      break;
    case 'v':
      printf("gprof (clean-room reimplementation) %s\n", GPROF_VERSION);
      printf("Reads and writes the data and reports of GNU gprof 2.40.\n");
      exit(0);
    case 'h': help(); break;
    case 1000: case 1001: case 1002:
      if (c == 1001) opt.demangle = 0;
      if (c == 1002) opt.inline_names = 1;
      break;
    case '?': usage(stderr, 1); break;
    default: break;
    }
  }
  if (optind < argc) a_out = argv[optind++];

  core_init(a_out);
  core_create_function_syms();

  int nfiles = argc - optind;
  char *deflt[] = { (char *)"gmon.out" };
  char **files = nfiles ? argv + optind : deflt;
  if (!nfiles) nfiles = 1;
  for (int i = 0; i < nfiles; i++) gmon_out_read(files[i]);
  if (opt.want_info) return 0;

  if (opt.want_sum) gmon_out_write("gmon.sum");

  if (opt.have_hist) hist_assign_samples();

  size_t ncg = 0;
  Sym **order = NULL;
  if (opt.have_arcs) order = cg_assemble(&ncg);

  int flat = opt.want_flat, graph = opt.want_graph, exec = opt.want_exec;
  /* By default: the flat profile if there is a histogram, the call graph
     if there are arcs, and with neither the execution counts. */
  if (!flat && !graph && !exec && !opt.want_sum) {
    flat = graph = 1;
    if (!opt.have_hist && !opt.have_arcs) exec = 1;
  }
  if (opt.want_sum && !opt.explicit_flat && !opt.explicit_graph) flat = graph = 0;
  if (flat && !opt.have_hist) {
    if (opt.explicit_flat)
      fatal("%s: gmon.out file is missing histogram\n", opt.whoami);
    flat = 0;
  }
  if (graph && !opt.have_arcs) {
    if (opt.explicit_graph)
      fatal("%s: gmon.out file is missing call-graph data\n", opt.whoami);
    graph = 0;
  }
  /* sections are separated by form feeds */
  int printed = 0;
  if (flat) { hist_print(); printed = 1; }
  if (graph) {
    if (printed) printf("\f\n");
    cg_print(order, ncg);
    cg_print_index(order, ncg);
    printed = 1;
  }
  if (exec) {
    if (printed) printf("\f\n");
    bb_print_exec_counts();
  }
  return 0;
}
