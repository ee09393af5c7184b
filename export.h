/* export.h -- the analysis as data for other tools: Graphviz DOT
 * (--dot, export_dot.h), the callgrind profile format (--callgrind,
 * export_callgrind.h) and JSON (--json, export_json.h).
 *
 * export_write_all writes every requested file whole or not at all
 * (util.h AtomicFile): all are opened first, then written, then renamed
 * into place; a file that cannot be opened stops the run before anything
 * is written, with "gprof: FILE: reason" and status 1.  FILE "-" is
 * standard output. */
#ifndef EXPORT_H
#define EXPORT_H
#include "export_common.h"

void export_options_init(ExportOptions *eo);
/* Does any export go to standard output (which then holds nothing else)? */
int export_to_stdout(const ExportOptions *eo);
void export_write_all(const ExportOptions *eo, const ExportInput *in);
#endif
