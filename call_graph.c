/* call_graph.c -- turning call-graph records into arcs, and writing them. */
#include <stdlib.h>
#include <string.h>
#include "call_graph.h"
#include "core.h"
#include "lines/linesyms.h"
#include "util/options.h"
#include "gmon_out.h"

/* Arcs as read, kept for gmon.sum: GNU writes them per source line. */
struct ArcRec {
  vma_t from, self;
  uint64_t count;
  size_t seq;
  Sym *parent, *child;
  Arc *arc;                     /* the call-graph arc it was added to */
};
typedef ArcRec RawArc;

/* A slot of the read-time hash: the pair itself, so that a pair seen
   before costs one cache line (two slots to a line), and the calls it
   brought since cg_kept_settle. */
struct ArcSlot {
  vma_t from, self;
  uint64_t pending;
  size_t rec;                   /* 1 + index in ArcRecs.v; 0 = free */
};

static void keep_rec(ArcRecs *keep, vma_t from_pc, vma_t self_pc, uint64_t count, Arc *a);
static ArcSlot *keep_find(ArcRecs *keep, size_t hash, vma_t from_pc, vma_t self_pc);
static size_t pair_hash(vma_t from, vma_t self);

static void read_new_arc(CallGraph *cg, ArcRecs *keep, const SymTab *tab,
                         const SymSpecs *specs, vma_t from_pc, vma_t self_pc,
                         uint64_t count) __attribute__((noinline));

/* How far ahead cg_read_arcs fetches, in records: the index entries of
   both symbols' look-ups, the addresses they search, then the symbols
   and the arc slot (each stage's data is read by the next). */
enum { AHEAD_INDEX = 23, AHEAD_ADDRS = 15, AHEAD_ARC = 7, AHEAD_SLOT = 8 };

static void prefetch_arc(const CallGraph *cg, const SymTab *tab, vma_t from_pc, vma_t self_pc)
{
  Sym *parent = sym_lookup_quiet(tab, from_pc), *child = sym_lookup_quiet(tab, self_pc);
  if (!parent || !child) return;
  __builtin_prefetch(parent);   /* sym_id_arc_ok reads it */
  __builtin_prefetch(child, 1);
  arc_prefetch(cg, parent, child);
}

size_t cg_read_arcs(CallGraph *cg, ArcRecs *keep, const SymTab *tab, const SymSpecs *specs,
                    const vma_t *from, const vma_t *self, const uint64_t *count, size_t n,
                    int all)
{
  size_t i, m;
  if (keep) {
    m = all ? n : n > AHEAD_SLOT ? n - AHEAD_SLOT : 0;
    /* each record's hash computed once, when its slot is fetched
       AHEAD_SLOT records ahead, and kept in a ring till it is read (the
       first ones' slots were fetched by the previous batch already:
       fetched again, they cost nothing) */
    size_t h[AHEAD_SLOT];
    for (i = 0; i < AHEAD_SLOT && i < n; i++) {
      h[i] = pair_hash(from[i], self[i]);
      if (keep->nslots) __builtin_prefetch(&keep->slot[h[i] & (keep->nslots - 1)], 1);
    }
    for (i = 0; i < m; i++) {
      /* a pair seen before needs no symbol look-ups (a merge of many
         files of one program sees the same pairs over and over); its
         record and arc get the calls later, all at once
         (cg_kept_settle).  The rest is out of line, so this path saves
         no registers. */
      ArcSlot *seen = keep_find(keep, h[i % AHEAD_SLOT], from[i], self[i]);
      if (seen) seen->pending += count[i];
      else read_new_arc(cg, keep, tab, specs, from[i], self[i], count[i]);
      size_t j = i + AHEAD_SLOT;  /* enters the ring as record i leaves it */
      if (j < n) {
        h[j % AHEAD_SLOT] = pair_hash(from[j], self[j]);
        if (keep->nslots) __builtin_prefetch(&keep->slot[h[j % AHEAD_SLOT] & (keep->nslots - 1)], 1);
      }
    }
    return m;
  }
  m = all ? n : n > AHEAD_INDEX ? n - AHEAD_INDEX : 0;
  for (i = 0; i < m; i++) {
    if (i + AHEAD_INDEX < n) {
      sym_lookup_prefetch(tab, from[i + AHEAD_INDEX], 0);
      sym_lookup_prefetch(tab, self[i + AHEAD_INDEX], 0);
    }
    if (i + AHEAD_ADDRS < n) {
      sym_lookup_prefetch(tab, from[i + AHEAD_ADDRS], 1);
      sym_lookup_prefetch(tab, self[i + AHEAD_ADDRS], 1);
    }
    if (i + AHEAD_ARC < n) prefetch_arc(cg, tab, from[i + AHEAD_ARC], self[i + AHEAD_ARC]);
    read_new_arc(cg, NULL, tab, specs, from[i], self[i], count[i]);
  }
  return m;
}

/* A pair not kept (or no -s): looked up and added. */
static void read_new_arc(CallGraph *cg, ArcRecs *keep, const SymTab *tab,
                         const SymSpecs *specs, vma_t from_pc, vma_t self_pc,
                         uint64_t count)
{
  Sym *parent = sym_lookup(tab, from_pc);
  Sym *child = sym_lookup(tab, self_pc);
  /* Measured on GNU 2.40 with arcs aimed past the functions (damaged
     files, hand-made objects): the object's last symbol, when it lies at
     or past the end of .text, is never an arc's end; a callee inside a
     symbol not marked as a function (etext) that follows a function
     (_fini) is taken for that function.  Callers are looked up plainly. */
  const Sym *last = tab->last_no_arcs ? &tab->base[symtab_own_len(tab) - 1] : NULL;
  if (parent && parent == last) parent = NULL;
  if (child && child == last) child = NULL;
  if (child && !child->is_func && child > tab->base && child[-1].is_func) child--;
  if (!parent || !child) return;
  /* the callee is a function: GNU takes the nearest symbol at or below
     self_pc marked as one (BSF_FUNCTION), passing line symbols (-l) and
     untyped ones (an assembly label after a function); with none the arc
     is dropped (MIPS's untyped _ftext naming the first, local, function:
     case nostdlib_mips) */
  Sym *fn = NULL;
  for (size_t i = (size_t)(child - tab->base) + 1; i-- > 0;)
    if (tab->base[i].is_func && !tab->base[i].is_line) { fn = &tab->base[i]; break; }
  if (!fn) return;
  child = fn;
  if (!sym_id_arc_ok(specs, tab, parent, child)) return;
  Arc *a = arc_add(cg, parent, child, count);
  if (keep) keep_rec(keep, from_pc, self_pc, count, a);
}

void cg_kept_settle(ArcRecs *keep, const CallGraph *cg)
{
  for (size_t i = 0; i < keep->nslots; i++) {
    ArcSlot *t = &keep->slot[i];
    if (t->rec && t->pending) {
      RawArc *r = &keep->v[t->rec - 1];
      r->count += t->pending;
      arc_add_again(cg, r->arc, t->pending);
      t->pending = 0;
    }
  }
}

void cg_kept_add(ArcRecs *keep, vma_t from_pc, vma_t self_pc, uint64_t count, Arc *a)
{
  ArcSlot *t = keep_find(keep, pair_hash(from_pc, self_pc), from_pc, self_pc);
  if (t) keep->v[t->rec - 1].count += count;
  else keep_rec(keep, from_pc, self_pc, count, a);
}

static size_t pair_hash(vma_t from, vma_t self)
{
  uint64_t h = (from * 0x9E3779B97F4A7C15ull) ^ (self + 0x632BE59BD9B4E019ull);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return (size_t)(h ^ (h >> 32));
}

/* Doubles the table, slots moved with their pending calls. */
static void rehash(ArcRecs *k)
{
  size_t n = k->nslots ? k->nslots * 2 : 1024;
  ArcSlot *old = k->slot, *t = xmalloc_aligned(64, n * sizeof *t);
  memset(t, 0, n * sizeof *t);
  for (size_t i = 0; i < k->nslots; i++) {
    if (!old[i].rec) continue;
    size_t j = pair_hash(old[i].from, old[i].self) & (n - 1);
    while (t[j].rec) j = (j + 1) & (n - 1);
    t[j] = old[i];
  }
  free(old);
  k->slot = t;
  k->nslots = n;
}

/* The slot of this pair (HASH its pair_hash), or NULL. */
static ArcSlot *keep_find(ArcRecs *keep, size_t hash, vma_t from_pc, vma_t self_pc)
{
  if (!keep->nslots) return NULL;
  size_t mask = keep->nslots - 1;
  for (size_t j = hash & mask; keep->slot[j].rec; j = (j + 1) & mask) {
    ArcSlot *t = &keep->slot[j];
    if (t->from == from_pc && t->self == self_pc) return t;
  }
  return NULL;
}

/* -s: a pair not kept yet (keep_find found none): a record, whose
   position decides the order in gmon.sum, and a slot. */
static void keep_rec(ArcRecs *keep, vma_t from_pc, vma_t self_pc, uint64_t count, Arc *a)
{
  if (2 * (keep->n + 1) > keep->nslots) rehash(keep);
  size_t mask = keep->nslots - 1, j = pair_hash(from_pc, self_pc) & mask;
  while (keep->slot[j].rec) j = (j + 1) & mask;
  if (keep->n == keep->cap) {
    keep->cap = keep->cap ? keep->cap * 2 : 1024;
    keep->v = xrealloc(keep->v, keep->cap * sizeof *keep->v);
  }
  RawArc *r = &keep->v[keep->n];
  r->from = from_pc;
  r->self = self_pc;
  r->count = count;
  r->seq = keep->n;
  r->parent = a->parent;
  r->child = a->child;
  r->arc = a;
  keep->slot[j] = (ArcSlot){ from_pc, self_pc, 0, ++keep->n };
}

/* Start of the source line holding ADDR within symbol S: GNU's gmon.sum
   names each caller by the line symbol it falls in when the object has
   line information (a run of addresses with one file, line and function
   as BFD names them -- the function changes inside a line where inlined
   code starts or ends), by the function otherwise. */
static int same_name(const char *a, const char *b)
{
  return a == b || (a && b && !strcmp(a, b));
}

static vma_t line_start(Core *core, Sym *s, vma_t addr)
{
  const char *f0, *f, *fn0, *fn;
  int l0, l;
  if (!core || !core_has_line_info(core) || !core_src_func_info(core, addr, &f0, &l0, &fn0))
    return s->addr;
  vma_t a = addr;
  while (a > s->addr) {
    if (!core_src_func_info(core, a - 1, &f, &l, &fn) || l != l0 || strcmp(f, f0)
        || !same_name(fn, fn0))
      break;
    a--;
  }
  return a;
}

/* The index of the last of N sorted addresses at or below A; N if none. */
static size_t start_index(const vma_t *v, size_t n, vma_t a)
{
  if (!n || a < v[0]) return n;
  size_t lo = 0, hi = n;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] <= a) lo = mid; else hi = mid;
  }
  return lo;
}

static int cmp_raw(const void *a, const void *b)
{
  const RawArc *x = a, *y = b;
  if (x->from != y->from) return x->from < y->from ? -1 : 1;
  return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/* gmon.sum holds one record per (caller line, callee line), in address
   order of the caller line and, within it, newest first. */
void cg_write_arcs(ArcRecs *recs, const SymTab *tab, GmonOut *out)
{
  RawArc *raw = recs->v;
  size_t nraw = recs->n;
  size_t i, k, n = 0;
  /* the read-time hash no longer applies: given back before the merge's
     own hash is made (-s's peak memory is at the end of reading or here) */
  free(recs->slot);
  recs->slot = NULL;
  recs->nslots = 0;
  /* GNU names callers by the symbols of its -l table even without -l:
     only where they start is needed (line_starts) */
  vma_t *starts = NULL, last_end = 0;
  size_t nstarts = 0;
  int by_line = 0;
  if (tab->opts.line) {
    by_line = 1;
    nstarts = tab->len;
    starts = tab->addrs;
    last_end = tab->len ? tab->base[tab->len - 1].end_addr : 0;
  } else if (tab->core && !tab->opts.external && core_has_line_info(tab->core)) {
    by_line = 1;
    nstarts = line_starts(tab->core, tab, &starts, &last_end);
  }
  if (!by_line && tab->core) core_prime_src_info(tab->core, tab);
  for (i = 0; i < nraw; i++) {
    if (by_line) {
      vma_t a = raw[i].from;
      size_t j = start_index(starts, nstarts, a);
      raw[i].from = j < nstarts && (j + 1 < nstarts || a <= last_end) ? starts[j] : raw[i].parent->addr;
    } else {
      raw[i].from = line_start(tab->core, raw[i].parent, raw[i].from);
    }
    raw[i].self = raw[i].child->addr;
  }
  if (starts != tab->addrs) free(starts);
  /* merge equal pairs into the first occurrence (hash on the pair) */
  size_t cap = 16;
  while (cap < 2 * nraw + 2) cap *= 2;
  long *slot = xmalloc(cap * sizeof *slot);
  for (i = 0; i < cap; i++) slot[i] = -1;
  for (i = 0; i < nraw; i++) {
    uint64_t h = (raw[i].from * 0x9E3779B97F4A7C15ull) ^ (raw[i].self + 0x632BE59BD9B4E019ull);
    h ^= h >> 29;
    for (k = (size_t)h & (cap - 1);; k = (k + 1) & (cap - 1)) {
      if (slot[k] < 0) { raw[n] = raw[i]; slot[k] = (long)n++; break; }
      RawArc *r = &raw[slot[k]];
      if (r->from == raw[i].from && r->self == raw[i].self) { r->count += raw[i].count; break; }
    }
  }
  free(slot);
  recs->n = n;
  for (i = 0; i < n; i++) raw[i].seq = i;
  if (n > 1) qsort(raw, n, sizeof *raw, cmp_raw);
  for (i = 0; i < n; i++) {
    genc_put_u8(out, GMON_TAG_CG_ARC);
    genc_put_addr(out, raw[i].from);
    genc_put_addr(out, raw[i].self);
    genc_put_u32(out, (uint32_t)raw[i].count);
  }
}

size_t cg_kept_count(const ArcRecs *keep)
{
  return keep->n;
}

void cg_kept_get(const ArcRecs *keep, size_t i, vma_t *from, uint64_t *count, const Sym **parent,
                 const Sym **child)
{
  const RawArc *r = &keep->v[i];
  *from = r->from;
  *count = r->count;
  *parent = r->parent;
  *child = r->child;
}

/* Merges the records of P that repeat a pair into its first, in place,
   the order of first reading kept. */
static void pairs_compact(ArcPairs *p)
{
  size_t cap = 1024;
  while (cap < 2 * p->n + 2) cap *= 2;
  size_t *slot = xcalloc(cap, sizeof *slot), n = 0;
  for (size_t i = 0; i < p->n; i++) {
    size_t j = pair_hash(p->from[i], p->self[i]) & (cap - 1);
    for (; slot[j]; j = (j + 1) & (cap - 1)) {
      size_t k = slot[j] - 1;
      if (p->from[k] == p->from[i] && p->self[k] == p->self[i]) break;
    }
    if (slot[j]) {
      p->count[slot[j] - 1] += p->count[i];
      continue;
    }
    p->from[n] = p->from[i];
    p->self[n] = p->self[i];
    p->count[n] = p->count[i];
    slot[j] = ++n;
  }
  free(slot);
  p->n = n;
}

/* Records are appended as read (a hash per record cost more than the
   files' second reading it replaces); repeated pairs are merged when
   they grow past twice the distinct ones, at least 2^21 records (48
   MiB): memory follows the distinct pairs, as the call graph's does. */
#define PAIRS_COMPACT_MIN ((size_t)1 << 21)
void cg_pairs_add(ArcPairs *p, vma_t from, vma_t self, uint64_t count)
{
  if (p->n == p->cap) {
    if (p->n >= p->compact_at) {
      pairs_compact(p);
      p->compact_at = 2 * p->n > PAIRS_COMPACT_MIN ? 2 * p->n : PAIRS_COMPACT_MIN;
    }
    if (p->n == p->cap) {
      p->cap = p->cap ? 2 * p->cap : 1024;
      p->from = xrealloc(p->from, p->cap * sizeof *p->from);
      p->self = xrealloc(p->self, p->cap * sizeof *p->self);
      p->count = xrealloc(p->count, p->cap * sizeof *p->count);
    }
  }
  p->from[p->n] = from;
  p->self[p->n] = self;
  p->count[p->n++] = count;
}

void cg_pairs_replay(const ArcPairs *p, CallGraph *cg, ArcRecs *keep, const SymTab *tab,
                     const SymSpecs *specs)
{
  if (p->n) cg_read_arcs(cg, keep, tab, specs, p->from, p->self, p->count, p->n, 1);
  if (keep) cg_kept_settle(keep, cg);
}

void cg_pairs_free(ArcPairs *p)
{
  free(p->from);
  free(p->self);
  free(p->count);
  memset(p, 0, sizeof *p);
}
