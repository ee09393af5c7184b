/* sym_ids.h -- symbol specifications ("symspecs"), the twelve
 * include/exclude tables of the GNU manual (section 4.5, chapter 9), and
 * the names symbols are printed under.
 *
 * The driver adds specs to a SymSpecs while it parses options; once the
 * symbol table exists, sym_id_parse matches every spec against it and
 * records in each Sym a bit per table and, in Sym.sel, what the tables
 * decide (listed in the flat profile, in -C, in -A; printed in the graph,
 * passing time on).  From then on the stages above read those bits and
 * need the SymSpecs only for -k (sym_id_arc_ok).  GNU's default
 * exclusions (the profiling runtime's entry points) join EXCL_TIME,
 * EXCL_GRAPH and EXCL_FLAT. */
#ifndef SYM_IDS_H
#define SYM_IDS_H
#include "symtab.h"

enum {
  INCL_GRAPH, EXCL_GRAPH, INCL_ARCS, EXCL_ARCS, INCL_FLAT, EXCL_FLAT,
  INCL_TIME, EXCL_TIME, INCL_ANNO, EXCL_ANNO, INCL_EXEC, EXCL_EXEC,
  NUM_TABLES
};

typedef struct SymSpec SymSpec;
typedef struct {
  SymSpec *specs, **tail;
  int table_used[NUM_TABLES];   /* does the table hold any symbol? */
} SymSpecs;

void sym_id_init(SymSpecs *sp);
void sym_id_free(SymSpecs *sp);  /* and empty again */
void sym_id_add(SymSpecs *sp, const char *spec, int table);
void sym_id_add_arc(SymSpecs *sp, const char *from, const char *to);   /* -k */
void sym_id_parse(SymSpecs *sp, SymTab *tab);

int sym_id_in(const Sym *s, int table);
static inline int sym_id_in_flat(const Sym *s) { return (s->sel & SEL_FLAT) != 0; }
static inline int sym_id_in_exec(const Sym *s) { return (s->sel & SEL_EXEC) != 0; }
static inline int sym_id_in_anno(const Sym *s) { return (s->sel & SEL_ANNO) != 0; }
int sym_id_arc_ok(const SymSpecs *sp, const SymTab *tab, const Sym *parent, const Sym *child);
void sym_id_flags(Sym *s);       /* last word on print_flag and prop_fract */

/* The name S prints under: demangled when TAB's opts.demangle. */
const char *sym_print_name(const SymTab *tab, const Sym *s);
/* The print name plus, under --inline-file-names, "(file:line)" (under
   -l "(file:line @ addr)"): TAB's opts. */
const char *sym_label(const SymTab *tab, const Sym *s);
#endif
