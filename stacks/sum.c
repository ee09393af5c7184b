/* stacks/sum.c -- -s keeps the stacks and the other objects' profiles
 * (stacks/sum.h).
 *
 * The stack files are summed as text, without the symbol table: each
 * file's frames are mapped to the object of that file whose text holds
 * them (version 2: whose span holds the stack's epoch too) and moved
 * from that run's load address to one that is the same for every run:
 * the program at its link-time addresses (base 0), each other object,
 * numbered in the order first met (same path and build-id: one object),
 * at 2^60 + G * 2^36 plus its link-time address, above any user-space
 * PC, so that no object's range meets another's or a PC left as it was
 * (one in no object).  Written as version 1, which every reader takes:
 * what version 2 adds (epochs, spans, clock, start, duration) is about
 * one run, and the fixed bases make the epochs needless. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "stacks/sum.h"
#include "stacks/objects.h"
#include "hist.h"

#define SUM_BASE ((uint64_t)1 << 60)
#define SUM_SPAN ((uint64_t)1 << 36)
#define MAX_OBJS 4096

typedef struct {                /* an object of all the files */
  char *path;
  char *id;                     /* hex, or "-" */
  uint64_t lo, hi;              /* link-time text */
} GObj;

typedef struct {                /* an object as one file lists it */
  unsigned long k;
  uint64_t base, lo, hi;
  size_t g;                     /* its GObj */
  uint64_t *span;               /* version 2: [from, to) pairs (to UINT64_MAX: still loaded) */
  size_t nspan;
} FObj;

typedef struct {
  char *key;                    /* "TID END PC..." as written */
  uint64_t count;
} SumStack;

typedef struct {
  GObj *g;
  size_t ng;
  struct { unsigned long tid; char *name; } *thr;
  size_t nthr;
  SumStack *v;                  /* in the order first met */
  size_t n, cap;
  size_t *slot, nslot;          /* key -> 1 + place in V */
  int hz, depth, nfiles;
  uint64_t samples, dropped;
  /* the file being read */
  const char *path;
  unsigned long line;
  FObj *fo;
  size_t nfo;
} Sum;

_Noreturn static void bad(const Sum *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(const Sum *s, const char *fmt, ...)
{
  char m[512];
  va_list ap;
  va_start(ap, fmt);
  msg_format_clean(m, sizeof m, fmt, ap);   /* it quotes the file's bytes */
  va_end(ap);
  msg_fatal("%s: line %lu: %s\n", s->path, s->line, m);
}

/* The next space-separated field of *P (NULL at the end). */
static char *field(char **p)
{
  if (!*p) return NULL;
  char *f = *p, *sp = strchr(f, ' ');
  if (sp) {
    *sp = 0;
    *p = sp + 1;
  } else {
    *p = NULL;
  }
  return f;
}

static char *need(Sum *s, char **p, const char *what)
{
  char *f = field(p);
  if (!f || !*f) bad(s, "%s missing", what);
  return f;
}

static uint64_t dec(Sum *s, const char *f, const char *what)
{
  uint64_t v = 0;
  if (!*f) bad(s, "%s missing", what);
  for (const char *c = f; *c; c++) {
    if (*c < '0' || *c > '9') bad(s, "%s `%.40s' is not a decimal number", what, f);
    if (v > (UINT64_MAX - (uint64_t)(*c - '0')) / 10) bad(s, "%s `%.40s' is too large", what, f);
    v = v * 10 + (uint64_t)(*c - '0');
  }
  return v;
}

static uint64_t hexnum(Sum *s, const char *f, const char *what)
{
  uint64_t v = 0;
  size_t n = strlen(f);
  if (n < 3 || n > 18 || f[0] != '0' || f[1] != 'x') bad(s, "%s `%.40s' is not 0x and 1-16 hex digits", what, f);
  for (const char *c = f + 2; *c; c++) {
    int d = *c >= '0' && *c <= '9' ? *c - '0' : *c >= 'a' && *c <= 'f' ? *c - 'a' + 10
          : *c >= 'A' && *c <= 'F' ? *c - 'A' + 10 : -1;
    if (d < 0) bad(s, "%s `%.40s' is not 0x and 1-16 hex digits", what, f);
    v = v << 4 | (uint64_t)d;
  }
  return v;
}

static uint64_t hash_str(const char *k)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *k; k++) h = (h ^ (unsigned char)*k) * 0x100000001b3ull;
  return h ^ (h >> 31);
}

/* Adds COUNT samples to the stack KEY (taken when new). */
static void add_stack(Sum *s, char *key, uint64_t count)
{
  if (2 * (s->n + 1) > s->nslot) {
    size_t nn = s->nslot ? 2 * s->nslot : 1024;
    free(s->slot);
    s->slot = xcalloc(nn, sizeof *s->slot);
    s->nslot = nn;
    for (size_t i = 0; i < s->n; i++) {
      size_t b = (size_t)hash_str(s->v[i].key) & (nn - 1);
      while (s->slot[b]) b = (b + 1) & (nn - 1);
      s->slot[b] = i + 1;
    }
  }
  size_t b = (size_t)hash_str(key) & (s->nslot - 1);
  for (; s->slot[b]; b = (b + 1) & (s->nslot - 1)) {
    SumStack *x = &s->v[s->slot[b] - 1];
    if (!strcmp(x->key, key)) {
      if (x->count > UINT64_MAX - count) bad(s, "the counts add up past 2^64");
      x->count += count;
      free(key);
      return;
    }
  }
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n] = (SumStack){ key, count };
  s->slot[b] = ++s->n;
}

/* The object of all files that PATH with build-id ID is (the program: 0,
   whatever its path), added when new. */
static size_t gobj(Sum *s, unsigned long k, const char *path, const char *id, uint64_t lo, uint64_t hi)
{
  size_t g = 0;
  if (k != 0)
    for (g = 1; g < s->ng; g++)
      if (!strcmp(s->g[g].path, path) && !strcmp(s->g[g].id, id)) return g;
  if (k == 0 && s->ng) {
    if (!strcmp(s->g[0].path, "?") && !s->g[0].hi) {   /* the stand-in below */
      free(s->g[0].path);
      free(s->g[0].id);
      s->g[0] = (GObj){ xstrdup(path), xstrdup(id), lo, hi };
    }
    return 0;
  }
  if (s->ng >= MAX_OBJS) bad(s, "more than %d objects in all", MAX_OBJS);
  if (k != 0 && !s->ng) {       /* object 0 comes first: keep its place */
    s->g = xrealloc(s->g, sizeof *s->g);
    s->g[0] = (GObj){ xstrdup("?"), xstrdup("-"), 0, 0 };
    s->ng = 1;
    g = 1;
  }
  s->g = xrealloc(s->g, (s->ng + 1) * sizeof *s->g);
  s->g[s->ng] = (GObj){ xstrdup(path), xstrdup(id), lo, hi };
  return s->ng++;
}

/* The build-id in hex ("-": none) is the program's, or there is nothing
   to compare. */
static int same_build(const char *id, const unsigned char *prog, size_t plen)
{
  if (!prog || !plen || !strcmp(id, "-")) return 1;
  char h[2 * OBJECTS_ID_MAX + 1];
  for (size_t i = 0; i < plen && i < OBJECTS_ID_MAX; i++) sprintf(h + 2 * i, "%02x", prog[i]);
  return !strcasecmp(h, id);
}

static FObj *fobj(Sum *s, unsigned long k)
{
  for (size_t i = 0; i < s->nfo; i++)
    if (s->fo[i].k == k) return &s->fo[i];
  return NULL;
}

/* The address for every run of frame PC (its J-th, in a stack of EPOCH;
   version 1: EPOCH is UINT64_MAX): moved to its object's fixed base, or
   as it is when in none. */
static uint64_t place(const Sum *s, uint64_t pc, size_t j, uint64_t epoch)
{
  uint64_t a = j && pc ? pc - 1 : pc;   /* a return address: inside the call */
  const FObj *next = NULL;              /* loaded there after EPOCH, first */
  uint64_t next_from = UINT64_MAX;
  for (size_t i = 0; i < s->nfo; i++) {
    const FObj *o = &s->fo[i];
    if (a < o->lo || a >= o->hi) continue;
    if (epoch != UINT64_MAX) {
      int live = 0;
      for (size_t k = 0; k < o->nspan && !live; k++) {
        live = epoch >= o->span[2 * k] && epoch < o->span[2 * k + 1];
        if (o->span[2 * k] > epoch && o->span[2 * k] < next_from) {
          next = o;
          next_from = o->span[2 * k];
        }
      }
      if (!live) continue;
    }
    return pc - o->base + (o->g ? SUM_BASE + o->g * SUM_SPAN : 0);
  }
  /* in no object loaded then: libprof learns of a load at its next scan
     (20 ms), so a sample in an object loaded since carries the epoch
     before it; the first object loaded there after that epoch is it */
  if (next) return pc - next->base + (next->g ? SUM_BASE + next->g * SUM_SPAN : 0);
  return pc;
}

/* Reads stack file PATH into S; 0 when it is left out (another build). */
static int read_file(Sum *s, const char *path, FILE *f, const unsigned char *prog, size_t plen)
{
  char *buf = NULL;
  size_t cap = 0;
  ssize_t len;
  int version = 0, keep = 1;
  s->path = path;
  s->line = 0;
  s->nfo = 0;
  /* the stacks wait until every object line is read (version 2 lists
     objects as they load, but a reader may meet them in any order) */
  char **stk = NULL;
  size_t nstk = 0;
  unsigned long *stk_line = NULL;
  int hz = 0, depth = 0;
  while ((len = getline(&buf, &cap, f)) > 0) {
    s->line++;
    if (buf[len - 1] != '\n') bad(s, "the last line has no end (a file cut short?)");
    buf[--len] = 0;
    if (memchr(buf, 0, (size_t)len)) bad(s, "a NUL byte");
    char *p = buf, *kind = field(&p);
    if (s->line == 1) {
      if (strcmp(kind, "libprof-stacks") || !p || (strcmp(p, "1") && strcmp(p, "2")))
        bad(s, "not a libprof stack file of version 1 or 2");
      version = p[0] - '0';
      continue;
    }
    /* what the reader refuses (stacks.c) is refused here, so that the
       sum is always readable */
    if (!strcmp(kind, "hz")) {
      uint64_t v = dec(s, need(s, &p, "hz"), "hz");
      if (hz || v < 1 || v > 1000000000) bad(s, "a second hz line, or hz outside 1..1000000000");
      hz = (int)v;
    } else if (!strcmp(kind, "depth")) {
      uint64_t v = dec(s, need(s, &p, "depth"), "depth");
      if (depth || v < 1 || v > 65536) bad(s, "a second depth line, or depth outside 1..65536");
      depth = (int)v;
    }
    else if (!strcmp(kind, "samples")) {
      uint64_t v = dec(s, need(s, &p, "samples"), "samples");
      s->samples = s->samples > UINT64_MAX - v ? UINT64_MAX : s->samples + v;
    } else if (!strcmp(kind, "dropped")) {
      uint64_t v = dec(s, need(s, &p, "dropped"), "dropped");
      s->dropped = s->dropped > UINT64_MAX - v ? UINT64_MAX : s->dropped + v;
    } else if (!strcmp(kind, "object")) {
      unsigned long k = (unsigned long)dec(s, need(s, &p, "object number"), "object number");
      uint64_t base = hexnum(s, need(s, &p, "base"), "base");
      uint64_t lo = hexnum(s, need(s, &p, "text start"), "text start");
      uint64_t hi = hexnum(s, need(s, &p, "text end"), "text end");
      char *id = need(s, &p, "build-id");
      const char *opath = p ? p : "";
      if (lo < base || hi < lo) bad(s, "object %lu: its text is not above its base", k);
      if (fobj(s, k)) bad(s, "object %lu twice", k);
      if (s->nfo >= MAX_OBJS) bad(s, "more than %d objects", MAX_OBJS);
      if (k == 0 && !same_build(id, prog, plen)) keep = 0;
      s->fo = xrealloc(s->fo, (s->nfo + 1) * sizeof *s->fo);
      s->fo[s->nfo++] = (FObj){ k, base, lo, hi, gobj(s, k, opath, id, lo - base, hi - base), NULL, 0 };
    } else if (!strcmp(kind, "span") && version >= 2) {
      FObj *o = fobj(s, (unsigned long)dec(s, need(s, &p, "object number"), "object number"));
      if (!o) bad(s, "span of an object not listed before it");
      uint64_t from = dec(s, need(s, &p, "epoch"), "epoch");
      char *t = need(s, &p, "epoch");
      uint64_t to = !strcmp(t, "-") ? UINT64_MAX : dec(s, t, "epoch");
      o->span = xrealloc(o->span, (o->nspan + 1) * 2 * sizeof *o->span);
      o->span[2 * o->nspan] = from;
      o->span[2 * o->nspan + 1] = to;
      o->nspan++;
    } else if (!strcmp(kind, "thread")) {
      unsigned long tid = (unsigned long)dec(s, need(s, &p, "thread id"), "thread id");
      size_t i;
      for (i = 0; i < s->nthr && s->thr[i].tid != tid; i++) {}
      if (i == s->nthr) {
        s->thr = xrealloc(s->thr, (s->nthr + 1) * sizeof *s->thr);
        s->thr[s->nthr].tid = tid;
        s->thr[s->nthr++].name = xstrdup(p ? p : "");
      }
    } else if (!strcmp(kind, "stack")) {
      if (!depth) bad(s, "a stack before the depth line");
      stk = xrealloc(stk, (nstk + 1) * sizeof *stk);
      stk_line = xrealloc(stk_line, (nstk + 1) * sizeof *stk_line);
      stk[nstk] = xstrdup(p ? p : "");
      stk_line[nstk++] = s->line;
    }
    /* other kinds: skipped, as every reader does */
  }
  if (ferror(f)) msg_fatal("%s: %s\n", path, strerror(errno));
  if (!s->line) bad(s, "empty");
  if (!fobj(s, 0)) bad(s, "no object 0 (the program)");
  if (!keep) {
    /* as a profile of another build is warned of (gmon_io.c) */
    char have[2 * OBJECTS_ID_MAX + 1];
    for (size_t i = 0; i < plen && i < OBJECTS_ID_MAX; i++) sprintf(have + 2 * i, "%02x", prog[i]);
    msg_warn("warning: %s: written by another program or build (the program has build-id %s): "
             "its stacks are left out of the sum\n", path, have);
  }
  for (size_t i = 0; i < nstk; i++) {
    char *p = stk[i];
    s->line = stk_line[i];
    if (keep) {
      unsigned long tid = (unsigned long)dec(s, need(s, &p, "thread id"), "thread id");
      uint64_t count = dec(s, need(s, &p, "count"), "count");
      char *end = need(s, &p, "end");
      if (strcmp(end, "c") && strcmp(end, "t") && strcmp(end, "b")) bad(s, "end `%.10s' is not c, t or b", end);
      uint64_t epoch = version >= 2 ? dec(s, need(s, &p, "epoch"), "epoch") : UINT64_MAX;
      if (epoch == UINT64_MAX && version >= 2) bad(s, "epoch too large");
      if (!count) bad(s, "count 0");
      char *key = NULL;
      size_t klen = 0;
      FILE *k = open_memstream(&key, &klen);
      if (!k) msg_fatal("out of memory\n");
      fprintf(k, "%lu %s", tid, end);
      size_t j = 0;
      for (char *pc; (pc = field(&p)); j++)
        fprintf(k, " 0x%llx", (unsigned long long)place(s, hexnum(s, pc, "PC"), j, epoch));
      if (fclose(k)) msg_fatal("out of memory\n");
      if (!j) bad(s, "a stack without frames");
      if (j > (size_t)depth) bad(s, "more frames than the depth, %d", depth);
      add_stack(s, key, count);
    }
    free(stk[i]);
  }
  free(stk);
  free(stk_line);
  for (size_t i = 0; i < s->nfo; i++) free(s->fo[i].span);
  free(buf);
  if (keep) {
    if (!s->hz) s->hz = hz;
    if (depth > s->depth) s->depth = depth;
  }
  return keep;
}

static void sum_free(Sum *s)
{
  for (size_t i = 0; i < s->ng; i++) {
    free(s->g[i].path);
    free(s->g[i].id);
  }
  free(s->g);
  for (size_t i = 0; i < s->nthr; i++) free(s->thr[i].name);
  free(s->thr);
  for (size_t i = 0; i < s->n; i++) free(s->v[i].key);
  free(s->v);
  free(s->slot);
  free(s->fo);
}

void stacks_sum_write(char *const *files, int nfiles, const unsigned char *build_id, size_t idlen,
                      const char *sum)
{
  Sum s;
  memset(&s, 0, sizeof s);
  int any = 0;
  for (int i = 0; i < nfiles; i++) {
    char *path = xmalloc(strlen(files[i]) + 8);
    sprintf(path, "%s.stacks", files[i]);
    FILE *f;
    int err = open_regular(path, &f);
    if (err == ENOENT) {
      free(path);
      continue;
    }
    if (err) msg_fatal("%s: %s\n", path, open_regular_error(err));
    if (read_file(&s, path, f, build_id, idlen)) any = 1;
    fclose(f);
    free(path);
  }
  char *out = xmalloc(strlen(sum) + 8);
  sprintf(out, "%s.stacks", sum);
  if (!any) {
    /* none of the runs had stacks: an older sum's are not this one's */
    if (unlink(out) && errno != ENOENT) msg_fatal("%s: %s\n", out, strerror(errno));
    free(out);
    sum_free(&s);
    return;
  }
  AtomicFile af;
  int e = atomic_open(&af, out);
  if (e) msg_fatal("%s: %s\n", out, strerror(e));
  FILE *f = af.f;
  fputs("libprof-stacks 1\n", f);
  if (s.hz) fprintf(f, "hz %d\n", s.hz);
  fprintf(f, "depth %d\nsamples %llu\ndropped %llu\n", s.depth ? s.depth : 1, (unsigned long long)s.samples,
          (unsigned long long)s.dropped);
  for (size_t g = 0; g < s.ng; g++) {
    uint64_t base = g ? SUM_BASE + g * SUM_SPAN : 0;
    fprintf(f, "object %zu 0x%llx 0x%llx 0x%llx %s %s\n", g, (unsigned long long)base,
            (unsigned long long)(s.g[g].lo + base), (unsigned long long)(s.g[g].hi + base), s.g[g].id,
            s.g[g].path);
  }
  for (size_t i = 0; i < s.nthr; i++) fprintf(f, "thread %lu %s\n", s.thr[i].tid, s.thr[i].name);
  for (size_t i = 0; i < s.n; i++) {
    char *sp = strchr(s.v[i].key, ' ');   /* "TID END PCs": the count goes after TID */
    fprintf(f, "stack %.*s %llu%s\n", (int)(sp - s.v[i].key), s.v[i].key, (unsigned long long)s.v[i].count, sp);
  }
  if ((e = atomic_commit(&af)) != 0) msg_fatal("%s: %s\n", out, strerror(e));
  free(out);
  sum_free(&s);
}

void stacks_sum_objects(char *const *files, int nfiles, int addr_size, int big_endian,
                        const GmonOptions *go, const char *sum)
{
  /* objects.c places the objects above a table's symbols: a table of
     one symbol at 0 stands for the program, which this does not touch */
  SymTab t;
  memset(&t, 0, sizeof t);
  t.base = xcalloc(2, sizeof *t.base);
  sym_init(&t.base[0]);
  t.base[0].name = "";
  t.len = 1;
  t.opts.debug = go->debug;
  /* only the runs that have a manifest: the others have nothing to add,
     and --objects' warning for a missing one is not asked for here */
  char **with = xmalloc(((size_t)nfiles + 1) * sizeof *with);
  int nwith = 0;
  for (int i = 0; i < nfiles; i++) {
    char *m = xmalloc(strlen(files[i]) + 20);
    sprintf(m, "%s.objects/manifest", files[i]);
    struct stat st;
    if (lstat(m, &st) == 0) with[nwith++] = files[i];
    free(m);
  }
  Objects o;
  memset(&o, 0, sizeof o);
  if (nwith) objects_load(&o, &t, with, nwith);
  if (o.n) {
    HistSet hs;
    memset(&hs, 0, sizeof hs);
    objects_want_sum(&o);
    objects_read_hist(&o, &hs, addr_size, big_endian, go);
    objects_write_sum(&o, sum);
    hist_free(&hs);
  }
  objects_free(&o);
  free(with);
  free(t.base);
  free(t.addrs);
  free(t.bucket);
}
