/* symtab.h -- symbols and the sorted symbol table, with address lookup.
 *
 * A Sym is one function of the profiled object (or, made by the call-graph
 * analysis, one cycle as a whole).  Every stage above annotates it: the
 * symspecs (sym_ids.c) mark which reports and tables it belongs to, the
 * histogram credits its samples, the arc table counts its calls, the
 * analysis numbers it and propagates time.  The fields are grouped by
 * the stage that writes them.
 *
 * Invariant after symtab_finalize: base[] is sorted by address, no two
 * entries share an address, and each entry's end_addr is one below the
 * next entry's address.  The table also names the object it came from
 * (an opaque Core), so source positions can be looked up on demand
 * (source.c) by whoever holds the table. */
#ifndef SYMTAB_H
#define SYMTAB_H
#include <stddef.h>
#include "util/util.h"

struct Arc;
struct Core;

typedef struct Sym Sym;
#define SYM_NBBS 10
struct Sym {
  /* The fields are laid out by when they are read together, one 64-byte
     cache line each (base[] is aligned by symtab_finalize): at 100,000s
     of symbols nearly every symbol a pass touches is a cache miss, so
     what a pass reads of a symbol should be one line, not four. */
  /* line 1, read in every pass over the graph (arcs read, analysis,
     printing): */
  int index;                    /* print index, 0 = none */
  int cycle_num;                /* 0 = not in a cycle */
  int top_order;                /* depth-first number */
  unsigned sel;                 /* SEL_* bits: what the symspecs decide */
  double prop_fract;
  struct Sym *cyc_head;         /* head of its cycle (self if none) */
  double hist_time;             /* samples credited by the histogram */
  uint64_t ncalls;              /* calls from other functions */
  uint64_t self_calls;          /* calls from itself */
  unsigned is_func : 1, is_static : 1, is_cycle : 1;
  unsigned is_line : 1;         /* -l: a line symbol (linesyms.c) */
  unsigned print_flag : 1;      /* printed in the call graph */
  unsigned arc_from : 1;        /* matches the left side of a -k (sym_ids.c) */
  unsigned nchildren;
  /* line 2, the analysis (cg_arcs.c, cg_dfn.c, analysis/propagate.c): its arcs,
     newest first, set by cg_arcs_settle (runs in one array), and time */
  struct Arc **parents, **children;
  unsigned nparents;
  double child_time;            /* descendants' time, before fractions */
  double prop_self, prop_child;
  Sym *cyc_next;                /* next member of the cycle list */
  Sym *uf;                      /* union-find link towards the cycle head */
  /* line 3: the cycle list's tail, and the symbol table (corefile.c,
     symtab.c) */
  Sym *cyc_tail;                /* last member, valid on a head */
  vma_t addr, end_addr;
  const char *name;             /* linkage name (leading char stripped) */
  unsigned map_file;            /* -R: 1 + index in CoreMap files, 0 = none */
  unsigned bfd_seq;             /* position in the object's symbol table */
  /* looked up on first use (source.c, sym_ids.c) */
  const char *file;             /* source file: use src_sym_path() */
  /* line 4 */
  int line;
  unsigned file_done : 1;
  const char *dname;            /* demangled name */
  const char *label;            /* dname plus inline file */
  unsigned tables;              /* symspecs: bit per sym_ids.h table */
  /* -l: basic-block counts in this symbol, by address in the order first
     read, summed (basic_blocks.c bb_assign); GNU keeps SYM_NBBS at most */
  unsigned nbb;
  vma_t *bb_addr;
  uint64_t *bb_count;
  char pad_to_line[32];         /* sizeof a multiple of 64 (asserted) */
};
_Static_assert(sizeof(Sym) % 64 == 0 && offsetof(Sym, parents) == 64 && offsetof(Sym, cyc_tail) == 128,
               "Sym's cache lines: see the layout comment");

/* What the symbol specifications decided for a symbol (Sym.sel). */
enum {
  SEL_FLAT = 1,                 /* listed in the flat profile */
  SEL_EXEC = 2,                 /* listed by -C */
  SEL_ANNO = 4,                 /* annotated by -A */
  SEL_GRAPH_ON = 8,             /* printed in the graph though no caller is */
  SEL_GRAPH_OFF = 16,           /* never printed in the graph */
  SEL_TIME_ON = 32,             /* passes its time on though no caller does */
  SEL_TIME_OFF = 64             /* never passes its time on */
};

/* The options every stage that holds the table shares (options.h): set
   by the driver before the table is built, read by the table's makers
   (corefile.c, linesyms.c, objects.c), the naming of its symbols
   (sym_ids.c sym_print_name, sym_label; source.c) and the stages that
   trace their work on it. */
typedef struct {
  unsigned debug;               /* -d: DBG_* bits (options.h) */
  int line;                     /* -l: line symbols (linesyms.c), reports by line */
  int external;                 /* -S: the symbols came from a table, not the
                                   object (no line information asked for) */
  int no_static;                /* -a: static functions left out (corefile.c) */
  int demangle;                 /* names print demangled (--demangle, not -T,
                                   whose BSD layout shows linkage names) */
  int inline_names;             /* --inline-file-names: "name (file:line)" */
  int print_path;               /* -L: a file named by its whole path */
  int all_funcs;                /* the exports' own table: the static functions
                                   GNU's rules drop (GCC's clones: .isra.N,
                                   .part.N, .cold, ...) kept (corefile.c) */
} SymTabOptions;

typedef struct {
  Sym *base;
  size_t len;
  SymTabOptions opts;
  vma_t *addrs;                 /* base[i].addr, packed for fast search */
  size_t *bucket, nbuckets;     /* sym_lookup's index, built on first use */
  unsigned shift;
  struct Core *core;            /* where the symbols came from */
  /* -l: where the histogram stops crediting the last symbol, which takes
     no samples though lookups reach past it (0: its end_addr + 1) */
  vma_t last_hist_end;
  /* the object's last symbol lies at or past the end of .text: it is never
     an arc's end (GNU 2.40; -l drops such a symbol instead) */
  int last_no_arcs;
  /* the table allocated its names (-S): symtab_finalize frees the names of
     the symbols it drops, so whoever frees the table frees every name */
  int owns_names;
  /* --objects (objects.c): the first NMAIN symbols are the program's, the
     rest other objects' at synthetic addresses; look-ups answer NULL above
     LOOKUP_TOP (the program's last symbol's end), and the last-symbol
     rules above apply to symbol NMAIN - 1.  0: no objects. */
  size_t nmain;
  vma_t lookup_top;
  /* objects_settle: the symbols of objects only the sampled stacks name
     (stacks.c; no profile file covers them) are kept in base[len ..
     len + ntail), where the stacks find them and no report lists them */
  size_t ntail;
} SymTab;

/* How many of TAB's symbols are the program's (the last-symbol rules
   apply to the last of them). */
static inline size_t symtab_own_len(const SymTab *tab)
{
  return tab->nmain ? tab->nmain : tab->len;
}

void sym_init(Sym *s);
void symtab_finalize(SymTab *tab);
/* Of two symbols at one address, whether symtab_finalize keeps CAND (met
   later) rather than KEPT. */
int sym_prefer(const Sym *cand, const Sym *kept);
Sym *sym_lookup(const SymTab *tab, vma_t addr);
/* The same past LOOKUP_TOP: for other objects' own arcs (objects.c). */
Sym *sym_lookup_any(const SymTab *tab, vma_t addr);
/* The same, never traced (-d): for looking ahead. */
Sym *sym_lookup_quiet(const SymTab *tab, vma_t addr);
/* Hints for a caller that knows its look-ups in advance (the profile
   reader): STAGE 0 fetches into the cache the index entry a look-up of
   ADDR reads first, STAGE 1 (a little later) the addresses it then
   searches.  Change nothing; no effect before the first look-up. */
void sym_lookup_prefetch(const SymTab *tab, vma_t addr, int stage);

/* A hint for a loop over V[0..N) -- symbols anywhere in memory, as after
   a sort -- that reads each one's name at I: fetches the symbol 8 ahead
   (its first line and the one holding the name's pointer), then the name
   itself 4 ahead, once that pointer is in the cache.  Changes nothing. */
static inline void sym_prefetch_names(Sym *const *v, size_t i, size_t n)
{
  if (i + 8 < n) {
    __builtin_prefetch(v[i + 8]);
    __builtin_prefetch(&v[i + 8]->name);
  }
  if (i + 4 < n) __builtin_prefetch(v[i + 4]->name);
}
#endif
