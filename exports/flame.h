/* exports/flame.h -- the sampled stacks (stacks.h) as a flame graph: the
 * folded text flamegraph.pl, inferno and speedscope read (--folded), and
 * a self-contained SVG drawn here (--flame).
 *
 * Both merge the stacks of all threads by frame name: one folded line per
 * distinct path of names, root first ("main;work;spin 123", the names the
 * text report prints, with ';' and control characters as '?'), in name
 * order; a stack libprof cut at its depth starts at "[truncated]", one
 * whose walk broke off at "[unknown]", so neither seems to start at its
 * outermost frame.  The SVG draws the same tree: one box per node, width
 * by samples, the root ("all") at the bottom, a name clipped to its box
 * (shortened as --dot shortens C++ names), a hover title with the whole
 * name, samples and percent, colours by object (warm
 * for the program, another family per other object, grey for frames of
 * none), a title, a total line and a legend.  Both need in->stacks.
 *
 * Samples libprof could not record (the stack file's `dropped`) are a
 * "[dropped]" child of the root, so that the total is the program's;
 * [truncated], [unknown] and [dropped] boxes are hatched.
 *
 * The SVG is interactive (an inline script, no other file): click to
 * zoom into a frame, reset, search by regular expression with the
 * matches' share of all samples shown.  EO's --icicle draws it root on
 * top; --icicle=NAME draws NAME's callers (NAME on top, each caller
 * below its callee); --stacks-thread=all roots each thread's stacks at
 * "[thread TID NAME]" (both here and in the folded lines).
 *
 * With in->base (--diff-base) the folded lines carry two counts, before
 * and after ("main;f 12 7", as Brendan Gregg's difffolded.pl writes and
 * flamegraph.pl reads), and the flame graph is the after profile's tree,
 * each box coloured by the change in its own samples (the stacks ending
 * in it, as flamegraph.pl colours): red more, blue fewer. */
#ifndef EXPORT_FLAME_H
#define EXPORT_FLAME_H
#include "exports/common.h"

void export_folded(FILE *f, const ExportInput *in, const ExportOptions *eo);
void export_flame(FILE *f, const ExportInput *in, const ExportOptions *eo);
#endif
