/* Unit test: the linear-time depth-first numbering in cg_dfn.c must find
   the same cycle heads, member orders and numbers as the textbook
   stack-walking algorithm, on many random graphs.
// objs: cg_dfn.o util/util.o util/options.o
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cg_dfn.h"

/* ---- the reference: the classic algorithm, quadratic and simple ---- */
typedef struct { int top, head, next, busy; } Ref;
static Ref *ref;
static int *rstack, rdepth, rcounter, nsyms;
static Sym *syms;

static int ref_head(int i) { return ref[i].head; }

static void ref_cycle(int child)
{
  int top;
  for (top = rdepth; top > 0; top--) {
    int h = rstack[top];
    if (child == h) break;
    if (ref_head(child) != child && ref_head(child) == h) break;
  }
  if (top <= 0) { printf("ref: cycle top not found\n"); exit(1); }
  if (top == rdepth) return;
  int head = rstack[top], tail;
  for (tail = head; ref[tail].next >= 0; tail = ref[tail].next) ;
  if (ref_head(head) != head) head = ref_head(head);
  for (int k = top + 1; k <= rdepth; k++) {
    int c = rstack[k];
    if (ref_head(c) == c) {
      ref[tail].next = c;
      ref[c].head = head;
      for (tail = c; ref[tail].next >= 0; tail = ref[tail].next) ref[ref[tail].next].head = head;
    }
  }
}

static void ref_dfn(int p)
{
  if (ref[p].top > 0) return;
  if (ref[p].busy) { ref_cycle(p); return; }
  rstack[++rdepth] = p;
  ref[p].busy = 1;
  for (unsigned i = 0; i < syms[p].nchildren; i++) ref_dfn((int)(syms[p].children[i]->child - syms));
  if (ref_head(p) == p) {
    ++rcounter;
    for (int m = p; m >= 0; m = ref[m].next) ref[m].top = rcounter;
  }
  rdepth--;
}

int main(void)
{
  srand(12345);
  int failures = 0;
  for (int round = 0; round < 3000; round++) {
    nsyms = 1 + rand() % (round < 2000 ? 12 : 60);
    int narcs = rand() % (nsyms * 3 + 1);
    syms = calloc((size_t)nsyms, sizeof *syms);
    Arc *arcs = calloc((size_t)narcs + 1, sizeof *arcs);
    Arc **runs = calloc((size_t)narcs + 1, sizeof *runs);
    for (int i = 0; i < nsyms; i++) {
      syms[i].uf = syms[i].cyc_tail = syms[i].cyc_head = &syms[i];
    }
    for (int k = 0; k < narcs; k++) {
      int p = rand() % nsyms, c = rand() % nsyms;
      arcs[k].parent = &syms[p];
      arcs[k].child = &syms[c];
    }
    /* each symbol's children newest first, in one array (cg_arcs_settle) */
    for (int i = 0, at = 0; i < nsyms; i++) {
      syms[i].children = runs + at;
      for (int k = narcs; k-- > 0;)
        if (arcs[k].parent == &syms[i]) { runs[at++] = &arcs[k]; syms[i].nchildren++; }
    }
    ref = calloc((size_t)nsyms, sizeof *ref);
    rstack = calloc((size_t)nsyms + 2, sizeof *rstack);
    for (int i = 0; i < nsyms; i++) { ref[i].head = i; ref[i].next = -1; }
    rdepth = rcounter = 0;
    for (int i = 0; i < nsyms; i++) ref_dfn(i);
    Dfn dfn;
    /* the callees' numbers, as cg_arcs_settle gives them */
    uint32_t *kid_num = calloc((size_t)narcs + 1, sizeof *kid_num);
    for (int k = 0; k < narcs; k++) kid_num[k] = (uint32_t)(runs[k]->child - syms);
    CallGraph cg = { 0 };
    cg.lists = runs;
    cg.kid_num = kid_num;
    cg.narcs = (size_t)narcs;
    cg_dfn_init(&dfn, &cg, syms, (size_t)nsyms);
    for (int i = 0; i < nsyms; i++) cg_dfn(&dfn, &syms[i]);
    cg_dfn_settle(&dfn);
    for (int i = 0; i < nsyms; i++) {   /* the search's own member list */
      Sym *a = cg_dfn_next(&dfn, &syms[i]);
      if (a != syms[i].cyc_next) { printf("round %d sym %d: cg_dfn_next\n", round, i); failures++; }
    }
    cg_dfn_free(&dfn);
    free(kid_num);
    for (int i = 0; i < nsyms; i++) {
      int h = (int)(cg_dfn_head(&syms[i]) - syms);
      int nx = syms[i].cyc_next ? (int)(syms[i].cyc_next - syms) : -1;
      if (syms[i].top_order != ref[i].top || h != ref[i].head || nx != ref[i].next) {
        printf("round %d sym %d: top %d/%d head %d/%d next %d/%d\n", round, i,
               syms[i].top_order, ref[i].top, h, ref[i].head, nx, ref[i].next);
        failures++;
        break;
      }
    }
    free(ref); free(rstack); free(arcs); free(runs); free(syms);
  }
  printf("%s\n", failures ? "dfn: FAILED" : "dfn: 3000 random graphs agree");
  return failures != 0;
}
