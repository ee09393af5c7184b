/* options.c -- the options' defaults (see options.h). */
#include <string.h>
#include "util/options.h"

void options_init(Options *o)
{
  memset(o, 0, sizeof *o);
  o->demangle = 1;
  o->width = 80;
  o->table_length = 10;
  o->min_count = 1;             /* -A: counts below it show as ##### */
}
