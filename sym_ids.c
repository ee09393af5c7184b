/* sym_ids.c -- symspecs: parsing, matching, and the include/exclude tests. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "sym_ids.h"
#include "source.h"
#include "symtab.h"

typedef struct Spec {
  char *file, *func;            /* NULL when not given */
  int line;                     /* 0 when not given */
  int table;
  struct Spec *right;           /* -k: the callee side */
  struct Spec *next;
} Spec;

static Spec *specs, **specs_tail = &specs;
static int table_used[NUM_TABLES];

static const char *const default_excluded[] = {
  "_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
  "__mcleanup", "<locore>", "<hicore>", NULL
};

static int all_digits(const char *s)
{
  if (!*s) return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return 0;
  return 1;
}

/* file.c | func | 123 | [file]:(func|123) -- a dot means a file name. */
static Spec *parse(const char *text, int table)
{
  Spec *sp = xcalloc(1, sizeof *sp);
  char *s = xstrdup(text), *colon = strchr(s, ':');
  sp->table = table;
  if (colon) {
    *colon = 0;
    if (*s) sp->file = s;
    const char *rest = colon + 1;
    if (all_digits(rest)) sp->line = atoi(rest);
    else if (*rest) sp->func = xstrdup(rest);
  } else if (strchr(s, '.')) {
    sp->file = s;
  } else if (all_digits(s)) {
    sp->line = atoi(s);
  } else {
    sp->func = s;
  }
  return sp;
}

void sym_id_add(const char *spec, int table)
{
  Spec *sp = parse(spec, table);
  *specs_tail = sp;
  specs_tail = &sp->next;
}

void sym_id_add_arc(const char *from, const char *to)
{
  Spec *sp = parse(from, EXCL_ARCS);
  sp->right = parse(to, EXCL_ARCS);
  *specs_tail = sp;
  specs_tail = &sp->next;
}

static int file_matches(const Sym *s, const char *file)
{
  const char *path = src_sym_path(s);
  if (!path) return 0;
  return !strcmp(path, file) || !strcmp(src_base_name(path), file);
}

static int matches(const Sym *s, const Spec *sp)
{
  if (s->is_cycle) return 0;
  if (sp->func && strcmp(s->name, sp->func) && strcmp(sym_print_name(s), sp->func))
    return 0;
  if (sp->file && !file_matches(s, sp->file)) return 0;
  if (sp->line && src_sym_line(s) != sp->line) return 0;
  return 1;
}

static int is_default_excluded(const Sym *s)
{
  for (int i = 0; default_excluded[i]; i++)
    if (!strcmp(s->name, default_excluded[i])) return 1;
  return 0;
}

void sym_id_parse(void)
{
  for (size_t i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    s->tables = 0;
    /* GNU 2.40 keeps them out of the flat profile too (the manual says
       only with -l): measured on static and threaded programs */
    if (is_default_excluded(s))
      s->tables |= (1u << EXCL_TIME) | (1u << EXCL_GRAPH) | (1u << EXCL_FLAT);
    for (Spec *sp = specs; sp; sp = sp->next) {
      if (sp->table == EXCL_ARCS && sp->right) {
        if (matches(s, sp)) s->arc_from = 1;
        continue;
      }
      if (matches(s, sp)) {
        s->tables |= 1u << sp->table;
        DBG(DBG_SYMSPEC, "symspec: %s%s%s%s matches %s for table %d\n", sp->file ? sp->file : "",
            sp->file ? ":" : "", sp->func ? sp->func : "", sp->line ? "(line)" : "", s->name, sp->table);
      }
    }
    for (int t = 0; t < NUM_TABLES; t++)
      if (s->tables & (1u << t)) table_used[t] = 1;
  }
}

int sym_id_table_used(int table) { return table_used[table]; }

int sym_id_in(const Sym *s, int table)
{
  return (s->tables >> table) & 1;
}

int sym_id_in_flat(const Sym *s)
{
  if (table_used[INCL_FLAT] && !sym_id_in(s, INCL_FLAT)) return 0;
  return !sym_id_in(s, EXCL_FLAT);
}

int sym_id_in_exec(const Sym *s)
{
  if (table_used[INCL_EXEC] && !sym_id_in(s, INCL_EXEC)) return 0;
  return !sym_id_in(s, EXCL_EXEC);
}

/* -k from/to deletes arcs from a symbol matching FROM to one matching TO. */
int sym_id_arc_ok(const Sym *parent, const Sym *child)
{
  if (!parent->arc_from) return 1;
  for (Spec *sp = specs; sp; sp = sp->next)
    if (sp->right && matches(parent, sp) && matches(child, sp->right)) return 0;
  return 1;
}

/* After a symbol inherits its print flag and time fraction from its
   callers: an unprinted symbol is printed if it is named by the graph
   includes (or there are none and it is not excluded); a printed one is
   not if it is excluded; likewise for time with the time tables. */
void sym_id_flags(Sym *s)
{
  if (!s->print_flag) {
    if (sym_id_in(s, INCL_GRAPH)
        || (!table_used[INCL_GRAPH] && !sym_id_in(s, EXCL_GRAPH)))
      s->print_flag = 1;
  } else if (sym_id_in(s, EXCL_GRAPH)) {
    s->print_flag = 0;
  }
  if (s->prop_fract == 0.0) {
    if (sym_id_in(s, INCL_TIME)
        || (!table_used[INCL_TIME] && !sym_id_in(s, EXCL_TIME)))
      s->prop_fract = 1.0;
  } else if (sym_id_in(s, EXCL_TIME)) {
    s->prop_fract = 0.0;
  }
}

/* The name as printed: demangled unless --no-demangle, computed once. */
const char *sym_print_name(const Sym *s)
{
  Sym *m = (Sym *)s;
  /* BSD's layout (-T) shows linkage names */
  if (m->is_cycle || !opt.demangle || opt.traditional) return s->name;
  if (!m->dname) {
    char *d = cplus_demangle(s->name, DMGL_PARAMS | DMGL_ANSI);
    m->dname = d ? d : s->name;
  }
  return m->dname;
}

/* The name with, under --inline-file-names, its "(file:line)". */
const char *sym_label(const Sym *s)
{
  Sym *m = (Sym *)s;
  if (!opt.inline_names || s->is_cycle) return sym_print_name(s);
  if (!m->label) {
    const char *f = src_sym_file(s);
    const char *n = sym_print_name(s);
    if (f) {
      size_t len = strlen(n) + strlen(f) + 32;
      char *b = xmalloc(len);
      snprintf(b, len, "%s (%s:%d)", n, f, src_sym_line(s));
      m->label = b;
    } else {
      m->label = n;
    }
  }
  return m->label;
}
