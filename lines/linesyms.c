/* linesyms.c -- line symbols for -l, from the DWARF line table (linesyms.h). */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "lines/linesyms.h"
#include "lines/dwarf.h"
#include <stdio.h>

typedef struct { vma_t *v; size_t n, cap; } AddrVec;

static void addr_push(AddrVec *a, vma_t x)
{
  if (a->n == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1024;
    a->v = xrealloc(a->v, a->cap * sizeof *a->v);
  }
  a->v[a->n++] = x;
}


/* The addresses where BFD's answer may change, sorted and unique, inside
   [lo, hi); NULL when the line table cannot be read (walk every byte). */
static vma_t *query_points(Core *core, vma_t lo, vma_t hi, size_t *np)
{
  bfd *abfd = core->abfd;
  if (!(abfd->flags & (EXEC_P | DYNAMIC))) return NULL;
  if (bfd_get_section_by_name(abfd, ".stab")) return NULL;
  asection *sec = bfd_get_section_by_name(abfd, ".debug_line");
  if (!sec) {
    *np = 0;
    return xmalloc(sizeof(vma_t));
  }
  bfd_byte *buf = NULL;
  if (!bfd_malloc_and_get_section(abfd, sec, &buf)) return NULL;
  AddrVec a = { 0, 0, 0 };
  int ok = dw_line_addrs(buf, (size_t)bfd_section_size(sec), core->big_endian, core->addr_size, &a.v, &a.n);
  free(buf);
  if (!ok) return NULL;
  a.cap = a.n;
  addr_push(&a, lo);
  size_t m = 0;
  if (a.n) qsort(a.v, a.n, sizeof *a.v, util_cmp_vma);
  for (size_t i = 0; i < a.n; i++)
    if (a.v[i] >= lo && a.v[i] < hi && (!m || a.v[m - 1] != a.v[i])) a.v[m++] = a.v[i];
  *np = m;
  return a.v;
}

static int same_str(const char *a, const char *b)
{
  return a == b || (a && b && !strcmp(a, b));
}

/* A line symbol before it is made: 40 bytes where a Sym takes 256 (a big
   -g program has 100,000s of them). */
typedef struct {
  vma_t addr;
  const char *name, *file;
  int line;
  unsigned is_static;
} LinePt;

typedef struct { LinePt *v; size_t n, cap; } PtVec;

/* The line symbol at ADDR: named after the function BFD reports there (the
   leading char stripped), else the function symbol holding it. */
static LinePt line_pt(Core *core, const SymTab *funcs, vma_t addr, const char *file, int line,
                      const char *func)
{
  Sym *f = sym_lookup(funcs, addr);
  if (!f && funcs->len && addr >= funcs->base[funcs->len - 1].addr) f = &funcs->base[funcs->len - 1];
  char lead = bfd_get_symbol_leading_char(core->abfd);
  if (func && lead && func[0] == lead) func++;
  return (LinePt){ addr, func ? func : f ? f->name : "", file, line, f ? f->is_static : 0 };
}

/* The Sym for P, the SEQ-th line symbol (from 1): files are met after
   every function symbol's, in address order (the order -A lists files in
   depends on it). */
static void line_sym(Core *core, const LinePt *p, size_t seq, Sym *s)
{
  sym_init(s);
  s->addr = s->end_addr = p->addr;
  s->name = p->name;
  s->is_line = 1;
  s->is_static = p->is_static;
  s->bfd_seq = (unsigned)core->nsyms + (unsigned)seq;
  s->file_done = 1;
  s->file = p->file;
  s->line = p->line;
}

typedef struct { Core *core; const SymTab *funcs; PtVec *out; } LineCtx;

static void emit_pt(void *ctx, vma_t addr, const char *file, int line, const char *func)
{
  LineCtx *c = ctx;
  PtVec *v = c->out;
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 1024;
    v->v = xrealloc(v->v, v->cap * sizeof *v->v);
  }
  LinePt *p = &v->v[v->n++];
  *p = line_pt(c->core, c->funcs, addr, file, line, func);
  DBG(c->funcs->opts.debug, DBG_SYMTAB, "lines: %s at 0x%llx (%s:%d)\n", p->name, (unsigned long long)addr, file, line);
}

/* Calls EMIT at every address of the text section where the source
   position BFD reports (file, line, function) differs from the last
   address that had one, in address order: the line symbols' places. */
typedef void LineEmit(void *ctx, vma_t addr, const char *file, int line, const char *func);

/* GPROF_LINES_CHECK: BFD's answers (after GNU's questions: every function
   symbol, then every byte of the text once) against the decoded ones, at
   each piece's first and last byte (=1) or at every byte (=2); the
   differences go to stderr.  A test aid, as slow as GNU. */
static int same_ans(const char *f1, int l1, const char *n1, const char *f2, int l2, const char *n2)
{
  if (!f1 || !f2) return !f1 && !f2;
  return l1 == l2 && !strcmp(f1, f2) && same_str(n1, n2);
}

static void check_segs(Core *core, const DwSeg *sg, size_t ns, vma_t lo, vma_t hi, int every)
{
  size_t bad = 0, asked = 0;
  for (vma_t a = lo; a < hi; a++) {
    const char *file, *func;
    int line;
    core_src_func_info(core, a, &file, &line, &func);
  }
  for (size_t i = 0; i < ns; i++) {
    vma_t next = i + 1 < ns ? sg[i + 1].addr : hi;
    for (vma_t a = sg[i].addr; a < next; a++) {
      if (!every && a != sg[i].addr && a != next - 1) continue;
      const char *file, *func;
      int line;
      asked++;
      core_src_func_info(core, a, &file, &line, &func);
      if (func && bfd_get_symbol_leading_char(core->abfd) && func[0] == bfd_get_symbol_leading_char(core->abfd))
        func++;
      if (!same_ans(file, line, func, sg[i].file, sg[i].line, sg[i].func)) {
        if (bad++ < 200)
          fprintf(stderr, "lines check: 0x%llx: BFD %s:%d %s, decoded %s:%d %s\n", (unsigned long long)a,
                  file ? file : "-", line, func ? func : "-", sg[i].file ? sg[i].file : "-", sg[i].line,
                  sg[i].func ? sg[i].func : "-");
      }
    }
  }
  fprintf(stderr, "lines check: %zu pieces, %zu addresses asked, %zu differ\n", ns, asked, bad);
}

/* The decoded walk's places, kept on the Core (core->line_cache): GNU's
   table and the exports' (and pprof's line points, -s's line starts) walk
   the same text, whose decoded answer does not depend on the table. */
typedef struct { vma_t addr; const char *file, *func; int line; } WalkPt;
struct LineCache {
  int ok;                       /* decoded (else: refused, BFD is asked) */
  WalkPt *v;
  size_t n, cap;
};

/* LC's places, given to EMIT. */
static void replay(const struct LineCache *lc, LineEmit *emit, void *ctx)
{
  for (size_t i = 0; i < lc->n; i++) emit(ctx, lc->v[i].addr, lc->v[i].file, lc->v[i].line, lc->v[i].func);
}

/* The walk over the decoded pieces: BFD is not asked at all.  Decoded
   once per Core into its places, the pieces dropped, the places replayed
   (so that the pieces and what the caller makes of the places are not
   held at once); later walks replay them, when the driver says there
   will be some (core->line_share).  Not kept when -d traces the decoder,
   nor under GPROF_LINES_CHECK: each walk then shows its own. */
static int walk_decoded(Core *core, unsigned debug, LineEmit *emit, void *ctx)
{
  const char *chk = getenv("GPROF_LINES_CHECK");
  int share = core->line_share && !(debug & DBG_SYMTAB) && !(chk && *chk);
  struct LineCache *lc = core->line_cache;
  if (share && lc) {
    replay(lc, emit, ctx);
    return lc->ok;
  }
  struct LineCache mine;
  memset(&mine, 0, sizeof mine);
  lc = &mine;
  if (share) lc = core->line_cache = xcalloc(1, sizeof *lc);
  vma_t lo = bfd_section_vma(core->text), hi = lo + bfd_section_size(core->text);
  DwInfo *dw = dw_open(core, debug);
  if (!dw) return 0;
  size_t ns;
  const DwSeg *sg = dw_segments(dw, lo, hi, &ns);
  if (chk && *chk) check_segs(core, sg, ns, lo, hi, atoi(chk) >= 2);
  const char *pfile = NULL, *pfunc = NULL;
  int pline = 0;
  for (size_t i = 0; i < ns; i++) {
    const DwSeg *g = &sg[i];
    if (!g->file) continue;
    if (!(pfile && g->line == pline && !strcmp(g->file, pfile) && same_str(g->func, pfunc))) {
      pfile = g->file;
      pline = g->line;
      pfunc = g->func;
      if (lc->n == lc->cap) {
        lc->cap = lc->cap ? 2 * lc->cap : 1024;
        lc->v = xrealloc(lc->v, lc->cap * sizeof *lc->v);
      }
      lc->v[lc->n++] = (WalkPt){ g->addr, g->file, g->func, g->line };
    }
  }
  lc->ok = 1;
  /* the names and files stay referenced by the symbols; the segments'
     array (2 MB on a 2,000-function program) goes before the profiles
     are read, off -s's peak */
  dw_drop_segments(dw);
  if (lc->n && lc->n < lc->cap) lc->v = xrealloc(lc->v, lc->n * sizeof *lc->v);
  replay(lc, emit, ctx);
  if (lc == &mine) free(mine.v);
  return 1;
}

/* (DEBUG: -d's bits, for the decoder's trace) */
static void walk_lines(Core *core, unsigned debug, LineEmit *emit, void *ctx)
{
  vma_t lo = bfd_section_vma(core->text), hi = lo + bfd_section_size(core->text);
  size_t np = 0;
  if (!getenv("GPROF_LINES_BYTEWISE") && !getenv("GPROF_LINES_BFD") && core_has_line_info(core)
      && walk_decoded(core, debug, emit, ctx))
    return;
  /* GPROF_LINES_BYTEWISE: walk every byte as GNU does (a test aid: the
     result must be the same, only slower) */
  vma_t *pts = getenv("GPROF_LINES_BYTEWISE") ? NULL : query_points(core, lo, hi, &np);
  const char *pfile = NULL, *pfunc = NULL;
  int pline = 0;
  /* GNU walks the text twice, counting and then making the symbols, and
     BFD's answers in the second walk follow what the first taught it
     (names of lambdas and of functions split in parts change; when the
     count changes too, GNU stops: "somebody miscounted").  Ask every
     question once before the walk that counts. */
  if (core_has_line_info(core)) {
    size_t n = pts ? np : (size_t)(hi - lo);
    for (size_t i = 0; i < n; i++) {
      const char *file, *func;
      int line;
      core_src_func_info(core, pts ? pts[i] : lo + i, &file, &line, &func);
    }
    for (size_t i = 0; i < n; i++) {
      vma_t addr = pts ? pts[i] : lo + i;
      vma_t next = pts ? (i + 1 < np ? pts[i + 1] : hi) : addr + 1;
      const char *file, *func;
      int line;
      if (!core_src_func_info(core, addr, &file, &line, &func)) continue;
      /* the function BFD names can change between rows (an inlined
         call's range); look at the last byte, and at every byte if it
         names another */
      int walk = 0;
      if (pts && next - addr > 1) {
        const char *f2, *fn2;
        int l2;
        walk = core_src_func_info(core, next - 1, &f2, &l2, &fn2) && !same_str(fn2, func);
      }
      for (vma_t a = addr; a < next; a++) {
        if (a > addr && !core_src_func_info(core, a, &file, &line, &func)) continue;
        if (!(pfile && line == pline && !strcmp(file, pfile) && same_str(func, pfunc))) {
          pfile = file;
          pline = line;
          pfunc = func;
          emit(ctx, a, file, line, func);
        }
        if (!walk) break;
      }
    }
  }
  free(pts);
}

static void emit_none(void *ctx, vma_t addr, const char *file, int line, const char *func)
{
  (void)ctx, (void)addr, (void)file, (void)line, (void)func;
}

/* The decoded walk kept on the Core (decoded now if need be), when it is
   to be kept (walk_decoded) and walk_lines would take it; else NULL. */
static const struct LineCache *shared_walk(Core *core, unsigned debug)
{
  const char *chk = getenv("GPROF_LINES_CHECK");
  if (!core->line_share || (debug & DBG_SYMTAB) || (chk && *chk) || getenv("GPROF_LINES_BYTEWISE")
      || getenv("GPROF_LINES_BFD") || !core_has_line_info(core))
    return NULL;
  if (!core->line_cache) walk_decoded(core, debug, emit_none, NULL);
  return core->line_cache && core->line_cache->ok ? core->line_cache : NULL;
}

void line_add_syms(Core *core, SymTab *tab)
{
  core_prime_src_info(core, tab);
  /* the function table's last symbol goes when it lies at or past the
     end of .text (GNU 2.40, measured on hand-made objects: the highest of
     several NOTYPE symbols past .text goes, the others stay; one exactly
     at the end goes; a last function in .text stays, one in a .fini
     after it goes; a weak function in .data below the last stays; on
     real programs data_start goes and etext stays) */
  /* each function's extent before anything is dropped: the last symbol
     keeps it (etext then reaches to data_start) */
  vma_t text_hi = bfd_section_vma(core->text) + bfd_section_size(core->text);
  vma_t *fstart = xmalloc((tab->len + 1) * sizeof *fstart);
  for (size_t i = 0; i < tab->len; i++) fstart[i] = tab->base[i].addr;
  size_t nfunc = tab->len;
  if (tab->len && tab->base[tab->len - 1].addr >= text_hi) tab->len--;
  tab->last_no_arcs = 0;
  symtab_finalize(tab);

  PtVec pts = { 0, 0, 0 };
  /* the walk kept for later walks: its places made line symbols here,
     without a copy of them all */
  const struct LineCache *kept = shared_walk(core, tab->opts.debug);
  if (!kept) {
    LineCtx lc = { core, tab, &pts };
    walk_lines(core, tab->opts.debug, emit_pt, &lc);
  }
  size_t np = kept ? kept->n : pts.n;
  /* functions and lines are each in address order: merged into one
     table, made once.  At an address both have, the function (met first)
     stays unless symtab_finalize's rule prefers the line. */
  size_t nf = tab->len, i = 0, j = 0, out = 0;
  Sym *nb = xmalloc_huge((nf + np + 1) * sizeof *nb);
  while (i < nf || j < np) {
    vma_t at = j == np ? 0 : kept ? kept->v[j].addr : pts.v[j].addr;
    if (j == np || (i < nf && tab->base[i].addr <= at)) {
      nb[out++] = tab->base[i++];
      continue;
    }
    Sym *c = &nb[out];
    if (kept) {
      const WalkPt *w = &kept->v[j];
      LinePt p = line_pt(core, tab, w->addr, w->file, w->line, w->func);
      line_sym(core, &p, j + 1, c);
    } else {
      line_sym(core, &pts.v[j], j + 1, c);
    }
    j++;
    if (out > 0 && nb[out - 1].addr == c->addr) {
      int take = sym_prefer(c, &nb[out - 1]);
      DBG(tab->opts.debug, DBG_SYMTAB, "symtab: 0x%llx: %s and %s share it, keeping %s\n",
          (unsigned long long)c->addr, nb[out - 1].name, c->name, take ? c->name : nb[out - 1].name);
      if (take) {
        if (tab->owns_names) free((void *)nb[out - 1].name);
        nb[out - 1] = *c;
      } else if (tab->owns_names) {
        free((void *)c->name);
      }
      continue;
    }
    out++;
  }
  free(pts.v);
  free(tab->base);
  tab->base = nb;
  tab->len = out;
  symtab_finalize(tab);         /* in order already: in place */
  /* The last symbol: a function keeps its extent in the function table
     (up to the next function symbol, dropped ones included: GNU's etext
     covers the bytes up to data_start; the table's last function reaches
     the end of .text); a line symbol reaches the end of .text. */
  if (tab->len) {
    Sym *last = &tab->base[tab->len - 1];
    vma_t end = text_hi - 1;
    if (!last->is_line) {
      size_t lo2 = 0, hi2 = nfunc;  /* first function start above it */
      while (lo2 < hi2) {
        size_t mid = (lo2 + hi2) / 2;
        if (fstart[mid] <= last->addr) lo2 = mid + 1; else hi2 = mid;
      }
      if (lo2 < nfunc) end = fstart[lo2] - 1;
    }
    if (end > last->end_addr) last->end_addr = end;
    /* but GNU credits it no samples (a bin past etext goes nowhere) */
    tab->last_hist_end = last->addr;
  }
  free(fstart);
}

/* line_starts: the walk of line_add_syms, keeping only the addresses (and
   the last line's position, for the one case where it shares the last
   address with a function and which of the two the table keeps decides
   where the table ends). */
typedef struct {
  AddrVec a;
  const char *file, *func;
  int line;
} StartCtx;

static void emit_start(void *ctx, vma_t addr, const char *file, int line, const char *func)
{
  StartCtx *c = ctx;
  addr_push(&c->a, addr);
  c->file = file;
  c->line = line;
  c->func = func;
}

size_t line_starts(Core *core, const SymTab *funcs, vma_t **starts, vma_t *last_end)
{
  core_prime_src_info(core, funcs);
  vma_t text_hi = bfd_section_vma(core->text) + bfd_section_size(core->text);
  size_t nall = funcs->len, nf = nall;
  if (nf && funcs->addrs[nf - 1] >= text_hi) nf--;     /* as line_add_syms drops it */
  StartCtx c;
  memset(&c, 0, sizeof c);
  walk_lines(core, funcs->opts.debug, emit_start, &c);
  vma_t *v = xmalloc((nf + c.a.n + 1) * sizeof *v);
  size_t i = 0, j = 0, n = 0;
  while (i < nf || j < c.a.n) {
    vma_t x = j == c.a.n || (i < nf && funcs->addrs[i] <= c.a.v[j]) ? funcs->addrs[i++] : c.a.v[j++];
    if (!n || v[n - 1] != x) v[n++] = x;
  }
  if (n) {
    vma_t last = v[n - 1];
    int func_last = nf && funcs->addrs[nf - 1] == last;
    int line_last = c.a.n && c.a.v[c.a.n - 1] == last;
    if (func_last && line_last) {
      /* both: symtab_finalize keeps the function unless it prefers the
         line symbol (a NOTYPE symbol, say) */
      LinePt p = line_pt(core, funcs, last, c.file, c.line, c.func);
      Sym one;
      line_sym(core, &p, c.a.n, &one);
      func_last = !sym_prefer(&one, &funcs->base[nf - 1]);
    }
    vma_t end = text_hi - 1;
    if (func_last) {        /* as in line_add_syms */
      size_t lo = 0, hi = nall;
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (funcs->addrs[mid] <= last) lo = mid + 1; else hi = mid;
      }
      if (lo < nall) end = funcs->addrs[lo] - 1;
    }
    *last_end = end > last ? end : last;
  }
  free(c.a.v);
  *starts = v;
  return n;
}

/* line_points: the walk of line_add_syms, keeping each place's file and
   line (--callgrind maps histogram bins to lines with them). */
typedef struct { LinePoint *v; size_t n, cap; } PointVec;

static void emit_point(void *ctx, vma_t addr, const char *file, int line, const char *func)
{
  PointVec *p = ctx;
  (void)func;
  if (p->n && p->v[p->n - 1].line == line && same_str(p->v[p->n - 1].file, file)) return;
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 1024;
    p->v = xrealloc(p->v, p->cap * sizeof *p->v);
  }
  p->v[p->n++] = (LinePoint){ addr, file, line };
}

size_t line_points(Core *core, const SymTab *funcs, LinePoint **points)
{
  PointVec p = { NULL, 0, 0 };
  if (core_has_line_info(core)) {
    core_prime_src_info(core, funcs);
    walk_lines(core, funcs->opts.debug, emit_point, &p);
  }
  *points = p.v;
  return p.n;
}
