/* gmon_facts.h -- libprof's facts records (gmon_out.h): what a profile
 * says besides its histogram and arcs -- samples outside the program's
 * text, samples not taken, the clock --, read from each file, summed over
 * the files read, written again into gmon.sum, and told on stderr when a
 * good share of the run is missing from the flat profile. */
#ifndef GMON_FACTS_H
#define GMON_FACTS_H
#include <stdint.h>
#include "gmon/enc.h"
#include "gmon_out.h"

typedef struct {
  int present;                  /* facts read (with their mark) */
  int lost;                     /* records of the facts' page without it (GNU's gmon.sum) */
  uint64_t v[GMON_FACT_NKEYS];
  int hz_mixed;                 /* files of different rates summed */
  char clock[49];               /* GMON_FACT_CLOCK, NUL-terminated */
  int clock_mixed;
} GmonFacts;

/* Whether a histogram record of range [LO, HI) and N bins, in a file of
   ADDR_SIZE-byte addresses, is one of the facts' page. */
int gmon_facts_is(vma_t lo, vma_t hi, uint32_t n, int addr_size);
/* One facts record (its low pc and 15 dimension bytes) into F. */
void gmon_facts_take(GmonFacts *f, vma_t lo, int addr_size, const unsigned char *dimen);
/* One file's facts added to the sum SUM. */
void gmon_facts_merge(GmonFacts *sum, const GmonFacts *file);
/* The records, in OUT's encoding, with rate HZ (nothing without facts). */
void gmon_facts_write(const GmonFacts *f, GmonOut *out, uint32_t hz);
/* gprof -i's line for a file with facts (nothing without): the clock
   that sampled it and the rate, e.g. "sampled by libprof: clock
   perf-event, 1000 samples a CPU second". */
void gmon_facts_info(const GmonFacts *f);
/* The notes on stderr (nothing without facts): the share of the samples
   outside the program's code and of those not taken, when large.  WHAT
   names the profile(s); OBJECTS: --objects was given. */
void gmon_facts_note(const GmonFacts *f, const char *what, int objects);
#endif
