/* stacks.h -- the real stacks libprof samples (LIBPROF_STACKS=DEPTH):
 * PROFILE.stacks beside each profile file, read and resolved to the
 * symbol table, for the exports (--folded, --flame, --pprof) and the
 * measured inclusive times (--stack-times).  The file's format is in
 * doc/DESIGN.md, "Stacks".
 *
 * Lifetime: stacks_load in the object stage (after objects_load, before
 * the symspecs: it may add other objects' symbols to the table, as
 * objects.c does); stacks_resolve after the analysis (after
 * objects_settle, when no symbol moves any more). */
#ifndef STACKS_H
#define STACKS_H
#include <stdint.h>
#include "symtab.h"
#include "stacks/objects.h"

typedef struct {
  uint32_t tid;
  char *name;                   /* "" when the file has none */
} StackThread;

typedef struct {
  uint32_t tid;
  uint64_t count;               /* samples with exactly this stack */
  uint64_t epoch;               /* version 2: the map epoch when sampled (0 in 1) */
  char end;                     /* 'c' complete, 't' truncated, 'b' broken */
  uint32_t n;                   /* frames, >= 1 */
  size_t first;                 /* frames [first, first + n) of Stacks, leaf first */
} Stack;

typedef struct {
  int present;                  /* a stack file was read */
  int hz, depth;
  uint64_t samples, dropped;    /* summed over the files */
  uint64_t start_ns;            /* version 2: the earliest profiling start,
                                   ns since the epoch (0: not given) */
  uint64_t duration_ns;         /* from it to the latest end (0: not given) */
  Load *loads;                  /* the files' load generations (objects.h
                                   Load), each once; [0] is the program's */
  size_t nloads;
  StackThread *threads;
  size_t nthreads;
  Stack *v;                     /* identical stacks of one thread merged */
  size_t n;
  /* per frame, leaf first within each stack: */
  uint64_t *pc;                 /* as recorded (run time) */
  uint32_t *obj;                /* index into loads, or UINT32_MAX: none */
  vma_t *addr;                  /* symbol-table address looked up (a return
                                   address minus 1), 0 when no object; in
                                   an object not in the table (!known) the
                                   link-time address */
  Sym **sym;                    /* after stacks_resolve: the function (never
                                   a -l line symbol), or NULL */
  unsigned char *gap;           /* in none of its object's functions (told
                                   by stacks_load: objects_settle then merges
                                   the gaps into one row per object) */
  size_t nframes;
  vma_t names_base;             /* the program's own functions, clones too
                                   (objects_add_program: Object 0's
                                   names_base), start here in the table; 0:
                                   not read */
  /* stacks_frame_name's strings, made by stacks_resolve */
  char **objname;               /* per object: "[name]" */
  char **pcname;                /* per frame: "0xPC" */
  /* stacks_load's own state while it runs: stacks_free lets go of it
     after an error that returned to a trap (fuzz targets) */
  struct StacksReader *reader;
} Stacks;

/* Reads FILES[k].stacks for each profile file that has one (none: st->present
   stays 0).  Each load generation's Object is OBJS's: the program Object
   0, the others matched to those OBJS holds or added to it and to TAB
   (objects_add).  A malformed file:
   "gprof: F: line N: ..." and exit 1, whatever the bytes; memory grows
   with the bytes read only (a count, depth or number of frames a line
   claims allocates nothing); records of unknown kinds are skipped. */
void stacks_load(Stacks *st, Objects *objs, SymTab *tab, char *const *files, int nfiles);
/* The files read as stacks_load reads them, without a symbol table, for
   -s: a file whose object 0 is not the build BUILD_ID names (IDLEN
   bytes; NULL: not checked) is left out with a warning; an object is one
   (loads[k]) whatever its load generations, and each frame's ADDR is its
   link-time address in it (a return address minus 1); equal stacks of a
   thread merged.  st->present: some file was kept.  Errors as
   stacks_load's. */
void stacks_read(Stacks *st, char *const *files, int nfiles, const unsigned char *build_id, size_t idlen);
/* Each frame's function in TAB (after the analysis): in the program, the
   function of its ELF symbol table that holds the frame's address, GCC's
   clones included (.isra.N, .part.N, .constprop.N, .cold: each under its
   own name), wherever GNU's rules name the address after another symbol
   (the neighbour before it); else the function GNU's table names (so
   that the measured and estimated times meet). */
void stacks_resolve(Stacks *st, const SymTab *tab);
/* The name a frame prints under (after stacks_resolve): its function's
   report name (sym_print_name in TAB, the table it was resolved in), else
   "[object]" (its object's file name), else "0xPC".  Owned by ST or TAB. */
const char *stacks_frame_name(const Stacks *st, const SymTab *tab, size_t frame);
/* Samples in all stacks (the sum of counts). */
uint64_t stacks_total(const Stacks *st);
/* Samples in the stacks that do not reach the thread's first frame
   (end 't' or 'b'). */
uint64_t stacks_truncated(const Stacks *st);
/* The names of the entries that make totals add up: the samples libprof
   could not record, and the root of a stack cut short. */
#define STACKS_DROPPED "[dropped]"
#define STACKS_TRUNCATED "[truncated]"
void stacks_free(Stacks *st);
#endif
