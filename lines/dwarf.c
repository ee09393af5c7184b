/* dwarf.c -- source positions of a whole text section from DWARF (dwarf.h).
 * Reads .debug_line's programs and .debug_info's functions once; the rules
 * that pick BFD's answer among them are in doc/DESIGN.md ("-l at scale"). */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "lines/dwarf.h"

#define GROW(v, n, cap) do { if ((n) == (cap)) { (cap) = (cap) ? 2 * (cap) : 256; \
      (v) = xrealloc((v), (cap) * sizeof *(v)); } } while (0)

typedef DwRd Rd;

static int64_t rd_sleb(Rd *r)
{
  int64_t v = 0;
  int sh = 0;
  while (r->p < r->end) {
    unsigned char b = *r->p++;
    if (sh < 64) v |= (int64_t)((uint64_t)(b & 0x7f) << sh);
    sh += 7;
    if (!(b & 0x80)) {
      if (sh < 64 && (b & 0x40)) v |= -((int64_t)1 << sh);
      return v;
    }
  }
  r->bad = 1;
  return v;
}

static const char *rd_cstr(Rd *r)
{
  const unsigned char *s = r->p;
  const unsigned char *z = memchr(s, 0, (size_t)(r->end - s));
  if (!z) { r->bad = 1; r->p = r->end; return NULL; }
  r->p = z + 1;
  return (const char *)s;
}

typedef struct { unsigned char *buf; size_t len; } Sec;

typedef struct {
  vma_t addr;
  unsigned file;                /* index into DwInfo.files */
  int line;
  unsigned char end, stmt;
  unsigned disc;
} Row;

typedef struct { size_t first, n; vma_t lo, hi; } Seq;

typedef struct {
  uint64_t off;                 /* DIE offset in .debug_info */
  uint64_t origin;              /* abstract_origin / specification, or 0 */
  const char *name, *linkage;
  unsigned char tag_inlined, has_pc, resolved;
  unsigned depth;
} Func;

typedef struct { vma_t lo, hi; size_t func; size_t order; } Range;

struct DwInfo {
  Core *core;
  Sec info, abbrev, line, str, line_str, rsec, rnglists;
  int big;
  char **files;                 /* made file names (owned) */
  size_t nfiles, capfiles;
  Row *rows;
  size_t nrows, caprows;
  Seq *seqs;
  size_t nseqs, capseqs;
  Func *funcs;
  size_t nfuncs, capfuncs;
  Range *ranges;
  size_t nranges, capranges;
  DwSeg *segs;
  size_t nsegs, capsegs;
  int fail;
};

static int load(bfd *abfd, const char *name, Sec *s)
{
  asection *sec = bfd_get_section_by_name(abfd, name);
  s->buf = NULL;
  s->len = 0;
  if (!sec) return 1;
  if (!bfd_malloc_and_get_section(abfd, sec, &s->buf)) return 0;
  s->len = (size_t)bfd_section_size(sec);
  return 1;
}

static const char *sec_str(const Sec *s, uint64_t off)
{
  if (!s->buf || off >= s->len || !memchr(s->buf + off, 0, s->len - off)) return NULL;
  return (const char *)s->buf + off;
}

static unsigned add_file(DwInfo *dw, const char *dir, const char *name, const char *comp_dir)
{
  char *f;
  if (!name) name = "";
  if (name[0] == '/' || !dir || !*dir) {
    if (name[0] != '/' && comp_dir && *comp_dir && dir == NULL) {
      f = xmalloc(strlen(comp_dir) + strlen(name) + 2);
      sprintf(f, "%s/%s", comp_dir, name);
    } else {
      f = xmalloc(strlen(name) + 1);
      strcpy(f, name);
    }
  } else if (dir[0] != '/' && comp_dir && *comp_dir) {
    f = xmalloc(strlen(comp_dir) + strlen(dir) + strlen(name) + 3);
    sprintf(f, "%s/%s/%s", comp_dir, dir, name);
  } else {
    f = xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(f, "%s/%s", dir, name);
  }
  GROW(dw->files, dw->nfiles, dw->capfiles);
  dw->files[dw->nfiles] = f;
  return (unsigned)dw->nfiles++;
}

/* One v5 entry-format list's values: path and directory index. */
static int read_entries(DwInfo *dw, Rd *u, int off8, const char ***out, unsigned **dirs, uint64_t *count)
{
  unsigned nfmt = (unsigned)dw_rd_u(u, 1);
  uint64_t fmt[2 * 256];
  for (unsigned i = 0; i < nfmt; i++) {
    fmt[2 * i] = dw_rd_uleb(u);
    fmt[2 * i + 1] = dw_rd_uleb(u);
  }
  uint64_t n = dw_rd_uleb(u);
  if (u->bad || n > (uint64_t)(u->end - u->p)) return 0;
  *out = xcalloc(n + 1, sizeof **out);
  *dirs = xcalloc(n + 1, sizeof **dirs);
  *count = n;
  for (uint64_t k = 0; k < n; k++) {
    for (unsigned i = 0; i < nfmt; i++) {
      uint64_t ct = fmt[2 * i], form = fmt[2 * i + 1], v = 0;
      const char *s = NULL;
      switch (form) {
      case 0x08: s = rd_cstr(u); break;                                  /* string */
      case 0x1f: s = sec_str(&dw->line_str, dw_rd_u(u, off8 ? 8 : 4)); break; /* line_strp */
      case 0x0e: s = sec_str(&dw->str, dw_rd_u(u, off8 ? 8 : 4)); break;    /* strp */
      case 0x0f: v = dw_rd_uleb(u); break;                                  /* udata */
      case 0x0b: v = dw_rd_u(u, 1); break;
      case 0x05: v = dw_rd_u(u, 2); break;
      case 0x06: v = dw_rd_u(u, 4); break;
      case 0x07: v = dw_rd_u(u, 8); break;
      case 0x1e: u->p += 16; if (u->p > u->end) u->bad = 1; break;        /* data16 */
      case 0x09: { uint64_t l = dw_rd_uleb(u); if (l > (uint64_t)(u->end - u->p)) u->bad = 1; else u->p += l; break; }
      default: return 0;
      }
      if (u->bad) return 0;
      if (ct == 1) (*out)[k] = s;
      else if (ct == 2) (*dirs)[k] = (unsigned)v;
    }
  }
  return 1;
}

/* The addresses dw_line_addrs gathers. */
typedef struct { vma_t *v; size_t n, cap; } Addrs;

/* The one decoder of .debug_line: the line program at OFF of BUF (LEN
   bytes), its unit's end in *NEXT.  STRICT (dw_open's reading, DW set):
   its rows and sequences appended to DW, its files to DW's, with
   COMP_DIR; 0 for anything not decoded exactly as BFD does.  Otherwise
   (the row addresses for linesyms.c's BFD walk, ADDRS set): the address
   of every row and sequence end appended, the file table skipped, and
   what the strict reading refuses taken as far as the addresses go
   (other address sizes, several ops per instruction, standard opcodes by
   the lengths the header gives); 0 only when a header cannot be read. */
static inline __attribute__((always_inline)) int
line_prog(const unsigned char *buf, size_t len, uint64_t off, int big, int addr_size, int strict,
          DwInfo *dw, const char *comp_dir, Addrs *addrs, uint64_t *next)
{
  if (off >= len) return 0;
  Rd r = { buf + off, buf + len, buf, 0, big };
  uint64_t ulen = dw_rd_u(&r, 4);
  int off8 = 0;
  if (ulen == 0xffffffffu) { ulen = dw_rd_u(&r, 8); off8 = 1; }
  if (r.bad || ulen > (uint64_t)(r.end - r.p)) return 0;
  Rd u = { r.p, r.p + ulen, r.start, 0, big };
  *next = (uint64_t)(u.end - buf);
  unsigned version = (unsigned)dw_rd_u(&u, 2);
  int asz = addr_size;
  if (version < 2 || version > 5) return 0;
  if (version >= 5) {
    asz = (int)dw_rd_u(&u, 1);
    if (dw_rd_u(&u, 1) && strict) return 0;            /* segment selectors */
  }
  uint64_t hlen = dw_rd_u(&u, off8 ? 8 : 4);
  if (u.bad || hlen > (uint64_t)(u.end - u.p)) return 0;
  const unsigned char *prog = u.p + hlen;
  unsigned min_insn = (unsigned)dw_rd_u(&u, 1);
  unsigned max_ops = 1;
  if (version >= 4) max_ops = (unsigned)dw_rd_u(&u, 1);
  int def_stmt = (int)dw_rd_u(&u, 1);
  int line_base = (signed char)dw_rd_u(&u, 1);
  unsigned line_range = (unsigned)dw_rd_u(&u, 1);
  unsigned opcode_base = (unsigned)dw_rd_u(&u, 1);
  unsigned char std_len[256];
  memset(std_len, 0, sizeof std_len);
  for (unsigned i = 1; i < opcode_base; i++) std_len[i] = (unsigned char)dw_rd_u(&u, 1);
  if (u.bad || line_range == 0) return 0;
  if (strict ? max_ops != 1 || opcode_base == 0 || (asz != 4 && asz != 8) : asz != 4 && asz != 8 && asz != 2)
    return 0;
  /* file table: index -> DwInfo.files */
  unsigned *fmap = NULL;
  size_t nf = 0, capf = 0;
  size_t file_base = 1;             /* the number of the first entry */
  if (strict && version >= 5) {
    const char **dnames, **fnames;
    unsigned *ddirs, *fdirs;
    uint64_t nd, nfl;
    if (!read_entries(dw, &u, off8, &dnames, &ddirs, &nd)) return 0;
    if (!read_entries(dw, &u, off8, &fnames, &fdirs, &nfl)) { free(dnames); free(ddirs); return 0; }
    for (uint64_t k = 0; k < nfl; k++) {
      const char *dir = fdirs[k] < nd ? dnames[fdirs[k]] : NULL;
      GROW(fmap, nf, capf);
      fmap[nf++] = add_file(dw, dir, fnames[k], comp_dir);
    }
    free(dnames); free(ddirs); free(fnames); free(fdirs);
    file_base = 0;

  } else if (strict) {
    const char *dirs[4096];
    size_t nd = 0;
    for (;;) {
      const char *s = rd_cstr(&u);
      if (u.bad) return 0;
      if (!*s) break;
      if (nd < 4096) dirs[nd++] = s; else return 0;
    }
    for (;;) {
      const char *s = rd_cstr(&u);
      if (u.bad) return 0;
      if (!*s) break;
      uint64_t d = dw_rd_uleb(&u);
      dw_rd_uleb(&u);
      dw_rd_uleb(&u);
      GROW(fmap, nf, capf);
      fmap[nf++] = add_file(dw, d == 0 ? NULL : d <= nd ? dirs[d - 1] : "", s, comp_dir);
    }
  }
  u.p = prog;
  vma_t addr = 0;
  /* BFD 2.40 starts each sequence of a DWARF 5 program at entry 0, the
     primary file, where DWARF says file 1 (which gcc makes another file
     when a header's function comes first in the unit, at -O0); an
     explicit DW_LNS_set_file 1 is entry 1 */
  uint64_t file0 = version >= 5 ? 0 : 1, file = file0;
  int64_t line = 1;
  int stmt = def_stmt;
  unsigned disc = 0;
  size_t seq_first = strict ? dw->nrows : 0;
#define EMIT(isend) do { \
    if (!strict) { \
      GROW(addrs->v, addrs->n, addrs->cap); \
      addrs->v[addrs->n++] = addr; \
      break; \
    } \
    GROW(dw->rows, dw->nrows, dw->caprows); \
    Row *rw = &dw->rows[dw->nrows++]; \
    rw->addr = addr; \
    rw->file = file >= file_base && file - file_base < nf ? fmap[file - file_base] : (unsigned)-1; \
    rw->line = (int)line; rw->end = (isend); rw->stmt = (unsigned char)(stmt != 0); rw->disc = disc; \
  } while (0)
  while (u.p < u.end && !u.bad) {
    unsigned op = *u.p++;
    if (op >= opcode_base) {
      unsigned adj = op - opcode_base;
      addr += (vma_t)(adj / line_range) * min_insn;
      line += line_base + (int)(adj % line_range);
      EMIT(0);
      disc = 0;
      continue;
    }
    if (!strict && op != 0 && op != 1 && op != 2 && op != 8 && op != 9) {
      for (unsigned i = 0; i < std_len[op]; i++) dw_rd_uleb(&u);
      continue;
    }
    switch (op) {
    case 0: {
      uint64_t n = dw_rd_uleb(&u);
      if (n == 0 || n > (uint64_t)(u.end - u.p)) { u.bad = 1; break; }
      const unsigned char *end = u.p + n;
      unsigned sub = *u.p++;
      if (sub == 1) {
        EMIT(1);
        if (strict) {
          GROW(dw->seqs, dw->nseqs, dw->capseqs);
          dw->seqs[dw->nseqs++] = (Seq){ seq_first, dw->nrows - seq_first, 0, 0 };
          seq_first = dw->nrows;
        }
        addr = 0; file = file0; line = 1; stmt = def_stmt; disc = 0;
      } else if (sub == 2) {
        if (strict && n - 1 != (uint64_t)asz) { u.bad = 1; break; }
        addr = (vma_t)dw_rd_u(&u, (int)(n - 1));
      } else if (sub == 4 && strict) {
        disc = (unsigned)dw_rd_uleb(&u);
      } else if (sub == 3 && strict) {
        u.bad = 1;                                 /* DW_LNE_define_file: not here */
      }
      u.p = end;
      break;
    }
    case 1: EMIT(0); disc = 0; break;
    case 2: addr += (vma_t)dw_rd_uleb(&u) * min_insn; break;
    case 3: line += rd_sleb(&u); break;
    case 4: file = dw_rd_uleb(&u); break;
    case 5: dw_rd_uleb(&u); break;
    case 6: stmt = !stmt; break;
    case 7: break;
    case 8: addr += (vma_t)((255 - opcode_base) / line_range) * min_insn; break;
    case 9: addr += (vma_t)dw_rd_u(&u, 2); break;
    case 10: case 11: break;
    case 12: dw_rd_uleb(&u); break;
    default:
      for (unsigned i = 0; i < std_len[op]; i++) dw_rd_uleb(&u);
      break;
    }
  }
#undef EMIT
  free(fmap);
  if (u.bad) return 0;
  if (strict) dw->nrows = seq_first;  /* rows of an unended sequence: dropped */
  return 1;
}

/* The line program at OFF of .debug_line: its rows appended. */
static int read_line_prog(DwInfo *dw, uint64_t off, const char *comp_dir, int addr_size)
{
  uint64_t next;
  return line_prog(dw->line.buf, dw->line.len, off, dw->big, addr_size, 1, dw, comp_dir, NULL, &next);
}

int dw_line_addrs(const unsigned char *buf, size_t len, int big, int addr_size, vma_t **v, size_t *n)
{
  Addrs a = { NULL, 0, 0 };
  uint64_t off = 0, next;
  while (off < len) {
    if (!line_prog(buf, len, off, big, addr_size, 0, NULL, NULL, &a, &next)) {
      free(a.v);
      return 0;
    }
    off = next;
  }
  *v = a.v;
  *n = a.n;
  return 1;
}

/* ---- .debug_info ---- */
typedef struct { uint64_t name, form; int64_t ic; } AttrSpec;
typedef struct { uint64_t tag; int children; AttrSpec *a; size_t n; } Abbrev;
typedef struct { uint64_t off; Abbrev *v; size_t n; } AbbrevTab;

static int read_abbrevs(DwInfo *dw, uint64_t off, AbbrevTab *t)
{
  t->off = off;
  t->v = NULL;
  t->n = 0;
  if (off >= dw->abbrev.len) return 0;
  Rd r = { dw->abbrev.buf + off, dw->abbrev.buf + dw->abbrev.len, dw->abbrev.buf, 0, dw->big };
  for (;;) {
    uint64_t code = dw_rd_uleb(&r);
    if (r.bad) return 0;
    if (code == 0) return 1;
    if (code > 100000) return 0;
    if (code >= t->n) {
      size_t n2 = code + 1 > 2 * t->n ? code + 1 : 2 * t->n;
      t->v = xrealloc(t->v, n2 * sizeof *t->v);
      memset(t->v + t->n, 0, (n2 - t->n) * sizeof *t->v);
      t->n = n2;
    }
    Abbrev *a = &t->v[code];
    a->tag = dw_rd_uleb(&r);
    a->children = (int)dw_rd_u(&r, 1);
    size_t cap = 0;
    for (;;) {
      uint64_t name = dw_rd_uleb(&r), form = dw_rd_uleb(&r);
      int64_t ic = 0;
      if (form == 0x21) ic = rd_sleb(&r);
      if (r.bad) return 0;
      if (!name && !form) break;
      GROW(a->a, a->n, cap);
      a->a[a->n++] = (AttrSpec){ name, form, ic };
    }
  }
}

static void free_abbrevs(AbbrevTab *t)
{
  for (size_t i = 0; i < t->n; i++) free(t->v[i].a);
  free(t->v);
}

typedef struct {
  int off8, asz, version;
  uint64_t cu_off;              /* offset of the unit header */
  uint64_t str_offs_base, addr_base, rnglists_base;
} Unit;

/* An attribute's value: V (numbers, offsets, references made absolute), or
   S for strings; returns 0 on a form it does not know. */
static int read_form(DwInfo *dw, Rd *r, const Unit *cu, uint64_t form, int64_t ic, uint64_t *v,
                     const char **s, int *is_ref, int *is_addr)
{
  *v = 0;
  *s = NULL;
  *is_ref = *is_addr = 0;
  switch (form) {
  case 0x01: *v = dw_rd_u(r, cu->asz); *is_addr = 1; return 1;           /* addr */
  case 0x0b: *v = dw_rd_u(r, 1); return 1;
  case 0x05: *v = dw_rd_u(r, 2); return 1;
  case 0x06: *v = dw_rd_u(r, 4); return 1;
  case 0x07: *v = dw_rd_u(r, 8); return 1;
  case 0x1e: r->p += 16; if (r->p > r->end) r->bad = 1; return 1;
  case 0x0d: *v = (uint64_t)rd_sleb(r); return 1;
  case 0x0f: *v = dw_rd_uleb(r); return 1;
  case 0x08: *s = rd_cstr(r); return 1;
  case 0x0e: *s = sec_str(&dw->str, dw_rd_u(r, cu->off8 ? 8 : 4)); return 1;
  case 0x1f: *s = sec_str(&dw->line_str, dw_rd_u(r, cu->off8 ? 8 : 4)); return 1;
  case 0x0c: *v = dw_rd_u(r, 1) != 0; return 1;
  case 0x19: *v = 1; return 1;
  case 0x11: *v = cu->cu_off + dw_rd_u(r, 1); *is_ref = 1; return 1;
  case 0x12: *v = cu->cu_off + dw_rd_u(r, 2); *is_ref = 1; return 1;
  case 0x13: *v = cu->cu_off + dw_rd_u(r, 4); *is_ref = 1; return 1;
  case 0x14: *v = cu->cu_off + dw_rd_u(r, 8); *is_ref = 1; return 1;
  case 0x15: *v = cu->cu_off + dw_rd_uleb(r); *is_ref = 1; return 1;
  case 0x10: *v = dw_rd_u(r, cu->version <= 2 ? cu->asz : cu->off8 ? 8 : 4); *is_ref = 1; return 1;
  case 0x20: dw_rd_u(r, 8); return 1;                                   /* ref_sig8 */
  case 0x17: *v = dw_rd_u(r, cu->off8 ? 8 : 4); return 1;               /* sec_offset */
  case 0x18: case 0x09: { uint64_t l = dw_rd_uleb(r); if (l > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += l; return 1; }
  case 0x0a: { uint64_t l = dw_rd_u(r, 1); if (l > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += l; return 1; }
  case 0x03: { uint64_t l = dw_rd_u(r, 2); if (l > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += l; return 1; }
  case 0x04: { uint64_t l = dw_rd_u(r, 4); if (l > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += l; return 1; }
  case 0x21: *v = (uint64_t)ic; return 1;                             /* implicit_const */
  case 0x22: case 0x23: *v = dw_rd_uleb(r); return 1;                    /* loclistx, rnglistx */
  default: return 0;            /* strx, addrx, indirect, alt forms: not decoded */
  }
}

/* The ranges of DW_AT_ranges at OFF (v2-4 .debug_ranges, v5 .debug_rnglists),
   appended for function F; BASE is the unit's low_pc. */
static int read_ranges(DwInfo *dw, const Unit *cu, uint64_t off, vma_t base, size_t f)
{
  if (cu->version >= 5) {
    if (off >= dw->rnglists.len) return 0;
    Rd r = { dw->rnglists.buf + off, dw->rnglists.buf + dw->rnglists.len, dw->rnglists.buf, 0, dw->big };
    for (;;) {
      unsigned k = (unsigned)dw_rd_u(&r, 1);
      vma_t lo, hi;
      if (r.bad) return 0;
      switch (k) {
      case 0: return 1;
      case 4: lo = base + dw_rd_uleb(&r); hi = base + dw_rd_uleb(&r); break;
      case 5: base = dw_rd_u(&r, cu->asz); continue;
      case 6: lo = dw_rd_u(&r, cu->asz); hi = dw_rd_u(&r, cu->asz); break;
      case 7: lo = dw_rd_u(&r, cu->asz); hi = lo + dw_rd_uleb(&r); break;
      default: return 0;        /* indexed forms (.debug_addr): not decoded */
      }
      if (r.bad) return 0;
      if (lo < hi) {
        GROW(dw->ranges, dw->nranges, dw->capranges);
        dw->ranges[dw->nranges] = (Range){ lo, hi, f, dw->nranges };
        dw->nranges++;
      }
    }
  }
  if (off >= dw->rsec.len) return 0;
  Rd r = { dw->rsec.buf + off, dw->rsec.buf + dw->rsec.len, dw->rsec.buf, 0, dw->big };
  vma_t maxa = cu->asz == 8 ? ~(vma_t)0 : 0xffffffffu;
  for (;;) {
    vma_t lo = dw_rd_u(&r, cu->asz), hi = dw_rd_u(&r, cu->asz);
    if (r.bad) return 0;
    if (lo == 0 && hi == 0) return 1;
    if (lo == maxa) { base = hi; continue; }
    lo += base;
    hi += base;
    if (lo < hi) {
      GROW(dw->ranges, dw->nranges, dw->capranges);
      dw->ranges[dw->nranges] = (Range){ lo, hi, f, dw->nranges };
      dw->nranges++;
    }
  }
}

static int read_unit_dies(DwInfo *dw, Rd *u, const Unit *cu0, const AbbrevTab *ab)
{
  Unit cu = *cu0;
  unsigned depth = 0;
  int first = 1;
  vma_t cu_base = 0;
  while (u->p < u->end) {
    uint64_t off = (uint64_t)(u->p - dw->info.buf);
    uint64_t code = dw_rd_uleb(u);
    if (u->bad) return 0;
    if (code == 0) {
      if (depth == 0) return !first;
      depth--;
      continue;
    }
    if (code >= ab->n || ab->v[code].tag == 0) return 0;
    const Abbrev *a = &ab->v[code];
    const char *name = NULL, *linkage = NULL, *comp_dir = NULL;
    uint64_t origin = 0, stmt_list = (uint64_t)-1, ranges = (uint64_t)-1;
    vma_t low = 0, high = 0;
    int has_low = 0, has_high = 0, high_addr = 0, ranges_x = 0;
    for (size_t i = 0; i < a->n; i++) {
      uint64_t v;
      const char *s;
      int is_ref, is_addr;
      uint64_t form = a->a[i].form;
      if (!read_form(dw, u, &cu, form, a->a[i].ic, &v, &s, &is_ref, &is_addr) || u->bad) return 0;
      switch (a->a[i].name) {
      case 0x03: name = s; break;
      case 0x6e: case 0x2007: linkage = s; break;
      case 0x31: case 0x47: if (is_ref) origin = v; break;
      case 0x11: low = v; has_low = 1; break;
      case 0x12: high = v; has_high = 1; high_addr = is_addr; break;
      case 0x55: ranges = v; ranges_x = form == 0x23; break;
      case 0x10: stmt_list = v; break;
      case 0x1b: comp_dir = s; break;
      case 0x74: cu.rnglists_base = v; break;
      default: break;
      }
    }
    if (first) {
      first = 0;
      if (a->tag != 0x11) return 0;           /* compile units only */
      cu_base = has_low ? low : 0;
      if (stmt_list != (uint64_t)-1 && !read_line_prog(dw, stmt_list, comp_dir, cu.asz)) return 0;
    } else if (a->tag == 0x2e || a->tag == 0x1d || a->tag == 0x05) {
      GROW(dw->funcs, dw->nfuncs, dw->capfuncs);
      size_t f = dw->nfuncs++;
      Func *fn = &dw->funcs[f];
      memset(fn, 0, sizeof *fn);
      fn->off = off;
      fn->origin = origin;
      fn->name = name;
      fn->linkage = linkage;
      fn->tag_inlined = a->tag == 0x1d;
      fn->depth = depth;
      if (ranges != (uint64_t)-1) {
        if (ranges_x) {
          Rd x = { dw->rnglists.buf, dw->rnglists.buf + dw->rnglists.len, dw->rnglists.buf, 0, dw->big };
          uint64_t at = cu.rnglists_base + ranges * (cu.off8 ? 8 : 4);
          if (at >= dw->rnglists.len) return 0;
          x.p += at;
          ranges = cu.rnglists_base + dw_rd_u(&x, cu.off8 ? 8 : 4);
          if (x.bad) return 0;
        }
        fn->has_pc = 1;
        if (!read_ranges(dw, &cu, ranges, cu_base, f)) return 0;
      } else if (has_low && has_high) {
        vma_t hi = high_addr ? high : low + high;
        fn->has_pc = 1;
        if (low < hi) {
          GROW(dw->ranges, dw->nranges, dw->capranges);
          dw->ranges[dw->nranges] = (Range){ low, hi, f, dw->nranges };
          dw->nranges++;
        }
      }
    }
    if (a->children) depth++;
    else if (depth == 0) return 1;
  }
  return depth == 0 && !first;
}

static int read_info(DwInfo *dw)
{
  Rd r = { dw->info.buf, dw->info.buf + dw->info.len, dw->info.buf, 0, dw->big };
  AbbrevTab ab = { (uint64_t)-1, NULL, 0 };
  int ok = 1;
  while (ok && r.p < r.end) {
    Unit cu;
    memset(&cu, 0, sizeof cu);
    cu.cu_off = (uint64_t)(r.p - r.start);
    uint64_t ulen = dw_rd_u(&r, 4);
    if (ulen == 0xffffffffu) { ulen = dw_rd_u(&r, 8); cu.off8 = 1; }
    if (r.bad || ulen > (uint64_t)(r.end - r.p)) { ok = 0; break; }
    Rd u = { r.p, r.p + ulen, r.start, 0, dw->big };
    r.p += ulen;
    cu.version = (int)dw_rd_u(&u, 2);
    uint64_t abbrev_off;
    if (cu.version >= 2 && cu.version <= 4) {
      abbrev_off = dw_rd_u(&u, cu.off8 ? 8 : 4);
      cu.asz = (int)dw_rd_u(&u, 1);
    } else if (cu.version == 5) {
      unsigned type = (unsigned)dw_rd_u(&u, 1);
      cu.asz = (int)dw_rd_u(&u, 1);
      abbrev_off = dw_rd_u(&u, cu.off8 ? 8 : 4);
      if (type == 2 || type == 6) continue;   /* type units: no code */
      if (type != 1) { ok = 0; break; }
    } else { ok = 0; break; }
    if (u.bad || (cu.asz != 4 && cu.asz != 8)) { ok = 0; break; }
    if (abbrev_off != ab.off) {
      free_abbrevs(&ab);
      if (!read_abbrevs(dw, abbrev_off, &ab)) { ok = 0; break; }
    }
    if (!read_unit_dies(dw, &u, &cu, &ab)) ok = 0;
  }
  free_abbrevs(&ab);
  return ok;
}

static Func *func_at(DwInfo *dw, uint64_t off)
{
  size_t lo = 0, hi = dw->nfuncs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (dw->funcs[mid].off < off) lo = mid + 1; else hi = mid;
  }
  return lo < dw->nfuncs && dw->funcs[lo].off == off ? &dw->funcs[lo] : NULL;
}

/* The name BFD reports for F. */
static const char *func_name(DwInfo *dw, Func *f)
{
  Func *g = f;
  for (int k = 0; g && k < 16; k++) {
    if (g->linkage) return g->linkage;
    if (g->name) return g->name;
    g = g->origin ? func_at(dw, g->origin) : NULL;
  }
  return NULL;
}

static int cmp_seq_lo(const void *a, const void *b)
{
  const Seq *x = a, *y = b;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  return (x->first > y->first) - (x->first < y->first);
}

static int cmp_range(const void *a, const void *b)
{
  const Range *x = a, *y = b;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}


DwInfo *dw_open(Core *core, unsigned debug)
{
  bfd *abfd = core->abfd;
  if (!(abfd->flags & (EXEC_P | DYNAMIC))) return NULL;
  if (bfd_get_section_by_name(abfd, ".stab")) return NULL;
  if (!bfd_get_section_by_name(abfd, ".debug_info") || !bfd_get_section_by_name(abfd, ".debug_line"))
    return NULL;
  if (bfd_get_section_by_name(abfd, ".gnu_debugaltlink") || bfd_get_section_by_name(abfd, ".gnu_debuglink")
      || bfd_get_section_by_name(abfd, ".debug_types") || bfd_get_section_by_name(abfd, ".debug_addr")
      || bfd_get_section_by_name(abfd, ".debug_str_offsets"))
    return NULL;
  DwInfo *dw = xcalloc(1, sizeof *dw);
  dw->core = core;
  dw->big = core->big_endian;
  if (!load(abfd, ".debug_info", &dw->info) || !load(abfd, ".debug_abbrev", &dw->abbrev)
      || !load(abfd, ".debug_line", &dw->line) || !load(abfd, ".debug_str", &dw->str)
      || !load(abfd, ".debug_line_str", &dw->line_str) || !load(abfd, ".debug_ranges", &dw->rsec)
      || !load(abfd, ".debug_rnglists", &dw->rnglists) || !read_info(dw)) {
    dw_free(dw);
    return NULL;
  }
  DBG(debug, DBG_SYMTAB, "dwarf: %zu rows, %zu sequences, %zu functions, %zu ranges\n", dw->nrows, dw->nseqs, dw->nfuncs, dw->nranges);
  /* names point into .debug_info, .debug_str and .debug_line_str; file
     names are copies */
  free(dw->abbrev.buf); free(dw->line.buf); free(dw->rsec.buf); free(dw->rnglists.buf);
  dw->abbrev.buf = dw->line.buf = dw->rsec.buf = dw->rnglists.buf = NULL;
  /* sequences: their extents */
  for (size_t i = 0; i < dw->nseqs; i++) {
    Seq *s = &dw->seqs[i];
    s->lo = dw->rows[s->first].addr;
    s->hi = dw->rows[s->first + s->n - 1].addr;
  }
  return dw;
}

static void seg_push(DwInfo *dw, vma_t addr, const char *file, int line, const char *func)
{
  if (!file || line == 0) { file = NULL; line = 0; func = NULL; }
  GROW(dw->segs, dw->nsegs, dw->capsegs);
  dw->segs[dw->nsegs++] = (DwSeg){ addr, file, func, line };
}

typedef struct { vma_t addr; const Row *row; } LPt;

typedef struct { vma_t addr; const char *name; size_t seq; } ESym;

/* By address; of several at one address the first in the symbol table
   last, since the walk below keeps the last one at or below a point. */
static int cmp_esym(const void *a, const void *b)
{
  const ESym *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  return (x->seq < y->seq) - (x->seq > y->seq);
}

/* Where no DWARF function holds an address, BFD names the nearest symbol
   of the symbol table at or below it (in the text section); of several at
   one address, the first in symbol-table order (zstd's assembler loops
   "_HUF_..." and "HUF_..."). */
static ESym *elf_syms(DwInfo *dw, size_t *n)
{
  Core *c = dw->core;
  ESym *v = xmalloc(((size_t)c->nsyms + 1) * sizeof *v);
  size_t m = 0;
  for (long i = 0; i < c->nsyms; i++) {
    asymbol *sy = c->syms[i];
    if (sy->section != c->text) continue;
    if (sy->flags & (BSF_SECTION_SYM | BSF_FILE | BSF_OBJECT | BSF_DEBUGGING)) continue;
    v[m++] = (ESym){ bfd_asymbol_value(sy), bfd_asymbol_name(sy), (size_t)i };
  }
  if (m) qsort(v, m, sizeof *v, cmp_esym);
  *n = m;
  return v;
}

const DwSeg *dw_segments(DwInfo *dw, vma_t lo, vma_t hi, size_t *n)
{
  /* line pieces: each sequence's rows, the last row at an address */
  /* (qsort of an empty, NULL array is undefined: UBSan says so) */
  if (dw->nseqs) qsort(dw->seqs, dw->nseqs, sizeof *dw->seqs, cmp_seq_lo);
  LPt *lp = NULL;
  size_t nlp = 0, caplp = 0;
  for (size_t i = 0; i < dw->nseqs; i++) {
    const Seq *s = &dw->seqs[i];
    if (s->hi <= lo || s->lo >= hi || s->lo == s->hi) continue;
    for (size_t k = 0; k + 1 < s->n; k++) {
      const Row *rw = &dw->rows[s->first + k];
      if (rw->addr == dw->rows[s->first + k + 1].addr && !dw->rows[s->first + k + 1].end) continue;
      if (rw->addr == dw->rows[s->first + k + 1].addr) continue;
      GROW(lp, nlp, caplp);
      lp[nlp++] = (LPt){ rw->addr, rw };
    }
    GROW(lp, nlp, caplp);
    lp[nlp++] = (LPt){ s->hi, NULL };
  }
  /* function pieces: the smallest range holding the address */
  if (dw->nranges) qsort(dw->ranges, dw->nranges, sizeof *dw->ranges, cmp_range);
  size_t nes, ei = 0;
  ESym *es = elf_syms(dw, &nes);
  const ESym *ecur = NULL;
  vma_t *pts = xmalloc((2 * dw->nranges + nlp + nes + 1) * sizeof *pts);
  size_t np = 0;
  pts[np++] = lo;
  for (size_t i = 0; i < nes; i++) pts[np++] = es[i].addr;
  for (size_t i = 0; i < nlp; i++) pts[np++] = lp[i].addr;
  for (size_t i = 0; i < dw->nranges; i++) {
    pts[np++] = dw->ranges[i].lo;
    pts[np++] = dw->ranges[i].hi;
  }
  qsort(pts, np, sizeof *pts, util_cmp_vma);
  size_t *act = NULL, nact = 0, capact = 0, ri = 0, li = 0;
  const Row *cur = NULL;
  dw->nsegs = 0;
  for (size_t i = 0; i < np; i++) {
    vma_t p = pts[i];
    if (i && pts[i - 1] == p) continue;
    if (p >= hi) break;
    while (li < nlp && lp[li].addr <= p) cur = lp[li++].row;
    while (ei < nes && es[ei].addr <= p) ecur = &es[ei++];
    size_t m = 0;
    for (size_t k = 0; k < nact; k++)
      if (dw->ranges[act[k]].hi > p) act[m++] = act[k];
    nact = m;
    while (ri < dw->nranges && dw->ranges[ri].lo <= p) {
      if (dw->ranges[ri].hi > p) {
        GROW(act, nact, capact);
        act[nact++] = ri;
      }
      ri++;
    }
    if (p < lo) continue;
    const Range *best = NULL;
    for (size_t k = 0; k < nact; k++) {
      const Range *r = &dw->ranges[act[k]];
      if (!best || r->hi - r->lo < best->hi - best->lo
          || (r->hi - r->lo == best->hi - best->lo && r->order > best->order))
        best = r;
    }
    const char *fn = best ? func_name(dw, &dw->funcs[best->func]) : ecur ? ecur->name : NULL;
    const char *file = cur && cur->file != (unsigned)-1 ? dw->files[cur->file] : NULL;
    seg_push(dw, p, file, cur ? cur->line : 0, fn);
  }
  free(act);
  free(es);
  free(pts);
  free(lp);
  free(dw->rows); free(dw->seqs); free(dw->ranges); free(dw->funcs);
  dw->rows = NULL; dw->seqs = NULL; dw->ranges = NULL; dw->funcs = NULL;
  dw->nrows = dw->nseqs = dw->nranges = dw->nfuncs = 0;
  *n = dw->nsegs;
  return dw->segs;
}

void dw_drop_segments(DwInfo *dw)
{
  free(dw->segs); dw->segs = NULL; dw->nsegs = dw->capsegs = 0;
}

void dw_free(DwInfo *dw)
{
  if (!dw) return;
  free(dw->info.buf); free(dw->abbrev.buf); free(dw->line.buf); free(dw->str.buf);
  free(dw->line_str.buf); free(dw->rsec.buf); free(dw->rnglists.buf);
  for (size_t i = 0; i < dw->nfiles; i++) free(dw->files[i]);
  free(dw->files);
  free(dw->rows); free(dw->seqs); free(dw->funcs); free(dw->ranges); free(dw->segs);
  free(dw);
}
