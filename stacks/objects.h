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
#include <sys/types.h>
#include "hist.h"
#include "call_graph.h"
#include "gmon_io.h"

/* The longest build-id kept (bytes). */
#define OBJECTS_ID_MAX 64

/* ---- the one object model (doc/DESIGN.md, section 8) ----

   An Object is a file: the program (always Object 0 of its Objects) or
   another ELF object a manifest or a stack file names.  A Load is one
   load generation of an Object in one run (stacks.h Stacks.loads): where
   it was mapped, and when.  An object unloaded and another loaded at its
   address are two Loads (of two Objects, or of one Object loaded twice).

   Invariants:
   - Objects.v[0] is the program (program = 1); it is not in the identity
     index (a stack file's object that names the program's file is
     another Object); its base is 0 (GNU's table holds its functions at
     their link-time addresses) and names_base, when not 0, the base of the
     copy of every sized function of its ELF table (objects_add_program).
   - Every other Object is found by identity (the file it reaches, its
     build-id: one Object however named), has a base = B + k * 2^40 (B
     above the program's last symbol), its symbols in the table at
     [base + text_lo, base + text_hi], bases increasing with k.
   - An Object's ELF file is read by one reader (objects.c), at most twice:
     its first 64 KiB for the program headers (segs, when only those are
     asked), the whole file for the functions (and the segments then). */

/* A PT_LOAD program header. */
typedef struct {
  vma_t vaddr, memsz;           /* link time */
  uint64_t offset, filesz;      /* in the file */
  uint32_t flags;               /* PF_X, PF_W, PF_R */
} ObjSeg;

/* A defined STT_FUNC / STT_GNU_IFUNC symbol inside the object's text. */
typedef struct {
  vma_t addr, size;             /* link time; a size past the text is cut */
  const char *name;             /* in Object.fn_names */
  int local;
  size_t seq;                   /* place in the symbol table read */
} ObjFunc;

/* What makes two names one object: the file they reach (its device and
   inode: "./lib.so", ".//lib.so", "/a/../a/lib.so", a symbolic or a hard
   link are one file, opened and read once), or for a name that reaches
   no regular file (the vdso, a file gone since the run) the name itself;
   and the build-id. */
typedef struct {
  int file;                     /* DEV and INO are the file's */
  dev_t dev;
  ino_t ino;
} ObjIdent;

typedef struct Object {
  char *path;                   /* as first named (a manifest, a stack
                                   file, the command line for the program) */
  char *abspath;                /* absolute, resolved when first seen
                                   (realpath); NULL: no such file */
  ObjIdent who;
  unsigned char id[OBJECTS_ID_MAX]; /* build-id as named (the program's: its own) */
  size_t idlen;                 /* 0: none */
  vma_t text_lo, text_hi;       /* link-time text */
  vma_t base;                   /* table address = link-time address + base */
  vma_t names_base;             /* the program's: its every-function copy (0: none) */
  int program;                  /* Object 0 */
  int stacks_only;              /* named by the stacks only (objects_add) */
  struct bfd *abfd;             /* NULL: no file BFD reads (the program's:
                                   the Core's, not owned) */
  char *gap;                    /* "[name]": its gap symbols' name */
  char *suffix;                 /* " [name]" ("" for the program) */
  /* its ELF file, read once (objects.c object_segs, object_funcs) */
  int segs_read, funcs_read;
  ObjSeg *segs;                 /* PT_LOAD headers, in file order */
  size_t nsegs;
  ObjFunc *fn;                  /* its functions, by address (ties in table order) */
  size_t nfn;
  char *fn_names;               /* their names */
  const char *fn_from;          /* ".symtab", "debug file", ".dynsym", "none" */
  /* --objects: its profile files */
  char **files;
  size_t *file_man;             /* the manifest that named each */
  size_t nfiles;
} Object;

/* One load generation of an Object in the stacks (stacks.c). */
typedef struct Load {
  char *path;                   /* as the stack file names it */
  unsigned char id[OBJECTS_ID_MAX];
  size_t idlen;                 /* 0: no build-id */
  vma_t base;                   /* load bias at run time */
  vma_t lo, hi;                 /* run-time text */
  vma_t shift;                  /* symbol-table address = PC - base + shift */
  int known;                    /* its symbols are in the table */
  uint32_t object;              /* its Object (0: the program), UINT32_MAX: none */
  uint64_t from, to;            /* version 2: the map epochs it was loaded
                                   in, [FROM, TO) (TO UINT64_MAX: to the end) */
} Load;

typedef struct ObjManifest ObjManifest;
typedef struct ObjArc ObjArc;
typedef struct Objects {
  Object *v;                    /* [0] the program (once objects_program or
                                   any other call made it), then the others */
  size_t n;
  ObjManifest *man;             /* the manifests read, in order */
  size_t nman;
  ObjArc *arcs;                 /* the objects' arcs, as read */
  size_t narcs, arcs_cap;
  struct ObjSum *sums;          /* -s: each object's files summed (objects_want_sum) */
  size_t *slot, nslot;          /* the objects by identity (place in V, or
                                   ~place in BAD; 0: free) */
  struct ObjBad *bad;           /* objects left out (build-id differs): not reopened */
  size_t nbad;
  int full;                     /* OBJECTS_MAX reached (said once) */
  BoundedIn in;                 /* the object's file being read (so that
                                   objects_free closes it after an error
                                   returned to a trap: fuzz targets) */
  int in_open;
} Objects;

/* Object 0, the program: PATH (as named), read through CORE (NULL: a
   program of no known file, as -s's object sums use), its build-id and
   code range from it.  First, before any other call on O (a zeroed O that
   another call meets first gets an Object 0 of no file). */
struct Core;
void objects_program(Objects *o, const struct Core *core, const char *path);
/* Whether the table holds symbols past the program's own (other objects,
   or the program's every-function copy): what objects_settle, the arcs
   and the objects' files are about. */
int objects_present(const Objects *o);
/* OB's PT_LOAD segments (read on first use); returns how many. */
size_t object_segs(Object *ob, const ObjSeg **segs);
/* The first executable segment of SEGS (N) that overlaps [LO, HI) (link
   time), as the kernel maps it (whole pages): its first address, its end,
   its file offset.  Returns 0 when there is none. */
int objects_exec_segment_of(const ObjSeg *segs, size_t n, vma_t lo, vma_t hi, vma_t *vaddr, vma_t *end,
                            uint64_t *offset);

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
   range is implausible, or TAB is empty; OBJIX[i] its place in O (0 when
   not used).  With or without objects_load;
   before sym_id_parse and before any profile is read. */
typedef struct {
  const char *path;
  const unsigned char *id;
  size_t idlen;
  vma_t lo, hi;
  const char *where;
} ObjectRef;
void objects_add(Objects *o, SymTab *tab, const ObjectRef *refs, size_t n, vma_t *bases, uint32_t *objix);
/* The program (Object 0) once more, as an object only
   the stacks name: every function of its ELF symbol table in its text
   (link time), GCC's clones (.isra.N, .part.N, .cold, ...) too, which
   GNU's rules leave out of the program's own symbols, each named as the
   table names it (no " [object]"), its gaps "[name]".  For the names of
   our exports (stacks.c); no report lists them.  Returns the base added
   to the program's addresses (Object 0's names_base), 0 when it cannot be
   read.  After objects_add. */
vma_t objects_add_program(Objects *o, SymTab *tab);
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
/* objects_exec_segment_of over the segments of the ELF file at PATH (a
   file no Object stands for: a stack file's object left out).  Returns 0
   when there is none (or the file cannot be read). */
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
