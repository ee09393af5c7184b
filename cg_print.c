/* cg_print.c -- printing the call graph entries and the index. */
#include <stdlib.h>
#include <string.h>
#include "cg_print.h"
#include "core.h"
#include "cg_arcs.h"
#include "hist.h"
#include "symtab.h"
#include "sym_ids.h"
#include "source.h"

static double print_time;        /* samples credited to any symbol */

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
  /* cycles too: -c's arcs of count zero can close a cycle nobody calls
     and that takes no time, which GNU prints only with -z */
  if (!s->print_flag) return 0;
  return opt.zeros || s->ncalls || s->self_calls || s->prop_self + s->prop_child > 0;
}

void cg_print_name(const Sym *s)
{
  if (s->is_cycle) {
    printf("<cycle %d as a whole> [%d]", s->cycle_num, s->index);
    return;
  }
  printf("%s", sym_label(s));
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

static ArcKey *keys;
static size_t keys_cap;

/* keys[n], the array grown to hold it, with its list position set. */
static ArcKey *key_slot(size_t n)
{
  if (n == keys_cap) {
    keys_cap = keys_cap ? keys_cap * 2 : 64;
    keys = xrealloc(keys, keys_cap * sizeof *keys);
  }
  keys[n].pos = n;
  return &keys[n];
}

static size_t collect(Arc *list, int parents)
{
  size_t n = 0;
  for (Arc *a = list; a; a = parents ? a->next_parent : a->next_child)
    key_slot(n++)->a = a;
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
static void print_arc(const Arc *a, const Sym *entry, const Sym *other)
{
  const Sym *callee = a->child;
  if (other == entry || (other->cycle_num && other->cycle_num == entry->cycle_num)) {
    printf("%6s %5s %7s %*s %7llu %7s     ", "", "", "", CW, "",
           (unsigned long long)a->count, "");
  } else {
    printf("%6s %5s %7.2f %*.2f %7llu/%-7llu     ", "", "",
           a->time / hist_hz, CW, a->child_time / hist_hz,
           (unsigned long long)a->count, (unsigned long long)calls_of(callee));
  }
  cg_print_name(other);
  printf("\n");
}

static void print_parents(Sym *child)
{
  size_t n = collect(child->parents, 1);
  if (n == 0)
    printf("%6s %5s %7s %*s %7s %7s     <spontaneous>\n", "", "", "", CW, "", "", "");
  for (size_t i = 0; i < n; i++) print_arc(keys[i].a, child, keys[i].a->parent);
}

static void print_children(Sym *parent)
{
  size_t n = collect(parent->children, 0);
  for (size_t i = 0; i < n; i++) print_arc(keys[i].a, parent, keys[i].a->child);
}

static void print_primary(Sym *s)
{
  char idx[32];
  snprintf(idx, sizeof idx, "[%d]", s->index);
  double pct = print_time > 0 ? 100.0 * (s->prop_self + s->prop_child) / print_time : 0.0;
  printf("%-6.6s %5.1f %7.2f %*.2f", idx, pct, s->prop_self / hist_hz, CW, s->prop_child / hist_hz);
  if (s->ncalls + s->self_calls == 0 && !s->is_cycle)   /* a cycle shows its 0 */
    printf(" %7s %7s ", "", "");
  else if (s->self_calls)
    printf(" %7llu+%-7llu ", (unsigned long long)s->ncalls, (unsigned long long)s->self_calls);
  else
    printf(" %7llu %7s ", (unsigned long long)s->ncalls, "");
  cg_print_name(s);
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

static void print_members(Sym *cyc)
{
  size_t n = 0;
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    key_slot(n++)->s = m;
  if (n > 1) qsort(keys, n, sizeof *keys, cmp_member);
  for (size_t i = 0; i < n; i++) {
    Sym *m = keys[i].s;
    printf("%6s %5s %7.2f %*.2f %7llu", "", "", m->prop_self / hist_hz,
           CW, m->prop_child / hist_hz, (unsigned long long)m->ncalls);
    if (m->self_calls) printf("+%-7llu     ", (unsigned long long)m->self_calls);
    else printf(" %7s     ", "");
    cg_print_name(m);
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

void cg_print(Sym **order, size_t n)
{
  size_t i;
  print_time = 0;
  for (i = 0; i < symtab.len; i++) print_time += symtab.base[i].prop_self;

  if (opt.traditional) {
    if (!opt.brief) printf("%s", cg_blurb_trad), print_notice();
  } else if (opt.brief) printf("\t\t\tCall graph\n\n");
  else printf("\t\t     Call graph (explanation follows)\n\n");
  long g = hist_granularity_bytes();
  if (print_time > 0)
    printf("\ngranularity: each sample hit covers %ld byte(s) for %.2f%% of %.2f seconds\n\n",
           g, 100.0 / print_time, print_time / hist_hz);
  else
    printf("\ngranularity: each sample hit covers %ld byte(s) no time propagated\n\n", g);
  if (opt.traditional)
    printf("%34s%s\nindex  %%time    self descendants  called+self    name    \tindex\n%34s%s\n\n",
           "", "called/total       parents ", "", "called/total       children");
  else
    printf("index %% time    self  children    called     name\n");
  for (i = 0; i < n; i++) {
    Sym *s = order[i];
    if (!printed(s)) continue;
    if (s->is_cycle) {
      print_primary(s);
      print_members(s);
    } else {
      print_parents(s);
      print_primary(s);
      print_children(s);
    }
    printf(opt.traditional ? "\n%s\n" : "%s", dashes);
  }
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
static void index_name(const Sym *s, char *buf, size_t len)
{
  if (s->is_cycle)
    snprintf(buf, len, "<cycle %d>", s->cycle_num);
  else if (s->is_static && src_sym_file(s))
    snprintf(buf, len, "%s (%s)", sym_label(s), src_sym_file(s));
  else
    snprintf(buf, len, "%s", sym_label(s));
}

/* Three columns filled top to bottom; a column's bracketed index ends six
   places after the column's start, or follows a single space when what
   precedes it (an overlong name or index) leaves no room. */
void cg_print_index(void)
{
  size_t k = 0, i;
  /* address order in, so equal names stay in address order */
  Sym **v = xmalloc((symtab.len + (size_t)num_cycles + 1) * sizeof *v);
  for (i = 0; i < symtab.len + (size_t)num_cycles; i++) {
    Sym *s = i < symtab.len ? &symtab.base[i] : &cycle_syms[i - symtab.len + 1];
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
        else snprintf(nm, sizeof nm, "%s", sym_label(v[j]));
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
      index_name(v[j], name, sizeof name);
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

/* ---- -r: a suggested function order ----
 *
 * Measured behaviour (no GNU code consulted; see doc/DESIGN.md): arcs
 * other than self calls, by count (ties in the order the arcs were first
 * read), are laid into chains in two rounds.  The first round takes the
 * arcs that make up the first 99% of all calls; the second the rest and
 * those the first could not place.  An arc whose ends were both called
 * joins them: two loose ends start a chain, a loose end joins the end of
 * the other's chain nearer to it (the head on a tie when the callee is in
 * the chain, the tail when the caller is), and an arc touching a function
 * already printed, or joining two chains, is left over.  After each round
 * the chains are printed in the order of the arcs that built them.  Then
 * come the called functions no chain took, then the rest, both in
 * address order. */
typedef struct {
  Sym *head, *tail;
  long head_pos, tail_pos;
} Chain;

typedef struct {
  Sym **next, **prev;            /* per symbol index */
  Chain **chain;
  long *pos;
  unsigned char *printed;
  int (*eligible)(const Sym *);  /* may an arc's end join a chain */
  void (*emit)(const Sym *);     /* prints one function */
  const unsigned char *late;     /* -r: specials printed with the leftovers */
} Layout;

static size_t sidx(const Sym *s) { return (size_t)(s - symtab.base); }

static int is_used(const Sym *s) { return s->ncalls > 0; }

static void link_after(Layout *L, Sym *a, Sym *b)   /* a then b; b was loose */
{
  Chain *c = L->chain[sidx(a)];
  L->next[sidx(a)] = b;
  L->prev[sidx(b)] = a;
  L->chain[sidx(b)] = c;
  L->pos[sidx(b)] = ++c->tail_pos;
  c->tail = b;
}

static void link_before(Layout *L, Sym *b, Sym *a)  /* a then b; a was loose */
{
  Chain *c = L->chain[sidx(b)];
  L->next[sidx(a)] = b;
  L->prev[sidx(b)] = a;
  L->chain[sidx(a)] = c;
  L->pos[sidx(a)] = --c->head_pos;
  c->head = a;
}

/* Lays out ARCS[0..n): the arcs placed go to PLACED (*PLACED_N of them;
   with them, for -r, the arcs into late specials, which order chains
   too), the rest to LEFT (which may alias the tail of another array),
   and their number is returned. */
static size_t order_round(Layout *L, Arc **arcs, size_t n, Arc **left, Arc **placed,
                          size_t *placed_n)
{
  size_t nl = 0, np = 0;
  for (size_t i = 0; i < n; i++) {
    Arc *a = arcs[i];
    Sym *p = a->parent, *c = a->child;
    if (!L->eligible(p) || !L->eligible(c)) continue;
    if (L->printed[sidx(p)] || L->printed[sidx(c)]) {
      /* an arc into a special that waits for the leftovers still orders
         its caller's chain (measured) */
      if (L->late && L->late[sidx(c)]) placed[np++] = a;
      left[nl++] = a;
      continue;
    }
    Chain *cp = L->chain[sidx(p)], *cc = L->chain[sidx(c)];
    if (!cp && !cc) {
      Chain *ch = xcalloc(1, sizeof *ch);
      ch->head = p;
      ch->tail = p;
      L->chain[sidx(p)] = ch;
      L->pos[sidx(p)] = 0;
      link_after(L, p, c);
    } else if (!cp) {            /* the caller joins the callee's chain */
      long dh = L->pos[sidx(c)] - cc->head_pos, dt = cc->tail_pos - L->pos[sidx(c)];
      if (dh <= dt) link_before(L, cc->head, p);
      else link_after(L, cc->tail, p);
    } else if (!cc) {            /* the callee joins the caller's chain */
      long dh = L->pos[sidx(p)] - cp->head_pos, dt = cp->tail_pos - L->pos[sidx(p)];
      if (dt <= dh) link_after(L, cp->tail, c);
      else link_before(L, cp->head, c);
    } else {
      left[nl++] = a;
      continue;
    }
    placed[np++] = a;
  }
  if (placed_n) *placed_n = np;
  return nl;
}

/* Prints, whole, each chain not yet printed that holds the caller of one
   of SEQ[0..n), in that order. */
static void print_chains(Layout *L, Arc **seq, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    Sym *s = seq[i]->parent;
    if (!L->chain[sidx(s)] || L->printed[sidx(s)]) continue;
    for (s = L->chain[sidx(s)]->head; s; s = L->next[sidx(s)]) {
      L->printed[sidx(s)] = 1;
      L->emit(s);
    }
  }
}

typedef struct { Arc *arc; size_t seq; } ArcSeq;

/* By count, larger first; ties in the order the arcs were first read. */
static int cmp_arc_count(const void *a, const void *b)
{
  const ArcSeq *x = a, *y = b;
  if (x->arc->count != y->arc->count) return x->arc->count < y->arc->count ? 1 : -1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static void sort_by_count(Arc **arcs, size_t n)
{
  ArcSeq *k = xmalloc((n + 1) * sizeof *k);
  for (size_t i = 0; i < n; i++) { k[i].arc = arcs[i]; k[i].seq = i; }
  qsort(k, n, sizeof *k, cmp_arc_count);
  for (size_t i = 0; i < n; i++) arcs[i] = k[i].arc;
  free(k);
}

static void emit_name(const Sym *s) { printf("%s\n", s->name); }

static void layout_init(Layout *L, int (*eligible)(const Sym *), void (*emit)(const Sym *))
{
  size_t n = symtab.len;
  L->next = xcalloc(n + 1, sizeof *L->next);
  L->prev = xcalloc(n + 1, sizeof *L->prev);
  L->chain = xcalloc(n + 1, sizeof *L->chain);
  L->pos = xcalloc(n + 1, sizeof *L->pos);
  L->printed = xcalloc(n + 1, 1);
  L->eligible = eligible;
  L->emit = emit;
  L->late = NULL;
}

static void layout_free(Layout *L)
{
  /* each chain once: gather them through their heads, then free */
  size_t n = 0;
  for (size_t i = 0; i < symtab.len; i++)
    if (L->chain[i] && L->chain[i]->head == &symtab.base[i]) L->chain[n++] = L->chain[i];
  for (size_t i = 0; i < n; i++) free(L->chain[i]);
  free(L->next); free(L->prev); free(L->chain); free(L->pos); free(L->printed);
}

/* The arcs other than self calls, in the order first read; *TOTAL gets
   the sum of their counts. */
static Arc **plain_arcs(size_t *na, double *total)
{
  Arc **arcs = xmalloc((num_arcs + 1) * sizeof *arcs);
  *na = 0;
  *total = 0;
  for (size_t i = 0; i < num_arcs; i++) {
    Arc *a = arcs_in_order[i];
    if (a->parent == a->child) continue;
    arcs[(*na)++] = a;
    *total += (double)a->count;
  }
  return arcs;
}

/* How many leading ARCS stay within SHARE of TOTAL calls. */
static size_t within_share(Arc **arcs, size_t na, double total, double share)
{
  size_t first = 0;
  double cum = 0;
  while (first < na) {
    cum += (double)arcs[first]->count;
    if (cum / total > share) break;
    first++;
  }
  return first;
}

/* Phase one of -r (measured; doc/DESIGN.md "-r"): with 80 or more called
   functions, called/80 of them are "special": the callees of the arcs
   that make up the first 90% of all calls (by count), those with most
   callers among those arcs first, ties to the lower address.  Specials
   then pair with partners, each partner used once:
   - first, each special still free, in order, takes the first of its
     callees (newest arc first) that is a free special; that callee is
     "late" and the caller is used up;
   - then each special still free, in order, takes the first of its
     callers (newest arc first) that was never called itself; the special
     is late.
   Printed now: the free specials in order, except the last special
   (which, if free, is never printed at all), then the partners by the
   count of the arc that paired them, larger first, ties in the order
   taken (uncalled ones are printed again with the unused).  Late
   specials are printed with the called leftovers.  Arcs touching any
   special join no chain. */
typedef struct { Sym *s; size_t nparents; } Special;

static int cmp_special(const void *a, const void *b)
{
  const Special *x = a, *y = b;
  if (x->nparents != y->nparents) return x->nparents < y->nparents ? 1 : -1;
  return (x->s > y->s) - (x->s < y->s);
}

enum { SP_NONE, SP_FREE, SP_LATE, SP_USED };

static void print_specials(Layout *L, Arc **arcs, size_t na, double total,
                           unsigned char *late)
{
  size_t n = symtab.len, ncalled = 0, i;
  for (i = 0; i < n; i++) ncalled += is_used(&symtab.base[i]);
  size_t want = ncalled / 80;
  if (!want) return;
  size_t *cnt = xcalloc(n + 1, sizeof *cnt);
  size_t hot = within_share(arcs, na, total, 0.9);
  for (i = 0; i < hot; i++) cnt[sidx(arcs[i]->child)]++;
  Special *cand = xmalloc((n + 1) * sizeof *cand);
  size_t nc = 0;
  for (i = 0; i < n; i++)
    if (cnt[i]) { cand[nc].s = &symtab.base[i]; cand[nc++].nparents = cnt[i]; }
  qsort(cand, nc, sizeof *cand, cmp_special);
  if (want > nc) want = nc;
  /* measured, not understood: the list stops at the first candidate with
     exactly five callers among those arcs (2-4 and 6-36 do not stop it) */
  for (i = 0; i < want; i++)
    if (cand[i].nparents == 5) { want = i; break; }
  unsigned char *state = xcalloc(n + 1, 1);     /* SP_*, per symbol */
  unsigned char *taken = xcalloc(n + 1, 1);     /* uncalled callers used */
  for (i = 0; i < want; i++) state[sidx(cand[i].s)] = SP_FREE;
  ArcSeq *partner = xmalloc((want + 1) * sizeof *partner);   /* the pairing arcs */
  size_t np = 0;
  /* specials calling specials: each special in order, while free, takes
     its newest callee that is a free special (that callee is late), else
     its newest caller that is a free special (then it is late itself) */
  for (i = 0; i < want; i++) {
    Sym *f = cand[i].s;
    if (state[sidx(f)] != SP_FREE) continue;
    Arc *hit = NULL;
    for (Arc *a = f->children; a && !hit; a = a->next_child)   /* newest first */
      if (a->child != f && state[sidx(a->child)] == SP_FREE) hit = a;
    if (hit) {
      state[sidx(hit->child)] = SP_LATE;
      state[sidx(f)] = SP_USED;
    } else {
      for (Arc *a = f->parents; a && !hit; a = a->next_parent)
        if (a->parent != f && state[sidx(a->parent)] == SP_FREE) hit = a;
      if (!hit) continue;
      state[sidx(f)] = SP_LATE;
      state[sidx(hit->parent)] = SP_USED;
    }
    partner[np].arc = hit;
    partner[np].seq = np;
    np++;
  }
  for (i = 0; i < want; i++) {                  /* an uncalled caller */
    Sym *f = cand[i].s;
    if (state[sidx(f)] != SP_FREE) continue;
    for (Arc *a = f->parents; a; a = a->next_parent)   /* newest first */
      if (a->parent != f && !is_used(a->parent) && !taken[sidx(a->parent)]) {
        taken[sidx(a->parent)] = 1;
        state[sidx(f)] = SP_LATE;
        partner[np].arc = a;
        partner[np].seq = np;
        np++;
        break;
      }
  }
  for (i = 0; i < want; i++) {
    Sym *f = cand[i].s;
    L->printed[sidx(f)] = 1;          /* keeps its arcs out of the chains */
    if (state[sidx(f)] == SP_LATE) late[sidx(f)] = 1;
    else if (state[sidx(f)] == SP_FREE && i + 1 < want) printf("%s\n", f->name);
  }
  qsort(partner, np, sizeof *partner, cmp_arc_count);
  for (i = 0; i < np; i++) printf("%s\n", partner[i].arc->parent->name);
  free(partner); free(taken); free(state); free(cand); free(cnt);
}

void cg_print_function_ordering(void)
{
  size_t n = symtab.len, na, i;
  double total;
  Layout L;
  layout_init(&L, is_used, emit_name);
  Arc **arcs = plain_arcs(&na, &total);
  sort_by_count(arcs, na);
  unsigned char *late = xcalloc(n + 1, 1);
  print_specials(&L, arcs, na, total, late);
  L.late = late;
  size_t first = within_share(arcs, na, total, 0.99);
  /* round two's list: the rest, then what round one left over */
  Arc **two = xmalloc((na + 1) * sizeof *two);
  Arc **placed = xmalloc((na + 1) * sizeof *placed);
  size_t nrest = na - first;
  memcpy(two, arcs + first, nrest * sizeof *two);
  size_t np;
  size_t nleft = order_round(&L, arcs, first, two + nrest, placed, &np);
  print_chains(&L, placed, np);
  Arc **dummy = xmalloc((na + 1) * sizeof *dummy);
  L.late = NULL;                /* in round two such arcs order nothing */
  order_round(&L, two, nrest + nleft, dummy, placed, &np);
  print_chains(&L, placed, np);
  for (i = 0; i < n; i++)
    if ((!L.printed[i] || late[i]) && is_used(&symtab.base[i])) {
      L.printed[i] = 1;
      printf("%s\n", symtab.base[i].name);
    }
  /* every function never called, even one printed above as a caller */
  for (i = 0; i < n; i++)
    if (!is_used(&symtab.base[i])) printf("%s\n", symtab.base[i].name);
  free(dummy); free(placed); free(two); free(arcs); free(late);
  layout_free(&L);
}

/* ---- -R: a suggested order of object files ----
 *
 * Measured (doc/DESIGN.md, "-R"): the functions the map renamed to their
 * object files are laid into chains like -r's first round, but over the
 * arcs in the order first read (not by count), still cut where the
 * running sum passes 99% of all calls, and in that one round only.  The
 * chains print in the order their members first appear as callers in
 * those arcs, one line per function (its object's name, so an object
 * recurs), then the other mapped functions in address order, then, sorted
 * by name, the objects none of whose functions was printed. */
static unsigned char *file_printed;

static int is_mapped(const Sym *s) { return s->map_file != 0; }

static void emit_file(const Sym *s)
{
  file_printed[s->map_file - 1] = 1;
  printf("%s\n", s->name);
}

void cg_print_file_ordering(void)
{
  size_t n = symtab.len, na, nfiles, i;
  double total;
  const char *const *files = core_map_files(&nfiles);
  file_printed = xcalloc(nfiles + 1, 1);
  Layout L;
  layout_init(&L, is_mapped, emit_file);
  Arc **arcs = plain_arcs(&na, &total);
  size_t first = within_share(arcs, na, total, 0.99);
  Arc **left = xmalloc((na + 1) * sizeof *left);
  Arc **placed = xmalloc((na + 1) * sizeof *placed);
  order_round(&L, arcs, first, left, placed, NULL);
  print_chains(&L, arcs, first);
  for (i = 0; i < n; i++)
    if (!L.printed[i] && is_mapped(&symtab.base[i])) emit_file(&symtab.base[i]);
  for (i = 0; i < nfiles; i++)
    if (!file_printed[i]) printf("%s\n", files[i]);
  free(left); free(placed); free(arcs); free(file_printed);
  layout_free(&L);
}
