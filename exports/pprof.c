/* exports/pprof.c -- the profile as pprof's profile.proto, gzipped
 * (--pprof; what is written is in exports/pprof.h).
 *
 * The message is encoded here: a Profile is a few repeated fields whose
 * wire format needs only varints and length-delimited bytes, which is
 * less code than a protobuf library and its generated code.  Each
 * repeated field's entries gather in a buffer of their own (samples,
 * mappings, locations, functions), since writing a sample makes the
 * locations and functions it names; the buffers are then compressed one
 * after another in field order, the string table after the functions.
 *
 * Ids: a Function per function of the table (made when first named),
 * one more per inlined function a -l line symbol is named after; a
 * Location per table symbol at its address (the flat samples and the
 * arcs), and with stacks one per distinct (object, PC) of the frames. */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "exports/pprof.h"
#include "core.h"
#include "lines/linesyms.h"
#include "util/options.h"
#include "source.h"
#include "sym_ids.h"

/* profile.proto's field numbers */
enum {
  PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
  PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
  PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11,
  PROFILE_PERIOD = 12, PROFILE_DEFAULT_SAMPLE_TYPE = 14
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3 };
enum {
  MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3,
  MAPPING_FILE_OFFSET = 4, MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6,
  MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_FILENAMES = 8, MAPPING_HAS_LINE_NUMBERS = 9,
  MAPPING_HAS_INLINE_FRAMES = 10
};
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4 };
enum { LINE_FUNCTION_ID = 1, LINE_LINE = 2 };
enum {
  FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
  FUNCTION_START_LINE = 5
};
enum { WIRE_VARINT = 0, WIRE_BYTES = 2 };

/* ---- the encoder ---- */

typedef struct {
  unsigned char *p;
  size_t len, cap;
} Pb;

static void pb_need(Pb *b, size_t n)
{
  if (b->cap - b->len >= n) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < n) cap *= 2;
  b->p = xrealloc(b->p, cap);
  b->cap = cap;
}

static void pb_varint(Pb *b, uint64_t v)
{
  pb_need(b, 10);
  do {
    unsigned char c = v & 0x7f;
    v >>= 7;
    b->p[b->len++] = c | (v ? 0x80 : 0);
  } while (v);
}

static size_t varint_len(uint64_t v)
{
  size_t n = 1;
  while (v >>= 7) n++;
  return n;
}

static void pb_key(Pb *b, unsigned field, unsigned wire)
{
  pb_varint(b, (uint64_t)field << 3 | wire);
}

/* A number field; proto3 leaves a field at its default, 0, out.  (The
   int64 fields here are never negative, so theirs is the same varint.) */
static void pb_uint(Pb *b, unsigned field, uint64_t v)
{
  if (!v) return;
  pb_key(b, field, WIRE_VARINT);
  pb_varint(b, v);
}

static void pb_bytes(Pb *b, unsigned field, const void *p, size_t n)
{
  pb_key(b, field, WIRE_BYTES);
  pb_varint(b, n);
  pb_need(b, n);
  if (n) memcpy(b->p + b->len, p, n);
  b->len += n;
}

/* The message built in SUB as FIELD of B; SUB is emptied for the next. */
static void pb_msg(Pb *b, unsigned field, Pb *sub)
{
  pb_bytes(b, field, sub->p, sub->len);
  sub->len = 0;
}

/* V[0..N) as one packed repeated field (proto3's form for numbers). */
static void pb_packed(Pb *b, unsigned field, const uint64_t *v, size_t n)
{
  size_t len = 0, i;
  if (!n) return;
  for (i = 0; i < n; i++) len += varint_len(v[i]);
  pb_key(b, field, WIRE_BYTES);
  pb_varint(b, len);
  for (i = 0; i < n; i++) pb_varint(b, v[i]);
}

/* ---- the string table: each string once, "" at index 0 ---- */

typedef struct {
  char **v;
  size_t n, cap;
  uint32_t *slot;               /* open hash: 1 + index, 0 = free; a power
                                   of two, at most half full */
  size_t nslots;
} Strs;

static uint64_t str_hash(const char *s)
{
  uint64_t h = 14695981039346656037ull;   /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void strs_grow(Strs *t)
{
  size_t n = t->nslots ? 2 * t->nslots : 1024;
  free(t->slot);
  t->slot = xcalloc(n, sizeof *t->slot);
  t->nslots = n;
  for (size_t k = 0; k < t->n; k++) {
    size_t i = str_hash(t->v[k]) & (n - 1);
    while (t->slot[i]) i = (i + 1) & (n - 1);
    t->slot[i] = (uint32_t)(k + 1);
  }
}

static uint64_t str_id(Strs *t, const char *s)
{
  if (2 * (t->n + 1) > t->nslots) strs_grow(t);
  size_t m = t->nslots - 1, i = str_hash(s) & m;
  for (; t->slot[i]; i = (i + 1) & m)
    if (!strcmp(t->v[t->slot[i] - 1], s)) return t->slot[i] - 1;
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 1024;
    t->v = xrealloc(t->v, t->cap * sizeof *t->v);
  }
  t->v[t->n] = xstrdup(s);
  t->slot[i] = (uint32_t)++t->n;
  return t->n - 1;
}

/* ---- values ---- */

/* Cumulative rounding: each value is the running sum rounded less what
   was given out before, so the integers add up to the exact sum rounded
   once (the flat profile's total), each within 1 of its own figure. */
typedef struct {
  double sum;
  uint64_t given;
} Round;

/* profile.proto's values are int64: a sum past that (only a hostile
   stack file's counts reach it) stops there */
#define VALUE_MAX ((uint64_t)INT64_MAX)

static uint64_t round_next(Round *r, double v)
{
  r->sum += v;
  /* (a double below 2^63, rounded, fits) */
  uint64_t t = r->sum < 0x1p63 ? (uint64_t)floor(r->sum + 0.5) : VALUE_MAX;
  uint64_t d = t > r->given ? t - r->given : 0;
  r->given = t > r->given ? t : r->given;
  return d;
}

/* ---- the profile ---- */

typedef struct {
  uint64_t pc;
  uint32_t obj, id;             /* id 0: a free slot */
} FrameSlot;

typedef struct {
  const ExportInput *in;
  const SymTab *tab;
  const Stacks *st;             /* NULL without stacks */
  Strs strs;
  Pb head, samples, mappings, locations, functions;
  Pb ssub, lab, msub, lsub, line, fsub;   /* one scratch per kind */
  int time, calls;              /* the sample types written */
  size_t nvalues;
  double hz;
  Round rsamples, rnanos;
  size_t *own;                  /* per table symbol: its function's index */
  uint32_t *func_id;            /* per table symbol: its Function, 0 = none yet */
  uint32_t *named_id;           /* per string (the linkage name of a
                                   function known by name only): its
                                   Function */
  size_t named_cap;
  uint32_t nfuncs;
  uint32_t *loc_id;             /* per table symbol: its Location */
  uint32_t nlocs;
  uint32_t prog_map;            /* the program's Mapping, 0 = none */
  vma_t prog_delta;             /* added to the program's symbol addresses
                                   (with stacks: to run-time addresses) */
  FrameSlot *frames;            /* stacks: Locations by (object, PC) */
  size_t nframe_slots;
  LinePoint *pts;               /* stacks: the program's line table */
  size_t npts;
  int pts_read;
} Pp;

static uint64_t S(Pp *P, const char *s)
{
  return str_id(&P->strs, s);
}

static void value_type(Pp *P, Pb *b, unsigned field, const char *type, const char *unit)
{
  Pb *v = &P->msub;
  pb_uint(v, VALUE_TYPE_TYPE, S(P, type));
  pb_uint(v, VALUE_TYPE_UNIT, S(P, unit));
  pb_msg(b, field, v);
}

/* The Function of table symbol I (a function, never a line symbol). */
static uint32_t function_of(Pp *P, size_t i)
{
  if (P->func_id[i]) return P->func_id[i];
  const Sym *s = &P->tab->base[i];
  Pb *f = &P->fsub;
  uint32_t id = P->func_id[i] = ++P->nfuncs;
  const char *path = src_sym_path(P->tab, s);
  pb_uint(f, FUNCTION_ID, id);
  pb_uint(f, FUNCTION_NAME, S(P, sym_print_name(P->tab, s)));
  pb_uint(f, FUNCTION_SYSTEM_NAME, S(P, s->name));
  if (path) {
    pb_uint(f, FUNCTION_FILENAME, S(P, path));
    pb_uint(f, FUNCTION_START_LINE, (uint64_t)src_sym_line(P->tab, s));
  }
  pb_msg(&P->functions, PROFILE_FUNCTION, f);
  return id;
}

/* A Function known by name only, one per NAME (its linkage name):
   DNAME as printed, in PATH (NULL: unknown), its first line unknown. */
static uint32_t named_function(Pp *P, const char *name, const char *dname, const char *path)
{
  uint64_t sys = S(P, name);
  if (sys >= P->named_cap) {
    size_t cap = P->named_cap ? P->named_cap : 256;
    while (cap <= sys) cap *= 2;
    P->named_id = xrealloc(P->named_id, cap * sizeof *P->named_id);
    memset(P->named_id + P->named_cap, 0, (cap - P->named_cap) * sizeof *P->named_id);
    P->named_cap = cap;
  }
  if (P->named_id[sys]) return P->named_id[sys];
  Pb *f = &P->fsub;
  uint32_t id = P->named_id[sys] = ++P->nfuncs;
  pb_uint(f, FUNCTION_ID, id);
  pb_uint(f, FUNCTION_NAME, S(P, dname));
  pb_uint(f, FUNCTION_SYSTEM_NAME, sys);
  if (path) pb_uint(f, FUNCTION_FILENAME, S(P, path));
  pb_msg(&P->functions, PROFILE_FUNCTION, f);
  return id;
}

/* The inlined function -l line symbol S is named after (BFD names a
   line symbol inside inlined code so): its names and the line's file. */
static uint32_t inlined_function(Pp *P, const Sym *s)
{
  return named_function(P, s->name, sym_print_name(P->tab, s), src_sym_path(P->tab, s));
}

static void line(Pp *P, Pb *loc, uint32_t function, int lineno)
{
  pb_uint(&P->line, LINE_FUNCTION_ID, function);
  pb_uint(&P->line, LINE_LINE, lineno > 0 ? (uint64_t)lineno : 0);
  pb_msg(loc, LOCATION_LINE, &P->line);
}

/* The Location of table symbol I, at its address: its function and line;
   a -l line symbol named after another function than the one it lies in
   is that function inlined there (the line it was inlined at unknown). */
static uint32_t sym_location(Pp *P, size_t i)
{
  if (P->loc_id[i]) return P->loc_id[i];
  const SymTab *tab = P->tab;
  const Sym *s = &tab->base[i];
  size_t o = P->own[i];
  Pb *l = &P->lsub;
  uint32_t id = P->loc_id[i] = ++P->nlocs;
  pb_uint(l, LOCATION_ID, id);
  /* other objects' symbols (--objects) sit at synthetic addresses in no
     mapping */
  int prog = i < symtab_own_len(tab);
  pb_uint(l, LOCATION_MAPPING_ID, prog ? P->prog_map : 0);
  pb_uint(l, LOCATION_ADDRESS, s->addr + (prog ? P->prog_delta : 0));
  if (o != i && strcmp(s->name, tab->base[o].name)) {
    line(P, l, inlined_function(P, s), src_sym_line(tab, s));
    line(P, l, function_of(P, o), 0);
  } else {
    line(P, l, function_of(P, o), src_sym_line(tab, s));
  }
  pb_msg(&P->locations, PROFILE_LOCATION, l);
  return id;
}

static void sample(Pp *P, const uint64_t *locs, size_t nlocs, const uint64_t *values,
                   const StackThread *th, char end)
{
  Pb *s = &P->ssub;
  pb_packed(s, SAMPLE_LOCATION_ID, locs, nlocs);
  pb_packed(s, SAMPLE_VALUE, values, P->nvalues);
  if (end && end != 'c') {      /* a stack that does not reach the thread's first frame
                                   (cut, or a walk that broke off): as --folded's root */
    pb_uint(&P->lab, LABEL_KEY, S(P, "stack"));
    pb_uint(&P->lab, LABEL_STR, S(P, "truncated"));
    pb_msg(s, SAMPLE_LABEL, &P->lab);
  }
  if (th) {
    if (th->name && th->name[0]) {
      pb_uint(&P->lab, LABEL_KEY, S(P, "thread"));
      pb_uint(&P->lab, LABEL_STR, S(P, th->name));
      pb_msg(s, SAMPLE_LABEL, &P->lab);
    }
    pb_uint(&P->lab, LABEL_KEY, S(P, "tid"));
    pb_uint(&P->lab, LABEL_NUM, th->tid);
    pb_msg(s, SAMPLE_LABEL, &P->lab);
  }
  pb_msg(&P->samples, PROFILE_SAMPLE, s);
}

/* Values of a sample of N samples (possibly a fraction: the histogram
   splits a bin between the symbols it overlaps) and C calls. */
static void values(Pp *P, uint64_t *v, double n, uint64_t c)
{
  size_t k = 0;
  if (P->time) {
    v[k++] = round_next(&P->rsamples, n);
    v[k++] = round_next(&P->rnanos, n * 1e9 / P->hz);
  }
  if (P->calls) v[k++] = c;
}

static void hex(char *out, const unsigned char *id, size_t n)
{
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", id[i]);
  out[2 * n] = 0;
}

static void mapping(Pp *P, uint32_t id, vma_t lo, vma_t hi, uint64_t off, const char *file,
                    const char *build_id, int functions, int lines)
{
  Pb *m = &P->msub;
  pb_uint(m, MAPPING_ID, id);
  pb_uint(m, MAPPING_MEMORY_START, lo);
  pb_uint(m, MAPPING_MEMORY_LIMIT, hi);
  pb_uint(m, MAPPING_FILE_OFFSET, off);
  pb_uint(m, MAPPING_FILENAME, S(P, file));
  if (build_id && *build_id) pb_uint(m, MAPPING_BUILD_ID, S(P, build_id));
  pb_uint(m, MAPPING_HAS_FUNCTIONS, functions != 0);
  pb_uint(m, MAPPING_HAS_FILENAMES, lines != 0);
  pb_uint(m, MAPPING_HAS_LINE_NUMBERS, lines != 0);
  pb_msg(&P->mappings, PROFILE_MAPPING, m);
}

static int has_lines(const SymTab *tab)
{
  return tab->core && !tab->opts.external && core_has_line_info(tab->core);
}

/* The program's code as the object lays it out: from its lowest code
   section to the end of its highest. */
static int program_range(const SymTab *tab, vma_t *lo, vma_t *hi)
{
  vma_t r[64][2];
  size_t n = tab->core ? core_code_ranges(tab->core, r, 64) : 0;
  if (!n) return 0;
  *lo = r[0][0]; *hi = r[0][1];
  for (size_t k = 1; k < n; k++) {
    if (r[k][0] < *lo) *lo = r[k][0];
    if (r[k][1] > *hi) *hi = r[k][1];
  }
  return 1;
}

/* The executable segment of Object K of the one model (0: the program;
   objects.h objects_exec_segment_of), or, for a file it has no Object for
   (a stack file's object left out, or no model: the fuzz target), of the
   file at PATH. */
static int exec_segment(Pp *P, uint32_t k, const char *path, vma_t lo, vma_t hi, vma_t *va, vma_t *end,
                        uint64_t *off)
{
  Objects *objs = P->in->objects;
  if (!objs || k >= objs->n) return objects_exec_segment(path, lo, hi, va, end, off);
  const ObjSeg *segs;
  size_t n = object_segs(&objs->v[k], &segs);
  return objects_exec_segment_of(segs, n, lo, hi, va, end, off);
}

/* Without stacks: the program's Mapping, at its link-time addresses. */
static void program_mapping(Pp *P)
{
  const SymTab *tab = P->tab;
  vma_t lo, hi;
  if (!program_range(tab, &lo, &hi)) return;
  uint64_t off = 0;
  unsigned char id[64];
  char idhex[2 * sizeof id + 1] = "";
  size_t len = (size_t)core_build_id(tab->core, id, sizeof id);
  hex(idhex, id, len < sizeof id ? len : sizeof id);
  /* the executable segment, as the kernel would map it at no bias */
  vma_t va, end;
  if (exec_segment(P, 0, P->in->program, lo, hi, &va, &end, &off)) {
    lo = va;
    if (end > hi) hi = end;
  } else {
    core_file_offset(tab->core, lo, &off);
  }
  P->prog_map = 1;
  mapping(P, 1, lo, hi, off, P->in->program, idhex, 1, has_lines(tab));
}

/* With stacks: a Mapping per object the stack file names, at run time. */
static void stack_mappings(Pp *P)
{
  const Stacks *st = P->st;
  for (size_t k = 0; k < st->nloads; k++) {
    const Load *o = &st->loads[k];
    char idhex[2 * sizeof o->id + 1];
    uint64_t off = 0;
    int prog = k == 0;
    hex(idhex, o->id, o->idlen < sizeof o->id ? o->idlen : sizeof o->id);
    /* what the kernel's maps show for the object's executable segment
       (start, limit, file offset, whole pages), from its program
       headers: pprof's symbolizers (and Parca's, Pyroscope's) find a
       PC's place in the file so; the program's file as named, another
       object's as the stack file names it.  Unreadable (the vdso, a
       file gone): its text, offset 0. */
    vma_t lo = o->lo, hi = o->hi, va, end;
    if (exec_segment(P, o->object, prog ? P->in->program : o->path, o->lo - o->base, o->hi - o->base, &va,
                     &end, &off)) {
      lo = va + o->base;
      hi = end + o->base;
    }
    mapping(P, (uint32_t)k + 1, lo, hi, off, o->path, idhex, o->known,
            prog && has_lines(P->tab));
  }
  P->prog_map = st->nloads ? 1 : 0;
  if (st->nloads) P->prog_delta = st->loads[0].base - st->loads[0].shift;
}

/* The line of the program's frame F in function S, from the line table:
   the row holding the frame's address, when it is S's and in S's file
   (inlined code names another file: its line would be read as S's). */
static int frame_line(Pp *P, size_t f, const Sym *s)
{
  const Stacks *st = P->st;
  if (!P->pts_read) {
    P->pts_read = 1;
    if (has_lines(P->tab)) P->npts = line_points(P->tab->core, P->tab, &P->pts);
  }
  vma_t a = st->addr[f];
  size_t lo = 0, hi = P->npts;
  while (lo < hi) {             /* the first point above A */
    size_t mid = lo + (hi - lo) / 2;
    if (P->pts[mid].addr <= a) lo = mid + 1;
    else hi = mid;
  }
  if (!lo) return 0;
  const LinePoint *p = &P->pts[lo - 1];
  const char *path = src_sym_path(P->tab, s);
  if (p->addr < s->addr || !p->file || !path || strcmp(p->file, path)) return 0;
  return p->line;
}

/* The Location of stack frame F: one per (object, PC). */
static uint32_t frame_location(Pp *P, size_t f)
{
  const Stacks *st = P->st;
  uint64_t pc = st->pc[f];
  uint32_t obj = st->obj[f];
  size_t m = P->nframe_slots - 1;
  size_t i = (size_t)((pc ^ (uint64_t)obj << 48) * 0x9e3779b97f4a7c15ull >> 20) & m;
  for (; P->frames[i].id; i = (i + 1) & m)
    if (P->frames[i].pc == pc && P->frames[i].obj == obj) return P->frames[i].id;
  uint32_t id = ++P->nlocs;
  P->frames[i] = (FrameSlot){ pc, obj, id };
  Pb *l = &P->lsub;
  pb_uint(l, LOCATION_ID, id);
  pb_uint(l, LOCATION_MAPPING_ID, obj < st->nloads ? obj + 1 : 0);
  pb_uint(l, LOCATION_ADDRESS, pc);
  const Sym *s = st->sym[f];
  if (s) {
    size_t k = (size_t)(s - P->tab->base);
    line(P, l, function_of(P, k), k < symtab_own_len(P->tab) ? frame_line(P, f, s) : 0);
  } else if (obj < st->nloads) {
    /* an object whose symbols could not be read: its "[name]" */
    const char *name = stacks_frame_name(st, P->tab, f);
    line(P, l, named_function(P, name, name, NULL), 0);
  }
  pb_msg(&P->locations, PROFILE_LOCATION, l);
  return id;
}

static int tid_cmp(const void *a, const void *b)
{
  const StackThread *x = *(const StackThread *const *)a, *y = *(const StackThread *const *)b;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

/* One sample per stack, leaf first, labelled with its thread. */
static void stack_samples(Pp *P)
{
  const Stacks *st = P->st;
  size_t n = 1, i, k, max = 1;
  while (n < 2 * st->nframes + 2) n *= 2;
  P->frames = xcalloc(n, sizeof *P->frames);
  P->nframe_slots = n;
  const StackThread **by_tid = xmalloc((st->nthreads + 1) * sizeof *by_tid);
  for (i = 0; i < st->nthreads; i++) by_tid[i] = &st->threads[i];
  qsort(by_tid, st->nthreads, sizeof *by_tid, tid_cmp);
  for (i = 0; i < st->n; i++)
    if (st->v[i].n > max) max = st->v[i].n;
  uint64_t *locs = xmalloc(max * sizeof *locs), v[3];
  for (i = 0; i < st->n; i++) {
    const Stack *s = &st->v[i];
    for (k = 0; k < s->n; k++) locs[k] = frame_location(P, s->first + k);
    StackThread key = { s->tid, (char *)"" }, *kp = &key;
    const StackThread **t = bsearch(&kp, by_tid, st->nthreads, sizeof *by_tid, tid_cmp);
    values(P, v, (double)s->count, 0);
    sample(P, locs, s->n, v, t ? *t : &key, s->end);
  }
  if (st->dropped) {            /* not recorded: one entry, so totals add up */
    Pb *l = &P->lsub;
    uint64_t id = ++P->nlocs;
    pb_uint(l, LOCATION_ID, id);
    line(P, l, named_function(P, STACKS_DROPPED, STACKS_DROPPED, NULL), 0);
    pb_msg(&P->locations, PROFILE_LOCATION, l);
    values(P, v, (double)st->dropped, 0);
    sample(P, &id, 1, v, NULL, 0);
  }
  free(locs);
  free(by_tid);
}

/* Without stacks: one sample per symbol of the flat profile with self
   time, in address order. */
static void flat_samples(Pp *P)
{
  const SymTab *tab = P->tab;
  uint64_t v[3];
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s) || !(s->hist_time > 0)) continue;
    uint64_t loc = sym_location(P, i);
    values(P, v, s->hist_time, 0);
    sample(P, &loc, 1, v, NULL, 0);
  }
}

static int in_table(const SymTab *tab, const Sym *s)
{
  return s >= tab->base && s < tab->base + tab->len;
}

/* One sample per arc that was called: [callee, caller]. */
static void arc_samples(Pp *P)
{
  const CallGraph *cg = P->in->cg;
  const SymTab *tab = P->tab;
  uint64_t v[3] = { 0, 0, 0 }, locs[2];
  for (size_t i = 0; i < cg->narcs; i++) {
    const Arc *a = cg_arc(cg, i);
    /* -c's arcs carry no count; <indirect child> is in no table */
    if (!a->count || !in_table(tab, a->parent) || !in_table(tab, a->child)) continue;
    locs[0] = sym_location(P, (size_t)(a->child - tab->base));
    locs[1] = sym_location(P, (size_t)(a->parent - tab->base));
    v[P->nvalues - 1] = a->count < VALUE_MAX ? a->count : VALUE_MAX;
    sample(P, locs, 2, v, NULL, 0);
  }
}

/* ---- writing ---- */

typedef struct {
  z_stream z;
  FILE *f;
  unsigned char out[1 << 16];
} Gz;

static void gz_write(Gz *g, const void *p, size_t n, int finish)
{
  const unsigned char *b = p;
  int rc;
  do {
    /* avail_in is an unsigned int: at most 1 GiB at a time */
    size_t chunk = n < (1u << 30) ? n : (1u << 30);
    g->z.next_in = (Bytef *)b;
    g->z.avail_in = (uInt)chunk;
    if (chunk) b += chunk;      /* (an empty buffer may be NULL) */
    n -= chunk;
    int flush = finish && !n ? Z_FINISH : Z_NO_FLUSH;
    do {
      g->z.next_out = g->out;
      g->z.avail_out = sizeof g->out;
      rc = deflate(&g->z, flush);
      if (rc == Z_STREAM_ERROR) msg_fatal("--pprof: zlib: %s\n", g->z.msg ? g->z.msg : "error");
      fwrite(g->out, 1, sizeof g->out - g->z.avail_out, g->f);
    } while (g->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  } while (n);
}

static void pb_free(Pb *b)
{
  free(b->p);
}

void export_pprof(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  (void)eo;
  Pp P;
  memset(&P, 0, sizeof P);
  const SymTab *tab = in->tab;
  size_t i;
  P.in = in;
  P.tab = tab;
  P.st = in->stacks && in->stacks->present ? in->stacks : NULL;
  S(&P, "");                    /* index 0, as profile.proto requires */
  P.hz = in->hist && in->hist->hz > 0 ? in->hist->hz : P.st ? P.st->hz : 0;
  P.time = (in->hist || P.st) && P.hz > 0;
  P.calls = in->cg != NULL;
  if (P.time) {
    value_type(&P, &P.head, PROFILE_SAMPLE_TYPE, "samples", "count");
    value_type(&P, &P.head, PROFILE_SAMPLE_TYPE, "cpu", "nanoseconds");
    P.nvalues = 2;
  }
  if (P.calls) {
    value_type(&P, &P.head, PROFILE_SAMPLE_TYPE, "calls", "count");
    P.nvalues++;
  }

  /* (the stacks' frames may name the symbols kept past the table's end,
     of objects only they name) */
  size_t nsyms = tab->len + tab->ntail;
  P.own = xmalloc((nsyms + 1) * sizeof *P.own);
  for (i = 0; i < nsyms; i++)
    P.own[i] = i && i < tab->len && export_is_line(&tab->base[i]) ? P.own[i - 1] : i;
  P.func_id = xcalloc(nsyms + 1, sizeof *P.func_id);
  P.loc_id = xcalloc(nsyms + 1, sizeof *P.loc_id);

  if (P.st) stack_mappings(&P);
  else program_mapping(&P);
  if (P.time) {
    if (P.st) stack_samples(&P);
    else flat_samples(&P);
  }
  if (P.calls) arc_samples(&P);

  Pb tail = { NULL, 0, 0 }, strs = { NULL, 0, 0 };
  /* when: the stack file's start and wall-clock length; else the first
     profile file's time of writing (the run's end; no length known) */
  struct stat sb;
  if (P.st && P.st->start_ns) {
    pb_uint(&tail, PROFILE_TIME_NANOS, P.st->start_ns);
    pb_uint(&tail, PROFILE_DURATION_NANOS, P.st->duration_ns);
  } else if (in->nprofiles > 0 && stat(in->profiles[0], &sb) == 0) {
    pb_uint(&tail, PROFILE_TIME_NANOS, (uint64_t)sb.st_mtim.tv_sec * 1000000000u + (uint64_t)sb.st_mtim.tv_nsec);
  }
  if (P.time) {
    value_type(&P, &tail, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
    pb_uint(&tail, PROFILE_PERIOD, (uint64_t)llround(1e9 / P.hz));
    pb_uint(&tail, PROFILE_DEFAULT_SAMPLE_TYPE, S(&P, "cpu"));
  }
  for (i = 0; i < P.strs.n; i++) pb_bytes(&strs, PROFILE_STRING_TABLE, P.strs.v[i], strlen(P.strs.v[i]));

  Gz *g = xmalloc(sizeof *g);
  memset(&g->z, 0, sizeof g->z);
  g->f = f;
  /* windowBits 15 + 16: a gzip stream (what pprof reads), dated 0, so
     one profile gives one file */
  if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    msg_fatal("--pprof: zlib: %s\n", strerror(ENOMEM));
  const Pb *parts[] = { &P.head, &P.samples, &P.mappings, &P.locations, &P.functions, &strs, &tail };
  int nparts = (int)(sizeof parts / sizeof parts[0]);
  for (int k = 0; k < nparts; k++) gz_write(g, parts[k]->p, parts[k]->len, k == nparts - 1);
  deflateEnd(&g->z);
  free(g);

  for (i = 0; i < P.strs.n; i++) free(P.strs.v[i]);
  free(P.strs.v); free(P.strs.slot);
  Pb *bufs[] = { &P.head, &P.samples, &P.mappings, &P.locations, &P.functions, &P.ssub, &P.lab,
                 &P.msub, &P.lsub, &P.line, &P.fsub, &tail, &strs };
  for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++) pb_free(bufs[k]);
  free(P.own); free(P.func_id); free(P.named_id); free(P.loc_id); free(P.frames); free(P.pts);
}
