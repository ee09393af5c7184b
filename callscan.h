/* callscan.h -- what a -c call finder works with, and what it calls.
 *
 * A finder (i386.c, aarch64.c, ...) scans a function's code for calls;
 * core.c fills a CallScan from the object and runs the finder of its
 * architecture over every function.  The finders report what they find
 * through callscan.c, which looks the target up and calls the callback,
 * so neither they nor core.c know anything of the call graph. */
#ifndef CALLSCAN_H
#define CALLSCAN_H
#include "symtab.h"

/* -c: what a call finder works with.  It scans PARENT's code in
   [start, end) and calls add(ctx, parent, callee) for each call it finds
   to the start of a function in syms, the callee inside [lowpc, highpc). */
typedef void (*CoreCallFn)(void *ctx, Sym *parent, Sym *callee);
typedef struct {
  const unsigned char *text;    /* the text section's bytes */
  vma_t text_vma;
  size_t text_size;
  vma_t lowpc, highpc;          /* the histogram's range */
  int big_endian;               /* the object's byte order */
  const SymTab *syms;
  Sym *indirect;                /* "<indirect child>": calls through a
                                   register or memory (mips, alpha, vax, tahoe) */
  CoreCallFn add;
  void *ctx;
} CallScan;
typedef void (*CoreFinder)(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
/* For the finders.  callscan_word32: the 32-bit word at PC in the object's
   byte order into *W; 0 when the text does not hold all four bytes. */
int callscan_word32(const CallScan *cs, vma_t pc, uint32_t *w);
/* A call at PC to DEST: an arc when DEST lies inside [lowpc, highpc) and
   a function starts exactly there; traced (-d) either way. */
void callscan_call_to(const CallScan *cs, Sym *parent, vma_t pc, vma_t dest);
/* A call at PC through HOW ("a register", "memory"): an arc to
   <indirect child>. */
void callscan_call_indirect(const CallScan *cs, Sym *parent, vma_t pc, const char *how);
/* The per-architecture finders, one file each. */
void i386_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
void aarch64_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
void sparc_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
void mips_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
void alpha_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
void vax_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
/* The VAX's scan, shared by the Tahoe: calls by OPCODE whose first operand
   is read as ARGSIZE bytes, operands in the byte order BIG_ENDIAN. */
void vax_like_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end,
                        unsigned opcode, unsigned argsize, int big_endian);
void tahoe_find_call(const CallScan *cs, Sym *parent, vma_t start, vma_t end);
#endif
