/* flat.c -- the flat profile. */
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "flat.h"
#include "sym_ids.h"
#include "cg_print.h"

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


void flat_print(const HistSet *hs, const SymTab *tab)
{
  size_t n = 0, i;
  Sym **v = xmalloc((tab->len + 1) * sizeof *v);
  double hz = hs->hz;
  double total = hs->total_samples;
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s)) continue;
    if (!opt.zeros && s->hist_time == 0 && s->ncalls == 0) continue;
    v[n++] = s;
  }
  qsort(v, n, sizeof *v, cmp_flat);

  /* the unit suits the largest per-call time of any called function,
     listed or not */
  double top = 0;
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
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
  /* the unit's letter and the column heads come from the histogram's
     dimension (GNU: "mc/call" and "cycles" for a dimension "cycles" with
     abbreviation 'c'; a NUL abbreviation ends the string) */
  snprintf(unit, sizeof unit, "%s%c/call", u, hs->dimen_abbrev);

  if (opt.traditional) {
    if (!opt.brief) printf(flat_blurb, unit, unit), print_notice();
    if (total > 0)
      printf("\ngranularity: each sample hit covers %ld byte(s) for %.2f%% of %.2f %s\n\n",
             hist_granularity_bytes(hs), 100.0 / total, total / hz, hs->dimen);
    else
      printf("\ngranularity: each sample hit covers %ld byte(s) no time accumulated\n\n",
             hist_granularity_bytes(hs));
  } else {
    printf("Flat profile:\n\n");
    printf("Each sample counts as %g %s.\n", 1.0 / hz, hs->dimen);
  }
  if (total <= 0) {
    if (!opt.traditional) printf(" no time accumulated\n\n");
    total = 1.0;
  }
  printf("  %%   cumulative   self              self     total           \n");
  printf(" time %9.9s %9.8s    calls %8s %8s  name    \n", hs->dimen, hs->dimen, unit, unit);
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
    if (opt.traditional) cg_print_name(tab, s);
    else printf("%s", sym_label(tab, s));
    printf("\n");
  }
  free(v);
  if (!opt.brief && !opt.traditional) {
    printf(flat_blurb, unit, unit);
    print_notice();
  }
}
