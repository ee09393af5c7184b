/* cg_arcs.c -- the arc table: arcs hashed on their ends, and linked into
 * their ends' lists. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "cg_arcs.h"

void cg_init(CallGraph *cg)
{
  memset(cg, 0, sizeof *cg);
}

static size_t hash_pair(const Sym *p, const Sym *c)
{
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(uintptr_t)c + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return (size_t)(h ^ (h >> 31));
}

static void grow(CallGraph *cg)
{
  size_t n = cg->table_size ? cg->table_size * 2 : 2048;
  while (n < 2 * (cg->narcs + 1)) n *= 2;
  if (n > ((size_t)1 << 32)) msg_fatal("too many arcs\n");
  uint32_t *t = memset(xmalloc_huge(n * sizeof *t), 0, n * sizeof *t);
  for (size_t i = 0; i < cg->narcs; i++) {
    Arc *a = cg_arc(cg, i);
    size_t k = hash_pair(a->parent, a->child) & (n - 1);
    while (t[k]) k = (k + 1) & (n - 1);
    t[k] = (uint32_t)(i + 1);
  }
  free(cg->table);
  cg->table = t;
  cg->table_size = n;
}

/* The next arc's storage, in a new chunk when the last is full (big
   chunks go in huge pages: the analysis reads arcs in random order). */
static Arc *new_arc(CallGraph *cg)
{
  size_t i = cg->narcs;
  if ((i & (CG_CHUNK - 1)) == 0) {
    if ((cg->nchunks & (cg->nchunks - 1)) == 0)   /* 0, 1, 2, 4, ...: double */
      cg->chunks = xrealloc(cg->chunks, (cg->nchunks ? 2 * cg->nchunks : 1) * sizeof *cg->chunks);
    /* the first in ordinary pages: most graphs fill a small part of it */
    Arc *c = cg->nchunks ? xmalloc_huge(CG_CHUNK * sizeof *c) : xmalloc(CG_CHUNK * sizeof *c);
    cg->chunks[cg->nchunks++] = c;
  }
  cg->narcs++;
  return cg_arc(cg, i);
}

/* An arc's end as a number: its place in TAB, or past the table for the
   few ends that are not in it (-c's "<indirect child>", one per object),
   found in FOREIGN by a search. */
static size_t end_number(const SymTab *tab, Sym **foreign, size_t nforeign, const Sym *s)
{
  if (s >= tab->base && s < tab->base + tab->len) return (size_t)(s - tab->base);
  size_t i = 0;
  while (i < nforeign && foreign[i] != s) i++;
  return tab->len + i;
}

static void set_runs(Sym *s, Arc **v, size_t m, const size_t *kid, const size_t *par, size_t i)
{
  s->nchildren = (unsigned)(kid[i + 1] - kid[i]);
  s->nparents = (unsigned)(par[i + 1] - par[i]);
  s->children = v + kid[i];
  s->parents = v + m + par[i];
}

void cg_arcs_settle(CallGraph *cg, SymTab *tab)
{
  free(cg->table);
  cg->table = NULL;
  cg->table_size = 0;
  free(cg->lists);
  free(cg->kid_num);
  free(cg->foreign);
  size_t m = cg->narcs, i, nf = 0, capf = 0;
  Sym **foreign = NULL;
  for (i = 0; i < m; i++) {
    Sym *ends[2] = { cg_arc(cg, i)->parent, cg_arc(cg, i)->child };
    for (int e = 0; e < 2; e++)
      if (end_number(tab, foreign, nf, ends[e]) == tab->len + nf) {
        if (nf == capf) foreign = xrealloc(foreign, (capf = capf ? 2 * capf : 4) * sizeof *foreign);
        foreign[nf++] = ends[e];
      }
  }
  size_t n = tab->len + nf;
  /* counted by number, not in the symbols: these passes read the arcs in
     order and touch no symbol */
  size_t *kid = xcalloc(2 * (n + 1), sizeof *kid), *par = kid + n + 1;
  for (i = 0; i < m; i++) {
    const Arc *a = cg_arc(cg, i);
    kid[end_number(tab, foreign, nf, a->parent) + 1]++;
    par[end_number(tab, foreign, nf, a->child) + 1]++;
  }
  for (i = 0; i < n; i++) {
    kid[i + 1] += kid[i];
    par[i + 1] += par[i];
  }
  Arc **v = cg->lists = xmalloc_huge((2 * m + 1) * sizeof *v);
  uint32_t *kn = cg->kid_num = xmalloc_huge((m + 1) * sizeof *kn);
  for (i = 0; i < tab->len; i++) set_runs(&tab->base[i], v, m, kid, par, i);
  for (i = 0; i < nf; i++) set_runs(foreign[i], v, m, kid, par, tab->len + i);
  for (i = m; i-- > 0;) {       /* newest first */
    Arc *a = cg_arc(cg, i);
    size_t c = end_number(tab, foreign, nf, a->child), k = kid[end_number(tab, foreign, nf, a->parent)]++;
    v[k] = a;
    kn[k] = (uint32_t)c;
    v[m + par[c]++] = a;
  }
  free(kid);
  cg->foreign = foreign;
  cg->nforeign = nf;
}

/* The slot holding PARENT -> CHILD, or the free slot where it belongs. */
static size_t slot_of(const CallGraph *cg, const Sym *parent, const Sym *child)
{
  size_t m = cg->table_size - 1, k = hash_pair(parent, child) & m;
  for (; cg->table[k]; k = (k + 1) & m) {
    const Arc *a = cg_arc(cg, cg->table[k] - 1);
    if (a->parent == parent && a->child == child) break;
  }
  return k;
}

void arc_prefetch(const CallGraph *cg, const Sym *parent, const Sym *child)
{
  if (cg->table_size) __builtin_prefetch(&cg->table[hash_pair(parent, child) & (cg->table_size - 1)]);
}

Arc *arc_lookup(const CallGraph *cg, const Sym *parent, const Sym *child)
{
  if (!cg->table_size && cg->narcs) grow((CallGraph *)cg);   /* settled: rebuild */
  if (!cg->table_size) return NULL;
  uint32_t v = cg->table[slot_of(cg, parent, child)];
  return v ? cg_arc(cg, v - 1) : NULL;
}

static void tally(const CallGraph *cg, const Arc *a, uint64_t count);

Arc *arc_add(CallGraph *cg, Sym *parent, Sym *child, uint64_t count)
{
  if (2 * (cg->narcs + 1) > cg->table_size) grow(cg);
  size_t k = slot_of(cg, parent, child);
  Arc *a;
  if (cg->table[k]) {
    a = cg_arc(cg, cg->table[k] - 1);
    a->count += count;
  } else {
    a = new_arc(cg);
    a->parent = parent;
    a->child = child;
    a->count = count;
    a->time = a->child_time = 0;
    a->rank = 2;
    cg->table[k] = (uint32_t)cg->narcs;   /* 1 + its number */
  }
  tally(cg, a, count);
  return a;
}

void arc_add_again(const CallGraph *cg, Arc *a, uint64_t count)
{
  a->count += count;
  tally(cg, a, count);
}

/* The callee's calls, once A (already counted) has COUNT more. */
static void tally(const CallGraph *cg, const Arc *a, uint64_t count)
{
  Sym *parent = a->parent, *child = a->child;
  if (parent == child) child->self_calls += count;
  else child->ncalls += count;
  DBG(cg->debug, DBG_TALLY, "tally: %s -> %s +%llu: arc %llu, %s called %llu (+%llu self)\n",
      parent->name, child->name, (unsigned long long)count, (unsigned long long)a->count,
      child->name, (unsigned long long)child->ncalls, (unsigned long long)child->self_calls);
}

void cg_free(CallGraph *cg)
{
  for (size_t i = 0; i < cg->nchunks; i++) free(cg->chunks[i]);
  free(cg->chunks);
  free(cg->table);
  free(cg->cycles);
  free(cg->members);
  free(cg->member_start);
  free(cg->order);
  free(cg->lists);
  free(cg->kid_num);
  free(cg->foreign);
  cg_init(cg);
}
