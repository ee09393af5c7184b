/* sym_ids.c -- symspec matching (default exclusions so far). */
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "sym_ids.h"

static const char *const default_excluded[] = {
  "_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
  "__mcleanup", "<locore>", "<hicore>", NULL
};

static int default_excluded_sym(const Sym *s)
{
  for (int i = 0; default_excluded[i]; i++)
    if (!strcmp(s->name, default_excluded[i])) return 1;
  return 0;
}

int sym_id_in_flat(const Sym *s) { (void)s; return 1; }

int sym_id_arc_ok(const Sym *parent, const Sym *child)
{
  (void)parent; (void)child;
  return 1;
}

/* The last word on a symbol's print flag and time fraction after it has
   inherited them from its callers.  Only the default exclusions exist so
   far: they are never printed and pass no time on. */
void sym_id_flags(Sym *s)
{
  int ex = default_excluded_sym(s);
  if (!s->print_flag) s->print_flag = !ex;
  else if (ex) s->print_flag = 0;
  if (s->prop_fract == 0.0) { if (!ex) s->prop_fract = 1.0; }
  else if (ex) s->prop_fract = 0.0;
}

/* The name as printed: demangled unless --no-demangle, computed once. */
const char *sym_print_name(const Sym *s)
{
  Sym *m = (Sym *)s;
  if (m->is_cycle || !opt.demangle) return s->name;
  if (!m->dname) {
    char *d = cplus_demangle(s->name, DMGL_PARAMS | DMGL_ANSI);
    m->dname = d ? d : s->name;
  }
  return m->dname;
}
