/* corefile.c -- decide which BFD symbols are functions and build symtab. */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <errno.h>
#include <bfd.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "corefile.h"

static int dotted_ok(const char *n);
static int map_apply(const CoreMap *m, Sym *s);

/* 'T' for a global text symbol, 't' for a static one, 0 to ignore it.
   GNU treats weak symbols ('W') as global text wherever they live. */
static int sym_class(const Core *core, asymbol *sym)
{
  symbol_info info;
  if (!sym->section || bfd_is_und_section(sym->section)
      || bfd_is_com_section(sym->section))
    return 0;
  if (sym->flags & (BSF_SECTION_SYM | BSF_FILE | BSF_DEBUGGING))
    return 0;
  bfd_get_symbol_info(core->abfd, sym, &info);
  int c = info.type;
  if (c == 'W') c = 'T';
  if (c != 'T' && c != 't') return 0;
  /* -D changes nothing for ELF in GNU 2.40 (NOTYPE text symbols such as
     etext stay): measured, so it is accepted and ignored here. */
  const char *n = sym->name;
  if (!n || !*n) return 0;
  if (bfd_is_local_label(core->abfd, sym)) return 0;
  if (!strncmp(n, "__gnu_compiled", 14) || !strncmp(n, "___gnu_compiled", 15))
    return 0;
  if (c == 't' && (strchr(n, '$') || !dotted_ok(n))) return 0;
  return c;
}

/* A dotted name GNU accepts: after the base name, every part is a number
   or "clone"/"constprop" followed by a number part (foo.5, foo.clone.3,
   foo.constprop.0.5); .part.N, .cold, .isra.N, .lto_priv.N, a bare
   .constprop and the like are not.  Measured on hand-made symbol tables. */
static int dotted_ok(const char *n)
{
  const char *p = strchr(n, '.');
  while (p) {
    const char *q = p + 1;
    size_t kw = !strncmp(q, "clone.", 6) ? 6 : !strncmp(q, "constprop.", 10) ? 10 : 0;
    q += kw;
    const char *d = q;
    while (*d >= '0' && *d <= '9') d++;
    if (d == q || (*d && *d != '.')) return 0;
    p = *d ? d : NULL;
  }
  return 1;
}

/* Which static functions with an acceptable dotted name GNU drops after
   all: walking the symbol table in order, such a function waits until
   either a local symbol without a dot comes (it is kept) or a symbol with
   an unacceptable name comes -- a FILE symbol "x.o", a .cold part, a
   global "x.y", a local with '$' -- (it is dropped, with every other
   waiting one).  Globals without a dot and fine dotted symbols of other
   kinds change nothing, and neither does a symbol whose name appeared
   earlier in the table (a second static "step" or "x.cold"); such a
   function is never made to wait.  Measured (doc/DESIGN.md); it accounts
   for all 15 .constprop functions of a static glibc binary. */
typedef struct { const char **slot; size_t mask; } NameSet;

static size_t name_hash(const char *s)
{
  size_t h = 5381;
  while (*s) h = h * 33 + (unsigned char)*s++;
  return h;
}

/* Adds S; returns 0 if it was there already. */
static int nameset_add(NameSet *ns, const char *s)
{
  size_t i = name_hash(s) & ns->mask;
  while (ns->slot[i]) {
    if (!strcmp(ns->slot[i], s)) return 0;
    i = (i + 1) & ns->mask;
  }
  ns->slot[i] = s;
  return 1;
}

static unsigned char *dotted_statics_dropped(const Core *core)
{
  size_t n = (size_t)core->nsyms, cap = 16;
  while (cap < 2 * n + 2) cap *= 2;
  NameSet seen = { xcalloc(cap, sizeof *seen.slot), cap - 1 };
  unsigned char *drop = xcalloc(n + 1, 1);
  size_t *wait = xmalloc((n + 1) * sizeof *wait), nwait = 0;
  for (size_t i = 0; i < n; i++) {
    asymbol *as = core->syms[i];
    const char *name = as->name;
    if (!name || !nameset_add(&seen, name)) continue;
    int local = !(as->flags & (BSF_GLOBAL | BSF_WEAK | BSF_GNU_UNIQUE));
    int bad;
    if (local && strchr(name, '$')) bad = 1;
    else if (!strchr(name, '.')) {
      if (local) nwait = 0;
      continue;
    } else bad = !dotted_ok(name);
    if (bad) {
      while (nwait) drop[wait[--nwait]] = 1;
    } else if (sym_class(core, as) == 't') {
      wait[nwait++] = i;
    }
  }
  free(wait);
  free(seen.slot);
  return drop;
}

/* A static function GNU's rules leave out for its name alone (a dot it
   does not accept, or dropped after all): GCC's clones, f.isra.0,
   f.part.0, f.cold, f.lto_priv.0, some f.constprop.0.  Not a local label,
   nor a name with '$' (libprof's hidden ones). */
static int dropped_func(const Core *core, asymbol *as, int c, int late)
{
  if (c && !(c == 't' && late)) return 0;
  if (!as->section || !(as->flags & BSF_FUNCTION) || !(as->flags & BSF_LOCAL)
      || bfd_is_und_section(as->section) || !(as->section->flags & SEC_CODE))
    return 0;
  const char *n = as->name;
  if (!n || !*n || !strchr(n, '.') || strchr(n, '$') || bfd_is_local_label(core->abfd, as)) return 0;
  return 1;
}

size_t core_dropped_funcs(const Core *core)
{
  unsigned char *late = dotted_statics_dropped(core);
  size_t n = 0;
  for (long i = 0; i < core->nsyms; i++)
    n += (size_t)dropped_func(core, core->syms[i], sym_class(core, core->syms[i]), late[i]);
  free(late);
  return n;
}

void core_create_function_syms(const Core *core, const CoreMap *m, SymTab *tab)
{
  char lead = bfd_get_symbol_leading_char(core->abfd);
  size_t n = 0;
  long i;
  tab->base = xmalloc_huge(((size_t)core->nsyms + 1) * sizeof(Sym));
  unsigned char *late_drop = dotted_statics_dropped(core);
  for (i = 0; i < core->nsyms; i++) {
    asymbol *as = core->syms[i];
    int c = sym_class(core, as);
    if (tab->opts.all_funcs && dropped_func(core, as, c, late_drop[i])) c = 't', late_drop[i] = 0;
    if (!c || (c == 't' && late_drop[i])) continue;
    if (tab->opts.no_static && c == 't') continue;
    Sym *s = &tab->base[n++];
    sym_init(s);
    const char *name = as->name;
    if (lead && name[0] == lead) name++;
    s->name = name;
    if (!map_apply(m, s)) {
      n--;
      continue;
    }
    s->addr = bfd_asymbol_value(as);
    s->bfd_seq = (unsigned)i;
    s->is_static = (c == 't');
    s->is_func = (as->flags & BSF_FUNCTION) != 0;
    s->end_addr = s->addr;
    DBG(tab->opts.debug, DBG_SYMTAB, "symtab: keep %s at 0x%llx (%s%s)\n", name,
        (unsigned long long)s->addr, c == 't' ? "static" : "global",
        s->is_func ? ", function" : "");
  }
  free(late_drop);
  tab->len = n;
  tab->core = (Core *)core;
  symtab_finalize(tab);
  /* The last symbol (measured on GNU 2.40 with hand-made objects): inside
     .text it takes the arcs of every address up to the end of .text, but
     no samples; at or past the end it covers its own address only, takes
     no samples and is never an arc's end (call_graph.c). */
  tab->last_no_arcs = 0;
  tab->last_hist_end = 0;
  if (tab->len) {
    Sym *last = &tab->base[tab->len - 1];
    vma_t end = core_text_end(core);
    if (last->addr < end) last->end_addr = end - 1;
    else tab->last_no_arcs = 1;
    tab->last_hist_end = last->addr;
  }
}

/* -S: symbols from an nm-style table ("address type name", as in
   /proc/kallsyms) instead of the object's.  Text symbols ('T', 't') are
   kept; other lines are skipped.  Source files are not looked up. */
/* Text inputs (-S tables, -R maps) from a pipe or device stop here. */
#define CORE_TEXT_MAX (256ull << 20)

void core_read_external_symtab_stream(const Core *core, SymTab *tab, const char *filename,
                                      BoundedIn *in)
{
  size_t cap = 1024, n = 0;
  tab->base = xmalloc(cap * sizeof(Sym));
  /* GNU reads the table in pieces of at most 1022 characters: a longer
     line's name is cut there and the rest is read as a line of its own
     (measured with 1000- to 5000-character names) */
  char line[1023], name[1023];
  while (fgets(line, sizeof line, in->f)) {
    unsigned long long addr;
    char type;
    if (sscanf(line, "%llx %c %1022s", &addr, &type, name) != 3) continue;
    /* GNU keeps 't' lines even with -a */
    if (type != 'T' && type != 't') continue;
    if (n == cap) tab->base = xrealloc(tab->base, (cap *= 2) * sizeof(Sym));
    Sym *s = &tab->base[n++];
    sym_init(s);
    s->name = xstrdup(name);
    s->addr = s->end_addr = addr;
    s->is_static = type == 't';
    s->is_func = 1;
    s->file_done = 1;
  }
  tab->len = n;
  tab->core = (Core *)core;
  tab->owns_names = 1;
  if (bounded_overrun(in))
    msg_fatal("%s: no end of file after %llu bytes\n", filename,
              (unsigned long long)CORE_TEXT_MAX);
  /* an empty table (an empty file, a directory, an object, only data
     symbols): GNU's message for an object without symbols */
  if (!n) msg_fatal("file `%s' has no symbols\n", filename);
  symtab_finalize(tab);
  /* Unlike the object's own table, the last symbol of an external table
     reaches to the end of the object's .text (so it takes the samples and
     calls of everything above it there). */
  if (tab->len && core)
    tab->base[tab->len - 1].end_addr = core_text_end(core) - 1;
}

void core_read_external_symtab(const Core *core, SymTab *tab, const char *filename)
{
  BoundedIn in;
  if (bounded_open(&in, filename, CORE_TEXT_MAX))
    msg_fatal("could not open %s.\n", filename);
  core_read_external_symtab_stream(core, tab, filename, &in);
  bounded_close(&in);
}

/* ---- -R: the function-to-object map ----
 *
 * Measured on GNU gprof 2.40 (doc/DESIGN.md, "-R"): a record is an object
 * name up to the first ':' (leading blanks kept, no newline in it), then
 * the rest of the line; the symbol is what follows the last blank of that
 * rest (nm's "address type name" yields the name; a trailing blank yields
 * no name).  Whitespace after a record, blank lines included, is skipped.
 * A function named by a record that follows a record of the same object
 * is left out of the symbol table altogether (its addresses fall to the
 * function before it), so of nm's output only the first symbol of each
 * object stays, renamed, and absorbs the rest.  A symbol
 * named by several records gets the one a binary search of the records,
 * sorted by name with ties in file order, lands on. */
struct CoreMapEnt {
  const char *name;
  unsigned file;                /* 1 + index in CoreMap.files */
  int cont;                     /* same object as the record before */
  size_t seq;
};

static int map_ent_cmp(const void *a, const void *b)
{
  const CoreMapEnt *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int str_cmp(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* GNU reads the rest of a record into a 1 KiB buffer: 1023 characters or
   more give "unable to parse" (measured; a little less without a blank
   crashes it).  Its object names overflow a buffer of the same size, so
   we hold them to the same limit. */
#define MAP_FIELD_MAX 1023

typedef struct { int state; size_t len; } MapScan;

/* Checks new bytes as they are read, so that a file that is not a map
   (or never ends, like /dev/zero) fails at its first bad record instead
   of being read whole: the same record rules as the parser below. */
static int map_scan(MapScan *ms, const char *p, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    switch (ms->state) {
    case 2:                     /* whitespace after a record */
      if (isspace((unsigned char)ch)) break;
      ms->state = 0;
      ms->len = 0;
      /* fall through */
    case 0:                     /* the object name */
      if (ch == ':') {
        if (!ms->len) return 0;
        ms->state = 1;
        ms->len = 0;
      } else if (ch == '\n' || ++ms->len >= MAP_FIELD_MAX + 1) {
        return 0;
      }
      break;
    case 1:                     /* the rest of the line */
      if (ch == '\n') ms->state = 2;
      else if (++ms->len >= MAP_FIELD_MAX) return 0;
      break;
    }
  }
  return 1;
}

void core_map_free(CoreMap *m)
{
  free(m->ents);
  free(m->files);
  free(m->text);
  memset(m, 0, sizeof *m);
}

void core_read_map(CoreMap *m, const char *filename, unsigned debug)
{
  BoundedIn in;
  if (bounded_open(&in, filename, CORE_TEXT_MAX))
    msg_fatal("could not open %s.\n", filename);
  core_read_map_stream(m, filename, &in, debug);
  bounded_close(&in);
}

void core_read_map_stream(CoreMap *m, const char *filename, BoundedIn *in, unsigned debug)
{
  memset(m, 0, sizeof *m);
  size_t cap = 1 << 16, len = 0;
  char *buf = xmalloc(cap);
  size_t got;
  MapScan ms = { 0, 0 };
  while ((got = fread(buf + len, 1, cap - len, in->f)) > 0) {
    if (!map_scan(&ms, buf + len, got)) {
      free(buf);
      msg_fatal("unable to parse mapping file %s.\n", filename);
    }
    len += got;
    if (len == cap) buf = xrealloc(buf, cap *= 2);
  }
  if (bounded_overrun(in)) {
    free(buf);
    msg_fatal("%s: no end of file after %llu bytes\n", filename,
              (unsigned long long)CORE_TEXT_MAX);
  }
  /* a map that cannot be read (a directory: GNU loops forever) */
  if (ferror(in->f)) {
    int e = errno;
    free(buf);
    msg_fatal("could not read %s: %s\n", filename, strerror(e ? e : EIO));
  }
  m->text = buf;

  /* records: (object, name) pairs in file order, both cut out of BUF */
  size_t rcap = 256, nrec = 0;
  const char **robj = xmalloc(rcap * sizeof *robj), **rname = xmalloc(rcap * sizeof *rname);
  char *p = buf, *end = buf + len;
  while (p < end) {
    char *obj = p;
    while (p < end && *p != ':' && *p != '\n') p++;
    if (p == obj || p == end || *p != ':') {
      free(robj);
      free(rname);
      msg_fatal("unable to parse mapping file %s.\n", filename);
    }
    *p++ = 0;
    char *rest = p;
    while (p < end && *p != '\n') p++;
    char *rest_end = p;
    while (p < end && isspace((unsigned char)*p)) p++;
    *rest_end = 0;
    char *name = rest_end;
    while (name > rest && !is_blank(name[-1])) name--;
    if (nrec == rcap) {
      rcap *= 2;
      robj = xrealloc(robj, rcap * sizeof *robj);
      rname = xrealloc(rname, rcap * sizeof *rname);
    }
    robj[nrec] = obj;
    rname[nrec++] = name;
  }

  /* distinct objects, sorted */
  m->files = xmalloc((nrec + 1) * sizeof *m->files);
  memcpy(m->files, robj, nrec * sizeof *m->files);
  if (nrec > 1) qsort(m->files, nrec, sizeof *m->files, str_cmp);
  for (size_t i = 0; i < nrec; i++)
    if (!m->nfiles || strcmp(m->files[m->nfiles - 1], m->files[i]))
      m->files[m->nfiles++] = m->files[i];

  m->ents = xmalloc((nrec + 1) * sizeof *m->ents);
  for (size_t i = 0; i < nrec; i++) {
    const char **hit = bsearch(&robj[i], m->files, m->nfiles, sizeof *m->files, str_cmp);
    m->ents[m->len].name = rname[i];
    m->ents[m->len].file = (unsigned)(hit - m->files) + 1;
    m->ents[m->len].cont = i && !strcmp(robj[i], robj[i - 1]);
    m->ents[m->len].seq = i;
    m->len++;
  }
  if (m->len > 1) qsort(m->ents, m->len, sizeof *m->ents, map_ent_cmp);
  free(robj);
  free(rname);
  DBG(debug, DBG_SYMTAB, "map: %zu records, %zu objects\n", nrec, m->nfiles);
}

/* The plain binary search (first probe in the middle, lower half on
   "less"), so that among records naming the same symbol we pick the one
   GNU picks. */
static const CoreMapEnt *map_find(const CoreMap *m, const char *name)
{
  size_t lo = 0, hi = m->len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(name, m->ents[mid].name);
    if (c < 0) hi = mid;
    else if (c > 0) lo = mid + 1;
    else return &m->ents[mid];
  }
  return NULL;
}

/* A mapped function takes its object's name everywhere it is printed
   (GNU renames it when the symbol table is built, so symspecs see the
   new name too); returns 0 for a function to leave out. */
static int map_apply(const CoreMap *m, Sym *s)
{
  if (!m || !m->len) return 1;
  const CoreMapEnt *e = map_find(m, s->name);
  if (!e) return 1;
  if (e->cont) return 0;
  s->name = m->files[e->file - 1];
  s->map_file = e->file;
  return 1;
}
