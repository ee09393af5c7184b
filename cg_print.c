/* cg_print.c -- printing the call graph entries and the index. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "cg_print.h"
#include "sym_ids.h"
#include "source.h"
#include "util/fmt.h"

static const char dashes[] = "-----------------------------------------------\n";

void print_notice(void)
{
  printf("\f\n"
         "These explanations were written for this gprof; they may be\n"
         "copied and redistributed freely.  Copyright (C) 2026 the authors\n"
         "of this gprof.\n");
}

int cg_entry_printed(const Sym *s, int zeros, int line)
{
  /* cycles too: -c's arcs of count zero can close a cycle nobody calls
     and that takes no time, which GNU prints only with -z */
  if (!s->print_flag) return 0;
  /* with -l only function symbols get entries (not lines, not cycles) */
  if (line && (s->is_cycle || s->is_line || !s->is_func)) return 0;
  return zeros || s->ncalls || s->self_calls || s->prop_self + s->prop_child > 0;
}

/* " <cycle N>" and " [index]" (or " (index)") after a function's name;
   "<cycle N as a whole> [index]" for a cycle, whose name is empty. */
#define LINE 256
static char *name_suffix(char *p, const Sym *s)
{
  if (s->is_cycle) {
    p = fmt_str(p, "<cycle ");
    p = fmt_int(p, s->cycle_num, 0);
    p = fmt_str(p, " as a whole> [");
    p = fmt_int(p, s->index, 0);
    *p++ = ']';
    return p;
  }
  if (s->cycle_num) {
    p = fmt_str(p, " <cycle ");
    p = fmt_int(p, s->cycle_num, 0);
    *p++ = '>';
  }
  if (s->index) {
    *p++ = ' ';
    *p++ = s->print_flag ? '[' : '(';
    p = fmt_int(p, s->index, 0);
    *p++ = s->print_flag ? ']' : ')';
  }
  return p;
}

void cg_print_name(const SymTab *tab, const Sym *s)
{
  char buf[96];
  if (!s->is_cycle) {
    const char *label = sym_label(tab, s);
    fwrite_unlocked(label, 1, strlen(label), stdout);
  }
  fmt_put(stdout, buf, name_suffix(buf, s));
}

/* Arc order within an entry: self arcs, then arcs within a cycle (by
   count), then the rest by time and count.  Equal arcs come out in reverse
   of their list order, as GNU's insertion sort leaves them. */
typedef struct {
  union { Arc *a; Sym *s; };    /* an arc, or a cycle member */
  double t;                     /* arcs of rank 2: time + child time */
  uint64_t count;
  uint32_t pos;
  int rank;                     /* arcs: 0 self, 1 within a cycle, 2 others */
} ArcKey;


static inline __attribute__((always_inline)) int arc_cmp(const ArcKey *x, const ArcKey *y)
{
  int rx = x->rank, ry = y->rank;
  if (rx == 0) return -1;
  if (ry == 0) return 1;
  if (rx != ry) return rx < ry ? -1 : 1;
  if (rx == 2) {
    if (x->t < y->t) return -1;
    if (x->t > y->t) return 1;
  }
  if (x->count < y->count) return -1;
  if (x->count > y->count) return 1;
  return 0;
}

/* callers ascending, callees descending; equal ones by list position */
static inline int key_before(const ArcKey *x, const ArcKey *y, int desc)
{
  int c = desc ? arc_cmp(y, x) : arc_cmp(x, y);
  if (c) return c < 0;
  return x->pos > y->pos;
}

/* Sorts K[0..N) by key_before: insertion sort for short runs, merged
   bottom-up through TMP (the order is total, so any sort gives the
   same result; this one avoids qsort's calls through a pointer). */
static void sort_keys(ArcKey *k, ArcKey *tmp, size_t n, int desc)
{
  const size_t run = 12;
  for (size_t lo = 0; lo < n; lo += run) {
    size_t hi = lo + run < n ? lo + run : n;
    for (size_t i = lo + 1; i < hi; i++) {
      ArcKey x = k[i];
      size_t j = i;
      while (j > lo && key_before(&x, &k[j - 1], desc)) { k[j] = k[j - 1]; j--; }
      k[j] = x;
    }
  }
  ArcKey *src = k, *dst = tmp;
  for (size_t w = run; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) dst[o++] = key_before(&src[j], &src[i], desc) ? src[j++] : src[i++];
      while (i < mid) dst[o++] = src[i++];
      while (j < hi) dst[o++] = src[j++];
    }
    ArcKey *t = src; src = dst; dst = t;
  }
  if (src != k) memcpy(k, src, n * sizeof *k);
}

/* What the graph printer works with. */
/* A symbol's name as the graph prints it, in one 32-byte slot: nearly
   every line of a big graph names a symbol printed far away, and a slot
   holding the text is one cache miss where a pointer to it was two.
   LEN 0: not made yet; up to NAME_INLINE: the text is in TEXT; longer:
   TEXT holds a pointer to it. */
#define NAME_INLINE 28
typedef struct {
  uint32_t len;
  char text[NAME_INLINE];
} NameSlot;

static const char *slot_text(const NameSlot *n)
{
  const char *t;
  if (n->len <= NAME_INLINE) return n->text;
  memcpy(&t, n->text, sizeof t);
  return t;
}

typedef struct {
  const SymTab *tab;
  const Options *o;
  int cw;                       /* the children column's width: -T prints
                                   it 11 wide, as BSD gprof did */
  double hz;
  double print_time;            /* samples credited to any symbol */
  ArcKey *keys;                 /* scratch for sorting one entry's lines */
  ArcKey *tmp;                  /* and the merge sort's other half */
  size_t keys_cap, tmp_cap;
  FmtOut out;                   /* the lines, formatted by fmt.h */
  NameSlot *names;              /* by index: "name <cycle N> [index]", */
  size_t nnames;                /* made on first use */
} Printer;

/* Room for a line's fixed fields. */
/* Whether S has an entry (cg_entry_printed under P's -z and -l). */
static int printed(const Printer *P, const Sym *s)
{
  return cg_entry_printed(s, P->o->zeros, P->o->line);
}

static char *line_start(Printer *P)
{
  return fmt_room(&P->out, LINE);
}

/* S's slot (S numbered), its text made if not yet. */
static const NameSlot *name_slot(Printer *P, const Sym *s)
{
  NameSlot *slot = &P->names[s->index];
  if (!slot->len) {
    char tmp[96];
    const char *label = s->is_cycle ? "" : sym_label(P->tab, s);
    size_t l = strlen(label);
    size_t sl = (size_t)(name_suffix(tmp, s) - tmp);
    char *t = slot->text;
    if (l + sl > NAME_INLINE) {
      t = xmalloc(l + sl);
      memcpy(slot->text, &t, sizeof t);
    }
    memcpy(t, label, l);
    memcpy(t + l, tmp, sl);
    slot->len = (uint32_t)(l + sl);
  }
  return slot;
}

/* Ends the line begun at P with S's name and suffix (fmt.h fields: the
   reports are mostly these lines, and vfprintf was most of the time). */
static void line_end_name(Printer *P, const Sym *s, char *p)
{
  size_t i = (size_t)s->index, n;
  const char *text;
  char tmp[96];
  if (i > 0 && i < P->nnames) {
    const NameSlot *slot = name_slot(P, s);
    text = slot_text(slot);
    n = slot->len;
  } else {                      /* not numbered: not worth keeping */
    if (!s->is_cycle) {
      const char *label = sym_label(P->tab, s);
      fmt_done(&P->out, p);
      fmt_out_str(&P->out, label, strlen(label));
      p = fmt_room(&P->out, 96);
    }
    text = tmp;
    n = (size_t)(name_suffix(tmp, s) - tmp);
  }
  if ((size_t)(P->out.buf + FMT_OUT_CAP - p) < n + 64) {
    fmt_done(&P->out, p);
    fmt_out_str(&P->out, text, n);
    p = fmt_room(&P->out, 64);
  } else {
    memcpy(p, text, n);
    p += n;
  }
  *p++ = '\n';
  fmt_done(&P->out, p);
}

/* keys[n], the array grown to hold it, with its list position set. */
static ArcKey *key_slot(Printer *P, size_t n)
{
  if (n == P->keys_cap) {
    P->keys_cap = P->keys_cap ? P->keys_cap * 2 : 64;
    P->keys = xrealloc(P->keys, P->keys_cap * sizeof *P->keys);
  }
  P->keys[n].pos = (uint32_t)n;
  return &P->keys[n];
}

/* An arc's sort key: what arc_cmp reads, copied out of the arc. */
static void arc_key(ArcKey *k, Arc *a)
{
  k->a = a;
  k->rank = a->rank;
  k->t = a->time + a->child_time;
  k->count = a->count;
}

static size_t collect(Printer *P, Arc **list, size_t len, int parents)
{
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    Arc *a = list[i];
    if (i + 8 < len) cg_prefetch_arc_rec(list[i + 8]);   /* arcs lie anywhere */
    arc_key(key_slot(P, n++), a);
  }
  ArcKey *keys = P->keys;
  if (n > P->tmp_cap) {
    P->tmp_cap = n;
    free(P->tmp);
    P->tmp = xmalloc(P->tmp_cap * sizeof *P->tmp);
  }
  if (n > 1) sort_keys(keys, P->tmp, n, !parents);
  unsigned dbg = P->o->debug;
  if (dbg & DBG_ARCSORT) fmt_out_flush(&P->out);
  for (size_t i = 0; i < n && (dbg & DBG_ARCSORT); i++)
    DBG(dbg, DBG_ARCSORT, "arcsort: %s %zu: %s -> %s, %llu calls, %g\n", parents ? "parent" : "child",
        i, keys[i].a->parent->name, keys[i].a->child->name,
        (unsigned long long)keys[i].a->count, keys[i].a->time + keys[i].a->child_time);
  return n;
}

/* The same orders for other callers (the exports): an entry's arcs or a
   cycle's members as the graph lists them, with no trace. */
size_t cg_entry_arcs(const Sym *s, int parents, Arc ***v, size_t *cap)
{
  Printer pr = { 0 };
  size_t n = 0;
  Arc **list = parents ? s->parents : s->children;
  unsigned len = parents ? s->nparents : s->nchildren;
  for (unsigned i = 0; i < len; i++) {
    Arc *a = list[i];
    arc_key(key_slot(&pr, n++), a);
  }
  if (n > 1) {
    pr.tmp = xmalloc(n * sizeof *pr.tmp);
    sort_keys(pr.keys, pr.tmp, n, !parents);
  }
  if (n + 1 > *cap) {
    *cap = n + 1;
    *v = xrealloc(*v, *cap * sizeof **v);
  }
  for (size_t i = 0; i < n; i++) (*v)[i] = pr.keys[i].a;
  free(pr.keys);
  free(pr.tmp);
  return n;
}

static uint64_t calls_of(const Sym *s)
{
  return s->cycle_num ? s->cyc_head->ncalls : s->ncalls;
}

/* One caller or callee line of ENTRY's block, naming OTHER.  Arcs within
   one function or one cycle show only their count; others their share of
   the callee's time and calls. */
static void print_arc(Printer *P, const Arc *a, const Sym *entry, const Sym *other)
{
  const Sym *callee = a->child;
  char *p = line_start(P);
  if (other == entry || (other->cycle_num && other->cycle_num == entry->cycle_num)) {
    /* "%6s %5s %7s %*s %7llu %7s     " */
    p = fmt_spaces(p, 6 + 1 + 5 + 1 + 7 + 1 + P->cw + 1);
    p = fmt_u64(p, a->count, 7, 0);
    p = fmt_spaces(p, 1 + 7 + 5);
  } else {
    /* "%6s %5s %7.2f %*.2f %7llu/%-7llu     " */
    p = fmt_spaces(p, 6 + 1 + 5 + 1);
    p = fmt_fixed(p, a->time / P->hz, 7, 2);
    *p++ = ' ';
    p = fmt_fixed(p, a->child_time / P->hz, P->cw, 2);
    *p++ = ' ';
    p = fmt_u64(p, a->count, 7, 0);
    *p++ = '/';
    p = fmt_u64(p, calls_of(callee), 7, 1);
    p = fmt_spaces(p, 5);
  }
  line_end_name(P, other, p);
}

/* Reads ahead what the line for keys[I] will need: the other end's
   symbol, then its name (on big graphs each is a cache miss, and the
   lines' order is known once sorted). */
static void prefetch_lines(const Printer *P, size_t i, size_t n, int parents)
{
  if (i + 6 < n) {
    const Arc *a = P->keys[i + 6].a;
    __builtin_prefetch(parents ? a->parent : a->child);
  }
  if (i + 3 < n) {
    const Arc *a = P->keys[i + 3].a;
    size_t x = (size_t)(parents ? a->parent : a->child)->index;
    if (x < P->nnames) __builtin_prefetch(&P->names[x]);
  }
}

/* Reads ahead for the entries after V[I] (in print order, which is
   nowhere near address order): a symbol's lines, then its arc runs, then
   its arcs, then the symbols at their other ends, each stage one entry
   closer (the first 16 lines of each list: most lists are shorter, and
   prefetch_lines reads ahead within longer ones). */
static void prefetch_entries(Sym *const *v, size_t i, size_t n)
{
  if (i + 4 < n) {
    __builtin_prefetch(v[i + 4]);
    __builtin_prefetch(&v[i + 4]->parents);
  }
  if (i + 3 < n) {
    cg_prefetch_run(v[i + 3]->parents, v[i + 3]->nparents);
    cg_prefetch_run(v[i + 3]->children, v[i + 3]->nchildren);
  }
  if (i + 2 < n) {
    const Sym *s = v[i + 2];
    for (unsigned k = 0; k < s->nparents && k < 16; k++) cg_prefetch_arc_rec(s->parents[k]);
    for (unsigned k = 0; k < s->nchildren && k < 16; k++) cg_prefetch_arc_rec(s->children[k]);
  }
  if (i + 1 < n) {              /* the symbols its lines will name */
    const Sym *s = v[i + 1];
    for (unsigned k = 0; k < s->nparents && k < 16; k++) __builtin_prefetch(s->parents[k]->parent);
    for (unsigned k = 0; k < s->nchildren && k < 16; k++) __builtin_prefetch(s->children[k]->child);
  }
}

/* Before an entry's first lines: their names' slots (the symbols were
   fetched one entry earlier; prefetch_lines takes over from line 6). */
static void prefetch_slots(const Printer *P, size_t n, int parents)
{
  for (size_t i = 0; i < n && i < 8; i++) {
    const Arc *a = P->keys[i].a;
    size_t x = (size_t)(parents ? a->parent : a->child)->index;
    if (x < P->nnames) __builtin_prefetch(&P->names[x]);
  }
}

static void print_parents(Printer *P, Sym *child)
{
  size_t n = collect(P, child->parents, child->nparents, 1);
  if (n == 0) {
    /* "%6s %5s %7s %*s %7s %7s     <spontaneous>\n" */
    char *p = fmt_spaces(line_start(P), 6 + 1 + 5 + 1 + 7 + 1 + P->cw + 1 + 7 + 1 + 7 + 5);
    fmt_done(&P->out, fmt_str(p, "<spontaneous>\n"));
  }
  prefetch_slots(P, n, 1);
  for (size_t i = 0; i < n; i++) {
    prefetch_lines(P, i, n, 1);
    print_arc(P, P->keys[i].a, child, P->keys[i].a->parent);
  }
}

static void print_children(Printer *P, Sym *parent)
{
  size_t n = collect(P, parent->children, parent->nchildren, 0);
  prefetch_slots(P, n, 0);
  for (size_t i = 0; i < n; i++) {
    prefetch_lines(P, i, n, 0);
    print_arc(P, P->keys[i].a, parent, P->keys[i].a->child);
  }
}

static void print_primary(Printer *P, Sym *s)
{
  char *p = line_start(P);
  double pct = P->print_time > 0 ? 100.0 * (s->prop_self + s->prop_child) / P->print_time : 0.0;
  /* "%-6.6s %5.1f %7.2f %*.2f" with "[index]" cut to 6 */
  char idx[32], *q = idx;
  *q++ = '[';
  q = fmt_int(q, s->index, 0);
  *q++ = ']';
  *q = 0;
  idx[6] = 0;
  p = fmt_str_left(p, idx, 6);
  *p++ = ' ';
  p = fmt_fixed(p, pct, 5, 1);
  *p++ = ' ';
  p = fmt_fixed(p, s->prop_self / P->hz, 7, 2);
  *p++ = ' ';
  p = fmt_fixed(p, s->prop_child / P->hz, P->cw, 2);
  *p++ = ' ';
  if (s->ncalls + s->self_calls == 0 && !s->is_cycle) {   /* a cycle shows its 0 */
    p = fmt_spaces(p, 7 + 1 + 7 + 1);            /* " %7s %7s " */
  } else if (s->self_calls) {
    p = fmt_u64(p, s->ncalls, 7, 0);             /* " %7llu+%-7llu " */
    *p++ = '+';
    p = fmt_u64(p, s->self_calls, 7, 1);
    *p++ = ' ';
  } else {
    p = fmt_u64(p, s->ncalls, 7, 0);             /* " %7llu %7s " */
    p = fmt_spaces(p, 1 + 7 + 1);
  }
  line_end_name(P, s, p);
}

/* Cycle members: more time, then more calls, then list order (the keys
   are copied by member_key: the sort then reads no symbol). */
static int cmp_member(const void *a, const void *b)
{
  const ArcKey *x = a, *y = b;
  if (x->t > y->t) return -1;
  if (x->t < y->t) return 1;
  if (x->count > y->count) return -1;
  if (x->count < y->count) return 1;
  return x->pos < y->pos ? -1 : 1;
}

static void member_key(ArcKey *k, Sym *m)
{
  k->s = m;
  k->t = m->prop_self + m->prop_child;
  k->count = m->ncalls + m->self_calls;
}

size_t cg_entry_members(const Sym *cyc, Sym ***v, size_t *cap)
{
  Printer pr = { 0 };
  size_t n = 0;
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    member_key(key_slot(&pr, n++), m);
  if (n > 1) qsort(pr.keys, n, sizeof *pr.keys, cmp_member);
  if (n + 1 > *cap) {
    *cap = n + 1;
    *v = xrealloc(*v, *cap * sizeof **v);
  }
  for (size_t i = 0; i < n; i++) (*v)[i] = pr.keys[i].s;
  free(pr.keys);
  return n;
}

static void print_members(Printer *P, const CallGraph *cg, Sym *cyc)
{
  /* the members' array, not the cyc_next chain: it can be read ahead */
  size_t n = 0, first = cg->member_start[cyc->cycle_num];
  size_t len = cg->member_start[cyc->cycle_num + 1] - first;
  Sym *const *mem = cg->members + first;
  for (size_t j = 0; j < len; j++) {
    if (j + 8 < len) {
      __builtin_prefetch(mem[j + 8]);
      __builtin_prefetch(&mem[j + 8]->prop_self);
    }
    member_key(key_slot(P, n++), mem[j]);
  }
  if (n > 1) qsort(P->keys, n, sizeof *P->keys, cmp_member);
  for (size_t i = 0; i < n; i++) {
    Sym *m = P->keys[i].s;
    if (i + 6 < n) {            /* in time order: anywhere in memory */
      __builtin_prefetch(P->keys[i + 6].s);
      __builtin_prefetch(&P->keys[i + 6].s->prop_self);
    }
    if (i + 3 < n && (size_t)P->keys[i + 3].s->index < P->nnames)
      __builtin_prefetch(&P->names[P->keys[i + 3].s->index]);
    /* "%6s %5s %7.2f %*.2f %7llu" then "+%-7llu     " or " %7s     " */
    char *p = fmt_spaces(line_start(P), 6 + 1 + 5 + 1);
    p = fmt_fixed(p, m->prop_self / P->hz, 7, 2);
    *p++ = ' ';
    p = fmt_fixed(p, m->prop_child / P->hz, P->cw, 2);
    *p++ = ' ';
    p = fmt_u64(p, m->ncalls, 7, 0);
    if (m->self_calls) {
      *p++ = '+';
      p = fmt_u64(p, m->self_calls, 7, 1);
      p = fmt_spaces(p, 5);
    } else {
      p = fmt_spaces(p, 1 + 7 + 5);
    }
    line_end_name(P, m, p);
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

void cg_print(const CallGraph *cg, const SymTab *tab, double hz, long g, const Options *o)
{
  size_t i;
  Printer pr = { .tab = tab, .o = o, .cw = o->traditional ? 11 : 7, .hz = hz }, *P = &pr;
  double print_time = cg->print_time;
  P->print_time = print_time;

  if (o->traditional) {
    if (!o->brief) printf("%s", cg_blurb_trad), print_notice();
  } else if (o->brief) printf("\t\t\tCall graph\n\n");
  else printf("\t\t     Call graph (explanation follows)\n\n");
  if (print_time > 0)
    printf("\ngranularity: each sample hit covers %ld byte(s) for %.2f%% of %.2f seconds\n\n",
           g, 100.0 / print_time, print_time / hz);
  else
    printf("\ngranularity: each sample hit covers %ld byte(s) no time propagated\n\n", g);
  if (o->traditional)
    printf("%34s%s\nindex  %%time    self descendants  called+self    name    \tindex\n%34s%s\n\n",
           "", "called/total       parents ", "", "called/total       children");
  else
    printf("index %% time    self  children    called     name\n");
  fmt_out_init(&P->out, stdout);
  P->nnames = cg->norder + 1;
  P->names = xmalloc_huge(P->nnames * sizeof *P->names);
  memset(P->names, 0, P->nnames * sizeof *P->names);
  /* The entries' names, made in one pass in print order before the
     lines, reading ahead: made on first use, each was a few cache misses
     (the symbol's name fields, the name's text) in no foreseeable order.
     Not for -l or inline file names, whose labels ask BFD, whose answers
     may depend on the order of the questions. */
  if (!o->line && !o->inline_names) {
    for (i = 0; i < cg->norder; i++) {
      sym_prefetch_names(cg->order, i, cg->norder);
      if (i + 8 < cg->norder) __builtin_prefetch(&cg->order[i + 8]->dname);
      const Sym *s = cg->order[i];
      if (printed(P, s) && (size_t)s->index < P->nnames && s->index > 0) name_slot(P, s);
    }
  }
  for (i = 0; i < cg->norder; i++) {
    Sym *s = cg->order[i];
    prefetch_entries(cg->order, i, cg->norder);
    if (!printed(P, s)) continue;
    if (s->is_cycle) {
      print_primary(P, s);
      print_members(P, cg, s);
    } else {
      print_parents(P, s);
      print_primary(P, s);
      print_children(P, s);
    }
    char *p = line_start(P);
    if (o->traditional) *p++ = '\n';
    p = fmt_str(p, dashes);
    if (o->traditional) *p++ = '\n';
    fmt_done(&P->out, p);
  }
  fmt_out_free(&P->out);
  for (i = 0; i < P->nnames; i++)
    if (P->names[i].len > NAME_INLINE) free((void *)slot_text(&P->names[i]));
  free(P->names);
  free(P->keys);
  free(P->tmp);
  if (!o->brief && !o->traditional) {
    printf(cg_blurb);
    print_notice();
  }
}

typedef struct {                /* what cmp_index_name reads, copied */
  NamePrefix np;
  const char *name;
  Sym *s;
  int cycle;                    /* cycle number of a cycle, else 0 */
} IndexKey;

static int cmp_index_name(const void *a, const void *b)
{
  const IndexKey *x = a, *y = b;
  if (!x->cycle != !y->cycle) return x->cycle ? 1 : -1;
  if (x->cycle) return x->cycle - y->cycle;
  return name_cmp(x->np, x->name, y->np, y->name);
}

/* V[0..K) sorted for the index: functions by name, then cycles. */
static void index_sort(Sym **v, size_t k)
{
  IndexKey *key = xmalloc((k + 1) * sizeof *key);
  for (size_t i = 0; i < k; i++) {
    Sym *s = v[i];
    sym_prefetch_names(v, i, k);
    key[i] = (IndexKey){ s->is_cycle ? (NamePrefix){ 0, 0 } : name_prefix(s->name), s->name, s,
                         s->is_cycle ? s->cycle_num : 0 };
  }
  qsort(key, k, sizeof *key, cmp_index_name);   /* stable: glibc's merge sort */
  for (size_t i = 0; i < k; i++) v[i] = key[i].s;
  free(key);
}

/* Three columns filled top to bottom; a column's bracketed index ends six
   places after the column's start, or follows a single space when what
   precedes it (an overlong name or index) leaves no room. */
void cg_print_index(const CallGraph *cg, const SymTab *tab, const Options *o)
{
  size_t k = 0, i;
  /* address order in, so equal names stay in address order */
  Sym **v = xmalloc((tab->len + (size_t)cg->ncycles + 1) * sizeof *v);
  for (i = 0; i < tab->len + (size_t)cg->ncycles; i++) {
    Sym *s = i < tab->len ? &tab->base[i] : &cg->cycles[i - tab->len + 1];
    if (!s->index) continue;
    if (!s->is_cycle && !o->zeros && s->ncalls == 0 && !(s->hist_time != 0)) continue;
    v[k++] = s;
  }
  index_sort(v, k);
  printf("\f\nIndex by function name\n\n");
  if (o->traditional) {
    size_t rows = (k + 2) / 3;
    char nm[4096], ix[32];
    for (size_t r = 0; r < rows; r++) {
      for (int c = 0; c < 3; c++) {
        size_t j = r + (size_t)c * rows;
        if (j >= k) break;
        if (v[j]->is_cycle) snprintf(nm, sizeof nm, "<cycle %d>", v[j]->cycle_num);
        /* neither -l's "(file:line @ addr)" nor --inline-file-names'
           "(file:line)" is shown here */
        else snprintf(nm, sizeof nm, "%s", sym_print_name(tab, v[j]));
        snprintf(ix, sizeof ix, v[j]->print_flag ? "[%d]" : "(%d)", v[j]->index);
        printf("%6.6s %-19.19s", ix, nm);   /* GNU cuts "[10012]" to 6 too */
      }
      printf("\n");
    }
    free(v);
    return;
  }
  size_t rows = (k + 2) / 3;
  /* 64-bit: -w 2147483647 gives GNU 715827884-column columns, not an
     overflow; the padding is written, not built (GNU needs no memory for
     -w 999999999, and neither do we) */
  long long colw = ((long long)o->width + 5) / 3;
  static const char blanks[256] = { [0 ... 255] = ' ' };
  char idx[32], *ent = NULL;
  size_t cap = 0;
  for (size_t r = 0; r < rows; r++) {
    long long len = 0;
    for (int c = 0; c < 3; c++) {
      size_t j = r + (size_t)c * rows;
      if (j >= k) break;
      const Sym *s = v[j];
      /* "[%d]" or "(%d)", then the name: "<cycle N>", "label (file)"
         for statics with a file, else the label */
      char *q = idx;
      *q++ = s->print_flag ? '[' : '(';
      q = fmt_int(q, s->index, 0);
      *q++ = s->print_flag ? ']' : ')';
      size_t il = (size_t)(q - idx);
      const char *label = s->is_cycle ? "" : sym_label(tab, s);
      /* -l's label already names the file */
      const char *file = !s->is_cycle && s->is_static && !o->line ? src_sym_file(tab, s) : NULL;
      size_t ll = strlen(label), fl = file ? strlen(file) : 0;
      long long target = (long long)c * colw + 6 - (long long)il;
      if (len < target) {
        for (long long pad = target - len; pad > 0; pad -= (long long)sizeof blanks)
          fwrite_unlocked(blanks, 1, pad < (long long)sizeof blanks ? (size_t)pad : sizeof blanks,
                          stdout);
        len = target;
      } else {
        putc_unlocked(' ', stdout);
        len++;
      }
      size_t need = il + ll + fl + 96;
      if (need > cap) { cap = need * 2; ent = xrealloc(ent, cap); }
      char *p = ent;
      memcpy(p, idx, il);
      p += il;
      *p++ = ' ';
      if (s->is_cycle) {
        p = fmt_str(p, "<cycle ");
        p = fmt_int(p, s->cycle_num, 0);
        *p++ = '>';
      } else {
        memcpy(p, label, ll);
        p += ll;
        if (file) {
          *p++ = ' ';
          *p++ = '(';
          memcpy(p, file, fl);
          p += fl;
          *p++ = ')';
        }
      }
      fwrite_unlocked(ent, 1, (size_t)(p - ent), stdout);
      len += p - ent;
    }
    putc_unlocked('\n', stdout);
  }
  free(ent);
  free(v);
}
