/* gprof.h -- types and state shared by every stage of the analyzer.
 *
 * The pipeline: gprof.c parses options; core.c/corefile.c read the object
 * and build the symbol table (symtab.c); gmon_io.c reads profile data,
 * feeding hist.c (histogram), call_graph.c (arcs) and basic_blocks.c;
 * cg_arcs.c and cg_dfn.c analyse the graph; hist.c and cg_print.c print. */
#ifndef GPROF_H
#define GPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t vma_t;         /* an address in the profiled program */

typedef struct Sym Sym;
typedef struct Arc Arc;

/* One arc of the dynamic call graph: parent called child COUNT times. */
struct Arc {
  Sym *parent, *child;
  uint64_t count;
  double time;                  /* child's self time propagated to parent */
  double child_time;            /* child's descendants' time propagated */
  Arc *next_parent;             /* next arc in child->parents */
  Arc *next_child;              /* next arc in parent->children */
  Arc *hash_next;               /* chain in the arc hash table */
};

/* One symbol: a function (or, for cycles, a cycle as a whole). */
struct Sym {
  vma_t addr, end_addr;
  const char *name;             /* linkage name (leading char stripped) */
  const char *dname;            /* demangled name, filled on first use */
  const char *label;            /* dname plus inline file, on first use */
  const char *file;             /* source file: use src_sym_file() */
  int line;
  unsigned is_func : 1, is_static : 1, is_cycle : 1, file_done : 1;
  unsigned map_file;            /* -R: 1 + index in core_map_files, 0 = none */
  unsigned bfd_seq;             /* position in the object's symbol table */
  double hist_time;             /* samples credited by the histogram */
  uint64_t ncalls;              /* calls from other functions */
  uint64_t self_calls;          /* calls from itself */
  /* call graph state */
  int index;                    /* print index, 0 = none */
  int top_order;                /* depth-first number */
  int print_flag;
  unsigned tables;              /* bit per sym_ids.h table */
  unsigned arc_from : 1;        /* matches the left side of a -k */
  double child_time;            /* descendants' time, before fractions */
  double prop_fract, prop_self, prop_child;
  int cycle_num;                /* 0 = not in a cycle */
  Sym *cyc_head;                /* head of its cycle (self if none) */
  Sym *cyc_next;                /* next member of the cycle list */
  Arc *parents, *children;
  /* depth-first numbering scratch (cg_dfn.c) */
  Sym *uf;                      /* union-find link towards the cycle head */
  Sym *cyc_tail;                /* last member, valid on a head */
  Arc *dfn_next;                /* next child arc to visit */
  long dfn_pos;                 /* stack position while on the stack */
};

/* The symbol table: sorted by address, no two entries share an address. */
typedef struct {
  Sym *base;
  size_t len;
  vma_t *addrs;                 /* base[i].addr, packed for fast search */
  size_t *bucket, nbuckets;     /* sym_lookup's index, built on first use */
  unsigned shift;
} SymTab;

/* Global run state (options and what the inputs contained). */
typedef struct {
  int brief, zeros, no_static, ignore_non_func, traditional;
  int want_info, want_sum;
  int print_path, inline_names, demangle, line;
  /* accepted for options whose reports are not implemented yet */
  int static_cg, all_lines, separate_files, table_length;
  unsigned long min_count;
  const char *map_file;
  const char *ext_symtab;       /* -S */
  const char *src_dirs;         /* -I: colon-separated source directories */
  int width;
  int file_format;              /* FF_AUTO ... */
  int debug;
  const char *whoami;
  /* what the inputs held */
  int have_hist, have_arcs, have_bb;
  /* object properties */
  int addr_size;                /* 4 or 8 */
  int big_endian;
  unsigned min_insn_size;       /* address granularity of the target */
} Options;

enum { FF_AUTO, FF_BSD, FF_44BSD, FF_MAGIC, FF_PROF };

enum {
  STYLE_FLAT = 1, STYLE_GRAPH = 2, STYLE_EXEC = 4, STYLE_ANNO = 8,
  STYLE_FUNC_ORDER = 16, STYLE_FILE_ORDER = 32, STYLE_SUM = 64
};

extern Options opt;
extern SymTab symtab;

/* -d flags, as the manual numbers them; traces go to stdout. */
enum {
  DBG_DFN = 2, DBG_CYCLE = 4, DBG_TALLY = 16, DBG_ARCSORT = 32,
  DBG_RECORDS = 64, DBG_SYMTAB = 128, DBG_STATIC_CG = 256, DBG_LOOKUP = 512,
  DBG_PROP = 1024, DBG_BB = 2048, DBG_SYMSPEC = 4096, DBG_ANNO = 8192
};
#define DBG(flag, ...) \
  do { if (opt.debug & (flag)) printf(__VA_ARGS__); } while (0)

/* util */
_Noreturn void fatal(const char *fmt, ...);
void warn_msg(const char *fmt, ...);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
