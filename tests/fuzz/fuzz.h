/* fuzz.h -- what every libFuzzer target of the analyzer shares.
 *
 * Each target runs one stage on bytes from the fuzzer.  fatal() -- every
 * error exit of the analyzer, allocation failures included -- returns here
 * through util_fatal_trap instead of ending the process (quietly: the
 * messages are tested by the suite), and the target then frees what the
 * stage's state holds, so the next input starts from nothing.  Reports go
 * to /dev/null.  Each input gets options of its own (GNU's defaults,
 * options_init), which the target changes and hands to the stages it
 * runs, as gprof.c does. */
#ifndef FUZZ_H
#define FUZZ_H
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "util/util.h"
#include "symtab.h"

static inline Options *fuzz_options(void)
{
  static int done;
  static Options o;
  if (!done) {
    done = 1;
    if (!freopen("/dev/null", "w", stdout)) abort();
  }
  options_init(&o);
  return &o;
}

/* A memory stream over the input (fmemopen wants a non-empty buffer). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
  static const char empty[1];
  return size ? fmemopen((void *)data, size, "r") : fmemopen((void *)empty, 0, "r");
}

/* N functions at BASE, BASE+STEP, ... (names from a fixed list), named
   as by default (demangled). */
static inline void fuzz_symtab(SymTab *tab, size_t n, vma_t base, vma_t step)
{
  static const char *names[] = { "main", "alpha", "beta", "gamma", "delta", "mcount",
                                 "_Z3fooi", "helper", "step", "spin", "tri_a", "tri_b",
                                 "tri_c", "leaf", "root", "etext" };
  memset(tab, 0, sizeof *tab);
  tab->opts.demangle = 1;
  tab->base = xcalloc(n, sizeof(Sym));
  tab->len = n;
  for (size_t i = 0; i < n; i++) {
    sym_init(&tab->base[i]);
    tab->base[i].name = names[i % 16];
    tab->base[i].addr = base + step * (vma_t)i;
    tab->base[i].is_func = (i % 4) != 2;     /* some not marked as functions */
    tab->base[i].is_static = (i % 5) == 3;
    tab->base[i].file_done = 1;
  }
  symtab_finalize(tab);
}

static inline void fuzz_symtab_free(SymTab *tab, int free_names)
{
  for (size_t i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (s->dname && s->dname != s->name) free((void *)s->dname);
    if (s->label && s->label != s->dname && s->label != s->name) free((void *)s->label);
    if (free_names) free((void *)s->name);
  }
  free(tab->base);
  free(tab->addrs);
  free(tab->bucket);
  memset(tab, 0, sizeof *tab);
}
#endif
