/* core.h -- the profiled object, read through BFD.
 *
 * core_init opens the object (exiting with GNU's messages when it cannot)
 * and fills a Core: the canonical symbol table, the text section, and the
 * target's address width, byte order and instruction granularity.  The
 * other calls answer questions about the object: source positions from its
 * debug information, and the calls its code makes (-c), found by the
 * per-architecture finders (i386.c, ...), which report each call through a
 * callback so that this layer knows nothing of the call graph. */
#ifndef CORE_H
#define CORE_H
#include "symtab.h"
#include "callscan.h"

struct bfd;
struct bfd_symbol;
struct bfd_section;

typedef struct Core {
  struct bfd *abfd;
  struct bfd_symbol **syms;     /* BFD's canonical symbol table */
  long nsyms;
  struct bfd_section *text;     /* .text (or $CODE$) */
  int addr_size;                /* 4 or 8 */
  int big_endian;
  unsigned min_insn_size;       /* address granularity of the target */
  int line_info;                /* -1 until asked: DWARF or stabs present */
  unsigned char *text_space;    /* the text's bytes, read on first use */
  int text_tried;
  Sym indirect_child;           /* -c: "<indirect child>", not in the table */
  int src_primed;               /* core_prime_src_info done */
  int line_share;                /* the line table will be walked more than
                                   once (the driver says): keep the walk */
  struct LineCache *line_cache; /* lines/linesyms.c: the walk kept, decoded
                                   once for every table and export */
} Core;

void core_init(Core *c, const char *filename);
/* Source position of an address from debug info; 0 when unknown. */
int core_src_info(const Core *c, vma_t addr, const char **file, int *line);
/* The same, with the function BFD names there (the inlined one inside
   inlined code; NULL if none). */
int core_src_func_info(const Core *c, vma_t addr, const char **file, int *line,
                       const char **func);
int core_has_line_info(Core *c);
/* Asks BFD about each function symbol's address, in the object's symbol
   table order, once, as GNU does while it builds its table: BFD remembers
   what the first question about a function tells it (a C function whose
   DWARF name is not a linkage name takes the name of the symbol at its
   start, and keeps it for its .cold part), so later answers depend on
   it.  Call before asking about addresses inside functions. */
void core_prime_src_info(Core *c, const SymTab *funcs);
/* The text section's bytes (NULL when they cannot be read), its address
   and size. */
const unsigned char *core_text_space(Core *c, vma_t *vma, size_t *size);
/* The address just past the text section. */
vma_t core_text_end(const Core *c);
/* The object's build-id (the NT_GNU_BUILD_ID note of a .note section):
   its first LEN bytes, zero-padded to LEN, in ID.  Returns the id's
   whole length (which may exceed LEN), 0 when it has none. */
int core_build_id(const Core *c, unsigned char *id, size_t len);
/* Where in the object's file the byte at ADDR lies (the section holding
   it, with contents): 0 when no section holds it. */
int core_file_offset(const Core *c, vma_t addr, uint64_t *off);
/* The object's code sections (SEC_CODE with contents or SEC_ALLOC), as
   [lo, hi) pairs in RANGES, at most MAX of them; returns how many. */
size_t core_code_ranges(const Core *c, vma_t (*ranges)[2], size_t max);

/* Runs the finder of the object's BFD architecture over every function
   (its part inside [lowpc, highpc)); an architecture without one gets
   GNU's message, once, and no arcs.  Tahoe has no BFD architecture in
   2.40: its finder is reached by unit tests only. */
void core_find_calls(Core *c, const SymTab *syms, vma_t lowpc, vma_t highpc,
                     CoreCallFn add, void *ctx);
/* The loop of core_find_calls over a CallScan already filled in (the fuzz
   target and the unit tests give it text of their own). */
void core_scan_calls(const CallScan *cs, CoreFinder scan);
#endif
