/* sym_ids.c -- symspecs: parsing, matching, and the include/exclude tests. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "util/options.h"
#include "sym_ids.h"
#include "source.h"

typedef struct SymSpec Spec;
struct SymSpec {
  char *file, *func;            /* NULL when not given */
  int line;                     /* 0 when not given */
  int table;
  Spec *right;                  /* -k: the callee side */
  Spec *next;
};

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

/* The colon that ends a spec's file part: the first one, as GNU takes
   it -- but in a spec that holds a C++ scope ("::"), the first colon
   that is not half of one, or none, so that `shapes::Square::area()
   const` and `shapes.cc:shapes::Square::area() const` name that
   function (GNU cuts them at the first colon and matches nothing). */
static char *file_colon(char *s)
{
  if (!strstr(s, "::")) return strchr(s, ':');
  for (char *p = s; *p; p++)
    if (*p == ':' && p[1] != ':' && (p == s || p[-1] != ':')) return p;
  return NULL;
}

/* file.c | func | 123 | [file]:(func|123) -- a dot means a file name
   (not in a C++ name).  An empty spec (`-k main/`, `--no-graph=`)
   matches every function, as GNU's does. */
static Spec *parse(const char *text, int table)
{
  Spec *sp = xcalloc(1, sizeof *sp);
  char *s = xstrdup(text), *colon = file_colon(s);
  sp->table = table;
  if (!*s) {
    free(s);
    return sp;
  }
  if (colon) {
    *colon = 0;
    if (*s) sp->file = s;
    const char *rest = colon + 1;
    if (all_digits(rest)) sp->line = atoi(rest);
    else if (*rest) sp->func = xstrdup(rest);
  } else if (strchr(s, '.') && !strstr(s, "::")) {
    sp->file = s;
  } else if (all_digits(s)) {
    sp->line = atoi(s);
  } else {
    sp->func = s;
  }
  if (sp->file != s && sp->func != s) free(s);
  return sp;
}

static void spec_free(Spec *sp)
{
  if (!sp) return;
  free(sp->file);
  free(sp->func);
  spec_free(sp->right);
  free(sp);
}

void sym_id_free(SymSpecs *ss)
{
  Spec *sp = ss->specs;
  while (sp) {
    Spec *next = sp->next;
    spec_free(sp);
    sp = next;
  }
  sym_id_init(ss);
}

void sym_id_init(SymSpecs *ss)
{
  memset(ss, 0, sizeof *ss);
  ss->tail = &ss->specs;
}

void sym_id_add(SymSpecs *ss, const char *spec, int table)
{
  Spec *sp = parse(spec, table);
  *ss->tail = sp;
  ss->tail = &sp->next;
}

void sym_id_add_arc(SymSpecs *ss, const char *from, const char *to)
{
  Spec *sp = parse(from, EXCL_ARCS);
  sp->right = parse(to, EXCL_ARCS);
  *ss->tail = sp;
  ss->tail = &sp->next;
}

static int file_matches(const SymTab *tab, const Sym *s, const char *file)
{
  const char *path = src_sym_path(tab, s);
  if (!path) return 0;
  return !strcmp(path, file) || !strcmp(src_base_name(path), file);
}

static int matches(const SymTab *tab, const Sym *s, const Spec *sp)
{
  if (s->is_cycle) return 0;
  if (sp->func && strcmp(s->name, sp->func) && strcmp(sym_print_name(tab, s), sp->func))
    return 0;
  if (sp->file && !file_matches(tab, s, sp->file)) return 0;
  if (sp->line && src_sym_line(tab, s) != sp->line) return 0;
  return 1;
}

static int is_default_excluded(const Sym *s)
{
  for (int i = 0; default_excluded[i]; i++)
    if (!strcmp(s->name, default_excluded[i])) return 1;
  return 0;
}

/* What the tables decide for S, once every symbol has been matched. */
static unsigned selection(const SymSpecs *ss, const Sym *s)
{
  const int *used = ss->table_used;
  unsigned sel = 0;
  if ((!used[INCL_FLAT] || sym_id_in(s, INCL_FLAT)) && !sym_id_in(s, EXCL_FLAT))
    sel |= SEL_FLAT;
  if ((!used[INCL_EXEC] || sym_id_in(s, INCL_EXEC)) && !sym_id_in(s, EXCL_EXEC))
    sel |= SEL_EXEC;
  if ((!used[INCL_ANNO] || sym_id_in(s, INCL_ANNO)) && !sym_id_in(s, EXCL_ANNO))
    sel |= SEL_ANNO;
  if (sym_id_in(s, INCL_GRAPH) || (!used[INCL_GRAPH] && !sym_id_in(s, EXCL_GRAPH)))
    sel |= SEL_GRAPH_ON;
  if (sym_id_in(s, EXCL_GRAPH)) sel |= SEL_GRAPH_OFF;
  if (sym_id_in(s, INCL_TIME) || (!used[INCL_TIME] && !sym_id_in(s, EXCL_TIME)))
    sel |= SEL_TIME_ON;
  if (sym_id_in(s, EXCL_TIME)) sel |= SEL_TIME_OFF;
  return sel;
}

void sym_id_parse(SymSpecs *ss, SymTab *tab)
{
  for (size_t i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    s->tables = 0;
    /* GNU 2.40 keeps them out of the flat profile too (the manual says
       only with -l): measured on static and threaded programs */
    if (is_default_excluded(s))
      s->tables |= (1u << EXCL_TIME) | (1u << EXCL_GRAPH) | (1u << EXCL_FLAT);
    for (Spec *sp = ss->specs; sp; sp = sp->next) {
      if (sp->table == EXCL_ARCS && sp->right) {
        if (matches(tab, s, sp)) s->arc_from = 1;
        continue;
      }
      if (matches(tab, s, sp)) {
        s->tables |= 1u << sp->table;
        DBG(tab->opts.debug, DBG_SYMSPEC, "symspec: %s%s%s%s matches %s for table %d\n",
            sp->file ? sp->file : "", sp->file ? ":" : "", sp->func ? sp->func : "",
            sp->line ? "(line)" : "", s->name, sp->table);
      }
    }
    for (int t = 0; t < NUM_TABLES; t++)
      if (s->tables & (1u << t)) ss->table_used[t] = 1;
  }
  for (size_t i = 0; i < tab->len; i++) tab->base[i].sel = selection(ss, &tab->base[i]);
}

int sym_id_in(const Sym *s, int table)
{
  return (s->tables >> table) & 1;
}

/* -k from/to deletes arcs from a symbol matching FROM to one matching TO. */
int sym_id_arc_ok(const SymSpecs *ss, const SymTab *tab, const Sym *parent, const Sym *child)
{
  if (!parent->arc_from) return 1;
  for (Spec *sp = ss->specs; sp; sp = sp->next)
    if (sp->right && matches(tab, parent, sp) && matches(tab, child, sp->right)) return 0;
  return 1;
}

/* After a symbol inherits its print flag and time fraction from its
   callers: an unprinted symbol is printed if it is named by the graph
   includes (or there are none and it is not excluded); a printed one is
   not if it is excluded; likewise for time with the time tables. */
void sym_id_flags(Sym *s)
{
  if (!s->print_flag) {
    if (s->sel & SEL_GRAPH_ON) s->print_flag = 1;
  } else if (s->sel & SEL_GRAPH_OFF) {
    s->print_flag = 0;
  }
  if (s->prop_fract == 0.0) {
    if (s->sel & SEL_TIME_ON) s->prop_fract = 1.0;
  } else if (s->sel & SEL_TIME_OFF) {
    s->prop_fract = 0.0;
  }
}

/* The name as printed: demangled unless --no-demangle or -T (BSD's
   layout shows linkage names), computed once. */
const char *sym_print_name(const SymTab *tab, const Sym *s)
{
  Sym *m = (Sym *)s;
  if (m->is_cycle || !tab->opts.demangle) return s->name;
  if (!m->dname) {
    char *d = cplus_demangle(s->name, DMGL_PARAMS | DMGL_ANSI);
    m->dname = d ? d : s->name;
  }
  return m->dname;
}

/* The name with, under -l, "(file:line @ addr)", else under
   --inline-file-names "(file:line)"; symbols without a source position
   print their bare name. */
const char *sym_label(const SymTab *tab, const Sym *s)
{
  Sym *m = (Sym *)s;
  if ((!tab->opts.inline_names && !tab->opts.line) || s->is_cycle) return sym_print_name(tab, s);
  if (!m->label) {
    const char *f = src_sym_file(tab, s);
    const char *n = sym_print_name(tab, s);
    if (f) {
      size_t len = strlen(n) + strlen(f) + 64;
      char *b = xmalloc(len);
      if (tab->opts.line)
        snprintf(b, len, "%s (%s:%d @ %llx)", n, f, src_sym_line(tab, s),
                 (unsigned long long)s->addr);
      else
        snprintf(b, len, "%s (%s:%d)", n, f, src_sym_line(tab, s));
      m->label = b;
    } else {
      m->label = n;
    }
  }
  return m->label;
}
