/* exports/json.h -- the whole analysis as JSON (--json), in the schema of
 * doc/gprof.schema.json (details in exports/json.c). */
#ifndef EXPORT_JSON_H
#define EXPORT_JSON_H
#include "exports/common.h"
void export_json(FILE *f, const ExportInput *in, const ExportOptions *eo);
#endif
