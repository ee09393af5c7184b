/* exports/html.h -- the whole analysis as one self-contained HTML page
 * (--html[=FILE]): the flat profile (sortable by each column, filtered by
 * name), the call graph (a function's callers and callees, its cycle, one
 * click from any name), the flame graph when the profile has stacks (the
 * SVG --flame writes), the other objects when --objects read any, and
 * the annotated source where the debug information has lines.
 *
 * The page holds one inline JSON blob and a small script that draws the
 * views from it (only the rows in sight: made for 20,000 functions and
 * their arcs), with its style inline: no network, it opens from disk.
 * The figures are the text reports', from the same structures, unrounded
 * in the blob and printed by the script as printf's %.Nf prints them
 * (ties to even), so the page shows the text's digits. */
#ifndef EXPORT_HTML_H
#define EXPORT_HTML_H
#include "exports/common.h"

void export_html(FILE *f, const ExportInput *in, const ExportOptions *eo);
#endif
