/* dwarf.h -- source positions of a whole text section from DWARF, read once.
 *
 * Contract: dw_segments decodes the object's .debug_line (DWARF 2-5) and
 * the functions and inlined calls of .debug_info, and gives, in address
 * order, the pieces of [lo, hi) over which bfd_find_nearest_line's answer
 * (file, line, function name) stays the same, with that answer -- the
 * answer BFD 2.40 gives in GNU gprof's -l walk, after every function
 * symbol and every address of the text has been asked about once (see
 * doc/DESIGN.md, "-l at scale").  It returns NULL when the debug
 * information holds anything it does not decode exactly as BFD does (then
 * ask BFD).  The strings live until dw_free.  Layer: object and symbols
 * (core.c). */
#ifndef DWARF_H
#define DWARF_H
#include <stdint.h>
#include "core.h"

typedef struct {
  vma_t addr;                   /* from here to the next piece's address */
  const char *file;             /* NULL: BFD has no answer (or line 0) */
  const char *func;             /* NULL: none */
  int line;
} DwSeg;

typedef struct DwInfo DwInfo;

/* Reading a DWARF section's bytes (dwarf.c): fixed-size
   values in the object's byte order and LEB128, never past END (BAD set
   and nothing read instead). */
typedef struct { const unsigned char *p, *end, *start; int bad, big; } DwRd;

static inline uint64_t dw_rd_u(DwRd *r, int n)
{
  uint64_t v = 0;
  if (r->end - r->p < n || n > 8) { r->bad = 1; r->p = r->end; return 0; }
  for (int i = 0; i < n; i++)
    v |= (uint64_t)(r->big ? r->p[n - 1 - i] : r->p[i]) << (8 * i);
  r->p += n;
  return v;
}

static inline uint64_t dw_rd_uleb(DwRd *r)
{
  uint64_t v = 0;
  int sh = 0;
  while (r->p < r->end) {
    unsigned char b = *r->p++;
    if (sh < 64) v |= (uint64_t)(b & 0x7f) << sh;
    sh += 7;
    if (!(b & 0x80)) return v;
  }
  r->bad = 1;
  return v;
}

/* DEBUG: -d's bits (options.h; DBG_SYMTAB traces what was decoded). */
DwInfo *dw_open(Core *core, unsigned debug);
/* The address of every row and sequence end of the line programs of a
   .debug_line section (BUF, LEN bytes, in the object's byte order BIG
   and address size ADDR_SIZE), in the order met: *V (xmalloc'd, the
   caller frees it) and *N.  Decoded by dw_open's decoder, taking what it
   refuses as far as the addresses go; 0 (nothing kept) when a unit's
   header cannot be read. */
int dw_line_addrs(const unsigned char *buf, size_t len, int big, int addr_size, vma_t **v, size_t *n);
/* The pieces covering [lo, hi), the first at lo; *N is their count.  Call
   once: it frees the decoded rows and functions.  The strings of the
   pieces live until dw_free (linesyms.c keeps them for the run: its
   symbols name them). */
const DwSeg *dw_segments(DwInfo *dw, vma_t lo, vma_t hi, size_t *n);
/* The segments dw_segments returned are no longer wanted: their array
   is freed (the strings they pointed at stay, until dw_free). */
void dw_drop_segments(DwInfo *dw);
void dw_free(DwInfo *dw);
#endif
