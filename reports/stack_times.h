/* stack_times.h -- --stack-times: the inclusive time the sampled stacks
 * (stacks.h) measured, per function and per caller -> callee call,
 * beside the call graph's estimate (self + children, which gives every
 * call of a function its average cost).  A report of its own after
 * GNU's, and the same figures for --json.
 *
 * Measured: the samples of the stacks in which the function (or the
 * caller's frame directly above the callee's) appears, each stack once
 * however often it appears in it (recursion), over the stacks' rate.
 * Self: the samples whose leaf is the function.  Frames without a
 * function are left out (and break an arc). */
#ifndef STACK_TIMES_H
#define STACK_TIMES_H
#include <stdio.h>
#include "stacks/stacks.h"
#include "cg_arcs.h"

typedef struct {
  Sym *sym;
  uint64_t incl, self;          /* samples */
  double est;                   /* the call graph's self + children, seconds;
                                   negative when it has none */
} StFunc;

typedef struct {
  Sym *caller, *callee;
  uint64_t incl;                /* samples */
  double est;                   /* the arc's time + children, seconds, or -1 */
  uint64_t calls;               /* the arc's count (0: no arc) */
} StArc;

typedef struct {
  double hz;                    /* the stacks' rate */
  uint64_t total;               /* samples in all stacks */
  uint64_t truncated;           /* of them, in stacks that do not reach the
                                   thread's first frame ('t' or 'b') */
  uint64_t dropped;             /* samples libprof could not record */
  StFunc *funcs;                /* by measured time, most first */
  size_t nfuncs;
  StArc *arcs;
  size_t narcs;
} StackTimes;

/* Measures from ST (resolved) and looks up the estimates in CG (may be
   NULL) at the histogram's rate HIST_HZ. */
void stack_times_compute(StackTimes *t, const Stacks *st, const CallGraph *cg, double hist_hz);
/* The report, on standard output; TAB names the functions as the call
   graph does (ZEROS: -z, which decides where it prints an index). */
void stack_times_print(const StackTimes *t, const SymTab *tab, const char *stack_file, int zeros);
void stack_times_free(StackTimes *t);
#endif
