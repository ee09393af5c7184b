/* Harness for the call-finder unit tests over byte buffers (vax.c,
   tahoe.c): hands the finder a CallScan over the bytes, an
   <indirect child> and a callback that records each call, builds a symbol
   table, scans each function as core_scan_calls does and compares the
   calls with the expected list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "core.h"

#define TEXT_VMA 0x2000

static unsigned char *text_buf;
static size_t text_len;
static Sym ic_sym;
static SymTab symtab;
static char got[1024];
static int fails;

static void record(void *ctx, Sym *parent, Sym *child)
{
  char one[64];
  (void)ctx;
  snprintf(one, sizeof one, "%s%s>%s", *got ? " " : "", parent->name, child->name);
  if (strlen(got) + strlen(one) < sizeof got) strcat(got, one);
}

/* FUNCS: "name@offset name@offset ..." in address order; the histogram
   covers [HLO, HHI) as offsets; WANT: "parent>child ..." in scan order
   ("*" is <indirect child>). */
static void run(const char *what, const unsigned char *bytes, size_t n, const char *funcs,
                size_t hlo, size_t hhi,
                CoreFinder scan, int big_endian, const char *want)
{
  /* exactly N bytes on the heap, so a read past them is a real overrun */
  text_buf = malloc(n ? n : 1);
  memcpy(text_buf, bytes, n);
  text_len = n;
  char *spec = strdup(funcs);
  symtab.base = calloc(64, sizeof(Sym));
  symtab.len = 0;
  for (char *t = strtok(spec, " "); t; t = strtok(NULL, " ")) {
    Sym *s = &symtab.base[symtab.len++];
    sym_init(s);
    char *at = strchr(t, '@');
    *at = 0;
    s->name = strdup(t);
    s->addr = TEXT_VMA + strtoul(at + 1, NULL, 0);
    s->is_func = 1;
  }
  symtab_finalize(&symtab);
  got[0] = 0;
  vma_t lowpc = TEXT_VMA + hlo, highpc = TEXT_VMA + hhi;
  ic_sym.name = "*";
  CallScan cs = { text_buf, TEXT_VMA, text_len, lowpc, highpc, big_endian, &symtab, &ic_sym,
                  record, NULL };
  for (size_t i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    vma_t start = s->addr, end = i + 1 < symtab.len ? s->end_addr + 1 : s->addr;
    if (start < lowpc) start = lowpc;
    if (end > highpc) end = highpc;
    if (start < end) scan(&cs, s, start, end);
  }
  if (strcmp(got, want)) {
    printf("FAIL %s: got \"%s\", want \"%s\"\n", what, got, want);
    fails++;
  } else {
    printf("ok %s\n", what);
  }
  free(text_buf);
  free(spec);
  for (size_t i = 0; i < symtab.len; i++) free((char *)symtab.base[i].name);
  free(symtab.base);
  free(symtab.addrs);
  free(symtab.bucket);
  memset(&symtab, 0, sizeof symtab);
}
#define RUN(what, funcs, hlo, hhi, scan, want, ...) do { \
    static const unsigned char b_[] = { __VA_ARGS__ }; \
    run(what, b_, sizeof b_, funcs, hlo, hhi, scan, FINDER_BIG_ENDIAN, want); \
  } while (0)
