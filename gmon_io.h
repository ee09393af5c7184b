/* gmon_io.h -- reading profile data files (GNU, BSD, 4.4BSD layouts) and
 * writing gmon.sum.
 *
 * A Profile is everything the profile files held: the histogram records,
 * the arcs (added to the call graph as they are read, and kept as records
 * for -s), the basic-block counts, and which kinds of records were seen.
 * gmon_out_read adds one file to it; gmon_out_write writes the sum, whole
 * or not at all.  Errors in the input exit through fatal() with GNU's
 * messages. */
#ifndef GMON_IO_H
#define GMON_IO_H
#include "hist.h"
#include "call_graph.h"
#include "basic_blocks.h"
#include "gmon/facts.h"

typedef struct {
  GmonEnc enc;                  /* the object's byte order and width */
  HistSet hist;
  CallGraph cg;
  ArcRecs arc_recs;             /* kept only for -s and --callgrind */
  BBSet bb;
  int have_hist, have_arcs, have_bb;
  int arcs_read;                /* arc records seen (a BSD file has_arcs without any) */
  int warned_bb;
  /* GNU's gmon.sum header carries, in its spare bytes, the high pc and
     count of the last histogram header read */
  vma_t last_hist_highpc;
  uint32_t last_hist_ncnt;
  GmonFacts facts;              /* libprof's facts, summed over the files */
} Profile;

/* What the command line asks of the reader (options.h; the driver fills
   it in from the Options).  All zero: GNU's defaults. */
typedef struct {
  int file_format;              /* -O: FF_* (options.h) */
  int keep_arcs;                /* keep the arc records (Profile.arc_recs):
                                   -s, or an export's call sites */
  int use_bb;                   /* -l or -s: basic-block counts are used
                                   (else they draw GNU's warning) */
  int info;                     /* -i: say what each file holds */
  unsigned debug;               /* -d: DBG_* bits */
} GmonOptions;

/* What the reader resolves records against, and how it reads. */
typedef struct {
  GmonOptions opts;
  const SymTab *syms;
  const SymSpecs *specs;
  /* For the warning on a profile that is not the object's (all optional:
     zero checks nothing).  OBJECT names it; BUILD_ID, when not NULL, is
     its build-id's first GMON_BUILD_ID_LEN bytes; CODE[0..NCODE) its
     code sections. */
  const char *object;
  const unsigned char *build_id;
  const vma_t (*code)[2];
  size_t ncode;
  /* When set, arc records go to it, as read, instead of the call graph
     (--objects: another object's arcs, placed by objects.c). */
  void (*arc_sink)(void *arg, vma_t from, vma_t self, uint64_t count);
  void *arc_arg;
  /* When set, the program's arc records (those not sunk) are also kept
     there as read, for another table's analysis (cg_pairs_replay). */
  ArcPairs *pairs;
} GmonContext;

void gmon_init(Profile *p, int addr_size, int big_endian);
/* Frees what P holds and makes it empty again. */
void gmon_free(Profile *p);
/* Makes P a profile derived from Q, for a second analysis of what Q read:
   every field of Q's, the histogram records, basic-block counts and facts
   shared (Q owns and frees them: P is not gmon_free'd), except the call
   graph and the arc records, which start empty for the caller to fill.
   (A field added to Profile is shared by default.) */
void gmon_derive(Profile *p, const Profile *q);
void gmon_out_read(Profile *p, const GmonContext *cx, const char *filename);
/* The same from an open stream (the fuzz targets read from memory). */
void gmon_read_stream(Profile *p, const GmonContext *cx, const char *filename, BoundedIn *in);
/* After the last file: completes what the reading deferred (-s: the calls
   of records seen again are added to their arcs here, once, not one
   record at a time).  Before anything reads the call graph. */
void gmon_finish(Profile *p);
/* Writes FILENAME; on failure prints "gprof: FILENAME: reason" and exits 1,
   leaving any old file untouched. */
void gmon_out_write(Profile *p, const SymTab *syms, const char *filename);
/* A histogram record's tag and header (H's range and bin count, HS's rate and
   dimension), in OUT's encoding; its bins follow. */
void gmon_put_hist_head(GmonOut *out, const HistSet *hs, const Hist *h);
#endif
