/* cg_arcs.c -- the arc table: arcs hashed on their ends, and linked into
 * their ends' lists. */
#include <stdlib.h>
#include <string.h>
#include "options.h"
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
  if (n > ((size_t)1 << 32)) fatal("%s: too many arcs\n", opt.whoami);
  uint32_t *t = xcalloc(n, sizeof *t);
  for (size_t i = 0; i < cg->narcs; i++) {
    Arc *a = cg->in_order[i];
    size_t k = hash_pair(a->parent, a->child) & (n - 1);
    while (t[k]) k = (k + 1) & (n - 1);
    t[k] = (uint32_t)(i + 1);
  }
  free(cg->table);
  cg->table = t;
  cg->table_size = n;
}

/* Arcs come from chunks: fewer allocations, and neighbours in memory. */
static Arc *new_arc(CallGraph *cg)
{
  if (!cg->chunk_left) {
    cg->chunk_left = 4096;
    cg->chunk = xmalloc(cg->chunk_left * sizeof *cg->chunk);   /* arc_add sets every field */
  }
  cg->chunk_left--;
  return cg->chunk++;
}

void cg_arcs_settle(CallGraph *cg)
{
  free(cg->table);
  cg->table = NULL;
  cg->table_size = 0;
}

/* The slot holding PARENT -> CHILD, or the free slot where it belongs. */
static size_t slot_of(const CallGraph *cg, const Sym *parent, const Sym *child)
{
  size_t m = cg->table_size - 1, k = hash_pair(parent, child) & m;
  for (; cg->table[k]; k = (k + 1) & m) {
    const Arc *a = cg->in_order[cg->table[k] - 1];
    if (a->parent == parent && a->child == child) break;
  }
  return k;
}

Arc *arc_lookup(const CallGraph *cg, const Sym *parent, const Sym *child)
{
  if (!cg->table_size && cg->narcs) grow((CallGraph *)cg);   /* settled: rebuild */
  if (!cg->table_size) return NULL;
  uint32_t v = cg->table[slot_of(cg, parent, child)];
  return v ? cg->in_order[v - 1] : NULL;
}

static void tally(const Arc *a, uint64_t count);

Arc *arc_add(CallGraph *cg, Sym *parent, Sym *child, uint64_t count)
{
  if (2 * (cg->narcs + 1) > cg->table_size) grow(cg);
  size_t k = slot_of(cg, parent, child);
  Arc *a;
  if (cg->table[k]) {
    a = cg->in_order[cg->table[k] - 1];
    a->count += count;
  } else {
    a = new_arc(cg);
    a->parent = parent;
    a->child = child;
    a->count = count;
    a->time = a->child_time = 0;
    a->next_child = parent->children;
    parent->children = a;
    a->next_parent = child->parents;
    child->parents = a;
    if (cg->narcs == cg->cap) {
      cg->cap = cg->cap ? cg->cap * 2 : 1024;
      cg->in_order = xrealloc(cg->in_order, cg->cap * sizeof *cg->in_order);
    }
    cg->in_order[cg->narcs++] = a;
    cg->table[k] = (uint32_t)cg->narcs;
  }
  tally(a, count);
  return a;
}

void arc_add_again(Arc *a, uint64_t count)
{
  a->count += count;
  tally(a, count);
}

/* The callee's calls, once A (already counted) has COUNT more. */
static void tally(const Arc *a, uint64_t count)
{
  Sym *parent = a->parent, *child = a->child;
  if (parent == child) child->self_calls += count;
  else child->ncalls += count;
  DBG(DBG_TALLY, "tally: %s -> %s +%llu: arc %llu, %s called %llu (+%llu self)\n",
      parent->name, child->name, (unsigned long long)count, (unsigned long long)a->count,
      child->name, (unsigned long long)child->ncalls, (unsigned long long)child->self_calls);
}

void cg_free(CallGraph *cg)
{
  /* arcs are carved from chunks of 4096 in the order they are added, so
     every 4096th arc of in_order starts a chunk */
  for (size_t i = 0; i < cg->narcs; i += 4096) free(cg->in_order[i]);
  free(cg->in_order);
  free(cg->table);
  free(cg->cycles);
  free(cg->order);
  cg_init(cg);
}
