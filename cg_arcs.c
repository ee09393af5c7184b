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
  size_t n = cg->table_size ? cg->table_size * 2 : 1024;
  Arc **t = xcalloc(n, sizeof *t);
  for (size_t i = 0; i < cg->narcs; i++) {
    Arc *a = cg->in_order[i];
    size_t k = hash_pair(a->parent, a->child) & (n - 1);
    a->hash_next = t[k];
    t[k] = a;
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
    cg->chunk = xcalloc(cg->chunk_left, sizeof *cg->chunk);
  }
  cg->chunk_left--;
  return cg->chunk++;
}

Arc *arc_lookup(const CallGraph *cg, const Sym *parent, const Sym *child)
{
  if (!cg->table_size) return NULL;
  for (Arc *a = cg->table[hash_pair(parent, child) & (cg->table_size - 1)]; a; a = a->hash_next)
    if (a->parent == parent && a->child == child) return a;
  return NULL;
}

void arc_add(CallGraph *cg, Sym *parent, Sym *child, uint64_t count)
{
  Arc *a = arc_lookup(cg, parent, child);
  if (a) {
    a->count += count;
  } else {
    if (cg->narcs + 1 > cg->table_size / 2) grow(cg);
    a = new_arc(cg);
    a->parent = parent;
    a->child = child;
    a->count = count;
    size_t k = hash_pair(parent, child) & (cg->table_size - 1);
    a->hash_next = cg->table[k];
    cg->table[k] = a;
    a->next_child = parent->children;
    parent->children = a;
    a->next_parent = child->parents;
    child->parents = a;
    if (cg->narcs == cg->cap) {
      cg->cap = cg->cap ? cg->cap * 2 : 1024;
      cg->in_order = xrealloc(cg->in_order, cg->cap * sizeof *cg->in_order);
    }
    cg->in_order[cg->narcs++] = a;
  }
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
