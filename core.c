/* core.c -- open the profiled object with BFD and answer questions about it. */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core.h"
#include "symtab.h"

bfd *core_bfd;
asymbol **core_syms;
long core_num_syms;
asection *core_text_sect;

void core_init(const char *filename)
{
  struct stat st;
  bfd_init();
  /* GNU reports a directory the way it reports a missing file. */
  if (stat(filename, &st) == 0 && S_ISDIR(st.st_mode))
    fatal("%s: %s\n", filename, strerror(ENOENT));
  core_bfd = bfd_openr(filename, NULL);
  if (!core_bfd)
    fatal("%s: %s\n", filename, bfd_errmsg(bfd_get_error()));
  if (!bfd_check_format(core_bfd, bfd_object))
    fatal("%s: %s: not in executable format\n", opt.whoami, filename);

  opt.addr_size = bfd_arch_bits_per_address(core_bfd) / 8;
  if (opt.addr_size != 4 && opt.addr_size != 8)
    opt.addr_size = bfd_get_arch_size(core_bfd) == 32 ? 4 : 8;
  opt.big_endian = bfd_big_endian(core_bfd);
  opt.min_insn_size = 1;
  switch (bfd_get_arch(core_bfd)) {
  case bfd_arch_vax: case bfd_arch_i386: default: opt.min_insn_size = 1; break;
  case bfd_arch_aarch64: case bfd_arch_sparc: case bfd_arch_mips:
  case bfd_arch_alpha: opt.min_insn_size = 4; break;
  }

  core_text_sect = bfd_get_section_by_name(core_bfd, ".text");
  if (!core_text_sect) {
    core_text_sect = bfd_get_section_by_name(core_bfd, "$CODE$");
    if (!core_text_sect)
      fatal("%s: can't find .text section in %s\n", opt.whoami, filename);
  }

  long sz = bfd_get_symtab_upper_bound(core_bfd);
  if (sz < 0)
    fatal("%s: %s\n", filename, bfd_errmsg(bfd_get_error()));
  core_syms = xmalloc((size_t)sz);
  core_num_syms = bfd_canonicalize_symtab(core_bfd, core_syms);
  if (core_num_syms < 0)
    fatal("%s: %s\n", filename, bfd_errmsg(bfd_get_error()));
  if (core_num_syms == 0)
    fatal("%s: file `%s' has no symbols\n", opt.whoami, filename);
}

int core_has_line_info(void)
{
  static int known = -1;
  if (known < 0)
    known = bfd_get_section_by_name(core_bfd, ".debug_line") != NULL
         || bfd_get_section_by_name(core_bfd, ".debug_info") != NULL
         || bfd_get_section_by_name(core_bfd, ".stab") != NULL;
  return known;
}

int core_src_info(vma_t addr, const char **file, int *line)
{
  const char *fname = NULL, *func = NULL;
  unsigned int l = 0;
  asection *sec;
  for (sec = core_bfd->sections; sec; sec = sec->next) {
    vma_t lo = bfd_section_vma(sec);
    if (!(bfd_section_flags(sec) & SEC_CODE)) continue;
    if (addr >= lo && addr < lo + bfd_section_size(sec)) break;
  }
  if (!sec) sec = core_text_sect;
  if (bfd_find_nearest_line(core_bfd, sec, core_syms,
                            addr - bfd_section_vma(sec), &fname, &func, &l)
      && fname && l) {
    *file = fname;
    *line = (int)l;
    return 1;
  }
  *file = NULL;
  *line = 0;
  return 0;
}

/* The contents of the text section, read on first use (-c); NULL when
   they cannot be read. */
const unsigned char *core_text_space(vma_t *vma, size_t *size)
{
  static unsigned char *space;
  static int tried;
  if (!tried) {
    tried = 1;
    bfd_size_type sz = bfd_section_size(core_text_sect);
    if (sz > 0 && (bfd_section_flags(core_text_sect) & SEC_HAS_CONTENTS)) {
      space = xmalloc((size_t)sz);
      if (!bfd_get_section_contents(core_bfd, core_text_sect, space, 0, sz)) {
        free(space);
        space = NULL;
      }
    }
  }
  *vma = bfd_section_vma(core_text_sect);
  *size = space ? (size_t)bfd_section_size(core_text_sect) : 0;
  return space;
}

Sym *core_indirect_child(void)
{
  static Sym ic;
  if (!ic.name) {
    sym_init(&ic);
    ic.name = "<indirect child>";
    ic.uf = ic.cyc_tail = &ic;  /* as cg_assemble sets up symtab's */
  }
  return &ic;
}

/* -c: scan every function's code for calls and add them as arcs of count
   zero, with the scanner of the object's BFD architecture (one file per
   ISA); others get GNU's message, once, and no arcs.  Tahoe has no BFD
   architecture in 2.40: its scanner is reached by unit tests only. */
void core_find_calls(vma_t lowpc, vma_t highpc)
{
  void (*scan)(Sym *, vma_t, vma_t, vma_t, vma_t) = NULL;
  switch (bfd_get_arch(core_bfd)) {
  case bfd_arch_i386: scan = i386_find_call; break;
  case bfd_arch_aarch64: scan = aarch64_find_call; break;
  case bfd_arch_sparc: scan = sparc_find_call; break;
  case bfd_arch_mips: scan = mips_find_call; break;
  case bfd_arch_alpha: scan = alpha_find_call; break;
  case bfd_arch_vax: scan = vax_find_call; break;
  default: break;
  }
  if (!scan) {
    fprintf(stderr, "%s: -c not supported on architecture %s\n", opt.whoami,
            bfd_printable_name(core_bfd));
    return;
  }
  core_scan_calls(scan, lowpc, highpc);
}

void core_scan_calls(void (*scan)(Sym *, vma_t, vma_t, vma_t, vma_t), vma_t lowpc,
                     vma_t highpc)
{
  for (size_t i = 0; i < symtab.len; i++) {
    Sym *s = &symtab.base[i];
    /* the range GNU scans: the function, clipped to the histogram */
    vma_t start = s->addr, end = i + 1 < symtab.len ? s->end_addr + 1 : s->addr;
    if (start < lowpc) start = lowpc;
    if (end > highpc) end = highpc;
    if (start < end) scan(s, start, end, lowpc, highpc);
  }
}
