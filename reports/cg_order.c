/* cg_order.c -- the suggested orders: of functions (-r) and of object
 * files (-R), laid out from the call graph's arcs. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "reports/cg_order.h"

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

typedef struct Layout {
  Sym **next, **prev;            /* per symbol index */
  Chain **chain;
  long *pos;
  unsigned char *printed;
  int (*eligible)(const Sym *);  /* may an arc's end join a chain */
  void (*emit)(struct Layout *, const Sym *);   /* prints one function */
  const unsigned char *late;     /* -r: specials printed with the leftovers */
  const SymTab *tab;
  unsigned char *file_printed;   /* -R: per map file */
} Layout;

static size_t sidx(const Layout *L, const Sym *s) { return (size_t)(s - L->tab->base); }

static int is_used(const Sym *s) { return s->ncalls > 0; }

static void link_after(Layout *L, Sym *a, Sym *b)   /* a then b; b was loose */
{
  Chain *c = L->chain[sidx(L, a)];
  L->next[sidx(L, a)] = b;
  L->prev[sidx(L, b)] = a;
  L->chain[sidx(L, b)] = c;
  L->pos[sidx(L, b)] = ++c->tail_pos;
  c->tail = b;
}

static void link_before(Layout *L, Sym *b, Sym *a)  /* a then b; a was loose */
{
  Chain *c = L->chain[sidx(L, b)];
  L->next[sidx(L, a)] = b;
  L->prev[sidx(L, b)] = a;
  L->chain[sidx(L, a)] = c;
  L->pos[sidx(L, a)] = --c->head_pos;
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
    if (L->printed[sidx(L, p)] || L->printed[sidx(L, c)]) {
      /* an arc into a special that waits for the leftovers still orders
         its caller's chain (measured) */
      if (L->late && L->late[sidx(L, c)]) placed[np++] = a;
      left[nl++] = a;
      continue;
    }
    Chain *cp = L->chain[sidx(L, p)], *cc = L->chain[sidx(L, c)];
    if (!cp && !cc) {
      Chain *ch = xcalloc(1, sizeof *ch);
      ch->head = p;
      ch->tail = p;
      L->chain[sidx(L, p)] = ch;
      L->pos[sidx(L, p)] = 0;
      link_after(L, p, c);
    } else if (!cp) {            /* the caller joins the callee's chain */
      long dh = L->pos[sidx(L, c)] - cc->head_pos, dt = cc->tail_pos - L->pos[sidx(L, c)];
      if (dh <= dt) link_before(L, cc->head, p);
      else link_after(L, cc->tail, p);
    } else if (!cc) {            /* the callee joins the caller's chain */
      long dh = L->pos[sidx(L, p)] - cp->head_pos, dt = cp->tail_pos - L->pos[sidx(L, p)];
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
    if (!L->chain[sidx(L, s)] || L->printed[sidx(L, s)]) continue;
    for (s = L->chain[sidx(L, s)]->head; s; s = L->next[sidx(L, s)]) {
      L->printed[sidx(L, s)] = 1;
      L->emit(L, s);
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

static void emit_name(Layout *L, const Sym *s) { (void)L; printf("%s\n", s->name); }

static void layout_init(Layout *L, const SymTab *tab, int (*eligible)(const Sym *),
                        void (*emit)(Layout *, const Sym *))
{
  size_t n = tab->len;
  L->tab = tab;
  L->file_printed = NULL;
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
  for (size_t i = 0; i < L->tab->len; i++)
    if (L->chain[i] && L->chain[i]->head == &L->tab->base[i]) L->chain[n++] = L->chain[i];
  for (size_t i = 0; i < n; i++) free(L->chain[i]);
  free(L->next); free(L->prev); free(L->chain); free(L->pos); free(L->printed);
}

/* The arcs other than self calls, in the order first read; *TOTAL gets
   the sum of their counts. */
static Arc **plain_arcs(const CallGraph *cg, size_t *na, double *total)
{
  Arc **arcs = xmalloc((cg->narcs + 1) * sizeof *arcs);
  *na = 0;
  *total = 0;
  for (size_t i = 0; i < cg->narcs; i++) {
    Arc *a = cg_arc(cg, i);
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
  const SymTab *tab = L->tab;
  size_t n = tab->len, ncalled = 0, i;
  for (i = 0; i < n; i++) ncalled += is_used(&tab->base[i]);
  size_t want = ncalled / 80;
  if (!want) return;
  size_t *cnt = xcalloc(n + 1, sizeof *cnt);
  size_t hot = within_share(arcs, na, total, 0.9);
  for (i = 0; i < hot; i++) cnt[sidx(L, arcs[i]->child)]++;
  Special *cand = xmalloc((n + 1) * sizeof *cand);
  size_t nc = 0;
  for (i = 0; i < n; i++)
    if (cnt[i]) { cand[nc].s = &tab->base[i]; cand[nc++].nparents = cnt[i]; }
  qsort(cand, nc, sizeof *cand, cmp_special);
  if (want > nc) want = nc;
  /* measured, not understood: the list stops at the first candidate with
     exactly five callers among those arcs (2-4 and 6-36 do not stop it) */
  for (i = 0; i < want; i++)
    if (cand[i].nparents == 5) { want = i; break; }
  unsigned char *state = xcalloc(n + 1, 1);     /* SP_*, per symbol */
  unsigned char *taken = xcalloc(n + 1, 1);     /* uncalled callers used */
  for (i = 0; i < want; i++) state[sidx(L, cand[i].s)] = SP_FREE;
  ArcSeq *partner = xmalloc((want + 1) * sizeof *partner);   /* the pairing arcs */
  size_t np = 0;
  /* specials calling specials: each special in order, while free, takes
     its newest callee that is a free special (that callee is late), else
     its newest caller that is a free special (then it is late itself) */
  for (i = 0; i < want; i++) {
    Sym *f = cand[i].s;
    if (state[sidx(L, f)] != SP_FREE) continue;
    Arc *hit = NULL;
    for (unsigned j = 0; j < f->nchildren && !hit; j++) {   /* newest first */
      Arc *a = f->children[j];
      if (a->child != f && state[sidx(L, a->child)] == SP_FREE) hit = a;
    }
    if (hit) {
      state[sidx(L, hit->child)] = SP_LATE;
      state[sidx(L, f)] = SP_USED;
    } else {
      for (unsigned j = 0; j < f->nparents && !hit; j++) {
        Arc *a = f->parents[j];
        if (a->parent != f && state[sidx(L, a->parent)] == SP_FREE) hit = a;
      }
      if (!hit) continue;
      state[sidx(L, f)] = SP_LATE;
      state[sidx(L, hit->parent)] = SP_USED;
    }
    partner[np].arc = hit;
    partner[np].seq = np;
    np++;
  }
  for (i = 0; i < want; i++) {                  /* an uncalled caller */
    Sym *f = cand[i].s;
    if (state[sidx(L, f)] != SP_FREE) continue;
    for (unsigned j = 0; j < f->nparents; j++) {   /* newest first */
      Arc *a = f->parents[j];
      if (a->parent != f && !is_used(a->parent) && !taken[sidx(L, a->parent)]) {
        taken[sidx(L, a->parent)] = 1;
        state[sidx(L, f)] = SP_LATE;
        partner[np].arc = a;
        partner[np].seq = np;
        np++;
        break;
      }
    }
  }
  for (i = 0; i < want; i++) {
    Sym *f = cand[i].s;
    L->printed[sidx(L, f)] = 1;          /* keeps its arcs out of the chains */
    if (state[sidx(L, f)] == SP_LATE) late[sidx(L, f)] = 1;
    else if (state[sidx(L, f)] == SP_FREE && i + 1 < want) printf("%s\n", f->name);
  }
  qsort(partner, np, sizeof *partner, cmp_arc_count);
  for (i = 0; i < np; i++) printf("%s\n", partner[i].arc->parent->name);
  free(partner); free(taken); free(state); free(cand); free(cnt);
}

void cg_print_function_ordering(const CallGraph *cg, const SymTab *tab)
{
  size_t n = tab->len, na, i;
  double total;
  Layout L;
  layout_init(&L, tab, is_used, emit_name);
  Arc **arcs = plain_arcs(cg, &na, &total);
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
    if ((!L.printed[i] || late[i]) && is_used(&tab->base[i])) {
      L.printed[i] = 1;
      printf("%s\n", tab->base[i].name);
    }
  /* every function never called, even one printed above as a caller */
  for (i = 0; i < n; i++)
    if (!is_used(&tab->base[i])) printf("%s\n", tab->base[i].name);
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
static int is_mapped(const Sym *s) { return s->map_file != 0; }

static void emit_file(Layout *L, const Sym *s)
{
  L->file_printed[s->map_file - 1] = 1;
  printf("%s\n", s->name);
}

void cg_print_file_ordering(const CallGraph *cg, const SymTab *tab,
                            const char *const *files, size_t nfiles)
{
  size_t n = tab->len, na, i;
  double total;
  Layout L;
  layout_init(&L, tab, is_mapped, emit_file);
  L.file_printed = xcalloc(nfiles + 1, 1);
  Arc **arcs = plain_arcs(cg, &na, &total);
  size_t first = within_share(arcs, na, total, 0.99);
  Arc **left = xmalloc((na + 1) * sizeof *left);
  Arc **placed = xmalloc((na + 1) * sizeof *placed);
  order_round(&L, arcs, first, left, placed, NULL);
  print_chains(&L, arcs, first);
  for (i = 0; i < n; i++)
    if (!L.printed[i] && is_mapped(&tab->base[i])) emit_file(&L, &tab->base[i]);
  for (i = 0; i < nfiles; i++)
    if (!L.file_printed[i]) printf("%s\n", files[i]);
  free(left); free(placed); free(arcs); free(L.file_printed);
  layout_free(&L);
}
