/* hist.h -- histogram records, sample assignment and the flat profile.
 * Histograms for the same range are summed; records for disjoint ranges
 * are kept side by side; anything else is fatal, with GNU's messages. */
#ifndef HIST_H
#define HIST_H
#include "gprof.h"
#include "gmon_io.h"
#include "gmon_out.h"

typedef struct {
  vma_t lowpc, highpc;          /* byte addresses */
  uint32_t nbins;
  uint64_t *bins;
} Hist;

extern Hist *hist_recs;
extern size_t hist_nrecs;
extern double hist_hz;          /* profiling rate of the first record */
extern char hist_dimen[HIST_DIMEN_LEN + 1];
extern char hist_dimen_abbrev;

/* Adds a record; BINS holds NBINS raw counts. */
void hist_add(vma_t lowpc, vma_t highpc, uint32_t nbins,
              uint32_t rate, const char *dimen, char abbrev,
              const uint64_t *bins);
void hist_assign_samples(void);
void hist_print(void);
long hist_granularity_bytes(void);
/* The addresses the histograms cover, lowest to highest; both 0 without
   a histogram. */
void hist_range(vma_t *lowpc, vma_t *highpc);
#endif
