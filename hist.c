/* hist.c -- histogram records, crediting samples to symbols, flat profile. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "symtab.h"
#include "cg_arcs.h"
#include "sym_ids.h"
#include "cg_print.h"

Hist *hist_recs;
size_t hist_nrecs;
double hist_hz;
char hist_dimen[HIST_DIMEN_LEN + 1];
char hist_dimen_abbrev;
static double total_samples;    /* every sample read, credited or not */

/* GNU measures histogram ranges in 2-byte units. */
#define UNIT 2

static double rec_scale(vma_t lo, vma_t hi, uint32_t n)
{
  return n ? (double)((hi - lo) / UNIT) / n : 0.0;
}

void hist_add(vma_t lowpc, vma_t highpc, uint32_t nbins,
              uint32_t rate, const char *dimen, char abbrev, const uint64_t *bins)
{
  if (hist_nrecs == 0 && !hist_recs) {
    hist_hz = rate;
    snprintf(hist_dimen, sizeof hist_dimen, "%s", dimen);
    hist_dimen_abbrev = abbrev;
  } else if (strncmp(hist_dimen, dimen, HIST_DIMEN_LEN)) {
    fatal("%s: dimension unit changed between histogram records\n"
          "%s: from '%s'\n%s: to '%s'\n",
          opt.whoami, opt.whoami, hist_dimen, opt.whoami, dimen);
  }
  for (size_t i = 0; i < hist_nrecs; i++) {
    Hist *h = &hist_recs[i];
    if (h->lowpc == lowpc && h->highpc == highpc) {
      if (h->nbins != nbins)
        fatal("%s: different scales in histogram records", opt.whoami);
      for (uint32_t k = 0; k < nbins; k++) h->bins[k] += bins[k];
      return;
    }
  }
  double sc = rec_scale(lowpc, highpc, nbins);
  for (size_t i = 0; i < hist_nrecs; i++) {
    Hist *h = &hist_recs[i];
    if (rec_scale(h->lowpc, h->highpc, h->nbins) != sc)
      fatal("%s: different scales in histogram records", opt.whoami);
    if (lowpc < h->highpc && h->lowpc < highpc)
      fatal("%s: overlapping histogram records\n", opt.whoami);
  }
  hist_recs = xrealloc(hist_recs, (hist_nrecs + 1) * sizeof *hist_recs);
  Hist *h = &hist_recs[hist_nrecs++];
  h->lowpc = lowpc;
  h->highpc = highpc;
  h->nbins = nbins;
  h->bins = xmalloc((size_t)nbins * sizeof *h->bins + 1);
  memcpy(h->bins, bins, (size_t)nbins * sizeof *h->bins);
}

void hist_range(vma_t *lowpc, vma_t *highpc)
{
  *lowpc = *highpc = 0;
  for (size_t i = 0; i < hist_nrecs; i++) {
    if (!i || hist_recs[i].lowpc < *lowpc) *lowpc = hist_recs[i].lowpc;
    if (!i || hist_recs[i].highpc > *highpc) *highpc = hist_recs[i].highpc;
  }
}

long hist_granularity_bytes(void)
{
  if (!hist_nrecs) return 0;
  Hist *h = &hist_recs[0];
  return (long)rec_scale(h->lowpc, h->highpc, h->nbins) * UNIT;
}

/* Credits each bin to the symbols it overlaps, in proportion to the
   overlap, walking bins and symbols together in address order. */
static void assign_rec(Hist *h)
{
  double scale = rec_scale(h->lowpc, h->highpc, h->nbins);
  vma_t lo_u = h->lowpc / UNIT;
  size_t j = 0;
  for (uint32_t i = 0; i < h->nbins; i++) {
    uint64_t count = h->bins[i];
    if (!count) continue;
    vma_t bin_lo = lo_u + (vma_t)(scale * i);
    vma_t bin_hi = lo_u + (vma_t)(scale * (i + 1));
    total_samples += (double)count;
    while (j > 0 && symtab.base[j].addr / UNIT > bin_lo) j--;
    for (; j < symtab.len; j++) {
      Sym *s = &symtab.base[j];
      vma_t s_lo = s->addr / UNIT;
      vma_t s_hi = (j + 1 < symtab.len) ? symtab.base[j + 1].addr / UNIT
                                        : (s->end_addr + 1) / UNIT;
      if (bin_hi < s_lo) break;
      if (s_hi <= bin_lo) continue;
      vma_t ov_lo = bin_lo > s_lo ? bin_lo : s_lo;
      vma_t ov_hi = bin_hi < s_hi ? bin_hi : s_hi;
      if (ov_hi <= ov_lo) continue;
      double credit = (double)(ov_hi - ov_lo) * (double)count / scale;
      if (sym_id_in_flat(s))
        s->hist_time += credit;
      else
        total_samples -= credit;
    }
    if (j > 0) j--;
  }
}

void hist_assign_samples(void)
{
  total_samples = 0;
  for (size_t i = 0; i < hist_nrecs; i++) assign_rec(&hist_recs[i]);
}

/* Per-call column units: the SI prefix that brings the largest per-call
   time into [1, 1000). */
static const char *time_unit(double top, double *scale)
{
  static const char *pre[] = { "K", "", "m", "u", "n", "p", "f", "a" };
  static const double mul[] = { 1e-3, 1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18 };
  if (!(top > 0)) { *scale = 1e-12; return "T"; }
  for (int k = 0; k < 8; k++)
    if (top * mul[k] >= 1.0 && (k == 0 || top * mul[k] < 1000.0)) {
      *scale = mul[k];
      return pre[k];
    }
  *scale = 1e18;
  return "<";
}

static int cmp_flat(const void *a, const void *b)
{
  const Sym *x = *(Sym *const *)a, *y = *(Sym *const *)b;
  if (x->hist_time > y->hist_time) return -1;
  if (x->hist_time < y->hist_time) return 1;
  if (x->ncalls > y->ncalls) return -1;
  if (x->ncalls < y->ncalls) return 1;
  return strcmp(x->name, y->name);
}

static const char flat_blurb[] =
  "\n"
  " %%         share of the whole run's samples credited to this\n"
  "time       function.\n"
  "\n"
  "cumulative running total of the self seconds of this line and\n"
  " seconds   every line above it.\n"
  "\n"
  " self      seconds credited to this function's own code; the\n"
  "seconds    table is sorted on this column first.\n"
  "\n"
  "calls      how many times the function was entered, when it was\n"
  "           compiled for profiling; blank otherwise.\n"
  "\n"
  " self      average time per call spent in the function itself,\n"
  "%-7s    for profiled functions; blank otherwise.\n"
  "\n"
  " total     average time per call spent in the function and in\n"
  "%-7s    everything it called, for profiled functions.\n"
  "\n"
  "name       the function; ties in the columns above are broken by\n"
  "           name.  A bracketed number is its index in the call\n"
  "           graph, in parentheses when the entry is not printed.\n";


void hist_print(void)
{
  size_t n = 0, i;
  Sym **v = xmalloc((symtab.len + 1) * sizeof *v);
  double hz = hist_hz;
  double total = total_samples;
  for (i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    if (!sym_id_in_flat(s)) continue;
    if (!opt.zeros && s->hist_time == 0 && s->ncalls == 0) continue;
    v[n++] = s;
  }
  qsort(v, n, sizeof *v, cmp_flat);

  /* the unit suits the largest per-call time of any called function,
     listed or not */
  double top = 0;
  for (i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    if (!s->ncalls) continue;
    double t = (s->hist_time + s->child_time) / hz / (double)s->ncalls;  /* >= self/call */
    if (t > top) top = t;
  }
  double scale;
  const char *u = time_unit(top, &scale);
  char unit[16];
  if (opt.traditional) {       /* BSD's layout always uses milliseconds */
    u = "m";
    scale = 1000.0;
  }
  snprintf(unit, sizeof unit, "%ss/call", u);

  if (opt.traditional) {
    if (!opt.brief) printf(flat_blurb, unit, unit), print_notice();
    if (total > 0)
      printf("\ngranularity: each sample hit covers %ld byte(s) for %.2f%% of %.2f seconds\n\n",
             hist_granularity_bytes(), 100.0 / total, total / hz);
    else
      printf("\ngranularity: each sample hit covers %ld byte(s) no time accumulated\n\n",
             hist_granularity_bytes());
  } else {
    printf("Flat profile:\n\n");
    printf("Each sample counts as %g %s.\n", 1.0 / hz, hist_dimen);
  }
  if (total <= 0) {
    if (!opt.traditional) printf(" no time accumulated\n\n");
    total = 1.0;
  }
  printf("  %%   cumulative   self              self     total           \n");
  printf(" time   seconds   seconds    calls %8s %8s  name    \n", unit, unit);
  double cum = 0;
  for (i = 0; i < n; i++) {
    Sym *s = v[i];
    double t = s->hist_time / hz;
    cum += t;
    if (opt.traditional)
      printf("%5.1f %10.2f %8.2f", 100.0 * s->hist_time / total, cum, t);
    else
      printf("%6.2f %9.2f %8.2f", 100.0 * s->hist_time / total, cum, t);
    if (s->ncalls)
      printf(" %8llu %8.2f %8.2f  ", (unsigned long long)s->ncalls,
             s->hist_time / hz / (double)s->ncalls * scale,
             (s->hist_time + s->child_time) / hz / (double)s->ncalls * scale);
    else
      printf(" %8s %8s %8s  ", "", "", "");
    if (opt.traditional) cg_print_name(s);
    else printf("%s", sym_label(s));
    printf("\n");
  }
  free(v);
  if (!opt.brief && !opt.traditional) {
    printf(flat_blurb, unit, unit);
    print_notice();
  }
}
