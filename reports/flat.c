/* flat.c -- the flat profile. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "reports/flat.h"
#include "sym_ids.h"
#include "cg_print.h"
#include "util/fmt.h"

/* Per-call column units: the SI prefix that brings the largest per-call
   time into [1, 1000). */
static const char *time_unit(double top, double *scale)
{
  /* GNU picks the largest unit u with top * (1/u) >= 1, the reciprocal
     computed in double (so a top of exactly 1e-9 s gives "ps", since
     1e-9 * (1/1e-9) < 1), and prints with the exact power of ten; no
     positive top gives "Ts".  (doc/DESIGN.md "Arithmetic") */
  static const char *pre[] = { "T", "G", "M", "K", "", "m", "u", "n", "p", "f", "a" };
  static const double unit[] = { 1e12, 1e9, 1e6, 1e3, 1, 1e-3, 1e-6, 1e-9, 1e-12, 1e-15, 1e-18 };
  static const double mul[] = { 1e-12, 1e-9, 1e-6, 1e-3, 1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18 };
  for (int k = 0; k < 11; k++) {
    volatile double u = unit[k];   /* no folding: 1/u rounded as GNU's is */
    if (top * (1.0 / u) >= 1.0) {
      *scale = mul[k];
      return pre[k];
    }
  }
  *scale = 1e-12;
  return "T";
}

/* The sort compares copies of the keys, not the symbols: on big tables
   every symbol a comparison reads is a cache miss, and a sort reads each
   some twenty times. */
typedef struct {
  double t;
  uint64_t calls;
  const char *name;
  Sym *s;
  NamePrefix np;
} FlatKey;

static int flat_cmp(const void *a, const void *b)
{
  const FlatKey *x = a, *y = b;
  if (x->t > y->t) return -1;
  if (x->t < y->t) return 1;
  if (x->calls > y->calls) return -1;
  if (x->calls < y->calls) return 1;
  return name_cmp(x->np, x->name, y->np, y->name);
}

void flat_sort(Sym **v, size_t n)
{
  FlatKey *k = xmalloc((n + 1) * sizeof *k);
  for (size_t i = 0; i < n; i++) {
    sym_prefetch_names(v, i, n);
    k[i] = (FlatKey){ v[i]->hist_time, v[i]->ncalls, v[i]->name, v[i], name_prefix(v[i]->name) };
  }
  qsort(k, n, sizeof *k, flat_cmp);     /* glibc's is a stable merge sort */
  for (size_t i = 0; i < n; i++) v[i] = k[i].s;
  free(k);
}

const char *flat_call_unit(const HistSet *hs, const SymTab *tab, double *scale)
{
  /* the unit suits the largest per-call time of any called function,
     listed or not */
  double top = 0, hz = hs->hz;
  for (size_t i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (!s->ncalls) continue;
    double t = (s->hist_time + s->child_time) / hz / (double)s->ncalls;  /* >= self/call */
    if (t > top) top = t;
  }
  return time_unit(top, scale);
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


void flat_print(const HistSet *hs, const SymTab *tab, const Options *o)
{
  size_t n = 0, i;
  Sym **v = xmalloc((tab->len + 1) * sizeof *v);
  double hz = hs->hz;
  double total = hs->total_samples;
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s)) continue;
    if (!o->zeros && s->hist_time == 0 && s->ncalls == 0) continue;
    v[n++] = s;
  }
  flat_sort(v, n);

  double scale;
  const char *u = flat_call_unit(hs, tab, &scale);
  char unit[16];
  if (o->traditional) {       /* BSD's layout always uses milliseconds */
    u = "m";
    scale = 1000.0;
  }
  /* the unit's letter and the column heads come from the histogram's
     dimension (GNU: "mc/call" and "cycles" for a dimension "cycles" with
     abbreviation 'c'; a NUL abbreviation ends the string) */
  snprintf(unit, sizeof unit, "%s%c/call", u, hs->dimen_abbrev);

  if (o->traditional) {
    if (!o->brief) printf(flat_blurb, unit, unit), print_notice();
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
    if (!o->traditional) printf(" no time accumulated\n\n");
    total = 1.0;
  }
  printf("  %%   cumulative   self              self     total           \n");
  printf(" time %9.9s %9.8s    calls %8s %8s  name    \n", hs->dimen, hs->dimen, unit, unit);
  /* GNU's operations, in GNU's order (doc/DESIGN.md "Arithmetic"): the
     running total is kept in samples and divided when printed; per-call
     figures multiply by the unit before dividing by the rate and calls. */
  double cum = 0;
  for (i = 0; i < n; i++) {
    Sym *s = v[i];
    sym_prefetch_names(v, i, n);  /* sorted by time: anywhere in memory */
    if (i + 8 < n) {
      __builtin_prefetch(&v[i + 8]->child_time);
      __builtin_prefetch(&v[i + 8]->dname);
    }
    double t = s->hist_time / hz;
    cum += s->hist_time;
    /* "%6.2f %9.2f %8.2f" (-T: "%5.1f %10.2f %8.2f"), then
       " %8llu %8.2f %8.2f  " or " %8s %8s %8s  ", by fmt.h */
    char buf[160], *p = buf;
    p = fmt_fixed(p, 100.0 * s->hist_time / total, o->traditional ? 5 : 6, o->traditional ? 1 : 2);
    *p++ = ' ';
    p = fmt_fixed(p, cum / hz, o->traditional ? 10 : 9, 2);
    *p++ = ' ';
    p = fmt_fixed(p, t, 8, 2);
    *p++ = ' ';
    if (s->ncalls) {
      p = fmt_u64(p, s->ncalls, 8, 0);
      *p++ = ' ';
      p = fmt_fixed(p, s->hist_time * scale / hz / (double)s->ncalls, 8, 2);
      *p++ = ' ';
      p = fmt_fixed(p, (s->hist_time + s->child_time) * scale / hz / (double)s->ncalls, 8, 2);
    } else {
      p = fmt_spaces(p, 8 + 1 + 8 + 1 + 8);
    }
    p = fmt_spaces(p, 2);
    if (o->traditional) {
      fmt_put(stdout, buf, p);
      cg_print_name(tab, s);
    } else {
      const char *label = sym_label(tab, s);
      fmt_put(stdout, buf, p);
      fwrite_unlocked(label, 1, strlen(label), stdout);
    }
    fputc_unlocked('\n', stdout);
  }
  free(v);
  if (!o->brief && !o->traditional) {
    printf(flat_blurb, unit, unit);
    print_notice();
  }
}
