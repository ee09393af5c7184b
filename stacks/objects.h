/* objects.h -- --objects: the profiles libprof writes for the process's
 * other objects (PROFILE.objects/manifest), read into the one report.
 *
 * Each object's functions are appended to the program's SymTab at a
 * synthetic address range of its own, named "name [object]", with a gap
 * symbol "[object]" wherever no function is; its histogram records are
 * appended to the program's HistSet shifted likewise, and its arcs (calls
 * inside it, and into it from the program or another object) join the
 * call graph.  See doc/DESIGN.md, "Other objects". */
#ifndef OBJECTS_H
#define OBJECTS_H
#include "hist.h"
#include "call_graph.h"
#include "gmon_io.h"

/* The longest build-id kept (bytes). */
#define OBJECTS_ID_MAX 64

typedef struct Obj Obj;
typedef struct ObjManifest ObjManifest;
typedef struct ObjArc ObjArc;
typedef struct {
  Obj *v;
  size_t n;
  ObjManifest *man;             /* the manifests read, in order */
  size_t nman;
  ObjArc *arcs;                 /* the objects' arcs, as read */
  size_t narcs, arcs_cap;
  struct ObjSum *sums;          /* -s: each object's files summed (objects_want_sum) */
  size_t *slot, nslot;          /* the objects by identity (1 + place in V, or
                                   ~place in BAD; 0: free) */
  struct ObjBad *bad;           /* objects left out (build-id differs): not reopened */
  size_t nbad;
  int full;                     /* OBJECTS_MAX reached (said once) */
  BoundedIn in;                 /* the object's file being read (so that
                                   objects_free closes it after an error
                                   returned to a trap: fuzz targets) */
  int in_open;
} Objects;

/* At most this many objects (manifests' and stacks' together): a
   further one is left out with a warning. */
#define OBJECTS_MAX 4096

/* Reads the manifests beside FILES[0..NFILES), opens each object (a bad
   one: a warning line, left out) and appends its symbols to TAB.  Before
   sym_id_parse and before any profile file is read. */
void objects_load(Objects *o, SymTab *tab, char *const *files, int nfiles);
/* The stacks (stacks.c) name objects too: each REFS[i] is the object at
   PATH with build-id ID (IDLEN bytes, 0: none) whose text is [LO, HI) at
   link time -- the one O holds already (same path and id: --objects'
   manifests or an earlier call), else a new one, opened as a manifest's
   object is (one that cannot be read, or the vdso, gets only its
   "[name]" symbols), whose symbols are appended to TAB (all the new ones
   in one copy of the table).  BASES[i] is its base (table address =
   link-time address + base), or 0 when it is not used: its build-id
   differs from ID (a warning naming WHERE, the file that names it), its
   range is implausible, or TAB is empty.  With or without objects_load;
   before sym_id_parse and before any profile is read. */
typedef struct {
  const char *path;
  const unsigned char *id;
  size_t idlen;
  vma_t lo, hi;
  const char *where;
} ObjectRef;
void objects_add(Objects *o, SymTab *tab, const ObjectRef *refs, size_t n, vma_t *bases);
/* The program at PATH (the profiled object) once more, as an object only
   the stacks name: every function of its ELF symbol table in [LO, HI)
   (link time), GCC's clones (.isra.N, .part.N, .cold, ...) too, which
   GNU's rules leave out of the program's own symbols, each named as the
   table names it (no " [object]"), its gaps "[name]".  For the names of
   our exports (stacks.c); no report lists them.  Returns the base added
   to the program's addresses, 0 when it cannot be read.  After
   objects_add. */
vma_t objects_add_program(Objects *o, SymTab *tab, const char *path, vma_t lo, vma_t hi);
/* Another table of the same objects (the exports' table, whose
   program's part keeps GCC's clones): TO, the program's symbols alone,
   finalized, gets a copy of FROM's other objects' symbols (objects_load's,
   objects_add's, objects_add_program's: FROM's symbols past its NMAIN,
   before the analysis), at the same addresses, so that the stacks' frames
   and the objects' arcs and histograms, placed once, hold in both.
   Returns 0 (TO unchanged) when TO's program reaches the first object's
   base. */
int objects_copy_syms(SymTab *to, const SymTab *from);
/* What the analysis of another table with the same symbols past the
   program's (objects_copy_syms) needs of FROM: TO shares FROM's objects
   and has a copy of the arcs objects_read_hist read (for its own
   objects_settle and objects_add_arcs).  After objects_read_hist, before
   FROM's objects_settle.  TO owns only its arcs. */
void objects_share(Objects *to, const Objects *from);
/* The first executable PT_LOAD segment of the ELF file at PATH that
   overlaps [LO, HI) (link time), as the kernel maps it (whole pages):
   its first address, its end, its file offset.  Returns 0 when there is
   none (or the file cannot be read). */
int objects_exec_segment(const char *path, vma_t lo, vma_t hi, vma_t *vaddr, vma_t *end, uint64_t *offset);
/* Reads each object's profile files and appends their histogram records
   to HS (after the program's own files and -s), keeping their arcs for
   objects_add_arcs; an object without a file is read in the program's
   layout (ADDR_SIZE, BIG_ENDIAN), all as GO says (the options the
   program's files were read with).  Returns whether any record was
   added. */
int objects_read_hist(Objects *o, HistSet *hs, int addr_size, int big_endian, const GmonOptions *go);
/* -s: objects_read_hist also sums each object's files, in its own
   address space, for objects_write_sum.  Before objects_read_hist. */
void objects_want_sum(Objects *o);
/* After objects_read_hist: SUM.objects/ gets a profile per object, the
   sum of its files (histograms added, arcs added per caller and callee;
   a caller in another object renumbered for the new manifest), and a
   manifest naming them, written last; each file whole or not at all.
   An error: the file's name and errno's text, exit 1 (as gmon.sum's). */
void objects_write_sum(Objects *o, const char *sum);
/* After hist_assign_samples: each object's gap symbols become one row
   (the first), the others leave the table's tail.  The arcs' ends are
   found before and follow their symbols. */
void objects_settle(Objects *o, SymTab *tab);
/* After objects_settle: the objects' arcs join CG (those -k lets
   through; KEEP, when not NULL, keeps them as records too).  Returns
   whether any did. */
int objects_add_arcs(Objects *o, CallGraph *cg, ArcRecs *keep, const SymTab *tab,
                     const SymSpecs *specs);
/* Closes the objects and frees O (the fuzz targets; the names of the
   symbols objects_load and objects_add made are the table's to drop:
   they are left, as the table is freed without them). */
void objects_free(Objects *o);
#endif
