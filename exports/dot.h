/* exports/dot.h -- the call graph as a Graphviz picture (--dot): the
 * entries the text graph prints above --node-threshold, the arcs between
 * them above --edge-threshold, coloured by time, cycles in clusters
 * (details in exports/dot.c). */
#ifndef EXPORT_DOT_H
#define EXPORT_DOT_H
#include "exports/common.h"
void export_dot(FILE *f, const ExportInput *in, const ExportOptions *eo);
#endif
