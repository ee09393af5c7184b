/* Unit test: the VAX call finder (vax.c) on a VAX ELF made from
   hand-assembled bytes (tests/tools/vaxelf.py, case vax_calls).  BFD has
   no VAX target in the multi-target build, so gprof -c says "not
   supported" as GNU does; here the finder is run on the object's own
   symbols and text, clipped to the histogram's range as -c does, and must
   find exactly the calls placed in it.
// objs: callscan.o core.o corefile.o symtab.o util/util.o util/fmt.o util/options.o cg_arcs.o sym_ids.o source.o i386.o aarch64.o sparc.o mips.o alpha.o vax.o tahoe.o
// libs: $BFDLIB -liberty -lz
*/
#include <stdio.h>
#include <string.h>
#include "corefile.h"
#include "cg_arcs.h"

static SymTab symtab;

static void add(void *cg, Sym *parent, Sym *child) { arc_add(cg, parent, child, 0); }

static Sym *find(const char *name)
{
  for (size_t i = 0; i < symtab.len; i++)
    if (!strcmp(symtab.base[i].name, name)) return &symtab.base[i];
  return NULL;
}

int main(void)
{
  /* parent -> child; "*" is <indirect child> */
  static const char *want[][2] = {
    { "_start", "t_a" },          /* CALLS $0, b^disp(PC) */
    { "p_word", "t_a" },          /* w^disp(PC) */
    { "p_long", "t_b" },          /* #1 (immediate longword), l^disp(PC) */
    { "p_abs", "t_b" },           /* @#address */
    { "p_back", "p_word" },       /* numarg in a register; backward */
    { "p_reg", "*" },             /* (R1) */
    { "p_disp_reg", "*" },        /* 4(R2) */
    { "p_deferred", "*" },        /* @disp(PC) */
    { "p_autoinc", "*" },         /* (R3)+ */
    { "p_indexed", "*" },         /* t_a[R3] */
  };
  size_t nwant = sizeof want / sizeof want[0];
  int fails = 0;
  util_set_name("gprof");
  Core core;
  core_init(&core, "cases/vax_calls/bin");
  core_create_function_syms(&core, NULL, &symtab);
  CallGraph cg;
  cg_init(&cg);
  Sym *lo = find("_start"), *hi = find("t_end");
  if (!lo || !hi || !find("far")) {
    printf("FAIL: symbols of cases/vax_calls/bin not found\n");
    return 1;
  }
  /* nothing with register or literal destinations, CALLG, JSB, a target
     that is no function's start, or one past the histogram (far) */
  CallScan cs;
  cs.text = core_text_space(&core, &cs.text_vma, &cs.text_size);
  cs.lowpc = lo->addr;
  cs.highpc = hi->addr;
  cs.big_endian = core.big_endian;
  cs.syms = &symtab;
  cs.indirect = &core.indirect_child;
  cs.add = add;
  cs.ctx = &cg;
  core_scan_calls(&cs, vax_find_call);
  Sym *ic = &core.indirect_child;
  for (size_t i = 0; i < cg.narcs; i++) {
    Arc *a = cg_arc(&cg, i);
    const char *c = a->child == ic ? "*" : a->child->name;
    size_t k;
    for (k = 0; k < nwant; k++)
      if (!strcmp(want[k][0], a->parent->name) && !strcmp(want[k][1], c)) break;
    if (k == nwant || a->count != 0) {
      printf("FAIL: unexpected arc %s -> %s (count %llu)\n", a->parent->name, c,
             (unsigned long long)a->count);
      fails++;
    }
  }
  for (size_t k = 0; k < nwant; k++) {
    Sym *p = find(want[k][0]);
    Sym *c = !strcmp(want[k][1], "*") ? ic : find(want[k][1]);
    if (!p || !c || !arc_lookup(&cg, p, c)) {
      printf("FAIL: missing arc %s -> %s\n", want[k][0], want[k][1]);
      fails++;
    }
  }
  if (cg.narcs != nwant) {
    printf("FAIL: %zu arcs, want %zu\n", cg.narcs, nwant);
    fails++;
  }
  printf("%s: %zu arcs\n", fails ? "FAIL" : "ok", cg.narcs);
  return fails != 0;
}
