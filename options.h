/* options.h -- the run's options, as the command line set them.
 *
 * The driver (gprof.c) fills them through options_for_startup() while it
 * parses the command line and never after; every other stage sees them
 * read-only through `opt'.  What the inputs turn out to hold (kinds of
 * records, the object's byte order and address width) is not an option:
 * it lives with the stage that finds it out (Profile, Core). */
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
  int debug;                    /* DBG_* bits */
  int objects;                  /* --objects: other objects' profiles too */
  int stack_times;              /* --stack-times: measured inclusive time */
} Options;

enum { FF_AUTO, FF_BSD, FF_44BSD, FF_MAGIC, FF_PROF };

/* The storage has a fixed address, so a read of opt.x is one load; the
   view is const, so a stage that assigns to it does not compile. */
extern Options options_storage_;
#define opt (*(const Options *)&options_storage_)

/* The writable view, for the driver's option parsing only. */
Options *options_for_startup(void);

/* -d flags, as the manual numbers them; traces go to stdout. */
enum {
  DBG_DFN = 2, DBG_CYCLE = 4, DBG_TALLY = 16, DBG_ARCSORT = 32,
  DBG_RECORDS = 64, DBG_SYMTAB = 128, DBG_STATIC_CG = 256, DBG_LOOKUP = 512,
  DBG_PROP = 1024, DBG_BB = 2048, DBG_SYMSPEC = 4096, DBG_ANNO = 8192
};
#define DBG(flag, ...) \
  do { if (opt.debug & (flag)) printf(__VA_ARGS__); } while (0)

#endif
