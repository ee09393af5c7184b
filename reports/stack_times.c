/* stack_times.c -- --stack-times: measured inclusive time from the
 * sampled stacks beside the call graph's estimate (see stack_times.h).
 * Reports layer: reads the resolved Stacks and the analysed CallGraph,
 * prints after GNU's reports. */
#include <stdlib.h>
#include <string.h>
#include "reports/stack_times.h"
#include "cg_print.h"
#include "sym_ids.h"

/* An open hash from a pair of symbols (callee NULL: a function) to its
   row, with the last stack that counted it (so a stack counts once). */
typedef struct {
  const Sym *a, *b;
  size_t row;                   /* 1 + row index, 0 = free */
  size_t stamp;                 /* 1 + the stack that counted it last */
} Slot;

typedef struct {
  Slot *v;
  size_t mask, used;
} Map;

static uint64_t hash2(const void *a, const void *b)
{
  uint64_t h = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15u;
  h ^= (uint64_t)(uintptr_t)b + 0x632be59bd9b4e019u + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdu;
  return h ^ (h >> 33);
}

static void map_init(Map *m)
{
  m->mask = 1023;
  m->used = 0;
  m->v = xcalloc(m->mask + 1, sizeof *m->v);
}

static Slot *map_find(Map *m, const Sym *a, const Sym *b);

static void map_grow(Map *m)
{
  Map g = { xcalloc((m->mask + 1) * 2, sizeof *m->v), (m->mask + 1) * 2 - 1, 0 };
  for (size_t i = 0; i <= m->mask; i++)
    if (m->v[i].row) *map_find(&g, m->v[i].a, m->v[i].b) = m->v[i];
  g.used = m->used;
  free(m->v);
  *m = g;
}

/* The slot of (A, B): its own, or the free one where it belongs. */
static Slot *map_find(Map *m, const Sym *a, const Sym *b)
{
  for (size_t i = hash2(a, b) & m->mask;; i = (i + 1) & m->mask) {
    Slot *s = &m->v[i];
    if (!s->row || (s->a == a && s->b == b)) return s;
  }
}

/* The call graph's arc from CALLER to CALLEE, if any (the lists made by
   the analysis: a caller has few children). */
static const Arc *find_arc(const Sym *caller, const Sym *callee)
{
  for (unsigned k = 0; caller->children && k < caller->nchildren; k++)
    if (caller->children[k]->child == callee) return caller->children[k];
  return NULL;
}

static int by_func(const void *x, const void *y)
{
  const StFunc *a = x, *b = y;
  if (a->incl != b->incl) return a->incl < b->incl ? 1 : -1;
  if (a->self != b->self) return a->self < b->self ? 1 : -1;
  return strcmp(a->sym->name, b->sym->name);
}

static int by_arc(const void *x, const void *y)
{
  const StArc *a = x, *b = y;
  if (a->incl != b->incl) return a->incl < b->incl ? 1 : -1;
  int c = strcmp(a->callee->name, b->callee->name);
  return c ? c : strcmp(a->caller->name, b->caller->name);
}

void stack_times_compute(StackTimes *t, const Stacks *st, const CallGraph *cg, double hist_hz)
{
  memset(t, 0, sizeof *t);
  t->hz = st->hz > 0 ? st->hz : 100;
  t->dropped = st->dropped;
  Map m;
  map_init(&m);
  size_t fcap = 0, acap = 0;
  for (size_t k = 0; k < st->n; k++) {
    const Stack *s = &st->v[k];
    t->total += s->count;
    if (s->end != 'c') t->truncated += s->count;
    for (uint32_t i = 0; i < s->n; i++) {
      Sym *f = st->sym[s->first + i];
      if (!f) continue;
      for (int arc = 0; arc < 2; arc++) {
        Sym *caller = NULL;
        if (arc) {
          if (i + 1 >= s->n || !(caller = st->sym[s->first + i + 1])) break;
        }
        if ((m.used + 1) * 2 > m.mask + 1) map_grow(&m);
        Slot *sl = map_find(&m, arc ? caller : f, arc ? f : NULL);
        if (!sl->row) {
          sl->a = arc ? caller : f;
          sl->b = arc ? f : NULL;
          m.used++;
          if (arc) {
            if (t->narcs == acap) t->arcs = xrealloc(t->arcs, (acap = acap ? 2 * acap : 64) * sizeof *t->arcs);
            t->arcs[t->narcs] = (StArc){ caller, f, 0, -1, 0 };
            sl->row = ++t->narcs;
          } else {
            if (t->nfuncs == fcap) t->funcs = xrealloc(t->funcs, (fcap = fcap ? 2 * fcap : 64) * sizeof *t->funcs);
            t->funcs[t->nfuncs] = (StFunc){ f, 0, 0, -1 };
            sl->row = ++t->nfuncs;
          }
        }
        if (sl->stamp == k + 1) continue;      /* this stack counted it already */
        sl->stamp = k + 1;
        if (arc) t->arcs[sl->row - 1].incl += s->count;
        else t->funcs[sl->row - 1].incl += s->count;
      }
      if (i == 0) t->funcs[map_find(&m, f, NULL)->row - 1].self += s->count;
    }
  }
  free(m.v);
  /* the estimates: what the call graph prints for each */
  if (cg && hist_hz > 0) {
    for (size_t i = 0; i < t->nfuncs; i++) {
      const Sym *s = t->funcs[i].sym;
      if (s->ncalls || s->self_calls || s->nparents || s->nchildren || s->hist_time)
        t->funcs[i].est = (s->prop_self + s->prop_child) / hist_hz;
    }
    for (size_t i = 0; i < t->narcs; i++) {
      const Arc *a = find_arc(t->arcs[i].caller, t->arcs[i].callee);
      if (!a) continue;
      t->arcs[i].calls = a->count;
      t->arcs[i].est = (a->time + a->child_time) / hist_hz;
    }
  }
  /* (none: stacks whose frames all lie outside every function, or no
     stack at all, leave the arrays NULL, which qsort may not be given) */
  if (t->nfuncs) qsort(t->funcs, t->nfuncs, sizeof *t->funcs, by_func);
  if (t->narcs) qsort(t->arcs, t->narcs, sizeof *t->arcs, by_arc);
}

/* S as the call graph names it, with its index only where the call
   graph prints its entry (ZEROS: -z). */
static void name(const SymTab *tab, const Sym *s, int zeros)
{
  if (cg_entry_printed(s, zeros, tab->opts.line)) cg_print_name(tab, s);
  else fputs(sym_label(tab, s), stdout);
}

static void est(FILE *f, double v)
{
  if (v < 0) fprintf(f, "%11s", "-");
  else fprintf(f, "%11.2f", v);
}

void stack_times_print(const StackTimes *t, const SymTab *tab, const char *stack_file, int zeros)
{
  FILE *f = stdout;             /* cg_print_name prints there */
  fprintf(f, "\t\t     Measured time, from the sampled stacks\n\n");
  fprintf(f, "%llu stack samples of %s, each %.4g seconds.  \"measured\" is the time\n"
             "of the stacks the function (or the call: the caller's frame just above\n"
             "the callee's) was found in, once per stack however deep the recursion;\n"
             "\"estimated\" is the call graph's self + children, which gives every call\n"
             "of a function the same average cost.  \"-\": not in the call graph.\n\n",
          (unsigned long long)t->total, stack_file, 1.0 / t->hz);
  /* what the figures miss: said when there is any */
  if (t->truncated)
    fprintf(f, "%llu of them (%.1f%%) in stacks cut short, which do not reach the thread's\n"
               "first frame: their callers above the cut are not counted.\n",
            (unsigned long long)t->truncated, 100.0 * (double)t->truncated / (double)t->total);
  if (t->dropped)
    fprintf(f, "%llu more samples were not recorded (libprof's stack table was full).\n",
            (unsigned long long)t->dropped);
  if (t->truncated || t->dropped) putc('\n', f);
  fprintf(f, "   measured   estimated       self\n    seconds     seconds    seconds    function\n");
  for (size_t i = 0; i < t->nfuncs; i++) {
    const StFunc *s = &t->funcs[i];
    fprintf(f, "%11.2f", (double)s->incl / t->hz);
    est(f, s->est);
    fprintf(f, "%11.2f    ", (double)s->self / t->hz);
    name(tab, s->sym, zeros);
    putc('\n', f);
  }
  fprintf(f, "\n   measured   estimated\n    seconds     seconds       calls    caller -> callee\n");
  for (size_t i = 0; i < t->narcs; i++) {
    const StArc *a = &t->arcs[i];
    fprintf(f, "%11.2f", (double)a->incl / t->hz);
    est(f, a->est);
    if (a->calls) fprintf(f, "%12llu    ", (unsigned long long)a->calls);
    else fprintf(f, "%12s    ", "-");
    name(tab, a->caller, zeros);
    fputs(" -> ", f);
    name(tab, a->callee, zeros);
    putc('\n', f);
  }
}

void stack_times_free(StackTimes *t)
{
  free(t->funcs);
  free(t->arcs);
  memset(t, 0, sizeof *t);
}
