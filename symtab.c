/* symtab.c -- sorting, de-duplication and binary-search lookup of symbols. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "symtab.h"

void sym_init(Sym *s)
{
  memset(s, 0, sizeof *s);
  s->cyc_head = s;
}

/* symtab_finalize sorts stably by address: the table is built in BFD
   order and GNU keeps the first of equally good candidates, so ties must
   not be reordered. */

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
  /* sorted by address, ties in table order, on 16-byte keys (the
     symbols are 256 bytes each) */
  KeyVal *k = xmalloc((n + 1) * sizeof *k);
  for (i = 0; i < n; i++) { k[i].key = tab->base[i].addr; k[i].val = i; }
  sort_keyval(k, n);
  /* the table moves to a block aligned to the cache line, so each symbol
     starts a line (symtab.h: Sym's layout) -- or, already in order in
     such a block (a table finalized before, or made in order), is only
     compacted where symbols share an address */
  Sym *old = tab->base;
  for (i = 0; i < n && k[i].val == i; i++) {}
  if (i < n || ((uintptr_t)old & 63) != 0)
    tab->base = xmalloc_huge((n + 1) * sizeof *tab->base);
  for (i = 0; i < n; i++) {
    const Sym *c = &old[k[i].val];
    if (out > 0 && tab->base[out - 1].addr == c->addr) {
      int take = sym_prefer(c, &tab->base[out - 1]);
      DBG(tab->opts.debug, DBG_SYMTAB, "symtab: 0x%llx: %s and %s share it, keeping %s\n",
          (unsigned long long)c->addr, tab->base[out - 1].name, c->name,
          take ? c->name : tab->base[out - 1].name);
      if (take) {
        if (tab->owns_names) free((void *)tab->base[out - 1].name);
        tab->base[out - 1] = *c;
      } else if (tab->owns_names) {
        free((void *)c->name);
      }
      continue;
    }
    if (&tab->base[out] != c) tab->base[out] = *c;
    out++;
  }
  free(k);
  if (tab->base != old) free(old);
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
    /* sorted by address, unique addresses (DESIGN: data structures) */
    INVARIANT(i == 0 || tab->base[i - 1].addr < s->addr);
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

/* The symbol whose range [addr, end_addr] holds ADDR, or NULL; with
   ANY, past lookup_top too. */
static inline __attribute__((always_inline)) Sym *lookup(const SymTab *tab, vma_t addr, int any)
{
  size_t lo = 0, hi = tab->len;
  if (!hi || addr < tab->addrs[0]) return NULL;
  if (tab->nmain && addr > tab->lookup_top && !any) return NULL;   /* objects.c */
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

Sym *sym_lookup_quiet(const SymTab *tab, vma_t addr)
{
  return lookup(tab, addr, 0);
}

Sym *sym_lookup_any(const SymTab *tab, vma_t addr)
{
  return lookup(tab, addr, 1);
}

void sym_lookup_prefetch(const SymTab *tab, vma_t addr, int stage)
{
  if (!tab->bucket || addr < tab->addrs[0]) return;
  vma_t off = (addr - tab->addrs[0]) >> tab->shift;
  if (tab->nbuckets < 2 || off >= tab->nbuckets - 1) return;
  if (stage == 0) __builtin_prefetch(&tab->bucket[off]);
  else __builtin_prefetch(&tab->addrs[tab->bucket[off]]);
}

Sym *sym_lookup(const SymTab *tab, vma_t addr)
{
  Sym *s = sym_lookup_quiet(tab, addr);
  DBG(tab->opts.debug, DBG_LOOKUP, "lookup: 0x%llx -> %s\n", (unsigned long long)addr, s ? s->name : "(none)");
  return s;
}
