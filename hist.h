/* hist.h -- histogram records and the crediting of their samples to
 * symbols.
 *
 * Records for the same range are summed; records for disjoint ranges are
 * kept side by side; anything else is fatal, with GNU's messages.  The
 * first record sets the rate and the dimension. */
#ifndef HIST_H
#define HIST_H
#include "symtab.h"
#include "gmon_out.h"

typedef struct {
  vma_t lowpc, highpc;          /* byte addresses */
  uint32_t nbins;
  uint64_t *bins;
} Hist;

typedef struct {
  Hist *recs;
  size_t nrecs;
  double hz;                    /* profiling rate of the first record */
  char dimen[HIST_DIMEN_LEN + 1];
  char dimen_abbrev;
  double total_samples;         /* every sample read, credited or not,
                                   less those of symbols outside the flat
                                   profile (hist_assign_samples) */
} HistSet;

/* Checks a record's header against the records so far, as GNU does before
   it reads the samples: a changed dimension, a different scale or an
   overlap is fatal (GNU's messages; a changed abbreviation too), and so is a range beyond a sane
   number of them (FILENAME's).  Returns the index of the record with the
   same range, or -1. */
int hist_check(const HistSet *hs, const char *filename, vma_t lowpc, vma_t highpc,
               uint32_t nbins, const char *dimen, char abbrev);
/* Adds a record; BINS holds NBINS raw counts. */
/* The bins, once credited (and written to gmon.sum) are not needed by the
   reports: hist_free_bins gives them back (ranges and counts stay). */
void hist_free_bins(HistSet *hs);
/* DIMEN is the record's whole 15-byte field (HIST_DIMEN_LEN bytes are
   read, a string and what follows it): the first record's is kept as it
   is, since gmon.sum carries it so. */
void hist_add(HistSet *hs, vma_t lowpc, vma_t highpc, uint32_t nbins,
              uint32_t rate, const char *dimen, char abbrev,
              const uint64_t *bins);
/* --objects: appends FROM's records to HS with their ranges raised by
   SHIFT, unchecked (they lie apart from HS's; each is credited with its
   own scale).  HS without records takes FROM's rate and dimension. */
void hist_append_shifted(HistSet *hs, const HistSet *from, vma_t shift);
/* Credits every bin to the symbols of TAB it overlaps (Sym.hist_time). */
void hist_assign_samples(HistSet *hs, SymTab *tab);
void hist_free(HistSet *hs);
/* The addresses bin I of H covers, [*LO, *HI), as hist_assign_samples
   counts them (in GNU's 2-byte units); HIST_UNIT divides a symbol's
   address the same way before it is compared. */
#define HIST_UNIT 2
void hist_bin_bounds(const Hist *h, uint32_t i, vma_t *lo, vma_t *hi);
long hist_granularity_bytes(const HistSet *hs);
/* The addresses the histograms cover, lowest to highest; both 0 without
   a histogram. */
void hist_range(const HistSet *hs, vma_t *lowpc, vma_t *highpc);
#endif
