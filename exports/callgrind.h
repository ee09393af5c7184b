/* exports/callgrind.h -- the profile in valgrind's callgrind format
 * (--callgrind): self time per function, calls per call site with the
 * inclusive time gprof estimates, event TimeEstIncl in microseconds
 * (details in exports/callgrind.c). */
#ifndef EXPORT_CALLGRIND_H
#define EXPORT_CALLGRIND_H
#include "exports/common.h"
void export_callgrind(FILE *f, const ExportInput *in, const ExportOptions *eo);
#endif
