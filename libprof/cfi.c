/* cfi.c -- unwind tables for the stack walk (LIBPROF_STACKS; x86-64, i386,
 * aarch64):
 * each object's call-frame information (.eh_frame, found through
 * PT_GNU_EH_FRAME, or through the section headers of the program's file
 * when a static link left no .eh_frame_hdr) compiled, when the object is
 * first seen (start-up, or the scan that finds it loaded: never in a
 * signal handler), into a sorted array of rows of our own in anonymous
 * memory: for each address range, how to find the caller -- the
 * canonical frame address (CFA) as the stack pointer or the frame
 * register plus an offset, where the caller's frame register was saved,
 * or that the frame is the outermost one (return address undefined:
 * _start, clone's child), a signal frame (the kernel's sigreturn
 * trampoline) or beyond what the walk knows (a DWARF expression).
 *
 * The sampling handler then only binary-searches these rows and reads
 * the interrupted thread's own stack (stacks.c): it never reads an
 * object's memory, so an object unloaded under it costs at most one
 * wrong frame, never a fault.  Rows are relative to the object's load
 * bias, so a reload of the same file (objects.c gives it its entry back)
 * uses the same table.  A table is never freed (a handler may be
 * reading it); tables of all objects together are bounded by
 * CFI_BUDGET bytes.  Part of gmon.c's translation unit; uses base.c. */

/* DWARF's numbers of the stack pointer, the frame register and the
   return address column (arch/<isa>/arch.h), and the word */
#define CFI_SP ARCH_DW_SP
#define CFI_FP ARCH_DW_FP
#define CFI_RA ARCH_DW_RA
#define CFI_W ((int64_t)sizeof(uintptr_t))

enum { UW_NONE, UW_SP, UW_FP, UW_FPDEREF, UW_END, UW_SIG, UW_EXPR };
#define UW_FP_SAME 0             /* the frame register is the caller's */
#define UW_FP_LOST 127           /* ... is not known */
#define UW_RA_LR 127             /* the return address is in the link register (aarch64's leaf) */
#define CFI_BUDGET ((size_t)256 << 20)

typedef struct {
  uint32_t off;                  /* from the load bias: the row holds [off, next row's off) */
  int32_t cfa;                   /* UW_SP, UW_FP: CFA = sp or fp + cfa; UW_FPDEREF: CFA = [fp + cfa] */
  uint8_t kind;
  int8_t fpw;                    /* the caller's frame register at CFA + word * fpw, or UW_FP_* */
  int8_t raw;                    /* the return address at CFA + word * raw, or UW_RA_LR */
  uint8_t pad;
} uw_row;

typedef struct uw_tab {        /* (named: state.h's prof_obj points at one) */
  const uw_row *row;
  uint32_t n;
} uw_tab;

static size_t cfi_used;          /* bytes of tables made (under O.lock or at start-up) */

/* A bounded reader of the object's bytes: every read inside [p, end). */
typedef struct {
  const unsigned char *p, *end;
  int bad;
} cfi_rd;

static uint64_t cfi_u(cfi_rd *r, int n)
{
  if (r->bad || (size_t)(r->end - r->p) < (size_t)n) { r->bad = 1; return 0; }
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | r->p[i];
  r->p += n;
  return v;
}

static uint64_t cfi_uleb(cfi_rd *r)
{
  uint64_t v = 0;
  for (int s = 0; s < 64; s += 7) {
    uint64_t b = cfi_u(r, 1);
    v |= (b & 0x7f) << s;
    if (!(b & 0x80)) return v;
  }
  r->bad = 1;
  return 0;
}

static int64_t cfi_sleb(cfi_rd *r)
{
  uint64_t v = 0, b = 0;
  int s = 0;
  do {
    if (s >= 64) { r->bad = 1; return 0; }
    b = cfi_u(r, 1);
    v |= (b & 0x7f) << s;
    s += 7;
  } while (b & 0x80);
  if (s < 64 && (b & 0x40)) v |= ~(uint64_t)0 << s;
  return (int64_t)v;
}

/* A pointer of encoding ENC (DW_EH_PE_*): pcrel and datarel (DATA, the
   .eh_frame_hdr's start) are known; indirect ones are not followed. */
static uintptr_t cfi_ptr(cfi_rd *r, int enc, uintptr_t data)
{
  if (enc == 0xff) return 0;
  uintptr_t at = (uintptr_t)r->p, v;
  switch (enc & 0x0f) {
  case 0x00: v = (uintptr_t)cfi_u(r, sizeof(uintptr_t)); break;
  case 0x01: v = (uintptr_t)cfi_uleb(r); break;
  case 0x02: v = (uintptr_t)cfi_u(r, 2); break;
  case 0x03: v = (uintptr_t)cfi_u(r, 4); break;
  case 0x04: v = (uintptr_t)cfi_u(r, 8); break;
  case 0x09: v = (uintptr_t)cfi_sleb(r); break;
  case 0x0a: v = (uintptr_t)(int64_t)(int16_t)cfi_u(r, 2); break;
  case 0x0b: v = (uintptr_t)(int64_t)(int32_t)cfi_u(r, 4); break;
  case 0x0c: v = (uintptr_t)cfi_u(r, 8); break;
  default: r->bad = 1; return 0;
  }
  switch (enc & 0x70) {
  case 0x00: break;
  case 0x10: v += at; break;
  case 0x30: v += data; break;
  default: r->bad = 1; return 0;
  }
  if (enc & 0x80) r->bad = 1;
  return v;
}

/* A CIE as far as the rows need it. */
typedef struct {
  const unsigned char *ins, *ins_end;   /* its initial instructions */
  uint64_t code_align;
  int64_t data_align;
  int fde_enc, aug_z, signal, ra;
} cfi_cie;

/* The state the instructions build: the CFA's rule, the frame
   register's (rbp, 6) and the return address's (16). */
typedef struct {
  int cfa_reg, cfa_expr;         /* cfa_expr: 0, 1 unknown, 2 [fp + cfa_off] */
  int64_t cfa_off;
  int fp_rule;                   /* 0 same, 1 at CFA + fp_off, 2 lost */
  int64_t fp_off;
  int ra_undef;
  int ra_rule;                   /* 0 in its register, 1 at CFA + ra_off, 2 lost */
  int64_t ra_off;
} cfi_state;

/* Reads the CIE at P (inside [lo, end)). 0: not one we take. */
static int cfi_read_cie(const unsigned char *p, const unsigned char *lo, const unsigned char *end, cfi_cie *c)
{
  if (p < lo || p >= end) return 0;
  cfi_rd r = { p, end, 0 };
  uint64_t len = cfi_u(&r, 4);
  if (len == 0 || len == 0xffffffffu || len > (uint64_t)(end - r.p)) return 0;
  const unsigned char *cend = r.p + len;
  r.end = cend;
  if (cfi_u(&r, 4) != 0) return 0;           /* a CIE's id */
  int version = (int)cfi_u(&r, 1);
  if (version != 1 && version != 3) return 0;
  const unsigned char *aug = r.p;
  while (r.p < cend && *r.p) r.p++;
  if (r.p >= cend) return 0;
  r.p++;
  memset(c, 0, sizeof *c);
  c->fde_enc = 0;
  if (aug[0] == 'e' && aug[1] == 'h') cfi_u(&r, sizeof(uintptr_t));
  c->code_align = cfi_uleb(&r);
  c->data_align = cfi_sleb(&r);
  c->ra = version == 1 ? (int)cfi_u(&r, 1) : (int)cfi_uleb(&r);
  const unsigned char *after = NULL;
  if (aug[0] == 'z') {
    c->aug_z = 1;
    uint64_t alen = cfi_uleb(&r);
    if (r.bad || alen > (uint64_t)(cend - r.p)) return 0;
    after = r.p + alen;
    for (const unsigned char *a = aug + 1; *a && !r.bad; a++) {
      if (*a == 'R') c->fde_enc = (int)cfi_u(&r, 1);
      else if (*a == 'L') cfi_u(&r, 1);
      else if (*a == 'P') {
        int enc = (int)cfi_u(&r, 1);
        cfi_ptr(&r, enc & 0x7f, 0);          /* (its value is not wanted) */
      } else if (*a == 'S') c->signal = 1;
      else if (*a != 'B' && *a != 'G') break;   /* the rest is skipped by its length */
    }
    r.p = after;
  } else if (aug[0]) {
    return 0;                                 /* an augmentation we cannot skip */
  }
  if (r.bad || c->code_align == 0) return 0;
  c->ins = r.p;
  c->ins_end = cend;
  return 1;
}

/* The rows being made: a growing array in anonymous memory. */
typedef struct {
  uw_row *row;
  size_t n, cap;
  int full;
} cfi_out;

static void cfi_emit(cfi_out *o, uintptr_t off, const cfi_state *s, int signal)
{
  if (off > 0xffffffffu) { o->full = 1; return; }
  uw_row w = { (uint32_t)off, 0, UW_EXPR, UW_FP_LOST, UW_RA_LR, 0 };
  if (signal < 0) w.kind = UW_NONE;
  else if (s->ra_undef) w.kind = UW_END;
  else if (signal) w.kind = UW_SIG;
  else if (s->cfa_expr == 2 && s->cfa_off == (int32_t)s->cfa_off) { w.kind = UW_FPDEREF; w.cfa = (int32_t)s->cfa_off; }
  else if (!s->cfa_expr && (s->cfa_reg == CFI_SP || s->cfa_reg == CFI_FP) && s->cfa_off == (int32_t)s->cfa_off) {
    w.kind = s->cfa_reg == CFI_SP ? UW_SP : UW_FP;
    w.cfa = (int32_t)s->cfa_off;
  }
  if (s->ra_rule == 1 && !(s->ra_off % CFI_W) && s->ra_off / CFI_W > -128 && s->ra_off / CFI_W < 127)
    w.raw = (int8_t)(s->ra_off / CFI_W);
  else if (s->ra_rule != 0 && (w.kind == UW_SP || w.kind == UW_FP || w.kind == UW_FPDEREF)) w.kind = UW_EXPR;
  if (s->fp_rule == 0) w.fpw = UW_FP_SAME;
  else if (s->fp_rule == 1 && !(s->fp_off % CFI_W) && s->fp_off / CFI_W > -128 && s->fp_off / CFI_W < 0)
    w.fpw = (int8_t)(s->fp_off / CFI_W);
  if (o->n && o->row[o->n - 1].off == w.off) { o->row[o->n - 1] = w; return; }
  if (o->n && o->row[o->n - 1].off > w.off) return;   /* (overlapping FDEs: the first kept) */
  if (o->n && o->row[o->n - 1].kind == w.kind && o->row[o->n - 1].cfa == w.cfa && o->row[o->n - 1].fpw == w.fpw
      && o->row[o->n - 1].raw == w.raw)
    return;                                   /* the same rule goes on */
  if (o->n == o->cap) {
    size_t cap = o->cap ? 2 * o->cap : 4096;
    if (cfi_used + cap * sizeof *o->row > CFI_BUDGET) { o->full = 1; return; }
    uw_row *v = map_zero(cap * sizeof *v);
    if (!v) { o->full = 1; return; }
    if (o->n) memcpy(v, o->row, o->n * sizeof *v);
    if (o->row) munmap(o->row, o->cap * sizeof *o->row);
    o->row = v;
    o->cap = cap;
  }
  o->row[o->n++] = w;
}

/* Runs the instructions [P, END) from state S, emitting a row at each new
   location (LOC, advanced in place) below LIMIT.  INIT: the CIE's state
   (DW_CFA_restore).  0: an instruction we do not know (the FDE's rows
   then stop there). */
static int cfi_run(cfi_out *o, const cfi_cie *c, const unsigned char *p, const unsigned char *end,
                   cfi_state *s, const cfi_state *init, uintptr_t *loc, uintptr_t limit, int emit)
{
  cfi_rd r = { p, end, 0 };
  cfi_state stack[8];
  int sp = 0;
  while (r.p < r.end && !r.bad) {
    int op = (int)cfi_u(&r, 1), lo6 = op & 0x3f;
    uint64_t reg = 0, adv = 0;
    int64_t off = 0;
    int advance = 0;
    switch (op >> 6) {
    case 1: adv = (uint64_t)lo6 * c->code_align; advance = 1; break;
    case 2:
      off = (int64_t)cfi_uleb(&r) * c->data_align;
      if (lo6 == CFI_FP) { s->fp_rule = 1; s->fp_off = off; }
      else if (lo6 == CFI_RA) { s->ra_rule = 1; s->ra_off = off; }
      continue;
    case 3:
      if (lo6 == CFI_FP) { s->fp_rule = init->fp_rule; s->fp_off = init->fp_off; }
      else if (lo6 == CFI_RA) { s->ra_rule = init->ra_rule; s->ra_off = init->ra_off; }
      continue;
    }
    if (!advance) switch (op) {
    case 0x00: break;                                           /* nop */
    case 0x01: {                                                /* set_loc */
      uintptr_t to = cfi_ptr(&r, c->fde_enc, 0);
      if (to < *loc) return 0;
      adv = to - *loc;
      advance = 1;
      break;
    }
    case 0x02: adv = cfi_u(&r, 1) * c->code_align; advance = 1; break;
    case 0x03: adv = cfi_u(&r, 2) * c->code_align; advance = 1; break;
    case 0x04: adv = cfi_u(&r, 4) * c->code_align; advance = 1; break;
    case 0x05: case 0x11: case 0x14: case 0x15: case 0x2f: {    /* offset_extended(_sf), val_offset(_sf), negative */
      reg = cfi_uleb(&r);
      off = op == 0x11 || op == 0x15 ? cfi_sleb(&r) * c->data_align : (int64_t)cfi_uleb(&r) * c->data_align;
      if (op == 0x2f) off = -off;
      if (reg == CFI_FP) {
        if (op == 0x14 || op == 0x15) s->fp_rule = 2;
        else { s->fp_rule = 1; s->fp_off = off; }
      } else if (reg == CFI_RA) {
        if (op == 0x14 || op == 0x15) s->ra_rule = 2;
        else { s->ra_rule = 1; s->ra_off = off; }
      }
      break;
    }
    case 0x06: case 0x08:                                       /* restore_extended, same_value */
      reg = cfi_uleb(&r);
      if (reg == CFI_FP) {
        if (op == 0x06) { s->fp_rule = init->fp_rule; s->fp_off = init->fp_off; }
        else s->fp_rule = 0;
      } else if (reg == CFI_RA) {
        if (op == 0x06) { s->ra_rule = init->ra_rule; s->ra_off = init->ra_off; }
        else s->ra_rule = 0;
      }
      break;
    case 0x07:                                                  /* undefined */
      reg = cfi_uleb(&r);
      if (reg == CFI_RA) s->ra_undef = 1;
      else if (reg == CFI_FP) s->fp_rule = 2;
      break;
    case 0x09:                                                  /* register */
      reg = cfi_uleb(&r);
      cfi_uleb(&r);
      if (reg == CFI_FP) s->fp_rule = 2;
      else if (reg == CFI_RA) s->ra_rule = 2;
      break;
    case 0x0a:                                                  /* remember_state */
      if (sp == 8) return 0;
      stack[sp++] = *s;
      break;
    case 0x0b:                                                  /* restore_state */
      if (!sp) return 0;
      {
        int ra_undef = s->ra_undef;
        *s = stack[--sp];
        s->ra_undef = ra_undef;
      }
      break;
    case 0x0c: case 0x12:                                       /* def_cfa(_sf) */
      s->cfa_reg = (int)cfi_uleb(&r);
      s->cfa_off = op == 0x12 ? cfi_sleb(&r) * c->data_align : (int64_t)cfi_uleb(&r);
      s->cfa_expr = 0;
      break;
    case 0x0d:                                                  /* def_cfa_register */
      s->cfa_reg = (int)cfi_uleb(&r);
      if (s->cfa_expr) s->cfa_expr = 1, s->cfa_reg = -1;
      break;
    case 0x0e: case 0x13:                                       /* def_cfa_offset(_sf) */
      s->cfa_off = op == 0x13 ? cfi_sleb(&r) * c->data_align : (int64_t)cfi_uleb(&r);
      break;
    case 0x0f: {                                                /* def_cfa_expression */
      uint64_t n = cfi_uleb(&r);
      if (n > (uint64_t)(r.end - r.p)) return 0;
      /* DW_OP_breg6 (rbp; i386 breg5, ebp) N; DW_OP_deref: a realigned
         frame (main) */
      cfi_rd e = { r.p, r.p + n, 0 };
      s->cfa_expr = 1;
      if (n >= 3 && cfi_u(&e, 1) == 0x70 + CFI_FP) {
        int64_t k = cfi_sleb(&e);
        if (!e.bad && e.p + 1 == e.end && *e.p == 0x06) { s->cfa_expr = 2; s->cfa_off = k; }
      }
      r.p += n;
      break;
    }
    case 0x10: case 0x16: {                                     /* expression, val_expression */
      reg = cfi_uleb(&r);
      uint64_t n = cfi_uleb(&r);
      if (n > (uint64_t)(r.end - r.p)) return 0;
      r.p += n;
      if (reg == CFI_FP) s->fp_rule = 2;
      else if (reg == CFI_RA) s->ra_rule = 2;
      break;
    }
    case 0x2e: cfi_uleb(&r); break;                             /* GNU_args_size */
    default: return 0;
    }
    if (advance) {
      if (emit) cfi_emit(o, *loc, s, c->signal);
      *loc += adv;
      if (*loc >= limit) return 1;
    }
  }
  return !r.bad;
}

/* One FDE at P (its CIE checked inside [lo, end)) into rows relative to
   BIAS: its ranges's rows, then a UW_NONE row at its end. */
static void cfi_fde(cfi_out *o, const unsigned char *p, const unsigned char *lo, const unsigned char *end, uintptr_t bias)
{
  if (p < lo || p >= end) return;            /* (a bad .eh_frame_hdr entry) */
  cfi_rd r = { p, end, 0 };
  uint64_t len = cfi_u(&r, 4);
  if (len == 0 || len == 0xffffffffu || len > (uint64_t)(end - r.p)) return;
  const unsigned char *fend = r.p + len, *idp = r.p;
  r.end = fend;
  uint32_t id = (uint32_t)cfi_u(&r, 4);
  if (!id || r.bad || (uintptr_t)id > (uintptr_t)(idp - lo)) return;
  cfi_cie c;
  if (!cfi_read_cie(idp - id, lo, end, &c)) return;
  uintptr_t begin = cfi_ptr(&r, c.fde_enc, 0);
  uintptr_t range = cfi_ptr(&r, c.fde_enc & 0x0f, 0);
  if (c.aug_z) {
    uint64_t alen = cfi_uleb(&r);
    if (alen > (uint64_t)(fend - r.p)) return;
    r.p += alen;
  }
  if (r.bad || begin < bias || !range || range > 0x10000000) return;
  /* (x86's CIEs put the return address at CFA - word; aarch64's leave it
     in x30 until a prologue saves it) */
  cfi_state init = { CFI_SP, 0, CFI_W, 0, 0, 0, 0, 0 }, s;
  uintptr_t loc = begin - bias, limit = loc + range, l0 = 0;
  /* the CIE's instructions set the initial state (no rows) */
  if (!cfi_run(o, &c, c.ins, c.ins_end, &init, &init, &l0, UINTPTR_MAX, 0)) return;
  s = init;
  int ok = cfi_run(o, &c, r.p, fend, &s, &init, &loc, limit, 1);
  if (loc < limit) {
    if (ok) cfi_emit(o, loc, &s, c.signal);
    else {
      cfi_state x = s;
      x.cfa_expr = 1;
      cfi_emit(o, loc, &x, 0);
    }
  }
  /* the end: no rule (the next FDE's first row replaces it when it
     starts there) */
  cfi_emit(o, limit, &s, -1);
}

typedef struct { uintptr_t pc; const unsigned char *fde; } cfi_ent;

static int cfi_cmp(const void *a, const void *b)
{
  uintptr_t x = ((const cfi_ent *)a)->pc, y = ((const cfi_ent *)b)->pc;
  return x < y ? -1 : x > y;
}

/* The FDEs of the .eh_frame at [LO, END) in address order, read by a walk
   of its entries (when there is no .eh_frame_hdr), into rows. */
static void cfi_scan_frames(cfi_out *o, const unsigned char *lo, const unsigned char *end, uintptr_t bias)
{
  size_t n = 0, cap = 0;
  cfi_ent *v = NULL;
  for (const unsigned char *p = lo; p + 8 <= end;) {
    cfi_rd r = { p, end, 0 };
    uint64_t len = cfi_u(&r, 4);
    if (len == 0 || len == 0xffffffffu || len > (uint64_t)(end - r.p)) break;
    const unsigned char *next = r.p + len, *idp = r.p;
    uint32_t id = (uint32_t)cfi_u(&r, 4);
    cfi_cie c;
    if (id && (uintptr_t)id <= (uintptr_t)(idp - lo) && cfi_read_cie(idp - id, lo, end, &c)) {
      r.end = next;
      uintptr_t begin = cfi_ptr(&r, c.fde_enc, 0);
      if (!r.bad && begin) {
        if (n == cap) {
          size_t nc = cap ? 2 * cap : 1024;
          cfi_ent *w = map_zero(nc * sizeof *w);
          if (!w) break;
          if (n) memcpy(w, v, n * sizeof *w);
          if (v) munmap(v, cap * sizeof *v);
          v = w;
          cap = nc;
        }
        v[n].pc = begin;
        v[n++].fde = p;
      }
    }
    p = next;
  }
  if (!n) return;
  qsort(v, n, sizeof *v, cfi_cmp);
  for (size_t i = 0; i < n && !o->full; i++) cfi_fde(o, v[i].fde, lo, end, bias);
  munmap(v, cap * sizeof *v);
}

/* The end of INFO's PT_LOAD segment that holds P, or 0. */
static uintptr_t cfi_seg_end(const struct dl_phdr_info *info, uintptr_t p)
{
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && p >= lo && p - lo < ph->p_memsz) return lo + ph->p_filesz;
  }
  return 0;
}

/* The .eh_frame of FILE (the program's, from its section headers), at
   run time: its start and end, or 0. */
static uintptr_t cfi_from_file(const char *file, const struct dl_phdr_info *info, uintptr_t *end)
{
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ElfW(Ehdr) eh;
  uintptr_t found = 0;
  if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && !memcmp(eh.e_ident, ELFMAG, SELFMAG)
      && eh.e_shentsize == sizeof(ElfW(Shdr)) && eh.e_shnum && eh.e_shnum < 65280 && eh.e_shstrndx < eh.e_shnum) {
    size_t sz = (size_t)eh.e_shnum * sizeof(ElfW(Shdr));
    ElfW(Shdr) *sh = map_zero(sz);
    if (sh && pread(fd, sh, sz, (off_t)eh.e_shoff) == (ssize_t)sz) {
      ElfW(Shdr) *ss = &sh[eh.e_shstrndx];
      for (int i = 0; i < eh.e_shnum && !found; i++) {
        char name[16] = { 0 };
        if (sh[i].sh_type != SHT_PROGBITS || !sh[i].sh_addr) continue;
        if (pread(fd, name, 10, (off_t)(ss->sh_offset + sh[i].sh_name)) < 10) continue;
        if (memcmp(name, ".eh_frame", 10)) continue;
        uintptr_t a = info->dlpi_addr + sh[i].sh_addr, e = cfi_seg_end(info, a);
        if (e && sh[i].sh_size <= e - a) {
          found = a;
          *end = a + sh[i].sh_size;
        }
      }
    }
    if (sh) munmap(sh, sz);
  }
  close(fd);
  return found;
}

/* The table of the object INFO describes (FILE: its path, for a program
   without .eh_frame_hdr), or NULL.  Not from a signal handler. */
static const uw_tab *cfi_table(const struct dl_phdr_info *info, const char *file)
{
  const ElfW(Phdr) *hdr = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME) hdr = &info->dlpi_phdr[i];
  cfi_out o = { NULL, 0, 0, 0 };
  uintptr_t bias = info->dlpi_addr;
  if (hdr) {
    uintptr_t h = bias + hdr->p_vaddr, hend = cfi_seg_end(info, h);
    if (!hend || hdr->p_memsz < 4 || hend - h < hdr->p_memsz) return NULL;
    const unsigned char *hp = (const unsigned char *)h;
    if (hp[0] != 1) return NULL;
    cfi_rd r = { hp + 4, hp + hdr->p_memsz, 0 };
    uintptr_t frame = cfi_ptr(&r, hp[1], h);
    uintptr_t count = cfi_ptr(&r, hp[2], h);
    uintptr_t fend = cfi_seg_end(info, frame);
    if (r.bad || !frame || !fend) return NULL;
    if (hp[3] == 0x3b && count && count <= (uintptr_t)(r.end - r.p) / 8) {
      /* the sorted table: (initial location, FDE) pairs, datarel sdata4 */
      for (uintptr_t i = 0; i < count && !o.full; i++) {
        int32_t pair[2];
        memcpy(pair, r.p + 8 * i, 8);
        cfi_fde(&o, (const unsigned char *)(h + (intptr_t)pair[1]), (const unsigned char *)frame,
                (const unsigned char *)fend, bias);
      }
    } else {
      cfi_scan_frames(&o, (const unsigned char *)frame, (const unsigned char *)fend, bias);
    }
  } else if (file && *file) {
    uintptr_t end = 0, frame = cfi_from_file(file, info, &end);
    if (frame) cfi_scan_frames(&o, (const unsigned char *)frame, (const unsigned char *)end, bias);
  }
  if (!o.n) {
    if (o.row) munmap(o.row, o.cap * sizeof *o.row);
    return NULL;
  }
  uw_tab *t = map_zero(sizeof *t);
  if (!t) return NULL;
  t->row = o.row;
  t->n = (uint32_t)o.n;
  cfi_used += o.cap * sizeof *o.row;
  return t;
}

/* The row of T for the address OFF (from the load bias), or NULL. */
__attribute__((unused)) static const uw_row *cfi_row(const uw_tab *t, uintptr_t off)
{
  if (!t || off > 0xffffffffu) return NULL;
  uint32_t lo = 0, hi = t->n, x = (uint32_t)off;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (t->row[mid].off <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo ? &t->row[lo - 1] : NULL;
}
