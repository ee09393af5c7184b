/* source.c -- source file names of symbols.
 * Looking a position up costs a search of the debug information, and
 * without any a scan of the whole symbol table, so it is done only for the
 * symbols whose file is printed, and not at all for objects without line
 * information. */
#include <stdlib.h>
#include <string.h>
#include "source.h"
#include "core.h"

const char *src_base_name(const char *p)
{
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void lookup(const SymTab *tab, Sym *s)
{
  const char *f;
  int line;
  s->file_done = 1;
  if (!s->is_cycle && tab->core && core_has_line_info(tab->core)
      && core_src_info(tab->core, s->addr, &f, &line)) {
    s->file = f;
    s->line = line;
  }
}

/* The lookup fills fields of the symbol: a cache, so the symbol is
   logically unchanged. */
const char *src_sym_path(const SymTab *tab, const Sym *cs)
{
  Sym *s = (Sym *)cs;
  if (!s->file_done) lookup(tab, s);
  return s->file;
}

int src_sym_line(const SymTab *tab, const Sym *s)
{
  return src_sym_path(tab, s) ? s->line : 0;
}

const char *src_sym_file(const SymTab *tab, const Sym *s)
{
  const char *f = src_sym_path(tab, s);
  return f && !tab->opts.print_path ? src_base_name(f) : f;
}

FILE *src_open(const char *path, const char *dirs)
{
  FILE *f = fopen(path, "r");
  if (f || !dirs) return f;
  const char *base = src_base_name(path), *d = dirs;
  while (*d) {
    const char *e = strchr(d, ':');
    size_t len = e ? (size_t)(e - d) : strlen(d);
    if (!len) { d += e != NULL; continue; }
    char *name = xmalloc(len + strlen(base) + 2);
    memcpy(name, d, len);
    sprintf(name + len, "/%s", base);
    f = fopen(name, "r");
    free(name);
    if (f) return f;
    d += len + (e != NULL);
  }
  return NULL;
}
