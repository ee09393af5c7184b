/* symtab.c -- sorting, de-duplication and binary-search lookup of symbols. */
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "symtab.h"

void sym_init(Sym *s)
{
  memset(s, 0, sizeof *s);
  s->cyc_head = s;
}

/* Stable order by address: the table is built in BFD order and GNU keeps
   the first of equally good candidates, so ties must not be reordered. */
typedef struct { Sym s; size_t seq; } Keyed;

static int cmp_addr(const void *a, const void *b)
{
  const Keyed *x = a, *y = b;
  if (x->s.addr != y->s.addr) return x->s.addr < y->s.addr ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Leading underscores, counted up to two ("___x" ties with "__x"). */
static int leading_underscores(const char *n)
{
  return n[0] == '_' ? 1 + (n[1] == '_') : 0;
}

/* Which of two symbols at one address GNU keeps: a global over a static,
   then a function over a non-function, then fewer leading underscores
   (counting two at most), else the earlier one. */
int sym_prefer(const Sym *cand, const Sym *kept)
{
  if (cand->is_static != kept->is_static) return kept->is_static;
  if (cand->is_func != kept->is_func) return cand->is_func;
  return leading_underscores(cand->name) < leading_underscores(kept->name);
}

void symtab_finalize(SymTab *tab)
{
  size_t n = tab->len, i, out = 0;
  if (n == 0) return;
  Keyed *k = xmalloc_huge(n * sizeof *k);
  for (i = 0; i < n; i++) { k[i].s = tab->base[i]; k[i].seq = i; }
  qsort(k, n, sizeof *k, cmp_addr);
  /* the table moves to a block aligned to the cache line, so each symbol
     starts a line (symtab.h: Sym's layout) */
  free(tab->base);
  tab->base = xmalloc_huge((n + 1) * sizeof *tab->base);
  for (i = 0; i < n; i++) {
    if (out > 0 && tab->base[out - 1].addr == k[i].s.addr) {
      int take = sym_prefer(&k[i].s, &tab->base[out - 1]);
      DBG(DBG_SYMTAB, "symtab: 0x%llx: %s and %s share it, keeping %s\n",
          (unsigned long long)k[i].s.addr, tab->base[out - 1].name, k[i].s.name,
          take ? k[i].s.name : tab->base[out - 1].name);
      if (take) {
        if (tab->owns_names) free((void *)tab->base[out - 1].name);
        tab->base[out - 1] = k[i].s;
      } else if (tab->owns_names) {
        free((void *)k[i].s.name);
      }
      continue;
    }
    tab->base[out++] = k[i].s;
  }
  free(k);
  tab->len = out;
  free(tab->addrs);
  tab->addrs = xmalloc((out + 1) * sizeof *tab->addrs);
  free(tab->bucket);
  tab->bucket = NULL;
  for (i = 0; i < out; i++) {
    Sym *s = &tab->base[i];
    tab->addrs[i] = s->addr;
    s->cyc_head = s;
    s->end_addr = i + 1 < out ? tab->base[i + 1].addr - 1 : s->addr;
  }
}

/* A bucket index over the address range: bucket b holds the index of
   the last symbol starting at or below the bucket's first address, so a
   lookup searches only the few symbols of one bucket. */
static void build_buckets(SymTab *tab)
{
  vma_t lo = tab->addrs[0], span = tab->addrs[tab->len - 1] - lo + 1;
  unsigned shift = 0;
  while ((span >> shift) > 2 * tab->len + 1) shift++;
  size_t nb = (size_t)(span >> shift) + 2;
  tab->bucket = xmalloc(nb * sizeof *tab->bucket);
  tab->nbuckets = nb;
  tab->shift = shift;
  size_t j = 0;
  for (size_t b = 0; b < nb; b++) {
    vma_t start = lo + ((vma_t)b << shift);
    while (j + 1 < tab->len && tab->addrs[j + 1] <= start) j++;
    tab->bucket[b] = j;
  }
}

/* The symbol whose range [addr, end_addr] holds ADDR, or NULL. */
Sym *sym_lookup_quiet(const SymTab *tab, vma_t addr)
{
  size_t lo = 0, hi = tab->len;
  if (!hi || addr < tab->addrs[0]) return NULL;
  if (!tab->bucket) build_buckets((SymTab *)tab);
  vma_t off = (addr - tab->addrs[0]) >> tab->shift;
  /* (not off + 1 < nbuckets: an address near 2^64 above the first
     symbol wraps it; found by fuzz_map) */
  if (tab->nbuckets > 1 && off < tab->nbuckets - 1) {
    lo = tab->bucket[off];
    hi = tab->bucket[off + 1] + 1;
    if (hi > tab->len) hi = tab->len;
  }
  while (hi - lo > 1) {         /* on the packed addresses: cache-friendly */
    size_t mid = lo + (hi - lo) / 2;
    if (tab->addrs[mid] <= addr) lo = mid; else hi = mid;
  }
  /* lo is the last symbol starting at or below ADDR, so only the table's
     last symbol can end below it (its end is set apart); the others are
     not read here: at 100,000s of symbols each read is a cache miss */
  Sym *s = &tab->base[lo];
  return lo + 1 == tab->len && addr > s->end_addr ? NULL : s;
}

Sym *sym_lookup(const SymTab *tab, vma_t addr)
{
  Sym *s = sym_lookup_quiet(tab, addr);
  DBG(DBG_LOOKUP, "lookup: 0x%llx -> %s\n", (unsigned long long)addr, s ? s->name : "(none)");
  return s;
}
