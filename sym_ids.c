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

void sym_id_flags(Sym *s)
{
  int ex = default_excluded_sym(s);
  s->print_flag = !ex;
  s->prop_fract = ex ? 0.0 : 1.0;
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
