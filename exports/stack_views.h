/* stack_views.h -- views of the sampled stacks (stacks.h), made once
 * after stacks_resolve and before the writers (--folded, --flame,
 * --pprof, the HTML report), which then draw the view as they would the
 * whole: one thread's stacks, or several; only the stacks through a
 * function (--focus); a function's frames folded into their caller
 * (--hide); the callers of one function (--icicle=NAME).
 *
 * A view is a Stacks of its own: its stacks and per-frame arrays are
 * new, its objects, threads and names those of the Stacks it was made
 * from (which must outlive it); stack_view_free lets go of it.
 *
 * Names: a pattern matches a frame when it is the frame's printed name
 * (stacks_frame_name: "ns::f(int)", "[libc.so.6]", "0x401000"), or that
 * name without its parameter list ("ns::f"), or its short picture name
 * (export_short_name: "ns::f(…)"). */
#ifndef STACK_VIEWS_H
#define STACK_VIEWS_H
#include "stacks/stacks.h"

typedef struct {
  const char *threads;          /* --stacks-thread: NULL (all merged), "all"
                                   (each thread its own root) or a comma-
                                   separated list of TIDs and thread names */
  const char **focus;           /* --focus=NAME ...: stacks through any */
  size_t nfocus;
  const char **hide;            /* --hide=NAME ...: frames left out */
  size_t nhide;
} StackViewOptions;

/* Does O ask for anything (else the writers get the stacks as read)? */
int stack_view_active(const StackViewOptions *o);
/* --stacks-thread=all: the folded stacks and the flame graph root each
   thread's stacks at a frame of its own (stack_view_thread_label). */
int stack_view_thread_roots(const StackViewOptions *o);
/* Checks O's thread list against IN's threads: a TID or name that none
   has is a fatal error ("no thread ... in the stack file"). */
void stack_view_check(const StackViewOptions *o, const Stacks *in);
/* OUT: IN's stacks of the chosen threads, through a focus function,
   the hidden functions' frames left out (a stack whose every frame is
   hidden keeps its outermost). */
void stack_view_make(Stacks *out, const Stacks *in, const SymTab *tab, const StackViewOptions *o);
/* OUT: the callers of NAME: each stack of IN through NAME from its
   innermost NAME frame outwards, reversed, so that NAME is each stack's
   outermost frame and its callers follow (the original root is the new
   leaf).  Returns how many stacks went through NAME. */
size_t stack_view_callers(Stacks *out, const Stacks *in, const SymTab *tab, const char *name);
/* Does PATTERN name the frame whose printed name is NAME? */
int stack_view_matches(const char *name, const char *pattern);
/* "[thread TID NAME]" (or "[thread TID]"), the root of TID's stacks,
   into BUF. */
const char *stack_view_thread_label(const Stacks *st, uint32_t tid, char *buf, size_t n);
void stack_view_free(Stacks *v);
#endif
