/* stacks.c -- the real stacks libprof samples (PROFILE.stacks), read and
 * resolved to the symbol table (stacks.h; doc/DESIGN.md, "Stacks").
 *
 * A file is read line by line into growing arrays (so memory follows the
 * bytes read, never a number read), each frame mapped to the object of
 * its file whose text holds it; once every file is read the objects the
 * frames reach are added to the table in one go (objects_add), the
 * frames' addresses moved to the table's, and equal stacks merged. */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "core.h"
#include "stacks/stacks.h"
#include "sym_ids.h"

#define NONE UINT32_MAX
#define STK_DEPTH_MAX 65536     /* frames a stack may have */
#define STK_LINE_MAX (STK_DEPTH_MAX * 20 + 8192)   /* its line, and a path */
#define STK_OBJS_MAX 4096       /* objects per file, and all files' together */
#define STK_STREAM_MAX (4ull << 30)   /* a larger stack file is refused */

/* An object as one file lists it. */
typedef struct {
  uint32_t k;                   /* K in the file */
  vma_t base, lo, hi;           /* run time */
  unsigned char id[OBJECTS_ID_MAX];
  size_t idlen;
  char *path;
  uint64_t from, to;            /* its span of map epochs (version 2) */
  int spanned;                  /* a span line gave them */
  uint32_t u;                   /* index in Stacks.loads once a frame is in it */
} FileObj;

/* A span line (version 2), matched to its object after the file. */
typedef struct {
  uint32_t k;
  uint64_t from, to;
  unsigned long line;
} FileSpan;

/* What stacks_load holds while it reads (st->reader, so that stacks_free
   can let go of it after an error returned to a trap). */
typedef struct StacksReader {
  Stacks *st;
  char *path;                   /* the file being read */
  unsigned long line;
  BoundedIn in;
  int open;                     /* IN is open */
  char **where;                 /* per object: the file that named it first */
  size_t nwhere;
  char *buf;
  size_t cap;
  FileObj *obj;
  size_t nobj;
  FileSpan *span;
  size_t nspan;
  uint64_t *blind;              /* version 2: the blind marks' epochs ... */
  size_t nblind;
  uint64_t blind_over;          /* ... and every epoch from this on (UINT64_MAX: none) */
  int version;                  /* the file's: 1 or 2 */
  int hz, depth, have_samples, have_dropped, have_start, have_duration;
  uint64_t samples, dropped, start, duration;
  size_t stack0;                /* the file's first stack in st->v */
  size_t frames0, threads0;     /* ... its first frame and thread */
  const unsigned char *prog_id; /* the program's build-id (NULL: unknown) */
  size_t prog_idlen;
  int sum;                      /* read for -s (stacks_read): a file of
                                   another build is left out, and an object
                                   is one whatever its load generations */
  size_t cap_v, cap_f, cap_t;   /* st's arrays' room */
  uint64_t total;               /* every count so far, all files */
} Reader;

_Noreturn static void bad(const Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(const Reader *r, const char *fmt, ...)
{
  char m[512];
  va_list ap;
  va_start(ap, fmt);
  msg_format_clean(m, sizeof m, fmt, ap);   /* it quotes the file's bytes */
  va_end(ap);
  if (r->line) msg_fatal("%s: line %lu: %s\n", r->path, r->line, m);
  msg_fatal("%s: %s\n", r->path, m);
}

/* The next line into r->buf (its '\n' dropped); 0 at the end of the file.
   A line must end in '\n': a file cut short is refused, since its last
   line may still read as a record (a stack with its last PC cut). */
static int next_line(Reader *r)
{
  FILE *f = r->in.f;
  size_t len = 0;
  int c;
  while ((c = getc_unlocked(f)) != EOF && c != '\n') {
    if (c == 0) { r->line++; bad(r, "a NUL byte"); }
    if (len + 1 >= r->cap) {
      if (r->cap >= STK_LINE_MAX) { r->line++; bad(r, "longer than %d bytes", STK_LINE_MAX - 1); }
      r->cap = r->cap ? 2 * r->cap : 4096;
      if (r->cap > STK_LINE_MAX) r->cap = STK_LINE_MAX;
      r->buf = xrealloc(r->buf, r->cap);
    }
    r->buf[len++] = (char)c;
  }
  if (c == EOF) {
    if (ferror(f)) {
      if (bounded_overrun(&r->in))
        bad(r, "no end of file after %llu bytes", (unsigned long long)STK_STREAM_MAX);
      bad(r, "%s", strerror(errno));
    }
    if (len) { r->line++; bad(r, "no end of line (the file is cut short)"); }
    return 0;
  }
  if (!r->cap) r->buf = xrealloc(r->buf, r->cap = 4096);
  r->buf[len] = 0;
  r->line++;
  return 1;
}

/* The next field at *P (fields are separated by one space), made a
   string of its own; NULL at the end of the line. */
static char *field(char **p)
{
  char *s = *p;
  if (!s) return NULL;
  char *sp = strchr(s, ' ');
  if (sp) {
    *sp = 0;
    *p = sp + 1;
  } else {
    *p = NULL;
  }
  return s;
}

static char *need(const Reader *r, char **p, const char *what)
{
  char *s = field(p);
  if (!s || !*s) bad(r, "no %s", what);
  return s;
}

/* S as a decimal number up to MAX. */
static uint64_t dec(const Reader *r, const char *s, uint64_t max, const char *what)
{
  uint64_t v = 0;
  if (!*s) bad(r, "no %s", what);
  for (const char *q = s; *q; q++) {
    unsigned d = (unsigned)(*q - '0');
    if (*q < '0' || *q > '9' || v > (UINT64_MAX - d) / 10)
      bad(r, "%s `%.40s' is not a number from 0 to %llu", what, s, (unsigned long long)max);
    v = v * 10 + d;
  }
  if (v > max)
    bad(r, "%s `%.40s' is not a number from 0 to %llu", what, s, (unsigned long long)max);
  return v;
}

static int hexval(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* S as an address: "0x" and 1 to 16 hex digits. */
static uint64_t hex(const Reader *r, const char *s, const char *what)
{
  size_t n = strlen(s);
  uint64_t v = 0;
  if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x') bad(r, "%s `%.40s' is not an address (0x...)", what, s);
  for (size_t i = 2; i < n; i++) {
    int h = hexval(s[i]);
    if (h < 0) bad(r, "%s `%.40s' is not an address (0x...)", what, s);
    v = v << 4 | (uint64_t)h;
  }
  return v;
}

/* A build-id: hex digits in pairs, or "-" for none. */
static size_t build_id(const Reader *r, const char *s, unsigned char *id)
{
  size_t n = strlen(s);
  if (!strcmp(s, "-")) return 0;
  if (n % 2 || n / 2 > OBJECTS_ID_MAX) bad(r, "build-id `%.40s' is not hex pairs (at most %d) or -", s, OBJECTS_ID_MAX);
  for (size_t i = 0; i < n / 2; i++) {
    int h = hexval(s[2 * i]), l = hexval(s[2 * i + 1]);
    if (h < 0 || l < 0) bad(r, "build-id `%.40s' is not hex pairs (at most %d) or -", s, OBJECTS_ID_MAX);
    id[i] = (unsigned char)(h << 4 | l);
  }
  return n / 2;
}

/* ---- records ---- */

static void rec_object(Reader *r, char *p)
{
  FileObj o;
  memset(&o, 0, sizeof o);
  if (r->nobj >= STK_OBJS_MAX) bad(r, "more than %d objects", STK_OBJS_MAX);
  o.k = (uint32_t)dec(r, need(r, &p, "object number"), STK_OBJS_MAX - 1, "object number");
  o.base = hex(r, need(r, &p, "base"), "base");
  o.lo = hex(r, need(r, &p, "text start"), "text start");
  o.hi = hex(r, need(r, &p, "text end"), "text end");
  o.idlen = build_id(r, need(r, &p, "build-id"), o.id);
  if (!p || !*p) bad(r, "no path");
  if (o.lo < o.base)
    bad(r, "object %u: text start 0x%llx below its base 0x%llx", o.k, (unsigned long long)o.lo,
        (unsigned long long)o.base);
  if (o.hi < o.lo)
    bad(r, "object %u: text end 0x%llx below its start 0x%llx", o.k, (unsigned long long)o.hi,
        (unsigned long long)o.lo);
  o.path = xstrdup(p);
  o.from = 0;
  o.to = UINT64_MAX;
  o.u = NONE;
  r->obj = xrealloc(r->obj, (r->nobj + 1) * sizeof *r->obj);
  r->obj[r->nobj++] = o;
}

static void rec_span(Reader *r, char *p)
{
  FileSpan sp;
  if (r->nspan >= STK_OBJS_MAX) bad(r, "more than %d spans", STK_OBJS_MAX);
  sp.k = (uint32_t)dec(r, need(r, &p, "object number"), STK_OBJS_MAX - 1, "object number");
  sp.from = dec(r, need(r, &p, "first epoch"), UINT64_MAX, "first epoch");
  char *to = need(r, &p, "end epoch");
  sp.to = strcmp(to, "-") ? dec(r, to, UINT64_MAX, "end epoch") : UINT64_MAX;
  if (p) bad(r, "more than 3 fields in a span");
  if (sp.to < sp.from) bad(r, "object %u: span ends at %llu, before its start %llu", sp.k,
                           (unsigned long long)sp.to, (unsigned long long)sp.from);
  sp.line = r->line;
  r->span = xrealloc(r->span, (r->nspan + 1) * sizeof *r->span);
  r->span[r->nspan++] = sp;
}

/* "blind E [-]": libprof could not read the map at epoch E (at every
   epoch from E on, with "-"): a load it never saw may have ended there. */
static void rec_blind(Reader *r, char *p)
{
  if (r->nblind >= STK_OBJS_MAX) bad(r, "more than %d blind marks", STK_OBJS_MAX);
  uint64_t e = dec(r, need(r, &p, "blind epoch"), UINT64_MAX, "blind epoch");
  if (p) {
    if (strcmp(field(&p), "-") || p) bad(r, "a blind mark is an epoch, then \"-\" or nothing");
    if (e < r->blind_over) r->blind_over = e;
    return;
  }
  r->blind = xrealloc(r->blind, (r->nblind + 1) * sizeof *r->blind);
  r->blind[r->nblind++] = e;
}

/* A blind mark after epoch E and before NEXT: a stack sampled in E at an
   address where nothing was live may have been in a load libprof never
   saw, which ended at the mark, rather than in the one loaded there at
   NEXT (r->blind sorted). */
static int blind_between(const Reader *r, uint64_t e, uint64_t next)
{
  if (e + 1 >= next) return 0;
  if (r->blind_over < next) return 1;          /* (e + 1 <= every epoch from blind_over on) */
  size_t lo = 0, hi = r->nblind;               /* the first mark after E */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->blind[mid] <= e) lo = mid + 1; else hi = mid;
  }
  return lo < r->nblind && r->blind[lo] < next;
}

static void rec_thread(Reader *r, char *p)
{
  Stacks *st = r->st;
  uint32_t tid = (uint32_t)dec(r, need(r, &p, "thread id"), UINT32_MAX, "thread id");
  if (st->nthreads == r->cap_t) {
    r->cap_t = r->cap_t ? 2 * r->cap_t : 16;
    st->threads = xrealloc(st->threads, r->cap_t * sizeof *st->threads);
  }
  st->threads[st->nthreads].tid = tid;
  st->threads[st->nthreads++].name = xstrdup(p ? p : "");
}

static void rec_stack(Reader *r, char *p)
{
  Stacks *st = r->st;
  if (!r->depth) bad(r, "a stack before the depth line");
  Stack s;
  memset(&s, 0, sizeof s);
  s.tid = (uint32_t)dec(r, need(r, &p, "thread id"), UINT32_MAX, "thread id");
  s.count = dec(r, need(r, &p, "count"), UINT64_MAX, "count");
  if (!s.count) bad(r, "a stack of count 0");
  if (s.count > UINT64_MAX - r->total) bad(r, "the counts add up to more than 2^64");
  r->total += s.count;
  char *e = need(r, &p, "end");
  if (strcmp(e, "c") && strcmp(e, "t") && strcmp(e, "b")) bad(r, "end `%.40s' is not c, t or b", e);
  s.end = e[0];
  if (r->version >= 2) s.epoch = dec(r, need(r, &p, "epoch"), UINT64_MAX, "epoch");
  s.first = st->nframes;
  char *pc;
  while ((pc = field(&p))) {
    if (s.n == (uint32_t)r->depth) bad(r, "more frames than the depth, %d", r->depth);
    if (st->nframes == r->cap_f) {
      r->cap_f = r->cap_f ? 2 * r->cap_f : 1024;
      st->pc = xrealloc(st->pc, r->cap_f * sizeof *st->pc);
    }
    st->pc[st->nframes++] = hex(r, pc, "PC");
    s.n++;
  }
  if (!s.n) bad(r, "a stack with no PC");
  if (st->n == r->cap_v) {
    r->cap_v = r->cap_v ? 2 * r->cap_v : 256;
    st->v = xrealloc(st->v, r->cap_v * sizeof *st->v);
  }
  st->v[st->n++] = s;
}

/* A single-valued header line: NAME VALUE, once. */
static uint64_t rec_number(Reader *r, char *p, int *seen, const char *name, uint64_t lo, uint64_t hi)
{
  if (*seen) bad(r, "a second %s line", name);
  *seen = 1;
  char *v = need(r, &p, name);
  uint64_t n = dec(r, v, UINT64_MAX, name);
  if (n < lo || n > hi || p) bad(r, "%s `%.40s' is not a number from %llu to %llu", name, v, (unsigned long long)lo,
                       (unsigned long long)hi);
  return n;
}

static int cmp_k(const void *a, const void *b)
{
  const FileObj *x = a, *y = b;
  return x->k < y->k ? -1 : x->k > y->k;
}

static int cmp_u64(const void *a, const void *b)
{
  const uint64_t *x = a, *y = b;
  return *x < *y ? -1 : *x > *y;
}

static int cmp_lo(const void *a, const void *b)
{
  const FileObj *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void hexstr(char *out, const unsigned char *id, size_t n)
{
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", id[i]);
  if (!n) strcpy(out, "-");
}

/* Object 0 is the program: a build-id that is not the object's warns,
   as a profile of another build does (gmon_io.c check_origin); 0 when
   the file is then left out (for -s). */
static int check_program(const Reader *r, const FileObj *o)
{
  size_t hl = r->prog_idlen < OBJECTS_ID_MAX ? r->prog_idlen : OBJECTS_ID_MAX;
  if (!o->idlen || !r->prog_id || !hl) return 1;
  if (hl == o->idlen && !memcmp(r->prog_id, o->id, hl)) return 1;
  char a[2 * OBJECTS_ID_MAX + 1], b[2 * OBJECTS_ID_MAX + 1];
  hexstr(a, o->id, o->idlen);
  hexstr(b, r->prog_id, hl);
  if (r->sum) {
    msg_warn("warning: %s: written by another program or build (the program has build-id %s): "
             "its stacks are left out of the sum\n", r->path, b);
    return 0;
  }
  msg_warn("warning: %s: written by another program or build (build-id %s, the program has %s): "
           "the stacks may be wrong\n", r->path, a, b);
  return 1;
}

/* The union object (st->loads) FILE object O is, added when first met. */
static uint32_t union_obj(Reader *r, FileObj *o)
{
  Stacks *st = r->st;
  if (o->u != NONE) return o->u;
  uint32_t u = 0;
  if (o->k != 0) {              /* the program is loads[0], whatever its path */
    for (u = 1; u < st->nloads; u++) {
      const Load *so = &st->loads[u];
      /* one per file and place: a load generation elsewhere (or another
         object where one was) is an object of its own, in the names and
         pprof's mappings */
      if (so->idlen == o->idlen && !memcmp(so->id, o->id, o->idlen) && !strcmp(so->path, o->path)
          && (r->sum || (so->base == o->base && so->lo == o->lo && so->hi == o->hi)))
        break;
    }
    if (u == st->nloads) {
      if (st->nloads > STK_OBJS_MAX) bad(r, "more than %d objects in the stacks", STK_OBJS_MAX);
      st->loads = xrealloc(st->loads, (st->nloads + 1) * sizeof *st->loads);
      st->nloads++;
    } else {
      return o->u = u;
    }
  }
  Load *so = &st->loads[u];
  if (u == 0 && so->path) return o->u = 0;
  memset(so, 0, sizeof *so);
  so->path = xstrdup(o->path);
  memcpy(so->id, o->id, o->idlen);
  so->idlen = o->idlen;
  so->base = o->base;
  so->lo = o->lo;
  so->hi = o->hi;
  so->from = o->from;
  so->to = o->to;
  so->object = NONE;
  return o->u = u;
}

/* After a file: its objects checked (object 0 there, no K twice), then
   each of its frames given its object and link-time address (a return
   address minus 1, inside the call); 0 when the file is left out. */
static int map_frames(Reader *r)
{
  Stacks *st = r->st;
  r->line = 0;
  if (r->nobj) qsort(r->obj, r->nobj, sizeof *r->obj, cmp_k);
  for (size_t i = 1; i < r->nobj; i++)
    if (r->obj[i].k == r->obj[i - 1].k) bad(r, "object %u listed twice", r->obj[i].k);
  if (!r->nobj || r->obj[0].k != 0) bad(r, "no object 0 (the program)");
  /* each span to its object (sorted by K) */
  for (size_t i = 0; i < r->nspan; i++) {
    const FileSpan *sp = &r->span[i];
    size_t lo = 0, hi = r->nobj;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (r->obj[mid].k < sp->k) lo = mid + 1; else hi = mid;
    }
    r->line = sp->line;
    if (lo == r->nobj || r->obj[lo].k != sp->k) bad(r, "a span of object %u, which is not listed", sp->k);
    if (r->obj[lo].spanned) bad(r, "a second span of object %u", sp->k);
    r->obj[lo].spanned = 1;
    r->obj[lo].from = sp->from;
    r->obj[lo].to = sp->to;
  }
  r->line = 0;
  if (r->nblind) qsort(r->blind, r->nblind, sizeof *r->blind, cmp_u64);
  if (!check_program(r, &r->obj[0])) return 0;
  if (!st->nloads) {            /* loads[0]: the program */
    st->loads = xcalloc(1, sizeof *st->loads);
    st->nloads = 1;
  }
  union_obj(r, &r->obj[0]);
  qsort(r->obj, r->nobj, sizeof *r->obj, cmp_lo);
  /* the highest end among the objects up to each: load generations may
     overlap (one unloaded, another loaded at its place) */
  vma_t *reach = xmalloc((r->nobj + 1) * sizeof *reach);
  for (size_t i = 0; i < r->nobj; i++) reach[i] = i && reach[i - 1] > r->obj[i].hi ? reach[i - 1] : r->obj[i].hi;
  for (size_t s = r->stack0; s < st->n; s++) {
    const Stack *sk = &st->v[s];
    for (uint32_t j = 0; j < sk->n; j++) {
      size_t i = sk->first + j;
      uint64_t pc = st->pc[i];
      st->obj[i] = NONE;
      st->addr[i] = 0;
      if (j && !pc) continue;
      uint64_t at = j ? pc - 1 : pc;
      /* the last object starting at or below AT */
      size_t lo = 0, hi = r->nobj;
      while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->obj[mid].lo <= at) lo = mid; else hi = mid;
      }
      /* the one holding AT, loaded when the stack was sampled: the last
         such, back from there while an earlier one may reach AT */
      FileObj *o = NULL, *next = NULL;
      for (size_t c = lo + 1; c-- > 0 && reach[c] > at;) {
        FileObj *q = &r->obj[c];
        if (q->lo > at || at >= q->hi) continue;
        if (q->from <= sk->epoch && sk->epoch < q->to) {
          o = q;
          break;
        }
        if (q->from > sk->epoch && (!next || q->from < next->from)) next = q;
      }
      /* in no object loaded then: libprof learns of a load at its next
         scan (20 ms), so a sample in an object loaded since carries the
         epoch before it; the first object loaded there after it is it --
         unless a blind mark lies between: it may have been a load never
         seen, ended there */
      if (!o && next && !blind_between(r, sk->epoch, next->from)) o = next;
      if (!o) continue;
      st->obj[i] = union_obj(r, o);
      st->addr[i] = at - o->base;
    }
  }
  free(reach);
  return 1;
}

/* Reads one file into R->st; 0 when it is left out (its records read
   and checked, then dropped). */
static int read_file(Reader *r)
{
  Stacks *st = r->st;
  int have_hz = 0, have_depth = 0;
  r->stack0 = st->n;
  r->frames0 = st->nframes;
  r->threads0 = st->nthreads;
  if (!next_line(r) || (strcmp(r->buf, "libprof-stacks 1") && strcmp(r->buf, "libprof-stacks 2"))) {
    r->line = 0;
    bad(r, "not a libprof-stacks 1 or 2 file");
  }
  r->version = r->buf[15] - '0';
  while (next_line(r)) {
    char *p = r->buf;
    if (!*p) continue;
    char *kind = field(&p);
    if (!strcmp(kind, "stack")) rec_stack(r, p);
    else if (!strcmp(kind, "object")) rec_object(r, p);
    else if (!strcmp(kind, "thread")) rec_thread(r, p);
    else if (!strcmp(kind, "hz")) r->hz = (int)rec_number(r, p, &have_hz, "hz", 1, 1000000000);
    else if (!strcmp(kind, "depth")) r->depth = (int)rec_number(r, p, &have_depth, "depth", 1, STK_DEPTH_MAX);
    else if (!strcmp(kind, "samples")) r->samples = rec_number(r, p, &r->have_samples, "samples", 0, UINT64_MAX);
    else if (!strcmp(kind, "dropped")) r->dropped = rec_number(r, p, &r->have_dropped, "dropped", 0, UINT64_MAX);
    else if (r->version < 2) continue;
    else if (!strcmp(kind, "span")) rec_span(r, p);
    else if (!strcmp(kind, "blind")) rec_blind(r, p);
    else if (!strcmp(kind, "start")) r->start = rec_number(r, p, &r->have_start, "start", 0, UINT64_MAX);
    else if (!strcmp(kind, "duration"))
      r->duration = rec_number(r, p, &r->have_duration, "duration", 0, UINT64_MAX);
    /* any other kind: a later version's, skipped */
  }
  /* the per-frame arrays catch up with the PCs */
  st->obj = xrealloc(st->obj, (st->nframes + 1) * sizeof *st->obj);
  st->addr = xrealloc(st->addr, (st->nframes + 1) * sizeof *st->addr);
  if (!map_frames(r)) {
    for (size_t i = r->threads0; i < st->nthreads; i++) free(st->threads[i].name);
    st->n = r->stack0;
    st->nframes = r->frames0;
    st->nthreads = r->threads0;
    return 0;
  }
  if (r->hz) {
    if (st->hz && st->hz != r->hz)
      msg_warn("warning: %s: %d samples a second, the first file %d: the times use %d\n", r->path,
               r->hz, st->hz, st->hz);
    if (!st->hz) st->hz = r->hz;
  }
  if (r->depth > st->depth) st->depth = r->depth;
  if (r->samples > UINT64_MAX - st->samples || r->dropped > UINT64_MAX - st->dropped)
    bad(r, "the sample counts add up to more than 2^64");
  st->samples += r->samples;
  st->dropped += r->dropped;
  if (r->dropped)
    msg_warn("%s: note: %llu of %llu samples were not recorded (libprof's stack table was full or "
             "the walk was refused): shown as %s\n", r->path, (unsigned long long)r->dropped,
             (unsigned long long)(r->samples + r->dropped), STACKS_DROPPED);
  /* pprof's time_nanos and duration_nanos: from the earliest start to
     the latest end of the files */
  if (r->have_start && r->start) {
    uint64_t end = st->start_ns + st->duration_ns, e2 = r->start + r->duration;
    if (e2 < r->start) e2 = UINT64_MAX;
    if (!st->start_ns || r->start < st->start_ns) st->start_ns = r->start;
    if (e2 > end) end = e2;
    st->duration_ns = end - st->start_ns;
  }
  return 1;
}

/* ---- after the files ---- */

/* The objects the frames reach, in the table (one objects_add), and the
   frames' addresses moved to the table's. */
static void place_objects(Stacks *st, Objects *objs, SymTab *tab, char *const *where)
{
  if (st->nloads > 1) {
    size_t n = st->nloads - 1;
    ObjectRef *refs = xcalloc(n, sizeof *refs);
    vma_t *bases = xcalloc(n, sizeof *bases);
    uint32_t *objix = xcalloc(n, sizeof *objix);
    for (size_t k = 1; k < st->nloads; k++) {
      Load *so = &st->loads[k];
      refs[k - 1] = (ObjectRef){ so->path, so->id, so->idlen, so->lo - so->base, so->hi - so->base,
                                 where[k] };
    }
    objects_add(objs, tab, refs, n, bases, objix);
    for (size_t k = 1; k < st->nloads; k++) {
      st->loads[k].shift = bases[k - 1];
      st->loads[k].known = bases[k - 1] != 0;
      st->loads[k].object = bases[k - 1] ? objix[k - 1] : NONE;
    }
    free(refs);
    free(bases);
    free(objix);
  }
  if (st->nloads) {
    st->loads[0].known = 1;
    st->loads[0].object = 0;
  }
  /* the program's functions as its ELF table has them, for the names
     (not with -S's table, nor -a's: that table is what was asked for) */
  if (st->nloads && tab->core && tab->core->abfd && !tab->opts.external && !tab->opts.no_static)
    st->names_base = objects_add_program(objs, tab);
  for (size_t i = 0; i < st->nframes; i++)
    if (st->obj[i] != NONE) st->addr[i] += st->loads[st->obj[i]].shift;
}

/* The last symbol of TAB starting at or below A (objects' symbols too,
   which sym_lookup does not answer for, and those objects_settle keeps
   past the end), or NULL. */
static Sym *lookup_any(const SymTab *tab, vma_t a)
{
  size_t lo = 0, hi = tab->len + tab->ntail;
  if (!hi || a < tab->addrs[0]) return NULL;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (tab->addrs[mid] <= a) lo = mid; else hi = mid;
  }
  return &tab->base[lo];
}

static uint64_t mix(uint64_t h, uint64_t v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

/* What makes two frames the same: the object and the address in it (a
   frame of no object: its PC). */
static uint64_t frame_key(const Stacks *st, size_t i)
{
  return st->obj[i] == NONE ? st->pc[i] : st->addr[i];
}

static int same_stack(const Stacks *st, const Stack *a, const Stack *b)
{
  if (a->tid != b->tid || a->end != b->end || a->n != b->n) return 0;
  for (uint32_t j = 0; j < a->n; j++)
    if (st->obj[a->first + j] != st->obj[b->first + j]
        || frame_key(st, a->first + j) != frame_key(st, b->first + j))
      return 0;
  return 1;
}

/* Equal stacks of one thread (from two files, or two table entries
   libprof wrote for one stack) become one, counts added; the frames are
   packed in the order the stacks were first met. */
static void merge(Stacks *st)
{
  size_t nb = 16;
  while (nb < 2 * st->n) nb *= 2;
  size_t *slot = xmalloc(nb * sizeof *slot);   /* the first stack of each kind */
  memset(slot, 0xff, nb * sizeof *slot);
  size_t *out_of = xmalloc((st->n + 1) * sizeof *out_of);   /* its place in V */
  Stack *v = xmalloc((st->n + 1) * sizeof *v);
  uint64_t *pc = xmalloc((st->nframes + 1) * sizeof *pc), *addr = xmalloc((st->nframes + 1) * sizeof *addr);
  uint32_t *obj = xmalloc((st->nframes + 1) * sizeof *obj);
  size_t n = 0, nf = 0;
  for (size_t s = 0; s < st->n; s++) {
    const Stack *sk = &st->v[s];
    uint64_t h = mix(mix(mix(0, sk->tid), (uint64_t)sk->end), sk->n);
    for (uint32_t j = 0; j < sk->n; j++) h = mix(mix(h, st->obj[sk->first + j]), frame_key(st, sk->first + j));
    size_t b = (size_t)h & (nb - 1);
    while (slot[b] != SIZE_MAX && !same_stack(st, &st->v[slot[b]], sk)) b = (b + 1) & (nb - 1);
    if (slot[b] != SIZE_MAX) {  /* (no overflow: the sum of all was checked) */
      v[out_of[slot[b]]].count += sk->count;
      continue;
    }
    slot[b] = s;
    out_of[s] = n;
    v[n] = *sk;
    v[n].first = nf;
    memcpy(pc + nf, st->pc + sk->first, sk->n * sizeof *pc);
    memcpy(addr + nf, st->addr + sk->first, sk->n * sizeof *addr);
    memcpy(obj + nf, st->obj + sk->first, sk->n * sizeof *obj);
    nf += sk->n;
    n++;
  }
  free(slot);
  free(out_of);
  free(st->v);
  free(st->pc);
  free(st->addr);
  free(st->obj);
  st->v = v;
  st->n = n;
  st->pc = pc;
  st->addr = addr;
  st->obj = obj;
  st->nframes = nf;
}

/* One entry per thread id, by id: the first name read. */
static void settle_threads(Stacks *st)
{
  if (!st->nthreads) return;
  KeyVal *k = xmalloc(st->nthreads * sizeof *k);
  for (size_t i = 0; i < st->nthreads; i++) k[i] = (KeyVal){ st->threads[i].tid, i };
  sort_keyval(k, st->nthreads);  /* stable: the first read first */
  StackThread *t = xmalloc(st->nthreads * sizeof *t);
  size_t n = 0;
  for (size_t i = 0; i < st->nthreads; i++) {
    StackThread *th = &st->threads[k[i].val];
    if (n && t[n - 1].tid == th->tid) {
      free(th->name);
      continue;
    }
    t[n++] = *th;
  }
  free(k);
  free(st->threads);
  st->threads = t;
  st->nthreads = n;
}

/* Which frames of other objects lie in none of their functions (a gap
   symbol): told now, as objects_settle will merge an object's gaps into
   one row and the functions before them then reach over them. */
static void mark_gaps(Stacks *st, const SymTab *tab)
{
  st->gap = xcalloc(st->nframes + 1, 1);
  for (size_t i = 0; i < st->nframes; i++) {
    uint32_t k = st->obj[i];
    if (k == NONE || k == 0 || !st->loads[k].known) continue;
    const Sym *s = lookup_any(tab, st->addr[i]);
    st->gap[i] = !s || s->addr < st->loads[k].shift || !s->is_func;
  }
}

/* The file's objects, let go of after it (or an error). */
static void drop_file_objs(Reader *r)
{
  for (size_t i = 0; i < r->nobj; i++) free(r->obj[i].path);
  free(r->obj);
  r->obj = NULL;
  r->nobj = 0;
  free(r->span);
  r->span = NULL;
  r->nspan = 0;
  free(r->blind);
  r->blind = NULL;
  r->nblind = 0;
  r->blind_over = UINT64_MAX;
}

static void reader_free(Reader *r)
{
  if (!r) return;
  if (r->open) bounded_close(&r->in);
  drop_file_objs(r);
  for (size_t i = 0; i < r->nwhere; i++) free(r->where[i]);
  free(r->where);
  free(r->path);
  free(r->buf);
  free(r);
}

/* Reads FILES[f].stacks for each F that has one into ST, with R. */
static void read_files(Stacks *st, Reader *r, char *const *files, int nfiles)
{
  for (int f = 0; f < nfiles; f++) {
    size_t pl = strlen(files[f]) + sizeof ".stacks";
    free(r->path);
    r->path = xmalloc(pl);
    snprintf(r->path, pl, "%s.stacks", files[f]);
    r->line = 0;
    /* (a FIFO there would block the open: only a regular file is read) */
    int err = bounded_open_regular(&r->in, r->path, STK_STREAM_MAX);
    if (err == ENOENT) continue;
    if (err) bad(r, "%s", open_regular_error(err));
    r->open = 1;
    if (bounded_left(&r->in) > STK_STREAM_MAX)
      bad(r, "larger than %llu bytes", (unsigned long long)STK_STREAM_MAX);
    r->hz = r->depth = r->have_samples = r->have_dropped = r->have_start = r->have_duration = 0;
    r->samples = r->dropped = r->start = r->duration = 0;
    if (read_file(r)) st->present = 1;
    bounded_close(&r->in);
    r->open = 0;
    r->where = xrealloc(r->where, (st->nloads + 1) * sizeof *r->where);
    for (; r->nwhere < st->nloads; r->nwhere++) r->where[r->nwhere] = xstrdup(r->path);
    drop_file_objs(r);
  }
}

static Reader *reader_new(Stacks *st, const unsigned char *id, size_t idlen, int sum)
{
  memset(st, 0, sizeof *st);
  Reader *r = st->reader = xcalloc(1, sizeof *r);
  r->st = st;
  r->prog_id = id;
  r->prog_idlen = idlen;
  r->sum = sum;
  r->blind_over = UINT64_MAX;
  return r;
}

/* Reads the files into ST (the program's build-id ID, IDLEN bytes, or
   NULL), with or without a table: with one (stacks_load) the frames'
   objects are placed in it before equal stacks merge, and the gaps
   marked after; without (stacks_read, -s) each object is one whatever
   its load generations. */
static void load(Stacks *st, char *const *files, int nfiles, const unsigned char *id, size_t idlen,
                 Objects *objs, SymTab *tab)
{
  Reader *r = reader_new(st, id, idlen, tab == NULL);
  read_files(st, r, files, nfiles);
  if (st->present) {
    if (tab) place_objects(st, objs, tab, r->where);
    merge(st);
    settle_threads(st);
    if (tab) mark_gaps(st, tab);
  }
  reader_free(r);
  st->reader = NULL;
}

void stacks_load(Stacks *st, Objects *objs, SymTab *tab, char *const *files, int nfiles)
{
  /* the program: Object 0 (the driver's, made from the Core; else one
     made here) */
  objects_program(objs, tab->core, NULL);
  const Object *prog = &objs->v[0];
  /* (the note's own length: an id may end in zero bytes) */
  load(st, files, nfiles, prog->idlen ? prog->id : NULL, prog->idlen, objs, tab);
}

void stacks_read(Stacks *st, char *const *files, int nfiles, const unsigned char *build_id, size_t idlen)
{
  load(st, files, nfiles, build_id, idlen, NULL, NULL);
}

static const char *base_name(const char *path)
{
  const char *b = strrchr(path, '/');
  return b && b[1] ? b + 1 : path;
}

void stacks_resolve(Stacks *st, const SymTab *tab)
{
  if (!st->present) return;
  free(st->sym);
  st->sym = xcalloc(st->nframes + 1, sizeof *st->sym);
  /* -l: the function each of the program's symbols lies in */
  size_t own = symtab_own_len(tab), *func = NULL;
  if (tab->opts.line) {
    func = xmalloc((own + 1) * sizeof *func);
    size_t last = SIZE_MAX;
    for (size_t i = 0; i < own; i++) {
      if (!tab->base[i].is_line) last = i;
      func[i] = last;
    }
  }
  /* per object: the row its gaps became (its first gap symbol) */
  Sym **gaprow = xcalloc(st->nloads + 1, sizeof *gaprow);
  for (size_t k = 1; k < st->nloads; k++) {
    if (!st->loads[k].known) continue;
    Sym *s = lookup_any(tab, st->loads[k].shift);
    size_t i = s ? (size_t)(s - tab->base) : 0;
    if (s && s->addr < st->loads[k].shift) i++;
    size_t end = tab->len + tab->ntail;
    for (; i < end && tab->base[i].is_func; i++) {}
    if (i < end && tab->base[i].addr >= st->loads[k].shift) gaprow[k] = &tab->base[i];
  }
  for (size_t i = 0; i < st->nframes; i++) {
    uint32_t k = st->obj[i];
    Sym *s = NULL;
    if (k == 0) {
      s = sym_lookup_quiet(tab, st->addr[i]);
      if (s && s->is_line) {
        size_t f = func ? func[s - tab->base] : SIZE_MAX;
        s = f == SIZE_MAX ? NULL : &tab->base[f];
      }
      /* the function that ran, where GNU's table names the address
         after another (a clone it leaves out: the function before it) */
      Sym *t = st->names_base ? lookup_any(tab, st->addr[i] + st->names_base) : NULL;
      if (t && t->is_func && t->addr >= st->names_base && (!s || s->addr != t->addr - st->names_base))
        s = t;
    } else if (k != NONE && st->loads[k].known) {
      if (st->gap[i]) {
        s = gaprow[k];
      } else {
        s = lookup_any(tab, st->addr[i]);
        if (s && s->addr < st->loads[k].shift) s = NULL;
      }
    }
    st->sym[i] = s;
  }
  free(gaprow);
  free(func);
  /* the names of frames without a function, made here so that reading
     them changes nothing */
  if (!st->objname) {
    st->objname = xcalloc(st->nloads + 1, sizeof *st->objname);
    for (size_t k = 0; k < st->nloads; k++) {
      const char *b = base_name(st->loads[k].path);
      size_t l = strlen(b) + 3;
      st->objname[k] = xmalloc(l);
      /* "[vdso]" is named so already */
      snprintf(st->objname[k], l, b[0] == '[' && b[strlen(b) - 1] == ']' ? "%s" : "[%s]", b);
    }
  }
  for (size_t i = 0; i < st->nframes; i++) {
    if (st->obj[i] != NONE) continue;
    if (!st->pcname) st->pcname = xcalloc(st->nframes, sizeof *st->pcname);
    if (!st->pcname[i]) {
      st->pcname[i] = xmalloc(20);
      snprintf(st->pcname[i], 20, "0x%llx", (unsigned long long)st->pc[i]);
    }
  }
}

const char *stacks_frame_name(const Stacks *st, const SymTab *tab, size_t i)
{
  if (st->sym && st->sym[i]) return sym_print_name(tab, st->sym[i]);
  uint32_t k = st->obj[i];
  if (k != NONE && st->objname) return st->objname[k];
  if (st->pcname && st->pcname[i]) return st->pcname[i];
  return "?";                   /* (before stacks_resolve) */
}

uint64_t stacks_truncated(const Stacks *st)
{
  uint64_t t = 0;
  for (size_t i = 0; i < st->n; i++)
    if (st->v[i].end != 'c') t += st->v[i].count;
  return t;
}

uint64_t stacks_total(const Stacks *st)
{
  uint64_t t = 0;
  for (size_t i = 0; i < st->n; i++) t += st->v[i].count;
  return t;
}

void stacks_free(Stacks *st)
{
  reader_free(st->reader);
  for (size_t k = 0; k < st->nloads; k++) {
    free(st->loads[k].path);
    if (st->objname) free(st->objname[k]);
  }
  for (size_t i = 0; i < st->nthreads; i++) free(st->threads[i].name);
  if (st->pcname)
    for (size_t i = 0; i < st->nframes; i++) free(st->pcname[i]);
  free(st->loads);
  free(st->threads);
  free(st->v);
  free(st->pc);
  free(st->obj);
  free(st->addr);
  free(st->sym);
  free(st->gap);
  free(st->objname);
  free(st->pcname);
  memset(st, 0, sizeof *st);
}
