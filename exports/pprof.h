/* exports/pprof.h -- the profile as pprof reads it (--pprof): a gzipped
 * perftools.profiles.Profile message (profile.proto), for `go tool pprof`
 * and the tools that read its format.
 *
 * Only what the profile holds is written.  Sample types: ("samples",
 * "count") and ("cpu", "nanoseconds") when there is a histogram (or a
 * stack file), ("calls", "count") when there are arcs; every sample
 * carries a value of each type, 0 for the types it is not about.
 *
 * Without stacks: one sample per function (or -l line symbol) of the flat
 * profile with self time, its location that symbol, and one sample per
 * arc that was called, its locations [callee, caller] (leaf first, as
 * pprof reads a stack).  With stacks (in->stacks, present): one sample
 * per recorded stack (its frames leaf first, labelled with the thread's
 * tid and name), then the arcs as above.  The per-function values are
 * the flat profile's self times, rounded cumulatively so that they add
 * up to its total rounded once.  Names: Function.name the printed
 * (demangled) name, system_name the linkage name; file and line from the
 * debug information, looked up only for what is written. */
#ifndef EXPORT_PPROF_H
#define EXPORT_PPROF_H
#include "exports/common.h"
void export_pprof(FILE *f, const ExportInput *in, const ExportOptions *eo);
#endif
