/* exports/callgrind.c -- the profile in the callgrind format (--callgrind),
 * as valgrind's cl-format.html specifies it, for callgrind_annotate and
 * KCachegrind.
 *
 * Layout: one part, "positions: instr line", one event, Time, in
 * microseconds: on a cost line the sampled self time of that address and
 * line, on a call the inclusive time of those calls, shared out by call
 * counts as gprof's call graph does.
 *
 * Self time by line: a function's self time (the flat profile's) is spread
 * over its source lines in proportion to the histogram's samples in each
 * line's addresses -- the line table (linesyms.c line_points) cut into
 * pieces, each histogram bin credited to the pieces it overlaps as
 * hist.c credits symbols.  Under -l the line symbols are those pieces
 * already, each with its samples.  Without line information a function's
 * time sits at its first address.  The pieces' times are rounded
 * cumulatively in address order, so each function's sum is within 1 of
 * its time and the file's total is the flat profile's total rounded once.
 *
 * Calls: one calls= line per call site (the return address the arc
 * records carry, on the line of the byte before it: the call -- glibc
 * rounds it down to 16 bytes, and such an address is taken as it is),
 * per callee.  Costs are integers and balanced: for every function,
 * inclusive = self + the costs of its calls out = the costs of its calls
 * in (for a function that is called), so callgrind_annotate --inclusive
 * and KCachegrind agree and never show inclusive below self.  They are
 * propagated over the function-level graph (under -l too, where gprof's
 * own graph is one of line symbols), callees first by strongly connected
 * components:
 *  - a function outside a cycle: its inclusive is shared out over the
 *    calls into it in proportion to their counts (gprof's arc time + child
 *    time, rounded);
 *  - a cycle: its inclusive (the members' self time and their calls out of
 *    the cycle) is shared over the calls into the cycle from outside by
 *    counts, as gprof does.  A call inside the cycle carries the time that
 *    has to pass through it for each member to balance: the time a member
 *    owns beyond what its outside callers take flows, along the shortest
 *    call paths, to a hub (the member its outside callers take the most
 *    from) and from there to the members whose outside callers take more
 *    than they own.  Calls the flow does not use carry 0.
 *  - a self call carries 0 (its time is the function's own already).
 *  - a cycle, or a function, that only calls from inside it reach (it is
 *    called, so callgrind_annotate would take its inclusive from its
 *    calls in) gets one call from "<spontaneous>" for its whole time.
 * Names: the printed (demangled) name; two functions of one file with one
 * name get " [0xADDR]" after the second and later.  Names and files are
 * compressed as "(N) name". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exports/callgrind.h"
#include "lines/linesyms.h"
#include "util/options.h"
#include "source.h"
#include "sym_ids.h"

/* A piece of a function: addresses [addr, next piece) of one line. */
typedef struct {
  vma_t addr;
  size_t owner;                 /* the function (its symbol's index) */
  const char *file;
  int line;
  double us, mass;              /* self time; histogram samples in it */
  uint64_t cost;                /* self time rounded */
} Seg;

/* Calls from one address of a function to another function. */
typedef struct {
  size_t p, c;                  /* caller and callee functions */
  vma_t addr;                   /* the return address */
  uint64_t count, cost;
  const char *file;             /* the call's position */
  int line;
} Site;

/* All calls from one function to another. */
typedef struct {
  size_t p, c;
  uint64_t count, cost;
  size_t site0, nsites;
} BArc;

typedef struct {
  FILE *f;
  const SymTab *tab;
  double hz;
  const char **file;            /* per symbol: its file or "???" */
  const char **name;            /* per symbol: the name written */
  unsigned char *fn_defined;
  /* file names and their ids */
  const char **fl_str;
  unsigned *fl_id;
  size_t fl_cap, fl_n;
  unsigned char *fl_seen;
} Cg;

static const char unknown_file[] = "???";

/* ---- file names: equal strings share one id ---- */
static uint64_t str_hash(const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) h = (h ^ *p) * 1099511628211ull;
  return h;
}

static unsigned file_id(Cg *C, const char *s)
{
  if (2 * (C->fl_n + 1) > C->fl_cap) {
    size_t cap = C->fl_cap ? 2 * C->fl_cap : 64;
    const char **str = xcalloc(cap, sizeof *str);
    unsigned *id = xcalloc(cap, sizeof *id);
    for (size_t i = 0; i < C->fl_cap; i++) {
      if (!C->fl_str[i]) continue;
      size_t k = (size_t)str_hash(C->fl_str[i]) & (cap - 1);
      while (str[k]) k = (k + 1) & (cap - 1);
      str[k] = C->fl_str[i];
      id[k] = C->fl_id[i];
    }
    free(C->fl_str); free(C->fl_id);
    C->fl_str = str; C->fl_id = id; C->fl_cap = cap;
  }
  size_t k = (size_t)str_hash(s) & (C->fl_cap - 1);
  for (;; k = (k + 1) & (C->fl_cap - 1)) {
    if (!C->fl_str[k]) {
      C->fl_str[k] = s;
      return C->fl_id[k] = (unsigned)++C->fl_n;
    }
    if (!strcmp(C->fl_str[k], s)) return C->fl_id[k];
  }
}

typedef struct { size_t i; const char *file, *name; } Named;

static int cmp_file_name(const void *a, const void *b)
{
  const Named *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (!c) c = strcmp(x->name, y->name);
  if (!c) c = (x->i > y->i) - (x->i < y->i);
  return c;
}

/* The names written: the printed name, made unique within its file. */
static void name_functions(Cg *C)
{
  size_t n = C->tab->len;
  Named *v = xmalloc((n + 1) * sizeof *v);
  for (size_t i = 0; i < n; i++) {
    v[i].i = i;
    v[i].file = C->file[i];
    v[i].name = C->name[i] = sym_print_name(C->tab, &C->tab->base[i]);
  }
  qsort(v, n, sizeof *v, cmp_file_name);
  for (size_t k = 1; k < n; k++) {
    if (strcmp(v[k - 1].file, v[k].file) || strcmp(v[k - 1].name, v[k].name)) continue;
    size_t len = strlen(v[k].name) + 32;
    char *b = xmalloc(len);
    snprintf(b, len, "%s [0x%llx]", v[k].name, (unsigned long long)C->tab->base[v[k].i].addr);
    C->name[v[k].i] = b;
  }
  free(v);
}

/* A name on a spec line: no control characters (a newline would end it). */
static void put_name(FILE *f, const char *s)
{
  for (; *s; s++) putc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
  putc('\n', f);
}

/* "WHAT=(id)", with the name the first time. */
static void spec_fn(Cg *C, const char *what, size_t fn, const char *text)
{
  fprintf(C->f, "%s=(%zu)", what, fn + 1);
  if (C->fn_defined[fn]) {
    putc('\n', C->f);
    return;
  }
  C->fn_defined[fn] = 1;
  putc(' ', C->f);
  put_name(C->f, text);
}

static void spec_fl(Cg *C, const char *what, const char *file)
{
  unsigned id = file_id(C, file);
  fprintf(C->f, "%s=(%u)", what, id);
  if (C->fl_seen[id]) {
    putc('\n', C->f);
    return;
  }
  C->fl_seen[id] = 1;
  putc(' ', C->f);
  put_name(C->f, file);
}

/* A share of TOTAL: the rounded TOTAL * PART / WHOLE (0 <= PART <= WHOLE);
   successive shares of cumulative parts add up to TOTAL exactly. */
static uint64_t share(uint64_t total, uint64_t part, uint64_t whole)
{
  if (!whole) return 0;
  unsigned __int128 v = (unsigned __int128)total * part + whole / 2;
  return (uint64_t)(v / whole);
}

/* ---- self time by line ---- */

/* The index of the last of the N pieces at or below ADDR (N if none). */
static size_t seg_at(const Seg *s, size_t n, vma_t addr)
{
  if (!n || addr < s[0].addr) return n;
  size_t lo = 0, hi = n;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (s[mid].addr <= addr) lo = mid; else hi = mid;
  }
  return lo;
}

static double sym_us(const Cg *C, const Sym *s)
{
  if (!sym_id_in_flat(s) || !(s->hist_time > 0) || !(C->hz > 0)) return 0;
  return s->hist_time / C->hz * 1e6;
}

static void push_seg(Seg **v, size_t *n, size_t *cap, Seg s)
{
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 256;
    *v = xrealloc(*v, *cap * sizeof **v);
  }
  (*v)[(*n)++] = s;
}

/* Where the last symbol's samples end, as hist.c has it. */
static vma_t hist_top(const SymTab *tab)
{
  if (!tab->len) return 0;
  const Sym *last = &tab->base[tab->len - 1];
  return tab->last_hist_end ? tab->last_hist_end : last->end_addr + 1;
}

/* Calls FN for each overlap of a histogram bin with samples and a piece
   of V[0..N) (a piece reaches the next one, the last up to TOP), in
   GNU's 2-byte units as hist.c credits symbols: its start and
   samples x bytes. */
typedef void BinFn(void *ctx, Seg *s, vma_t at, double mass);

static void bin_walk(const ExportInput *in, Seg *v, size_t ns, vma_t top, BinFn *fn, void *ctx)
{
  for (size_t r = 0; in->hist && r < in->hist->nrecs; r++) {
    const Hist *h = &in->hist->recs[r];
    if (!h->bins) continue;
    for (uint32_t b = 0; b < h->nbins; b++) {
      if (!h->bins[b]) continue;
      vma_t lo, hi;
      hist_bin_bounds(h, b, &lo, &hi);
      size_t j = seg_at(v, ns, lo);
      if (j == ns) j = 0;
      for (; j < ns; j++) {
        vma_t s_lo = v[j].addr / HIST_UNIT * HIST_UNIT;
        vma_t s_hi = (j + 1 < ns ? v[j + 1].addr : top) / HIST_UNIT * HIST_UNIT;
        if (s_lo >= hi) break;
        vma_t a = lo > s_lo ? lo : s_lo, z = hi < s_hi ? hi : s_hi;
        if (z > a) fn(ctx, &v[j], a > v[j].addr ? a : v[j].addr, (double)(z - a) * (double)h->bins[b]);
      }
    }
  }
}

static void add_mass(void *ctx, Seg *s, vma_t at, double mass)
{
  (void)ctx; (void)at;
  s->mass += mass;
}

/* The pieces of every function, in address order, with their self time
   (unrounded).  OWNER maps a symbol to its function. */
static Seg *make_segs(Cg *C, const ExportInput *in, const size_t *owner, size_t *nseg)
{
  const SymTab *tab = C->tab;
  size_t n = tab->len, i, ns = 0, cap = 0;
  Seg *v = NULL;
  if (tab->opts.line) {         /* the line symbols are the pieces */
    for (i = 0; i < n; i++) {
      const Sym *s = &tab->base[i];
      push_seg(&v, &ns, &cap, (Seg){ s->addr, owner[i], C->file[i], src_sym_line(tab, s), sym_us(C, s), 0, 0 });
    }
    bin_walk(in, v, ns, hist_top(tab), add_mass, NULL);
    *nseg = ns;
    return v;
  }
  LinePoint *pts = NULL;
  size_t np = 0, k = 0;
  if (tab->core && !tab->opts.external && in->hist && C->hz > 0) np = line_points(tab->core, tab, &pts);
  for (i = 0; i < n; i++) {
    const Sym *s = &tab->base[i];
    vma_t end = i + 1 < n ? tab->base[i + 1].addr : (vma_t)-1;
    while (k < np && pts[k].addr < s->addr) k++;
    push_seg(&v, &ns, &cap, (Seg){ s->addr, i, C->file[i], src_sym_line(tab, s), 0, 0, 0 });
    if (k < np && pts[k].addr == s->addr) k++;
    for (; k < np && pts[k].addr < end; k++) {
      const LinePoint *p = &pts[k];
      Seg *last = &v[ns - 1];
      if (p->line == last->line && !strcmp(p->file, last->file)) continue;
      push_seg(&v, &ns, &cap, (Seg){ p->addr, i, p->file, p->line, 0, 0, 0 });
    }
  }
  free(pts);
  bin_walk(in, v, ns, hist_top(tab), add_mass, NULL);
  /* each function's time, spread over its pieces by their samples */
  for (size_t j = 0; j < ns;) {
    size_t e = j + 1;
    double m = v[j].mass;
    while (e < ns && v[e].owner == v[j].owner) m += v[e++].mass;
    double us = sym_us(C, &tab->base[v[j].owner]);
    if (m > 0)
      for (size_t q = j; q < e; q++) v[q].us = us * (v[q].mass / m);
    else
      v[j].us = us;
    j = e;
  }
  *nseg = ns;
  return v;
}

/* A piece's samples at one address (a bin's part of it): the cost lines. */
typedef struct {
  vma_t addr;
  size_t seg;
  double mass, us;
  uint64_t cost;
} Piece;

typedef struct { Piece *v; size_t n, cap; const Seg *base; } PieceVec;

static void push_piece(PieceVec *p, vma_t addr, size_t seg, double mass)
{
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 256;
    p->v = xrealloc(p->v, p->cap * sizeof *p->v);
  }
  p->v[p->n++] = (Piece){ addr, seg, mass, 0, 0 };
}

static void add_piece(void *ctx, Seg *s, vma_t at, double mass)
{
  PieceVec *p = ctx;
  push_piece(p, at, (size_t)(s - p->base), mass);
}

static int cmp_piece(const void *a, const void *b)
{
  const Piece *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  return (x->seg > y->seg) - (x->seg < y->seg);
}

/* The cost lines: each piece's self time over the bins in it, at the
   first address of each (and each function's entry, with or without). */
static Piece *make_pieces(const ExportInput *in, Seg *seg, size_t nseg, vma_t top, size_t *npieces)
{
  PieceVec p = { NULL, 0, 0, seg };
  size_t j, k, out = 0;
  for (j = 0; j < nseg; j++)
    if (j == 0 || seg[j].owner != seg[j - 1].owner || (seg[j].us > 0 && !(seg[j].mass > 0)))
      push_piece(&p, seg[j].addr, j, 0);
  if (in->hist && in->hist->nrecs) bin_walk(in, seg, nseg, top, add_piece, &p);
  if (p.n > 1) qsort(p.v, p.n, sizeof *p.v, cmp_piece);
  for (k = 0; k < p.n; k++) {
    if (out && p.v[out - 1].addr == p.v[k].addr && p.v[out - 1].seg == p.v[k].seg) {
      p.v[out - 1].mass += p.v[k].mass;
      continue;
    }
    p.v[out++] = p.v[k];
  }
  for (k = 0; k < out; k++) {
    Piece *q = &p.v[k];
    const Seg *s = &seg[q->seg];
    q->us = s->mass > 0 ? s->us * (q->mass / s->mass) : q->addr == s->addr ? s->us : 0;
  }
  *npieces = out;
  return p.v;
}

/* ---- calls ---- */
static int cmp_site(const void *a, const void *b)
{
  const Site *x = a, *y = b;
  if (x->p != y->p) return x->p < y->p ? -1 : 1;
  if (x->c != y->c) return x->c < y->c ? -1 : 1;
  return (x->addr > y->addr) - (x->addr < y->addr);
}

static Site *make_sites(Cg *C, const ExportInput *in, const size_t *owner, const Seg *seg, size_t nseg,
                        size_t *nsites)
{
  const SymTab *tab = C->tab;
  size_t n = tab->len, m = 0, cap = 0;
  Site *v = NULL;
  const Sym *lo = tab->base, *hi = tab->base + n;
#define ADD_SITE(P, CH, ADDR, COUNT)                                                      \
  do {                                                                                    \
    if (m == cap) { cap = cap ? 2 * cap : 256; v = xrealloc(v, cap * sizeof *v); }        \
    v[m++] = (Site){ owner[(P) - lo], owner[(CH) - lo], (ADDR), (COUNT), 0, NULL, 0 };    \
  } while (0)
  if (in->arc_recs) {
    size_t nr = cg_kept_count(in->arc_recs);
    for (size_t k = 0; k < nr; k++) {
      vma_t from;
      uint64_t count;
      const Sym *p, *c;
      cg_kept_get(in->arc_recs, k, &from, &count, &p, &c);
      if (!count || p < lo || p >= hi || c < lo || c >= hi) continue;
      ADD_SITE(p, c, from, count);
    }
  } else if (in->cg) {          /* no records: each arc from its caller's start */
    for (size_t i = 0; i < n; i++) {
      const Sym *s = &tab->base[i];
      for (unsigned k = s->nchildren; k-- > 0;) {
        const Arc *a = s->children[k];
        if (!a->count || a->child < lo || a->child >= hi) continue;
        ADD_SITE(s, a->child, s->addr, a->count);
      }
    }
  }
#undef ADD_SITE
  if (m > 1) qsort(v, m, sizeof *v, cmp_site);
  size_t out = 0;
  for (size_t k = 0; k < m; k++) {
    if (out && v[out - 1].p == v[k].p && v[out - 1].c == v[k].c && v[out - 1].addr == v[k].addr) {
      v[out - 1].count += v[k].count;
      continue;
    }
    v[out++] = v[k];
  }
  /* each call's line: that of the byte before the return address (the
     call instruction's), when it is the caller's.  But glibc writes the
     caller's address rounded down to 16 bytes (its table's slots), and
     -s has moved the addresses to their line's start: an address on a
     16-byte boundary is taken for the call's own. */
  for (size_t k = 0; k < out; k++) {
    Site *s = &v[k];
    size_t j = nseg;
    if (s->addr % 16 && !in->sum) j = seg_at(seg, nseg, s->addr - 1);
    if (j == nseg || seg[j].owner != s->p) j = seg_at(seg, nseg, s->addr);
    if (j == nseg || seg[j].owner != s->p) j = seg_at(seg, nseg, tab->base[s->p].addr);
    s->file = j < nseg ? seg[j].file : C->file[s->p];
    s->line = j < nseg ? seg[j].line : src_sym_line(tab, &tab->base[s->p]);
  }
  *nsites = out;
  return v;
}

/* ---- inclusive costs ---- */
typedef struct {
  size_t n;                     /* symbols */
  BArc *arc;
  size_t narcs;
  size_t *out0;                 /* node's arcs out: arc[out0[p] .. out0[p + 1]) */
  size_t *in0, *in;             /* arcs in: in[in0[c] .. in0[c + 1]] */
  const uint64_t *self;
  size_t *scc;                  /* 1 + its component's number, 0 = not yet */
  /* the calls from <spontaneous> into cycles nobody else calls */
  size_t *spont_to;
  uint64_t *spont_cost;
  size_t nspont;
} Graph;

/* Balances the calls inside the cycle MEM[0..M) (see the top). */
static void balance_cycle(Graph *g, const size_t *mem, size_t m, size_t id, uint64_t *o, uint64_t *x)
{
  size_t hub = mem[0];
  uint64_t best_in = 0;
  for (size_t q = 0; q < m; q++) {
    size_t v = mem[q];
    uint64_t calls = 0;
    for (size_t k = g->in0[v]; k < g->in0[v + 1]; k++) calls += g->arc[g->in[k]].count;
    if (q == 0 || x[v] > x[hub] || (x[v] == x[hub] && (calls > best_in || (calls == best_in && v < hub)))) {
      hub = v;
      best_in = calls;
    }
  }
  size_t *order = xmalloc(m * sizeof *order), *via = xmalloc(m * sizeof *via);
  int64_t *acc = xcalloc(m, sizeof *acc);
  /* a member's place in MEM (sorted) by binary search */
  for (int up = 1; up >= 0; up--) {
    /* up: from the hub down the calls (time climbs them back to it);
       down: from the hub up the callers (time climbs to them) */
    size_t head = 0, tail = 0;
    unsigned char *seen = xcalloc(m, 1);
    size_t hq = 0;
    while (mem[hq] != hub) hq++;
    order[tail++] = hq;
    seen[hq] = 1;
    via[hq] = (size_t)-1;
    while (head < tail) {
      size_t u = mem[order[head++]];
      size_t k0 = up ? g->out0[u] : g->in0[u], k1 = up ? g->out0[u + 1] : g->in0[u + 1];
      for (size_t k = k0; k < k1; k++) {
        size_t a = up ? k : g->in[k];
        size_t w = up ? g->arc[a].c : g->arc[a].p;
        if (w == u || g->scc[w] != id) continue;
        size_t lo = 0, hi = m;          /* MEM is sorted */
        while (hi - lo > 1) {
          size_t mid = (lo + hi) / 2;
          if (mem[mid] <= w) lo = mid; else hi = mid;
        }
        if (seen[lo]) continue;
        seen[lo] = 1;
        via[lo] = a;
        order[tail++] = lo;
      }
    }
    free(seen);
    for (size_t q = 0; q < m; q++) {
      int64_t sigma = (int64_t)o[mem[q]] - (int64_t)x[mem[q]];
      acc[q] = up ? (sigma > 0 ? sigma : 0) : (sigma < 0 ? -sigma : 0);
    }
    for (size_t t = tail; t-- > 1;) {
      size_t q = order[t];
      BArc *a = &g->arc[via[q]];
      a->cost += (uint64_t)acc[q];
      size_t parent = up ? a->p : a->c;
      size_t lo = 0, hi = m;
      while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (mem[mid] <= parent) lo = mid; else hi = mid;
      }
      acc[lo] += acc[q];
    }
  }
  free(order); free(via); free(acc);
}

static int cmp_size(const void *a, const void *b)
{
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* Gives every arc its cost: components callees first (Tarjan's order). */
static void propagate(Graph *g)
{
  size_t n = g->n, ncomp = 0;
  size_t *idx = xcalloc(n + 1, sizeof *idx), *low = xmalloc((n + 1) * sizeof *low);
  size_t *stack = xmalloc((n + 1) * sizeof *stack), sp = 0;
  size_t *call = xmalloc((n + 1) * sizeof *call), *next = xmalloc((n + 1) * sizeof *next), cp = 0;
  unsigned char *on = xcalloc(n + 1, 1);
  uint64_t *o = xcalloc(n + 1, sizeof *o), *x = xcalloc(n + 1, sizeof *x);
  size_t *mem = xmalloc((n + 1) * sizeof *mem);
  size_t counter = 0;
  for (size_t root = 0; root < n; root++) {
    if (idx[root] || g->out0[root] == g->out0[root + 1]) continue;  /* no calls out: done below */
    call[cp] = root; next[cp++] = g->out0[root];
    idx[root] = low[root] = ++counter;
    stack[sp++] = root; on[root] = 1;
    while (cp) {
      size_t v = call[cp - 1];
      if (next[cp - 1] < g->out0[v + 1]) {
        size_t w = g->arc[next[cp - 1]++].c;
        if (!idx[w]) {
          idx[w] = low[w] = ++counter;
          stack[sp++] = w; on[w] = 1;
          call[cp] = w; next[cp++] = g->out0[w];
        } else if (on[w] && idx[w] < low[v]) {
          low[v] = idx[w];
        }
        continue;
      }
      cp--;
      if (cp && low[v] < low[call[cp - 1]]) low[call[cp - 1]] = low[v];
      if (low[v] != idx[v]) continue;
      /* V heads a component: its members, then its costs */
      size_t m = 0, id = ++ncomp;
      do {
        size_t w = stack[--sp];
        on[w] = 0;
        g->scc[w] = id;
        mem[m++] = w;
      } while (mem[m - 1] != v);
      qsort(mem, m, sizeof *mem, cmp_size);
      uint64_t total = 0, ext = 0;
      for (size_t q = 0; q < m; q++) {
        size_t u = mem[q];
        o[u] = g->self[u];
        for (size_t k = g->out0[u]; k < g->out0[u + 1]; k++)
          if (g->scc[g->arc[k].c] != id) o[u] += g->arc[k].cost;
        total += o[u];
        for (size_t k = g->in0[u]; k < g->in0[u + 1]; k++) {
          const BArc *a = &g->arc[g->in[k]];
          if (g->scc[a->p] != id) ext += a->count;
        }
      }
      uint64_t cum = 0, given = 0;
      for (size_t q = 0; q < m; q++) {
        size_t u = mem[q];
        x[u] = 0;
        for (size_t k = g->in0[u]; k < g->in0[u + 1]; k++) {
          BArc *a = &g->arc[g->in[k]];
          if (g->scc[a->p] == id) continue;
          cum += a->count;
          uint64_t upto = share(total, cum, ext);
          a->cost = upto - given;
          x[u] += a->cost;
          given = upto;
        }
      }
      if (m < 2 && (ext || g->in0[v] == g->in0[v + 1])) continue;
      if (!ext) {               /* only itself calls it */
        size_t hub = mem[0];
        uint64_t best = 0;
        for (size_t q = 0; q < m; q++) {
          uint64_t calls = 0;
          for (size_t k = g->in0[mem[q]]; k < g->in0[mem[q] + 1]; k++) calls += g->arc[g->in[k]].count;
          if (calls > best) { best = calls; hub = mem[q]; }
        }
        x[hub] = total;
        g->spont_to = xrealloc(g->spont_to, (g->nspont + 1) * sizeof *g->spont_to);
        g->spont_cost = xrealloc(g->spont_cost, (g->nspont + 1) * sizeof *g->spont_cost);
        g->spont_to[g->nspont] = hub;
        g->spont_cost[g->nspont++] = total;
      }
      if (m > 1) balance_cycle(g, mem, m, id, o, x);
    }
  }
  free(idx); free(low); free(stack); free(call); free(next); free(on); free(o); free(x); free(mem);
}

/* ---- writing ---- */
static void position(Cg *C, vma_t addr, int line)
{
  fprintf(C->f, "0x%llx %d", (unsigned long long)addr, line);
}

static void write_call(Cg *C, const Site *s, uint64_t count, uint64_t cost)
{
  const Sym *c = &C->tab->base[s->c];
  spec_fl(C, "cfi", C->file[s->c]);
  spec_fn(C, "cfn", s->c, C->name[s->c]);
  fprintf(C->f, "calls=%llu ", (unsigned long long)count);
  position(C, c->addr, src_sym_line(C->tab, c));
  putc('\n', C->f);
  position(C, s->addr, s->line);
  fprintf(C->f, " %llu\n", (unsigned long long)cost);
}

void export_callgrind(FILE *f, const ExportInput *in)
{
  const SymTab *tab = in->tab;
  size_t n = tab->len, i, k;
  Cg C;
  memset(&C, 0, sizeof C);
  C.f = f;
  C.tab = tab;
  C.hz = in->hist ? in->hist->hz : 0.0;
  C.file = xmalloc((n + 1) * sizeof *C.file);
  for (i = 0; i < n; i++) {
    const char *p = src_sym_path(tab, &tab->base[i]);
    C.file[i] = p ? p : unknown_file;
  }
  C.name = xmalloc((n + 1) * sizeof *C.name);
  name_functions(&C);
  C.fn_defined = xcalloc(n + 2, 1);

  /* each function with the line symbols (-l) that follow it */
  size_t *owner = xmalloc((n + 1) * sizeof *owner);
  for (i = 0; i < n; i++)
    owner[i] = export_is_line(&tab->base[i]) && i > 0 ? owner[i - 1] : i;

  /* self costs by piece, rounded so that they add up to the rounded total */
  size_t nseg = 0, nsites = 0, npc = 0;
  Seg *seg = make_segs(&C, in, owner, &nseg);
  Piece *pc = make_pieces(in, seg, nseg, hist_top(tab), &npc);
  uint64_t *self = xcalloc(n + 1, sizeof *self), total = 0;
  double cum = 0;
  for (k = 0; k < npc; k++) {
    if (!(pc[k].us > 0)) continue;
    cum += pc[k].us;
    uint64_t upto = (uint64_t)llround(cum);
    pc[k].cost = upto - total;
    self[seg[pc[k].seg].owner] += pc[k].cost;
    total = upto;
  }

  /* the calls, by call site and by pair of functions */
  Site *site = make_sites(&C, in, owner, seg, nseg, &nsites);
  Graph g;
  memset(&g, 0, sizeof g);
  g.n = n;
  g.self = self;
  g.arc = xmalloc((nsites + 1) * sizeof *g.arc);
  for (k = 0; k < nsites; k++) {
    BArc *a = g.narcs ? &g.arc[g.narcs - 1] : NULL;
    if (a && a->p == site[k].p && a->c == site[k].c) {
      a->count += site[k].count;
      a->nsites++;
      continue;
    }
    g.arc[g.narcs++] = (BArc){ site[k].p, site[k].c, site[k].count, 0, k, 1 };
  }
  g.out0 = xcalloc(n + 2, sizeof *g.out0);
  g.in0 = xcalloc(n + 2, sizeof *g.in0);
  g.in = xmalloc((g.narcs + 1) * sizeof *g.in);
  for (k = 0; k < g.narcs; k++) {
    g.out0[g.arc[k].p + 1]++;
    g.in0[g.arc[k].c + 1]++;
  }
  for (i = 0; i < n; i++) { g.out0[i + 1] += g.out0[i]; g.in0[i + 1] += g.in0[i]; }
  {
    size_t *fill = xmalloc((n + 1) * sizeof *fill);
    memcpy(fill, g.in0, (n + 1) * sizeof *fill);
    for (k = 0; k < g.narcs; k++) g.in[fill[g.arc[k].c]++] = k;   /* by caller within */
    free(fill);
  }
  g.scc = xcalloc(n + 1, sizeof *g.scc);
  propagate(&g);
  /* each pair's cost over its call sites, by their counts */
  for (k = 0; k < g.narcs; k++) {
    const BArc *a = &g.arc[k];
    uint64_t calls = 0, given = 0;
    for (size_t s = a->site0; s < a->site0 + a->nsites; s++) {
      calls += site[s].count;
      uint64_t upto = share(a->cost, calls, a->count);
      site[s].cost = upto - given;
      given = upto;
    }
  }

  fputs("# callgrind format\nversion: 1\ncreator: gprof (clean-room reimplementation)\n", f);
  fputs("cmd: ", f);
  put_name(f, in->program);
  fputs("positions: instr line\n", f);
  fputs("event: Time : Time in microseconds: self time sampled by the histogram; "
        "a call's time estimated by gprof from call counts\n", f);
  fputs("events: Time\n", f);
  fprintf(f, "summary: %llu\n\n", (unsigned long long)total);
  fputs("ob=(1) ", f);
  put_name(f, in->program);
  /* file ids: the functions' files first, in table order */
  for (i = 0; i < n; i++) file_id(&C, C.file[i]);
  for (k = 0; k < nseg; k++) file_id(&C, seg[k].file);
  file_id(&C, unknown_file);
  C.fl_seen = xcalloc(C.fl_n + 2, 1);

  size_t s0 = 0, q = 0;         /* the next cost line and call site */
  for (i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && owner[j] == i) j++;
    size_t se = s0, qe = q;
    while (se < npc && seg[pc[se].seg].owner == i) se++;
    while (qe < nsites && site[qe].p == i) qe++;
    int used = in->zeros || self[i] || qe > q || g.in0[i + 1] > g.in0[i];
    if (used) {
      putc('\n', f);
      spec_fl(&C, "fl", C.file[i]);
      spec_fn(&C, "fn", i, C.name[i]);
      const char *cur = C.file[i];
      /* the calls in address order */
      size_t nq = qe - q, *ord = xmalloc((nq + 1) * sizeof *ord);
      for (k = 0; k < nq; k++) ord[k] = q + k;
      for (k = 1; k < nq; k++) {      /* insertion sort: stable, few */
        size_t v = ord[k], t = k;
        while (t > 0 && site[ord[t - 1]].addr > site[v].addr) { ord[t] = ord[t - 1]; t--; }
        ord[t] = v;
      }
      size_t a = s0, b = 0;
      while (a < se || b < nq) {
        int take_seg = b == nq || (a < se && pc[a].addr <= site[ord[b]].addr);
        const Seg *sg = a < se ? &seg[pc[a].seg] : NULL;
        const char *file = take_seg ? sg->file : site[ord[b]].file;
        if (take_seg && !pc[a].cost && a != s0) { a++; continue; }
        if (strcmp(file, cur)) {      /* a line of another file (inlined) */
          cur = file;
          spec_fl(&C, "fi", file);
          if (!take_seg) {            /* callgrind_annotate wants a cost
                                         line in each file it is told of */
            position(&C, site[ord[b]].addr, site[ord[b]].line);
            fputs(" 0\n", f);
          }
        }
        if (take_seg) {
          position(&C, pc[a].addr, sg->line);
          fprintf(f, " %llu\n", (unsigned long long)pc[a].cost);
          a++;
        } else {
          const Site *s = &site[ord[b++]];
          write_call(&C, s, s->count, s->cost);
        }
      }
      free(ord);
    }
    s0 = se;
    q = qe;
    i = j;
  }
  if (g.nspont) {               /* cycles nobody outside calls */
    putc('\n', f);
    spec_fl(&C, "fl", unknown_file);
    spec_fn(&C, "fn", n, "<spontaneous>");
    for (k = 0; k < g.nspont; k++) {
      Site s = { n, g.spont_to[k], 0, 1, g.spont_cost[k], unknown_file, 0 };
      write_call(&C, &s, 1, g.spont_cost[k]);
    }
  }
  fprintf(f, "\ntotals: %llu\n", (unsigned long long)total);

  free(g.arc); free(g.out0); free(g.in0); free(g.in); free(g.scc);
  free(g.spont_to); free(g.spont_cost);
  free(site); free(seg); free(pc); free(owner); free(self);
  free(C.fl_seen); free(C.fl_str); free(C.fl_id); free(C.fn_defined);
  for (i = 0; i < n; i++)
    if (C.name[i] != sym_print_name(tab, &tab->base[i])) free((char *)C.name[i]);
  free(C.name); free(C.file);
}
