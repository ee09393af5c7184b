/* hist.c -- histogram records and crediting samples to symbols. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "hist.h"
#include "sym_ids.h"

/* GNU measures histogram ranges in 2-byte units. */
#define UNIT HIST_UNIT

static double rec_scale(vma_t lo, vma_t hi, uint32_t n)
{
  return n ? (double)((hi - lo) / UNIT) / n : 0.0;
}

/* Distinct ranges a profile may hold.  A program writes one or two; GNU
   checks each new record against every earlier one, so thousands of tiny
   crafted records cost it (and us) quadratic time. */
#define HIST_MAX_RANGES 4096

int hist_check(const HistSet *hs, const char *filename, vma_t lowpc, vma_t highpc,
               uint32_t nbins, const char *dimen, char abbrev)
{
  if (hs->nrecs == 0 && !hs->recs) return -1;
  if (strncmp(hs->dimen, dimen, HIST_DIMEN_LEN))
    msg_fatal("dimension unit changed between histogram records\n"
              "%s: from '%s'\n%s: to '%s'\n", util_name(), hs->dimen, util_name(), dimen);
  if (hs->dimen_abbrev != abbrev)
    msg_fatal("dimension abbreviation changed between histogram records\n"
              "%s: from '%c'\n%s: to '%c'\n", util_name(), hs->dimen_abbrev, util_name(), abbrev);
  for (size_t i = 0; i < hs->nrecs; i++) {
    const Hist *h = &hs->recs[i];
    if (h->lowpc == lowpc && h->highpc == highpc) {
      if (h->nbins != nbins)
        msg_fatal("different scales in histogram records");
      return (int)i;
    }
  }
  double sc = rec_scale(lowpc, highpc, nbins);
  for (size_t i = 0; i < hs->nrecs; i++) {
    const Hist *h = &hs->recs[i];
    if (rec_scale(h->lowpc, h->highpc, h->nbins) != sc)
      msg_fatal("different scales in histogram records");
    if (lowpc < h->highpc && h->lowpc < highpc)
      msg_fatal("overlapping histogram records\n");
  }
  if (hs->nrecs >= HIST_MAX_RANGES)
    msg_fatal("%s: more than %d histogram ranges\n",
              filename ? filename : "profile", HIST_MAX_RANGES);
  return -1;
}

void hist_add(HistSet *hs, vma_t lowpc, vma_t highpc, uint32_t nbins,
              uint32_t rate, const char *dimen, char abbrev, const uint64_t *bins)
{
  int same = hist_check(hs, NULL, lowpc, highpc, nbins, dimen, abbrev);
  if (hs->nrecs == 0 && !hs->recs) {
    hs->hz = rate;
    /* all 15 bytes, what follows the string too: GNU's gmon.sum copies
       them from the first record (found by a mutated profile) */
    memcpy(hs->dimen, dimen, HIST_DIMEN_LEN);
    hs->dimen[HIST_DIMEN_LEN] = 0;
    hs->dimen_abbrev = abbrev;
  }
  if (same >= 0) {
    Hist *h = &hs->recs[same];
    for (uint32_t k = 0; k < nbins; k++) h->bins[k] += bins[k];
    return;
  }
  hs->recs = xrealloc(hs->recs, (hs->nrecs + 1) * sizeof *hs->recs);
  Hist *h = &hs->recs[hs->nrecs++];
  h->lowpc = lowpc;
  h->highpc = highpc;
  h->nbins = nbins;
  h->bins = xmalloc((size_t)nbins * sizeof *h->bins + 1);
  memcpy(h->bins, bins, (size_t)nbins * sizeof *h->bins);
}

void hist_append_shifted(HistSet *hs, const HistSet *from, vma_t shift)
{
  if (!from->nrecs) return;
  if (hs->nrecs == 0 && !hs->recs) {
    hs->hz = from->hz;
    memcpy(hs->dimen, from->dimen, sizeof hs->dimen);
    hs->dimen_abbrev = from->dimen_abbrev;
  }
  hs->recs = xrealloc(hs->recs, (hs->nrecs + from->nrecs) * sizeof *hs->recs);
  for (size_t i = 0; i < from->nrecs; i++) {
    const Hist *f = &from->recs[i];
    Hist *h = &hs->recs[hs->nrecs++];
    h->lowpc = f->lowpc + shift;
    h->highpc = f->highpc + shift;
    h->nbins = f->nbins;
    h->bins = xmalloc((size_t)f->nbins * sizeof *h->bins + 1);
    memcpy(h->bins, f->bins, (size_t)f->nbins * sizeof *h->bins);
  }
}

void hist_range(const HistSet *hs, vma_t *lowpc, vma_t *highpc)
{
  *lowpc = *highpc = 0;
  for (size_t i = 0; i < hs->nrecs; i++) {
    if (!i || hs->recs[i].lowpc < *lowpc) *lowpc = hs->recs[i].lowpc;
    if (!i || hs->recs[i].highpc > *highpc) *highpc = hs->recs[i].highpc;
  }
}

long hist_granularity_bytes(const HistSet *hs)
{
  if (!hs->nrecs) return 0;
  Hist *h = &hs->recs[0];
  /* as GNU prints it on x86-64 for ranges near 2^64 (found by fuzzing): a
     scale of 2^63 or more converts to LONG_MIN and the product wraps;
     done without the undefined conversion and overflow */
  double sc = rec_scale(h->lowpc, h->highpc, h->nbins);
  long s = sc < 0x1p63 ? (long)sc : LONG_MIN;
  return (long)((unsigned long)s * UNIT);
}

/* Credits each bin to the symbols it overlaps, in proportion to the
   overlap, walking bins and symbols together in address order. */
static void assign_rec(HistSet *hs, const Hist *h, SymTab *tab)
{
  double scale = rec_scale(h->lowpc, h->highpc, h->nbins);
  vma_t lo_u = h->lowpc / UNIT;
  size_t j = 0, last = symtab_own_len(tab) - 1;
  int placed = 0;
  for (uint32_t i = 0; i < h->nbins; i++) {
    uint64_t count = h->bins[i];
    if (!count) continue;
    vma_t bin_lo = lo_u + (vma_t)(scale * i);
    vma_t bin_hi = lo_u + (vma_t)(scale * (i + 1));
    hs->total_samples += (double)count;
    if (!placed) {
      /* start at the last symbol at or below the first bin (no walk from
         the bottom of the table for every record) */
      size_t lo = 0, hi = tab->len;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tab->base[mid].addr / UNIT <= bin_lo) lo = mid + 1;
        else hi = mid;
      }
      j = lo ? lo - 1 : 0;
      placed = 1;
    }
    while (j > 0 && tab->base[j].addr / UNIT > bin_lo) j--;
    for (; j < tab->len; j++) {
      Sym *s = &tab->base[j];
      vma_t s_lo = s->addr / UNIT;
      /* the program's last symbol ends by its rule, other objects' last
         (a gap symbol at their text's end) at its own address */
      vma_t s_hi = (j != last && j + 1 < tab->len) ? tab->base[j + 1].addr / UNIT
                   : (j == last && tab->last_hist_end ? tab->last_hist_end
                      : s->end_addr + 1) / UNIT;
      if (bin_hi < s_lo) break;
      if (s_hi <= bin_lo) continue;
      vma_t ov_lo = bin_lo > s_lo ? bin_lo : s_lo;
      vma_t ov_hi = bin_hi < s_hi ? bin_hi : s_hi;
      if (ov_hi <= ov_lo) continue;
      double credit = (double)(ov_hi - ov_lo) * (double)count / scale;
      if (sym_id_in_flat(s))
        s->hist_time += credit;
      else
        hs->total_samples -= credit;
    }
    if (j > 0) j--;
  }
}

void hist_assign_samples(HistSet *hs, SymTab *tab)
{
  hs->total_samples = 0;
  for (size_t i = 0; i < hs->nrecs; i++) assign_rec(hs, &hs->recs[i], tab);
}

void hist_bin_bounds(const Hist *h, uint32_t i, vma_t *lo, vma_t *hi)
{
  double scale = rec_scale(h->lowpc, h->highpc, h->nbins);
  vma_t lo_u = h->lowpc / UNIT;
  *lo = (lo_u + (vma_t)(scale * i)) * UNIT;
  *hi = (lo_u + (vma_t)(scale * (i + 1))) * UNIT;
}

void hist_free_bins(HistSet *hs)
{
  for (size_t i = 0; i < hs->nrecs; i++) {
    free(hs->recs[i].bins);
    hs->recs[i].bins = NULL;
  }
}


void hist_free(HistSet *hs)
{
  for (size_t i = 0; i < hs->nrecs; i++) free(hs->recs[i].bins);
  free(hs->recs);
  memset(hs, 0, sizeof *hs);
}
