/* analysis/fn_costs.c -- the function-level graph with balanced costs
 * and the self costs by line (analysis/fn_costs.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/fn_costs.h"
#include "lines/linesyms.h"
#include "source.h"
#include "sym_ids.h"

/* All calls from one function to another. */
typedef struct {
  size_t p, c;
  uint64_t count, cost;
  size_t site0, nsites;
} BArc;

/* What the passes read. */
typedef struct {
  const SymTab *tab;
  double hz;
  const char **file;            /* per symbol: its file or "???" */
  const HistSet *hist;
  const ArcRecs *arc_recs;
  const CallGraph *cg;
  int sum;
} Fc;

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
static size_t seg_at(const FcSeg *s, size_t n, vma_t addr)
{
  if (!n || addr < s[0].addr) return n;
  size_t lo = 0, hi = n;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (s[mid].addr <= addr) lo = mid; else hi = mid;
  }
  return lo;
}

static double sym_us(const Fc *C, const Sym *s)
{
  if (!sym_id_in_flat(s) || !(s->hist_time > 0) || !(C->hz > 0)) return 0;
  return s->hist_time / C->hz * 1e6;
}

static void push_seg(FcSeg **v, size_t *n, size_t *cap, FcSeg s)
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
typedef void BinFn(void *ctx, FcSeg *s, vma_t at, double mass);

static void bin_walk(const Fc *C, FcSeg *v, size_t ns, vma_t top, BinFn *fn, void *ctx)
{
  for (size_t r = 0; C->hist && r < C->hist->nrecs; r++) {
    const Hist *h = &C->hist->recs[r];
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

static void add_mass(void *ctx, FcSeg *s, vma_t at, double mass)
{
  (void)ctx; (void)at;
  s->mass += mass;
}

/* The pieces of every function, in address order, with their self time
   (unrounded).  OWNER maps a symbol to its function. */
static FcSeg *make_segs(Fc *C, const size_t *owner, size_t *nseg)
{
  const SymTab *tab = C->tab;
  size_t n = tab->len, i, ns = 0, cap = 0;
  FcSeg *v = NULL;
  if (tab->opts.line) {         /* the line symbols are the pieces */
    for (i = 0; i < n; i++) {
      const Sym *s = &tab->base[i];
      push_seg(&v, &ns, &cap, (FcSeg){ s->addr, owner[i], C->file[i], src_sym_line(tab, s), sym_us(C, s), 0, 0 });
    }
    bin_walk(C, v, ns, hist_top(tab), add_mass, NULL);
    *nseg = ns;
    return v;
  }
  LinePoint *pts = NULL;
  size_t np = 0, k = 0;
  if (tab->core && !tab->opts.external && C->hist && C->hz > 0) np = line_points(tab->core, tab, &pts);
  for (i = 0; i < n; i++) {
    const Sym *s = &tab->base[i];
    vma_t end = i + 1 < n ? tab->base[i + 1].addr : (vma_t)-1;
    while (k < np && pts[k].addr < s->addr) k++;
    push_seg(&v, &ns, &cap, (FcSeg){ s->addr, i, C->file[i], src_sym_line(tab, s), 0, 0, 0 });
    if (k < np && pts[k].addr == s->addr) k++;
    for (; k < np && pts[k].addr < end; k++) {
      const LinePoint *p = &pts[k];
      FcSeg *last = &v[ns - 1];
      if (p->line == last->line && !strcmp(p->file, last->file)) continue;
      push_seg(&v, &ns, &cap, (FcSeg){ p->addr, i, p->file, p->line, 0, 0, 0 });
    }
  }
  free(pts);
  bin_walk(C, v, ns, hist_top(tab), add_mass, NULL);
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


typedef struct { FcPiece *v; size_t n, cap; const FcSeg *base; } PieceVec;

static void push_piece(PieceVec *p, vma_t addr, size_t seg, double mass)
{
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 256;
    p->v = xrealloc(p->v, p->cap * sizeof *p->v);
  }
  p->v[p->n++] = (FcPiece){ addr, seg, mass, 0, 0 };
}

static void add_piece(void *ctx, FcSeg *s, vma_t at, double mass)
{
  PieceVec *p = ctx;
  push_piece(p, at, (size_t)(s - p->base), mass);
}

static int cmp_piece(const void *a, const void *b)
{
  const FcPiece *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  return (x->seg > y->seg) - (x->seg < y->seg);
}

/* The cost lines: each piece's self time over the bins in it, at the
   first address of each (and each function's entry, with or without). */
static FcPiece *make_pieces(const Fc *C, FcSeg *seg, size_t nseg, vma_t top, size_t *npieces)
{
  PieceVec p = { NULL, 0, 0, seg };
  size_t j, k, out = 0;
  for (j = 0; j < nseg; j++)
    if (j == 0 || seg[j].owner != seg[j - 1].owner || (seg[j].us > 0 && !(seg[j].mass > 0)))
      push_piece(&p, seg[j].addr, j, 0);
  if (C->hist && C->hist->nrecs) bin_walk(C, seg, nseg, top, add_piece, &p);
  if (p.n > 1) qsort(p.v, p.n, sizeof *p.v, cmp_piece);
  for (k = 0; k < p.n; k++) {
    if (out && p.v[out - 1].addr == p.v[k].addr && p.v[out - 1].seg == p.v[k].seg) {
      p.v[out - 1].mass += p.v[k].mass;
      continue;
    }
    p.v[out++] = p.v[k];
  }
  for (k = 0; k < out; k++) {
    FcPiece *q = &p.v[k];
    const FcSeg *s = &seg[q->seg];
    q->us = s->mass > 0 ? s->us * (q->mass / s->mass) : q->addr == s->addr ? s->us : 0;
  }
  *npieces = out;
  return p.v;
}

/* ---- calls ---- */
static int cmp_site(const void *a, const void *b)
{
  const FcSite *x = a, *y = b;
  if (x->p != y->p) return x->p < y->p ? -1 : 1;
  if (x->c != y->c) return x->c < y->c ? -1 : 1;
  return (x->addr > y->addr) - (x->addr < y->addr);
}

static FcSite *make_sites(Fc *C, const size_t *owner, const FcSeg *seg, size_t nseg,
                        size_t *nsites)
{
  const SymTab *tab = C->tab;
  size_t n = tab->len, m = 0, cap = 0;
  FcSite *v = NULL;
  const Sym *lo = tab->base, *hi = tab->base + n;
#define ADD_SITE(P, CH, ADDR, COUNT)                                                      \
  do {                                                                                    \
    if (m == cap) { cap = cap ? 2 * cap : 256; v = xrealloc(v, cap * sizeof *v); }        \
    v[m++] = (FcSite){ owner[(P) - lo], owner[(CH) - lo], (ADDR), (COUNT), 0, NULL, 0 };    \
  } while (0)
  if (C->arc_recs) {
    size_t nr = cg_kept_count(C->arc_recs);
    for (size_t k = 0; k < nr; k++) {
      vma_t from;
      uint64_t count;
      const Sym *p, *c;
      cg_kept_get(C->arc_recs, k, &from, &count, &p, &c);
      if (!count || p < lo || p >= hi || c < lo || c >= hi) continue;
      ADD_SITE(p, c, from, count);
    }
  } else if (C->cg) {          /* no records: each arc from its caller's start */
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
    FcSite *s = &v[k];
    size_t j = nseg;
    if (s->addr % 16 && !C->sum) j = seg_at(seg, nseg, s->addr - 1);
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

void fn_costs_compute(FnCosts *fc, const SymTab *tab, const HistSet *hist, const ArcRecs *arc_recs,
                      const CallGraph *cg, int sum)
{
  size_t n = tab->len, i, k;
  Fc ctx = { tab, hist ? hist->hz : 0.0, NULL, hist, arc_recs, cg, sum }, *C = &ctx;
  memset(fc, 0, sizeof *fc);
  fc->n = n;
  fc->file = xmalloc((n + 1) * sizeof *fc->file);
  for (i = 0; i < n; i++) {
    const char *p = src_sym_path(tab, &tab->base[i]);
    fc->file[i] = p ? p : FN_COSTS_UNKNOWN_FILE;
  }
  C->file = fc->file;

  /* each function with the line symbols (-l) that follow it */
  size_t *owner = xmalloc((n + 1) * sizeof *owner);
  for (i = 0; i < n; i++)
    owner[i] = tab->base[i].is_line && i > 0 ? owner[i - 1] : i;

  /* self costs by piece, rounded so that they add up to the rounded total */
  size_t nseg = 0, nsites = 0, npc = 0;
  FcSeg *seg = make_segs(C, owner, &nseg);
  FcPiece *pc = make_pieces(C, seg, nseg, hist_top(tab), &npc);
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
  FcSite *site = make_sites(C, owner, seg, nseg, &nsites);
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

  fc->owner = owner;
  fc->seg = seg; fc->nseg = nseg;
  fc->pc = pc; fc->npc = npc;
  fc->self = self; fc->total = total;
  fc->site = site; fc->nsites = nsites;
  fc->in0 = g.in0;
  fc->spont_to = g.spont_to; fc->spont_cost = g.spont_cost; fc->nspont = g.nspont;
  free(g.arc); free(g.out0); free(g.in); free(g.scc);
}

void fn_costs_free(FnCosts *fc)
{
  free(fc->file); free(fc->owner); free(fc->seg); free(fc->pc); free(fc->self); free(fc->site);
  free(fc->in0); free(fc->spont_to); free(fc->spont_cost);
  memset(fc, 0, sizeof *fc);
}
