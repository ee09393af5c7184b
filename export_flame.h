/* export_flame.h -- the sampled stacks (stacks.h) as a flame graph: the
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
 * none), a title, a total line and a legend.  Both need in->stacks. */
#ifndef EXPORT_FLAME_H
#define EXPORT_FLAME_H
#include "export_common.h"

void export_folded(FILE *f, const ExportInput *in);
void export_flame(FILE *f, const ExportInput *in);
#endif
