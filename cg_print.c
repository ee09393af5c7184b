/* cg_print.c -- printing the call graph entries and the index. */
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "cg_print.h"
#include "sym_ids.h"
#include "source.h"

static const char dashes[] = "-----------------------------------------------\n";

void print_notice(void)
{
  printf("\f\n"
         "These explanations were written for this gprof; they may be\n"
         "copied and redistributed freely.  Copyright (C) 2026 the authors\n"
         "of this gprof.\n");
}

/* -T prints the children column 11 wide, as BSD gprof did. */
#define CW (opt.traditional ? 11 : 7)

static int printed(const Sym *s)
{
  if (!s->print_flag) return 0;
  /* with -l only function symbols get entries (not lines, not cycles) */
  if (opt.line && (s->is_cycle || s->is_line || !s->is_func)) return 0;
  if (s->is_cycle) return 1;
  return opt.zeros || s->ncalls || s->self_calls || s->prop_self + s->prop_child > 0;
}

void cg_print_name(const SymTab *tab, const Sym *s)
{
  if (s->is_cycle) {
    printf("<cycle %d as a whole> [%d]", s->cycle_num, s->index);
    return;
  }
  printf("%s", sym_label(tab, s));
  if (s->cycle_num) printf(" <cycle %d>", s->cycle_num);
  if (s->index) printf(s->print_flag ? " [%d]" : " (%d)", s->index);
}

/* Arc order within an entry: self arcs, then arcs within a cycle (by
   count), then the rest by time and count.  Equal arcs come out in reverse
   of their list order, as GNU's insertion sort leaves them. */
typedef struct {
  union { Arc *a; Sym *s; };    /* an arc, or a cycle member */
  size_t pos;
} ArcKey;

static int arc_rank(const Arc *a)
{
  if (a->parent == a->child) return 0;
  if (a->parent->cycle_num && a->parent->cycle_num == a->child->cycle_num) return 1;
  return 2;
}

static int arc_cmp(const Arc *x, const Arc *y)
{
  int rx = arc_rank(x), ry = arc_rank(y);
  if (rx == 0) return -1;
  if (ry == 0) return 1;
  if (rx != ry) return rx < ry ? -1 : 1;
  if (rx == 2) {
    double tx = x->time + x->child_time, ty = y->time + y->child_time;
    if (tx < ty) return -1;
    if (tx > ty) return 1;
  }
  if (x->count < y->count) return -1;
  if (x->count > y->count) return 1;
  return 0;
}

static int key_asc(const void *a, const void *b)
{
  const ArcKey *x = a, *y = b;
  int c = arc_cmp(x->a, y->a);
  if (c) return c;
  return x->pos < y->pos ? 1 : -1;
}

static int key_desc(const void *a, const void *b)
{
  const ArcKey *x = a, *y = b;
  int c = arc_cmp(y->a, x->a);
  if (c) return c;
  return x->pos < y->pos ? 1 : -1;
}

/* What the graph printer works with. */
typedef struct {
  const SymTab *tab;
  double hz;
  double print_time;            /* samples credited to any symbol */
  ArcKey *keys;                 /* scratch for sorting one entry's lines */
  size_t keys_cap;
} Printer;

/* keys[n], the array grown to hold it, with its list position set. */
static ArcKey *key_slot(Printer *P, size_t n)
{
  if (n == P->keys_cap) {
    P->keys_cap = P->keys_cap ? P->keys_cap * 2 : 64;
    P->keys = xrealloc(P->keys, P->keys_cap * sizeof *P->keys);
  }
  P->keys[n].pos = n;
  return &P->keys[n];
}

static size_t collect(Printer *P, Arc *list, int parents)
{
  size_t n = 0;
  for (Arc *a = list; a; a = parents ? a->next_parent : a->next_child)
    key_slot(P, n++)->a = a;
  ArcKey *keys = P->keys;
  if (n > 1) qsort(keys, n, sizeof *keys, parents ? key_asc : key_desc);
  for (size_t i = 0; i < n && (opt.debug & DBG_ARCSORT); i++)
    DBG(DBG_ARCSORT, "arcsort: %s %zu: %s -> %s, %llu calls, %g\n", parents ? "parent" : "child",
        i, keys[i].a->parent->name, keys[i].a->child->name,
        (unsigned long long)keys[i].a->count, keys[i].a->time + keys[i].a->child_time);
  return n;
}

static uint64_t calls_of(const Sym *s)
{
  return s->cycle_num ? s->cyc_head->ncalls : s->ncalls;
}

/* One caller or callee line of ENTRY's block, naming OTHER.  Arcs within
   one function or one cycle show only their count; others their share of
   the callee's time and calls. */
static void print_arc(const Printer *P, const Arc *a, const Sym *entry, const Sym *other)
{
  const Sym *callee = a->child;
  if (other == entry || (other->cycle_num && other->cycle_num == entry->cycle_num)) {
    printf("%6s %5s %7s %*s %7llu %7s     ", "", "", "", CW, "",
           (unsigned long long)a->count, "");
  } else {
    printf("%6s %5s %7.2f %*.2f %7llu/%-7llu     ", "", "",
           a->time / P->hz, CW, a->child_time / P->hz,
           (unsigned long long)a->count, (unsigned long long)calls_of(callee));
  }
  cg_print_name(P->tab, other);
  printf("\n");
}

static void print_parents(Printer *P, Sym *child)
{
  size_t n = collect(P, child->parents, 1);
  if (n == 0)
    printf("%6s %5s %7s %*s %7s %7s     <spontaneous>\n", "", "", "", CW, "", "", "");
  for (size_t i = 0; i < n; i++) print_arc(P, P->keys[i].a, child, P->keys[i].a->parent);
}

static void print_children(Printer *P, Sym *parent)
{
  size_t n = collect(P, parent->children, 0);
  for (size_t i = 0; i < n; i++) print_arc(P, P->keys[i].a, parent, P->keys[i].a->child);
}

static void print_primary(const Printer *P, Sym *s)
{
  char idx[32];
  snprintf(idx, sizeof idx, "[%d]", s->index);
  double pct = P->print_time > 0 ? 100.0 * (s->prop_self + s->prop_child) / P->print_time : 0.0;
  printf("%-6.6s %5.1f %7.2f %*.2f", idx, pct, s->prop_self / P->hz, CW, s->prop_child / P->hz);
  if (s->ncalls + s->self_calls == 0)
    printf(" %7s %7s ", "", "");
  else if (s->self_calls)
    printf(" %7llu+%-7llu ", (unsigned long long)s->ncalls, (unsigned long long)s->self_calls);
  else
    printf(" %7llu %7s ", (unsigned long long)s->ncalls, "");
  cg_print_name(P->tab, s);
  printf("\n");
}

static int cmp_member(const void *a, const void *b)
{
  const ArcKey *x = a, *y = b;
  const Sym *p = x->s, *q = y->s;
  double tp = p->prop_self + p->prop_child, tq = q->prop_self + q->prop_child;
  if (tp > tq) return -1;
  if (tp < tq) return 1;
  uint64_t cp = p->ncalls + p->self_calls, cq = q->ncalls + q->self_calls;
  if (cp > cq) return -1;
  if (cp < cq) return 1;
  return x->pos < y->pos ? -1 : 1;
}

static void print_members(Printer *P, Sym *cyc)
{
  size_t n = 0;
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    key_slot(P, n++)->s = m;
  if (n > 1) qsort(P->keys, n, sizeof *P->keys, cmp_member);
  for (size_t i = 0; i < n; i++) {
    Sym *m = P->keys[i].s;
    printf("%6s %5s %7.2f %*.2f %7llu", "", "", m->prop_self / P->hz,
           CW, m->prop_child / P->hz, (unsigned long long)m->ncalls);
    if (m->self_calls) printf("+%-7llu     ", (unsigned long long)m->self_calls);
    else printf(" %7s     ", "");
    cg_print_name(P->tab, m);
    printf("\n");
  }
}

static const char cg_blurb_trad[] =
  "\n\n\n"
  "call graph profile:\n"
  "          Entries are sorted by the time spent in each function and\n"
  "          its descendants.  Each entry shows the function's callers\n"
  "          above its own line and the functions it called below.\n"
  "\n"
  "          On the function's own line: its index, the share of the\n"
  "          run spent in it and its descendants, its own seconds, its\n"
  "          descendants' seconds, and the calls it received (calls\n"
  "          from itself after a `+').\n"
  "\n"
  "          On a caller's or callee's line: the seconds charged along\n"
  "          that arc and the calls along it `/' all calls received.\n"
  "\n"
  "          A cycle of mutually recursive functions is listed as a\n"
  "          whole, with its members below it.\n";

static const char cg_blurb[] =
  "\n"
  " Each entry above describes one function: the lines before the line\n"
  " that starts with an index number are its callers, the lines after it\n"
  " are the functions it called.  Entries are sorted by the time spent in\n"
  " the function and everything it called.\n"
  "\n"
  " The line with the index number (the primary line) holds:\n"
  "     index\tthe entry's number; every mention of the function\n"
  "\t\tin this table is followed by it in brackets.\n"
  "     %% time\tthe share of the whole run spent in the function and\n"
  "\t\tits descendants.  Shares overlap, so they do not sum\n"
  "\t\tto 100%%.\n"
  "     self\tseconds spent in the function's own code.\n"
  "     children\tseconds spent in its descendants on its behalf.\n"
  "     called\thow often it was called; a `+' separates calls it\n"
  "\t\tmade to itself from calls made by others.\n"
  "     name\tthe function, with its cycle number if it is part of\n"
  "\t\ta cycle of recursion, and its index.\n"
  "\n"
  " On a caller's line, self and children are the parts of the function's\n"
  " time and of its descendants' time charged to that caller, in\n"
  " proportion to the calls it made; called is that caller's calls `/' all\n"
  " calls from outside the function.  A function with no known caller\n"
  " shows `<spontaneous>' instead.\n"
  "\n"
  " On a callee's line, self and children are the parts of the callee's\n"
  " time and of its descendants' time charged to this function; called is\n"
  " this function's calls to it `/' all its calls from elsewhere.\n"
  "\n"
  " Functions that call each other, directly or not, form a cycle.  The\n"
  " cycle gets an entry of its own (`<cycle N as a whole>') listing its\n"
  " members; its called field is calls from outside `+' calls between\n"
  " members.  Lines between members of one cycle show only call counts.\n";

void cg_print(const CallGraph *cg, const SymTab *tab, double hz, long g)
{
  size_t i;
  Printer pr = { tab, hz, 0, NULL, 0 }, *P = &pr;
  double print_time = 0;
  for (i = 0; i < tab->len; i++) print_time += tab->base[i].prop_self;
  P->print_time = print_time;

  if (opt.traditional) {
    if (!opt.brief) printf("%s", cg_blurb_trad), print_notice();
  } else if (opt.brief) printf("\t\t\tCall graph\n\n");
  else printf("\t\t     Call graph (explanation follows)\n\n");
  if (print_time > 0)
    printf("\ngranularity: each sample hit covers %ld byte(s) for %.2f%% of %.2f seconds\n\n",
           g, 100.0 / print_time, print_time / hz);
  else
    printf("\ngranularity: each sample hit covers %ld byte(s) no time propagated\n\n", g);
  if (opt.traditional)
    printf("%34s%s\nindex  %%time    self descendants  called+self    name    \tindex\n%34s%s\n\n",
           "", "called/total       parents ", "", "called/total       children");
  else
    printf("index %% time    self  children    called     name\n");
  for (i = 0; i < cg->norder; i++) {
    Sym *s = cg->order[i];
    if (!printed(s)) continue;
    if (s->is_cycle) {
      print_primary(P, s);
      print_members(P, s);
    } else {
      print_parents(P, s);
      print_primary(P, s);
      print_children(P, s);
    }
    printf(opt.traditional ? "\n%s\n" : "%s", dashes);
  }
  free(P->keys);
  if (!opt.brief && !opt.traditional) {
    printf(cg_blurb);
    print_notice();
  }
}

static int cmp_index_name(const void *a, const void *b)
{
  const Sym *x = *(Sym *const *)a, *y = *(Sym *const *)b;
  if (x->is_cycle != y->is_cycle) return x->is_cycle ? 1 : -1;
  if (x->is_cycle) return x->cycle_num - y->cycle_num;
  return strcmp(x->name, y->name);
}

/* Text of an index entry's name: statics carry their file. */
static void index_name(const SymTab *tab, const Sym *s, char *buf, size_t len)
{
  if (s->is_cycle)
    snprintf(buf, len, "<cycle %d>", s->cycle_num);
  else if (s->is_static && !opt.line && src_sym_file(tab, s))
    snprintf(buf, len, "%s (%s)", sym_label(tab, s), src_sym_file(tab, s));
  else
    snprintf(buf, len, "%s", sym_label(tab, s));
}

/* Three columns filled top to bottom; a column's bracketed index ends six
   places after the column's start, or follows a single space when what
   precedes it (an overlong name or index) leaves no room. */
void cg_print_index(const CallGraph *cg, const SymTab *tab)
{
  size_t k = 0, i;
  /* address order in, so equal names stay in address order */
  Sym **v = xmalloc((tab->len + (size_t)cg->ncycles + 1) * sizeof *v);
  for (i = 0; i < tab->len + (size_t)cg->ncycles; i++) {
    Sym *s = i < tab->len ? &tab->base[i] : &cg->cycles[i - tab->len + 1];
    if (!s->index) continue;
    if (!s->is_cycle && !opt.zeros && s->ncalls == 0 && !(s->hist_time != 0)) continue;
    v[k++] = s;
  }
  qsort(v, k, sizeof *v, cmp_index_name);
  printf("\f\nIndex by function name\n\n");
  if (opt.traditional) {
    size_t rows = (k + 2) / 3;
    char nm[4096], ix[32];
    for (size_t r = 0; r < rows; r++) {
      for (int c = 0; c < 3; c++) {
        size_t j = r + (size_t)c * rows;
        if (j >= k) break;
        if (v[j]->is_cycle) snprintf(nm, sizeof nm, "<cycle %d>", v[j]->cycle_num);
        /* -l's "(file:line @ addr)" is not shown here */
        else snprintf(nm, sizeof nm, "%s", opt.line ? sym_print_name(v[j]) : sym_label(tab, v[j]));
        snprintf(ix, sizeof ix, v[j]->print_flag ? "[%d]" : "(%d)", v[j]->index);
        printf("%6s %-19.19s", ix, nm);
      }
      printf("\n");
    }
    free(v);
    return;
  }
  size_t rows = (k + 2) / 3;
  long colw = (opt.width + 5) / 3;
  char name[4096], idx[32], *line = NULL;
  size_t cap = 0;
  for (size_t r = 0; r < rows; r++) {
    size_t len = 0;
    for (int c = 0; c < 3; c++) {
      size_t j = r + (size_t)c * rows;
      if (j >= k) break;
      index_name(tab, v[j], name, sizeof name);
      snprintf(idx, sizeof idx, v[j]->print_flag ? "[%d]" : "(%d)", v[j]->index);
      long target = (long)c * colw + 6 - (long)strlen(idx);
      size_t need = len + strlen(idx) + strlen(name) + (size_t)(target > 0 ? target : 0) + 8;
      if (need > cap) { cap = need * 2; line = xrealloc(line, cap); }
      if ((long)len < target) {
        memset(line + len, ' ', (size_t)target - len);
        len = (size_t)target;
      } else {
        line[len++] = ' ';
      }
      len += (size_t)sprintf(line + len, "%s %s", idx, name);
    }
    line[len] = 0;
    printf("%s\n", line);
  }
  free(line);
  free(v);
}
