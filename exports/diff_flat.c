/* diff_flat.c -- the flat profile's differences (diff_flat.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exports/diff_flat.h"
#include "sym_ids.h"

typedef struct {
  const char *name;
  double secs;
  uint64_t calls;
} Row;

static int row_cmp(const void *a, const void *b)
{
  return strcmp(((const Row *)a)->name, ((const Row *)b)->name);
}

/* IN's functions with time or calls, by name (one row per name: two
   static functions of one name add up). */
static Row *rows_of(const ExportInput *in, size_t *n)
{
  const SymTab *tab = in->tab;
  double hz = in->hist && in->hist->hz > 0 ? in->hist->hz : 0;
  Row *v = xmalloc((tab->len + 1) * sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s) || (!(s->hist_time > 0) && !s->ncalls)) continue;
    v[k++] = (Row){ sym_print_name(tab, s), hz ? s->hist_time / hz : 0, s->ncalls };
  }
  qsort(v, k, sizeof *v, row_cmp);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    if (m && !strcmp(v[m - 1].name, v[i].name)) {
      v[m - 1].secs += v[i].secs;
      v[m - 1].calls += v[i].calls;
    } else {
      v[m++] = v[i];
    }
  }
  *n = m;
  return v;
}

static int diff_cmp(const void *a, const void *b)
{
  const DiffFlatRow *x = a, *y = b;
  double dx = fabs(x->after - x->before), dy = fabs(y->after - y->before);
  if (dx != dy) return dx > dy ? -1 : 1;
  return strcmp(x->name, y->name);
}

static void percent(FILE *f, double before, double after)
{
  if (before > 0) fprintf(f, " %+8.1f", 100.0 * (after - before) / before);
  else if (after > 0) fprintf(f, " %8s", "new");
  else fprintf(f, " %8s", "");
}

DiffFlatRow *diff_flat_rows(const ExportInput *now, size_t *count)
{
  size_t na, nb;
  Row *a = rows_of(now, &na), *b = rows_of(now->base, &nb);
  DiffFlatRow *d = xmalloc((na + nb + 1) * sizeof *d);
  size_t n = 0, i = 0, j = 0;
  while (i < na || j < nb) {
    int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].name, b[j].name);
    DiffFlatRow x = { c <= 0 ? a[i].name : b[j].name, 0, 0, 0, 0 };
    if (c <= 0) { x.after = a[i].secs; x.ca = a[i].calls; i++; }
    if (c >= 0) { x.before = b[j].secs; x.cb = b[j].calls; j++; }
    d[n++] = x;
  }
  qsort(d, n, sizeof *d, diff_cmp);
  free(a);
  free(b);
  *count = n;
  return d;
}

void diff_flat_print(FILE *f, const ExportInput *now)
{
  const ExportInput *base = now->base;
  size_t n, i;
  DiffFlatRow *d = diff_flat_rows(now, &n);
  double tb = 0, ta = 0;
  for (i = 0; i < n; i++) { tb += d[i].before; ta += d[i].after; }
  fprintf(f, "Flat profile difference: after ");
  for (int k = 0; k < now->nprofiles; k++) fprintf(f, "%s%s", k ? ", " : "", now->profiles[k]);
  fprintf(f, " (%s), before ", now->program);
  for (int k = 0; k < base->nprofiles; k++) fprintf(f, "%s%s", k ? ", " : "", base->profiles[k]);
  fprintf(f, " (%s).\n", base->program);
  fprintf(f, "Self seconds per function, the largest changes first; \"new\": none before.\n\n");
  fprintf(f, "   before     after    change   change     calls     calls\n");
  fprintf(f, "  seconds   seconds   seconds        %%    before     after  name\n");
  for (i = 0; i < n; i++) {
    fprintf(f, "%9.2f %9.2f %+9.2f", d[i].before, d[i].after, d[i].after - d[i].before);
    percent(f, d[i].before, d[i].after);
    fprintf(f, " %9llu %9llu  %s\n", (unsigned long long)d[i].cb, (unsigned long long)d[i].ca, d[i].name);
  }
  fprintf(f, "%9.2f %9.2f %+9.2f", tb, ta, ta - tb);
  percent(f, tb, ta);
  fprintf(f, " %9s %9s  (total)\n", "", "");
  free(d);
}
