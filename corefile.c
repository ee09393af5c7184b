/* corefile.c -- decide which BFD symbols are functions and build symtab. */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <string.h>
#include "core.h"
#include "symtab.h"

extern bfd *core_bfd;
extern asymbol **core_syms;
extern long core_num_syms;
extern asection *core_text_sect;

static int static_name_ok(const char *n);

/* 'T' for a global text symbol, 't' for a static one, 0 to ignore it.
   GNU treats weak symbols ('W') as global text wherever they live. */
static int sym_class(asymbol *sym)
{
  symbol_info info;
  if (!sym->section || bfd_is_und_section(sym->section)
      || bfd_is_com_section(sym->section))
    return 0;
  if (sym->flags & (BSF_SECTION_SYM | BSF_FILE | BSF_DEBUGGING))
    return 0;
  bfd_get_symbol_info(core_bfd, sym, &info);
  int c = info.type;
  if (c == 'W') c = 'T';
  if (c != 'T' && c != 't') return 0;
  /* -D changes nothing for ELF in GNU 2.40 (NOTYPE text symbols such as
     etext stay): measured, so it is accepted and ignored here. */
  const char *n = sym->name;
  if (!n || !*n) return 0;
  if (bfd_is_local_label(core_bfd, sym)) return 0;
  if (!strncmp(n, "__gnu_compiled", 14) || !strncmp(n, "___gnu_compiled", 15))
    return 0;
  if (c == 't' && !static_name_ok(n)) return 0;
  return c;
}

/* GNU keeps a static symbol with a '.' in its name only when every
   dotted part is a number or "clone" (nested functions, old GCC clones);
   .part, .cold, .isra and the like are dropped, as is any '$'. */
static int static_name_ok(const char *n)
{
  if (strchr(n, '$')) return 0;
  const char *p = strchr(n, '.');
  while (p) {
    const char *q = p + 1, *e = strchr(q, '.');
    size_t len = e ? (size_t)(e - q) : strlen(q);
    if (len == 0) return 0;
    int digits = 1;
    for (size_t i = 0; i < len; i++)
      if (q[i] < '0' || q[i] > '9') digits = 0;
    if (!digits && !(len == 5 && !strncmp(q, "clone", 5))) return 0;
    p = e;
  }
  return 1;
}

void core_create_function_syms(void)
{
  char lead = bfd_get_symbol_leading_char(core_bfd);
  size_t n = 0;
  long i;
  symtab.base = xmalloc(((size_t)core_num_syms + 1) * sizeof(Sym));
  for (i = 0; i < core_num_syms; i++) {
    asymbol *as = core_syms[i];
    int c = sym_class(as);
    if (!c) continue;
    if (opt.no_static && c == 't') continue;
    Sym *s = &symtab.base[n++];
    sym_init(s);
    const char *name = as->name;
    if (lead && name[0] == lead) name++;
    s->name = name;
    s->addr = bfd_asymbol_value(as);
    s->is_static = (c == 't');
    s->is_func = (as->flags & BSF_FUNCTION) != 0;
    s->end_addr = s->addr;
    DBG(DBG_SYMTAB, "symtab: keep %s at 0x%llx (%s%s)\n", name,
        (unsigned long long)s->addr, c == 't' ? "static" : "global",
        s->is_func ? ", function" : "");
  }
  symtab.len = n;
  symtab_finalize(&symtab);
  /* The last symbol covers its own address only (as GNU's does: seen
     with -S tables, where nothing follows it). */
}

/* -S: symbols from an nm-style table ("address type name", as in
   /proc/kallsyms) instead of the object's.  Text symbols ('T', 't') are
   kept; other lines are skipped.  Source files are not looked up. */
void core_read_external_symtab(const char *filename)
{
  FILE *f = fopen(filename, "r");
  if (!f)
    fatal("%s: could not open %s.\n", opt.whoami, filename);
  size_t cap = 1024, n = 0;
  symtab.base = xmalloc(cap * sizeof(Sym));
  char line[4096], name[4096];
  while (fgets(line, sizeof line, f)) {
    unsigned long long addr;
    char type;
    if (sscanf(line, "%llx %c %4095s", &addr, &type, name) != 3) continue;
    if (type != 'T' && type != 't') continue;
    if (opt.no_static && type == 't') continue;
    if (n == cap) symtab.base = xrealloc(symtab.base, (cap *= 2) * sizeof(Sym));
    Sym *s = &symtab.base[n++];
    sym_init(s);
    s->name = xstrdup(name);
    s->addr = s->end_addr = addr;
    s->is_static = type == 't';
    s->is_func = 1;
    s->file_done = 1;
  }
  fclose(f);
  symtab.len = n;
  symtab_finalize(&symtab);
}
