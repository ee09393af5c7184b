/* core.c -- open the profiled object with BFD and answer questions about it. */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/options.h"
#include "core.h"

void core_init(Core *c, const char *filename)
{
  struct stat st;
  memset(c, 0, sizeof *c);
  c->line_info = -1;
  bfd_init();
  /* GNU reports a directory the way it reports a missing file. */
  if (stat(filename, &st) == 0 && S_ISDIR(st.st_mode))
    fatal_perror(filename, strerror(ENOENT));
  bfd *abfd = bfd_openr(filename, NULL);
  if (!abfd)
    fatal_perror(filename, bfd_errmsg(bfd_get_error()));
  abfd->flags |= BFD_DECOMPRESS;  /* compressed debug sections (-gz) */
  if (!bfd_check_format(abfd, bfd_object))
    msg_fatal("%s: not in executable format\n", filename);
  c->abfd = abfd;

  /* GNU reads the profile with the object's address size as its format
     gives it (the ELF class: 4 bytes for x32 and mips n32, 8 for an ELF64
     of a machine BFD does not know), not the architecture's. */
  int arch_size = bfd_get_arch_size(abfd);
  if (arch_size != 32 && arch_size != 64)
    arch_size = bfd_arch_bits_per_address(abfd) > 32 ? 64 : 32;
  c->addr_size = arch_size / 8;
  c->big_endian = bfd_big_endian(abfd);
  switch (bfd_get_arch(abfd)) {
  case bfd_arch_vax: case bfd_arch_i386: default: c->min_insn_size = 1; break;
  case bfd_arch_aarch64: case bfd_arch_sparc: case bfd_arch_mips:
  case bfd_arch_alpha: c->min_insn_size = 4; break;
  }

  c->text = bfd_get_section_by_name(abfd, ".text");
  if (!c->text) {
    c->text = bfd_get_section_by_name(abfd, "$CODE$");
    if (!c->text)
      msg_fatal("can't find .text section in %s\n", filename);
  }

  long sz = bfd_get_symtab_upper_bound(abfd);
  if (sz < 0)
    fatal_perror(filename, bfd_errmsg(bfd_get_error()));
  c->syms = xmalloc((size_t)sz);
  c->nsyms = bfd_canonicalize_symtab(abfd, c->syms);
  if (c->nsyms < 0)
    fatal_perror(filename, bfd_errmsg(bfd_get_error()));
  if (c->nsyms == 0)
    msg_fatal("file `%s' has no symbols\n", filename);
  sym_init(&c->indirect_child);
  c->indirect_child.name = "<indirect child>";
  c->indirect_child.uf = c->indirect_child.cyc_tail = &c->indirect_child;
}

int core_has_line_info(Core *c)
{
  if (c->line_info < 0)
    c->line_info = bfd_get_section_by_name(c->abfd, ".debug_line") != NULL
                || bfd_get_section_by_name(c->abfd, ".debug_info") != NULL
                || bfd_get_section_by_name(c->abfd, ".stab") != NULL;
  return c->line_info;
}

int core_src_func_info(const Core *c, vma_t addr, const char **file, int *line,
                       const char **func)
{
  const char *fname = NULL, *fn = NULL;
  unsigned int l = 0;
  asection *sec;
  for (sec = c->abfd->sections; sec; sec = sec->next) {
    vma_t lo = bfd_section_vma(sec);
    if (!(bfd_section_flags(sec) & SEC_CODE)) continue;
    if (addr >= lo && addr < lo + bfd_section_size(sec)) break;
  }
  if (!sec) sec = c->text;
  if (bfd_find_nearest_line(c->abfd, sec, c->syms,
                            addr - bfd_section_vma(sec), &fname, &fn, &l)
      && fname && l) {
    *file = fname;
    *line = (int)l;
    if (func) *func = fn;
    return 1;
  }
  *file = NULL;
  *line = 0;
  if (func) *func = NULL;
  return 0;
}

static int cmp_seq(const void *a, const void *b)
{
  const Sym *x = *(const Sym *const *)a, *y = *(const Sym *const *)b;
  return (x->bfd_seq > y->bfd_seq) - (x->bfd_seq < y->bfd_seq);
}

void core_prime_src_info(Core *c, const SymTab *funcs)
{
  if (c->src_primed || !core_has_line_info(c)) return;
  c->src_primed = 1;
  const Sym **v = xmalloc((funcs->len + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < funcs->len; i++)
    if (!funcs->base[i].is_line && !funcs->base[i].is_cycle) v[n++] = &funcs->base[i];
  qsort(v, n, sizeof *v, cmp_seq);
  for (size_t i = 0; i < n; i++) {
    const char *f;
    int l;
    core_src_info(c, v[i]->addr, &f, &l);
  }
  free(v);
}

int core_src_info(const Core *c, vma_t addr, const char **file, int *line)
{
  return core_src_func_info(c, addr, file, line, NULL);
}

const unsigned char *core_text_space(Core *c, vma_t *vma, size_t *size)
{
  if (!c->text_tried) {
    c->text_tried = 1;
    bfd_size_type sz = bfd_section_size(c->text);
    /* a section cannot hold more bytes than the file: a crafted header
       gets no allocation of what it claims (-c then finds nothing) */
    ufile_ptr fsz = bfd_get_file_size(c->abfd);
    if (fsz > 0 && sz > fsz) sz = 0;
    if (sz > 0 && (bfd_section_flags(c->text) & SEC_HAS_CONTENTS)) {
      c->text_space = xmalloc((size_t)sz);
      if (!bfd_get_section_contents(c->abfd, c->text, c->text_space, 0, sz)) {
        free(c->text_space);
        c->text_space = NULL;
      }
    }
  }
  *vma = bfd_section_vma(c->text);
  *size = c->text_space ? (size_t)bfd_section_size(c->text) : 0;
  return c->text_space;
}

vma_t core_text_end(const Core *c)
{
  return bfd_section_vma(c->text) + bfd_section_size(c->text);
}

int core_build_id(const Core *c, unsigned char *id, size_t len)
{
  for (asection *sec = c->abfd->sections; sec; sec = sec->next) {
    const char *name = bfd_section_name(sec);
    bfd_size_type size = bfd_section_size(sec);
    if (strncmp(name, ".note", 5) != 0 || size < 12 || size > (1u << 20)
        || !(bfd_section_flags(sec) & SEC_HAS_CONTENTS))
      continue;
    unsigned char *buf = xmalloc(size);
    if (!bfd_get_section_contents(c->abfd, sec, buf, 0, size)) { free(buf); continue; }
    /* notes: namesz, descsz, type (the object's byte order), then the
       name and the descriptor, each padded to 4 bytes (8 in a section
       aligned to 8, as .note.gnu.property) */
    bfd_size_type a = bfd_section_alignment(sec) == 3 ? 7 : 3;
    for (bfd_size_type p = 0; size - p >= 12;) {
      bfd_size_type namesz = bfd_get_32(c->abfd, buf + p);
      bfd_size_type descsz = bfd_get_32(c->abfd, buf + p + 4);
      unsigned long type = bfd_get_32(c->abfd, buf + p + 8);
      bfd_size_type desc = p + 12 + ((namesz + a) & ~a);
      bfd_size_type next = desc + ((descsz + a) & ~a);
      if (namesz > size || descsz > size || next > size) break;
      if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && !memcmp(buf + p + 12, "GNU", 4)
          && descsz > 0) {
        memset(id, 0, len);
        memcpy(id, buf + desc, descsz < len ? descsz : len);
        free(buf);
        return (int)descsz;
      }
      p = next;
    }
    free(buf);
  }
  return 0;
}

size_t core_code_ranges(const Core *c, vma_t (*ranges)[2], size_t max)
{
  size_t n = 0;
  for (asection *sec = c->abfd->sections; sec && n < max; sec = sec->next) {
    flagword f = bfd_section_flags(sec);
    if (!(f & SEC_CODE) || !(f & SEC_ALLOC) || bfd_section_size(sec) == 0) continue;
    ranges[n][0] = bfd_section_vma(sec);
    ranges[n][1] = bfd_section_vma(sec) + bfd_section_size(sec);
    /* the largest first: nearly every address the reader asks about is
       there (.text), so it is found at the first test */
    if (n && ranges[n][1] - ranges[n][0] > ranges[0][1] - ranges[0][0]) {
      vma_t lo = ranges[0][0], hi = ranges[0][1];
      ranges[0][0] = ranges[n][0]; ranges[0][1] = ranges[n][1];
      ranges[n][0] = lo; ranges[n][1] = hi;
    }
    n++;
  }
  return n;
}

int core_file_offset(const Core *c, vma_t addr, uint64_t *off)
{
  for (asection *sec = c->abfd->sections; sec; sec = sec->next) {
    vma_t lo = bfd_section_vma(sec);
    if (!(bfd_section_flags(sec) & SEC_HAS_CONTENTS) || addr < lo || addr - lo >= bfd_section_size(sec))
      continue;
    *off = (uint64_t)sec->filepos + (addr - lo);
    return 1;
  }
  return 0;
}

/* -c: scan every function's code for calls and report them. */
void core_find_calls(Core *c, const SymTab *syms, vma_t lowpc, vma_t highpc,
                     CoreCallFn add, void *ctx)
{
  CoreFinder scan = NULL;
  switch (bfd_get_arch(c->abfd)) {
  case bfd_arch_i386: scan = i386_find_call; break;
  case bfd_arch_aarch64: scan = aarch64_find_call; break;
  case bfd_arch_sparc: scan = sparc_find_call; break;
  case bfd_arch_mips: scan = mips_find_call; break;
  case bfd_arch_alpha: scan = alpha_find_call; break;
  case bfd_arch_vax: scan = vax_find_call; break;
  default: break;
  }
  if (!scan) {
    fflush(stdout);
    fprintf(stderr, "%s: -c not supported on architecture %s\n", util_name(),
            bfd_printable_name(c->abfd));
    return;
  }
  CallScan cs;
  cs.text = core_text_space(c, &cs.text_vma, &cs.text_size);
  if (!cs.text) return;
  cs.lowpc = lowpc;
  cs.highpc = highpc;
  cs.big_endian = c->big_endian;
  cs.syms = syms;
  cs.indirect = &c->indirect_child;
  cs.add = add;
  cs.ctx = ctx;
  core_scan_calls(&cs, scan);
}

void core_scan_calls(const CallScan *cs, CoreFinder scan)
{
  const SymTab *syms = cs->syms;
  for (size_t i = 0; i < syms->len; i++) {
    Sym *s = &syms->base[i];
    /* the range GNU scans: the function, clipped to the histogram */
    vma_t start = s->addr, end = i + 1 < syms->len ? s->end_addr + 1 : s->addr;
    if (start < cs->lowpc) start = cs->lowpc;
    if (end > cs->highpc) end = cs->highpc;
    if (start < end) scan(cs, s, start, end);
  }
}
