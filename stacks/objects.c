/* objects.c -- the one object model (objects.h Object, Load): the
 * program as Object 0, every other object once, each ELF file read by the
 * one reader here; and --objects: other objects' profiles (libprof's
 * PROFILE.objects/) in the one report.  doc/DESIGN.md, "Other objects". */
#define PACKAGE "gprof"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libiberty/demangle.h>
#include "util/options.h"
#include "core.h"
#include "stacks/objects.h"
#include "gmon_io.h"
#include "gmon_out.h"
#include "sym_ids.h"

#define OBJ_SPAN ((vma_t)1 << 40)     /* each object's synthetic range */
#define ID_MAX OBJECTS_ID_MAX

/* An object left out (its build-id is not the one named): not opened
   again for each further name of it. */
struct ObjBad {
  ObjIdent who;
  char *path;
  unsigned char id[ID_MAX];
  size_t idlen;
};

/* A manifest's objects by the number that starts their files' names
   (libprof's N, which an outside caller in another object's file names:
   doc/DESIGN.md, "Calls into and inside other objects"). */
struct ObjManifest {
  struct { unsigned long n; size_t obj; } *v;
  size_t len;
};

/* An arc of another object: its two ends at their synthetic addresses,
   then (objects_settle) their symbols' places in the table. */
struct ObjArc {
  vma_t from, self;
  uint64_t count;
  size_t parent, child;
};

#define LIBPROF_CALLER(a) ((a) >> 62 == 1)      /* an outside caller, encoded */
#define CALLER_OBJ(a) ((unsigned long)((a) >> 40) & 0x3fffff)
#define CALLER_ADDR(a) ((a) & (((vma_t)1 << 40) - 1))
#define CALLER_NONE 0x3fffff
/* the same in a file of 4-byte addresses: 0x80000000 | N << 23 | address */
#define LIBPROF_CALLER32(a) ((a) >> 31 == 1)
#define CALLER_OBJ32(a) ((unsigned long)((a) >> 23) & 0xff)
#define CALLER_ADDR32(a) ((a) & (((vma_t)1 << 23) - 1))
#define CALLER_NONE32 0xff

/* ---- the manifest ---- */

static int hexval(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* HEX ("-" for none) into ID; -1 when malformed. */
static long parse_id(const char *hex, unsigned char *id)
{
  if (!strcmp(hex, "-")) return 0;
  size_t n = strlen(hex);
  if (n == 0 || n % 2 || n / 2 > ID_MAX) return -1;
  for (size_t i = 0; i < n / 2; i++) {
    int h = hexval(hex[2 * i]), l = hexval(hex[2 * i + 1]);
    if (h < 0 || l < 0) return -1;
    id[i] = (unsigned char)(h << 4 | l);
  }
  return (long)(n / 2);
}

static ObjIdent ident_of(const char *path)
{
  ObjIdent w;
  struct stat st;
  memset(&w, 0, sizeof w);
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
    w.file = 1;
    w.dev = st.st_dev;
    w.ino = st.st_ino;
  }
  return w;
}

static uint64_t ident_hash(const ObjIdent *w, const char *path, const unsigned char *id, size_t idlen)
{
  uint64_t h = 0xcbf29ce484222325ull;
#define MIX(b) (h = (h ^ (unsigned char)(b)) * 0x100000001b3ull)
  if (w->file) {
    uint64_t d = (uint64_t)w->dev, i = (uint64_t)w->ino;
    for (int k = 0; k < 8; k++) { MIX(d >> 8 * k); MIX(i >> 8 * k); }
  } else {
    for (const char *c = path; *c; c++) MIX(*c);
  }
  for (size_t k = 0; k < idlen; k++) MIX(id[k]);
#undef MIX
  return h ^ (h >> 29);
}

#define SLOT_BAD ((size_t)1 << (sizeof(size_t) * 8 - 1))

/* The slot of (W or PATH, ID): the one holding that object (a good one:
   its place in o->v, never 0: the program's, which is not indexed; one
   left out: SLOT_BAD | its place in o->bad),
   or the free one where it would go. */
static size_t *obj_slot(const Objects *o, const ObjIdent *w, const char *path, const unsigned char *id,
                        size_t idlen)
{
  size_t mask = o->nslot - 1;
  for (size_t i = (size_t)ident_hash(w, path, id, idlen) & mask;; i = (i + 1) & mask) {
    size_t *s = &o->slot[i];
    if (!*s) return s;
    const ObjIdent *x;
    const char *xp;
    const unsigned char *xid;
    size_t xl;
    if (*s & SLOT_BAD) {
      const struct ObjBad *b = &o->bad[*s & ~SLOT_BAD];
      x = &b->who, xp = b->path, xid = b->id, xl = b->idlen;
    } else {
      const Object *ob = &o->v[*s];
      x = &ob->who, xp = ob->path, xid = ob->id, xl = ob->idlen;
    }
    if (x->file == w->file && (w->file ? x->dev == w->dev && x->ino == w->ino : !strcmp(xp, path))
        && xl == idlen && !memcmp(xid, id, idlen))
      return s;
  }
}

/* VALUE (a slot's) in O's table, grown first when half full. */
static void obj_index(Objects *o, const ObjIdent *w, const char *path, const unsigned char *id, size_t idlen,
                      size_t value)
{
  if ((o->n + o->nbad + 1) * 2 > o->nslot) {
    size_t *old = o->slot, nold = o->nslot;
    o->nslot = nold ? 2 * nold : 64;
    o->slot = xcalloc(o->nslot, sizeof *o->slot);
    for (size_t i = 0; i < nold; i++) {
      if (!old[i]) continue;
      if (old[i] & SLOT_BAD) {
        const struct ObjBad *b = &o->bad[old[i] & ~SLOT_BAD];
        *obj_slot(o, &b->who, b->path, b->id, b->idlen) = old[i];
      } else {
        const Object *ob = &o->v[old[i]];
        *obj_slot(o, &ob->who, ob->path, ob->id, ob->idlen) = old[i];
      }
    }
    free(old);
  }
  *obj_slot(o, w, path, id, idlen) = value;
}

/* The object PATH (the file it reaches, W) with build-id ID: O's, or
   NULL; *LEFT_OUT says it was met and left out before. */
static Object *find_obj(const Objects *o, const ObjIdent *w, const char *path, const unsigned char *id,
                     size_t idlen, int *left_out)
{
  *left_out = 0;
  if (!o->nslot) return NULL;
  size_t v = *obj_slot(o, w, path, id, idlen);
  if (!v) return NULL;
  if (v & SLOT_BAD) {
    *left_out = 1;
    return NULL;
  }
  return &o->v[v];
}

/* The object's own build-id matches the manifest's; else warns. */
static int id_matches(const Object *ob, const char *manifest)
{
  Core c;
  unsigned char got[ID_MAX];
  memset(&c, 0, sizeof c);
  c.abfd = ob->abfd;
  int has = core_build_id(&c, got, sizeof got);
  if (!ob->idlen) return 1;     /* the manifest names none: nothing to check */
  int same = has && !memcmp(got, ob->id, ob->idlen);
  for (size_t i = ob->idlen; same && i < sizeof got; i++) same = got[i] == 0;
  if (!same)
    msg_warn("warning: %s: build-id differs from %s's (rebuilt or replaced since the "
             "run?): its samples are left out\n", ob->path, manifest);
  return same;
}

static bfd *open_object(const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
  bfd *abfd = bfd_openr(path, NULL);
  if (!abfd) return NULL;
  if (!bfd_check_format(abfd, bfd_object)) {
    bfd_close(abfd);
    return NULL;
  }
  return abfd;
}

/* OB's names: "[name]" for its gaps, SUFFIX after its functions'
   (NULL: " [name]"). */
static void obj_names(Object *ob, const char *suffix)
{
  const char *path = ob->path;
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  size_t bl = strlen(b) + 4;
  /* "[vdso]" is named so already */
  int br = b[0] == '[' && b[strlen(b) - 1] == ']';
  ob->gap = xmalloc(bl);
  snprintf(ob->gap, bl, br ? "%s" : "[%s]", b);
  if (suffix) {
    ob->suffix = xstrdup(suffix);
    return;
  }
  ob->suffix = xmalloc(bl + 1);
  snprintf(ob->suffix, bl + 1, br ? " %s" : " [%s]", b);
}

/* Past OBJECTS_MAX other objects: PATH is left out (said once). */
static int too_many(Objects *o, const char *path, const char *where)
{
  if (o->n - 1 < OBJECTS_MAX) return 0;
  if (!o->full)
    msg_warn("warning: %s: more than %d objects: %s and any further one are left out\n", where,
             OBJECTS_MAX, path);
  o->full = 1;
  return 1;
}

void objects_program(Objects *o, const struct Core *core, const char *path)
{
  if (o->n) return;
  o->v = xcalloc(1, sizeof *o->v);
  o->n = 1;
  Object *ob = &o->v[0];
  ob->program = 1;
  if (core && core->abfd) path = bfd_get_filename(core->abfd);
  ob->path = xstrdup(path ? path : "");
  ob->who = ident_of(ob->path);
  ob->abspath = ob->who.file ? realpath(ob->path, NULL) : NULL;
  obj_names(ob, "");            /* named as the program's own functions */
  if (!core) return;
  ob->abfd = core->abfd;        /* (the Core's) */
  unsigned char id[ID_MAX];
  int n = core_build_id(core, id, sizeof id);
  ob->idlen = n > 0 ? ((size_t)n < sizeof id ? (size_t)n : sizeof id) : 0;
  memcpy(ob->id, id, ob->idlen);
  vma_t r[64][2];
  size_t nr = core_code_ranges(core, r, 64);
  if (nr) {
    ob->text_lo = r[0][0];
    ob->text_hi = r[0][1];
    for (size_t k = 1; k < nr; k++) {
      if (r[k][0] < ob->text_lo) ob->text_lo = r[k][0];
      if (r[k][1] > ob->text_hi) ob->text_hi = r[k][1];
    }
  }
}

int objects_present(const Objects *o)
{
  return o->n > 1 || (o->n && o->v[0].names_base);
}

/* PATH (build-id ID, IDLEN bytes; link-time text [LO, HI)) as O's next
   object, opened and its build-id checked (WHERE names the file that
   names it in the warning); NULL, and a warning, when the id differs.  An
   object with no file (the vdso: a name without '/') or one that cannot
   be read is kept: its time goes to the object as a whole. */
static Object *new_obj(Objects *o, const ObjIdent *w, const char *path, const unsigned char *id,
                    size_t idlen, vma_t lo, vma_t hi, const char *where)
{
  if (too_many(o, path, where)) return NULL;
  bfd *abfd = open_object(path);
  if (!abfd && strchr(path, '/'))
    msg_warn("warning: %s: cannot read it: its time is counted for the object as a whole\n", path);
  o->v = xrealloc(o->v, (o->n + 1) * sizeof *o->v);
  Object *ob = &o->v[o->n];
  memset(ob, 0, sizeof *ob);
  ob->path = xstrdup(path);
  ob->who = *w;
  ob->abspath = w->file ? realpath(path, NULL) : NULL;
  ob->abfd = abfd;
  memcpy(ob->id, id, idlen);
  ob->idlen = idlen;
  ob->text_lo = lo;
  ob->text_hi = hi;
  if (abfd && !id_matches(ob, where)) {
    bfd_close(abfd);
    free(ob->path);
    free(ob->abspath);
    o->bad = xrealloc(o->bad, (o->nbad + 1) * sizeof *o->bad);
    struct ObjBad *b = &o->bad[o->nbad];
    b->who = *w;
    b->path = xstrdup(path);
    memcpy(b->id, id, idlen);
    b->idlen = idlen;
    obj_index(o, w, path, id, idlen, SLOT_BAD | o->nbad++);
    return NULL;
  }
  obj_names(ob, NULL);
  o->n++;
  obj_index(o, w, path, id, idlen, o->n - 1);
  return &o->v[o->n - 1];
}

#define MAN_MAX ((size_t)4 << 20)      /* a manifest's bytes read, at most */
#define MAN_LINE_MAX 8192               /* a line's, its '\n' included */

#define MAN_WARN_MAX 20                 /* line warnings shown per manifest */

/* A warning about line LN of manifest MAN: "MAN: line LN: ..." (the
   text may quote the file: no controls on the terminal); past the
   MAN_WARN_MAX-th of the manifest only counted in *NWARN (read_manifest
   says how many more at its end). */
static void man_warn(const char *man, unsigned long *nwarn, unsigned long ln, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
static void man_warn(const char *man, unsigned long *nwarn, unsigned long ln, const char *fmt, ...)
{
  if (++*nwarn > MAN_WARN_MAX) return;
  char m[512];
  va_list ap;
  va_start(ap, fmt);
  msg_format_clean(m, sizeof m, fmt, ap);
  va_end(ap);
  msg_warn("warning: %s: line %lu: %s\n", man, ln, m);
}

/* The next line of F into LINE (MAN_LINE_MAX bytes; its '\n' dropped):
   1; 0 at the end; MAN_NUL or MAN_LONG for a line with a NUL byte or
   too long (read to its end); MAN_FULL past MAN_MAX bytes (*NREAD
   counts them). */
enum { MAN_NUL = -1, MAN_LONG = -2, MAN_FULL = -3 };
static int man_line(FILE *f, char *line, size_t *nread)
{
  size_t len = 0;
  int c, r = 1;
  while ((c = getc(f)) != EOF) {
    if (++*nread > MAN_MAX) return MAN_FULL;
    if (c == '\n') break;
    if (c == 0) r = MAN_NUL;
    else if (len + 1 >= MAN_LINE_MAX) r = r == 1 ? MAN_LONG : r;
    else line[len++] = (char)c;
  }
  if (c == EOF && !len && r == 1) return 0;
  line[len] = 0;
  return r;
}

/* The files a manifest names, by the file each reaches: the line that
   named it first (a file named twice is read once). */
typedef struct {
  struct { dev_t dev; ino_t ino; unsigned long line; } *v;
  size_t n, *slot, nslot;
} FileSet;

/* The line that named ST's file before, or 0 (and it is LN's now). */
static unsigned long fileset_add(FileSet *fs, const struct stat *st, unsigned long ln)
{
  if ((fs->n + 1) * 2 > fs->nslot) {
    free(fs->slot);
    fs->nslot = fs->nslot ? 2 * fs->nslot : 64;
    fs->slot = xcalloc(fs->nslot, sizeof *fs->slot);
    for (size_t k = 0; k < fs->n; k++) {
      size_t i = (size_t)(((uint64_t)fs->v[k].ino * 0x9e3779b97f4a7c15ull) >> 20) & (fs->nslot - 1);
      while (fs->slot[i]) i = (i + 1) & (fs->nslot - 1);
      fs->slot[i] = k + 1;
    }
  }
  size_t i = (size_t)(((uint64_t)st->st_ino * 0x9e3779b97f4a7c15ull) >> 20) & (fs->nslot - 1);
  for (; fs->slot[i]; i = (i + 1) & (fs->nslot - 1))
    if (fs->v[fs->slot[i] - 1].ino == st->st_ino && fs->v[fs->slot[i] - 1].dev == st->st_dev)
      return fs->v[fs->slot[i] - 1].line;
  fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof *fs->v);
  fs->v[fs->n].dev = st->st_dev;
  fs->v[fs->n].ino = st->st_ino;
  fs->v[fs->n].line = ln;
  fs->slot[i] = ++fs->n;
  return 0;
}

/* One manifest: its objects join O (new ones opened and checked), each
   with its file.  A line that cannot be used -- not understood, too
   long, naming no regular file of the folder (a FIFO there would block
   the read), or a file an earlier line named -- is left out with a
   warning naming it (the first MAN_WARN_MAX; then how many more); so is
   the rest past MAN_MAX bytes.  Each object is
   opened once, by whatever name (find_obj). */
static void read_manifest(Objects *o, const char *profile)
{
  o->man = xrealloc(o->man, (o->nman + 1) * sizeof *o->man);
  ObjManifest *mf = &o->man[o->nman++];
  memset(mf, 0, sizeof *mf);
  size_t dl = strlen(profile) + sizeof ".objects";
  char *dir = xmalloc(dl);
  snprintf(dir, dl, "%s.objects", profile);
  char *man = xmalloc(dl + sizeof "/manifest");
  snprintf(man, dl + sizeof "/manifest", "%s/manifest", dir);
  char *line = xmalloc(MAN_LINE_MAX);
  FileSet fs;
  memset(&fs, 0, sizeof fs);
  FILE *f;
  int err = open_regular(man, &f);
  if (err) {
    msg_warn("warning: %s: %s\n", man, open_regular_error(err));
    goto out;
  }
  size_t nread = 0;
  unsigned long ln = 1, nwarn = 0;
  if (man_line(f, line, &nread) != 1 || strcmp(line, "libprof-objects 1")) {
    msg_warn("warning: %s: not a libprof-objects 1 manifest\n", man);
    fclose(f);
    goto out;
  }
  for (int r; (r = man_line(f, line, &nread)) != 0;) {
    ln++;
    if (r == MAN_FULL) {
      msg_warn("warning: %s: line %lu: more than %zu bytes: the rest is left out\n", man, ln, MAN_MAX);
      break;
    }
    if (r == MAN_NUL || r == MAN_LONG) {
      man_warn(man, &nwarn, ln, r == MAN_NUL ? "a NUL byte: left out" : "longer than %d bytes: left out",
               MAN_LINE_MAX - 1);
      continue;
    }
    size_t len = strlen(line);
    if (!len || line[0] == '#') continue;
    /* what libprof could not count: said, never left in silence */
    char what[16];
    unsigned long long lost;
    int end = 0;
    if (sscanf(line, "lost %15s %llu%n", what, &lost, &end) == 2 && !line[end]) {
      const char *why = !strcmp(what, "samples") ? " samples fell in no object libprof knew (their time is in no report)"
                      : !strcmp(what, "calls") ? " calls into no object libprof knew were not counted"
                      : !strcmp(what, "objects") ? " objects were loaded that libprof's map could not hold: not profiled"
                      : !strcmp(what, "dlmopen-objects") ? " -pg objects were loaded in a new link namespace (dlmopen), which libprof"
                                                           " finds within 20 ms: calls into them made before that, if any, were not counted"
                      : NULL;
      if (why) {
        msg_warn("warning: %s: %llu%s\n", man, lost, why);
        continue;
      }
    }
    char file[4096], hex[2 * ID_MAX + 2];
    unsigned long long base, lo, hi;
    int pos = 0;
    unsigned char id[ID_MAX];
    long idlen;
    if (sscanf(line, "%4095s %129s %llx %llx %llx %n", file, hex, &base, &lo, &hi, &pos) < 5
        || !pos || !line[pos] || strchr(file, '/') || (idlen = parse_id(hex, id)) < 0
        || hi < lo || hi - lo >= OBJ_SPAN || lo >= OBJ_SPAN) {
      man_warn(man, &nwarn, ln, "not understood: %.200s", line);
      continue;
    }
    if (!strcmp(file, ".") || !strcmp(file, "..")) {
      man_warn(man, &nwarn, ln, "`%s' is not a file of %s: left out", file, dir);
      continue;
    }
    const char *path = line + pos;
    ObjIdent w = ident_of(path);
    int left_out;
    Object *ob = find_obj(o, &w, path, id, (size_t)idlen, &left_out);
    if (!ob && (left_out || !(ob = new_obj(o, &w, path, id, (size_t)idlen, lo, hi, man)))) continue;
    mf->v = xrealloc(mf->v, (mf->len + 1) * sizeof *mf->v);
    mf->v[mf->len].n = strtoul(file, NULL, 10);
    mf->v[mf->len++].obj = (size_t)(ob - o->v);
    size_t fl = strlen(dir) + strlen(file) + 2;
    char *name = xmalloc(fl);
    snprintf(name, fl, "%s/%s", dir, file);
    /* the file: a regular one (stat: no open, which a FIFO would block),
       not named before */
    struct stat st;
    const char *why = NULL;
    unsigned long first;
    if (stat(name, &st) != 0) why = strerror(errno);
    else if (S_ISDIR(st.st_mode)) why = strerror(EISDIR);
    else if (!S_ISREG(st.st_mode)) why = open_regular_error(OPEN_NOT_REGULAR);
    if (why) {
      man_warn(man, &nwarn, ln, "%s: %s: left out", name, why);
      free(name);
      continue;
    }
    if ((first = fileset_add(&fs, &st, ln))) {
      man_warn(man, &nwarn, ln, "%s: the file of line %lu again: left out", name, first);
      free(name);
      continue;
    }
    ob->files = xrealloc(ob->files, (ob->nfiles + 1) * sizeof *ob->files);
    ob->file_man = xrealloc(ob->file_man, (ob->nfiles + 1) * sizeof *ob->file_man);
    ob->file_man[ob->nfiles] = o->nman - 1;
    ob->files[ob->nfiles++] = name;
  }
  fclose(f);
  if (nwarn > MAN_WARN_MAX)
    msg_warn("warning: %s: %lu more lines left out (not shown)\n", man, nwarn - MAN_WARN_MAX);
out:
  free(fs.v);
  free(fs.slot);
  free(line);
  free(man);
  free(dir);
}

/* ---- ELF symbol tables (read directly: BFD's asymbol has no size) ---- */

typedef struct {
  unsigned char *d;
  size_t n;
  int is64, msb;
} Elf;

static uint64_t get(const Elf *e, size_t off, int bytes)
{
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) {
    unsigned b = e->d[off + (e->msb ? (size_t)i : (size_t)(bytes - 1 - i))];
    v = v << 8 | b;
  }
  return v;
}

/* The ELF file at PATH into E: its first MAX bytes (SIZE_MAX: all of
   it; E->n says how many were read).  Returns 0 when it is no ELF file
   (or cannot be read). */
static int elf_load_head(Elf *e, const char *path, size_t max)
{
  memset(e, 0, sizeof *e);
  FILE *f;
  if (open_regular(path, &f)) return 0;
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < EI_NIDENT
      || (unsigned long long)st.st_size > (1ull << 32)) {
    fclose(f);
    return 0;
  }
  e->n = (size_t)st.st_size < max ? (size_t)st.st_size : max;
  e->d = xmalloc(e->n);
  int ok = fread(e->d, 1, e->n, f) == e->n;
  fclose(f);
  if (ok && !memcmp(e->d, ELFMAG, SELFMAG) && (e->d[EI_CLASS] == ELFCLASS32 || e->d[EI_CLASS] == ELFCLASS64)
      && (e->d[EI_DATA] == ELFDATA2LSB || e->d[EI_DATA] == ELFDATA2MSB)) {
    e->is64 = e->d[EI_CLASS] == ELFCLASS64;
    e->msb = e->d[EI_DATA] == ELFDATA2MSB;
    if (e->n >= (e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) return 1;
  }
  free(e->d);
  e->d = NULL;
  return 0;
}

static int elf_load(Elf *e, const char *path)
{
  return elf_load_head(e, path, SIZE_MAX);
}

typedef struct {
  ObjFunc *v;                   /* names inside the Elf's bytes */
  size_t n, cap;
} FSymV;

/* A section header's fields. */
typedef struct { uint32_t type, link; uint64_t off, size, entsize; } Shdr;

static int shdr(const Elf *e, unsigned i, Shdr *s)
{
  uint64_t shoff = get(e, e->is64 ? 0x28 : 0x20, e->is64 ? 8 : 4);
  unsigned entsz = (unsigned)get(e, e->is64 ? 0x3a : 0x2e, 2);
  unsigned shnum = (unsigned)get(e, e->is64 ? 0x3c : 0x30, 2);
  unsigned need = e->is64 ? 64 : 40;
  if (i >= shnum || entsz < need || shoff > e->n || (uint64_t)(i + 1) * entsz > e->n - shoff) return 0;
  size_t o = (size_t)shoff + (size_t)i * entsz;
  s->type = (uint32_t)get(e, o + 4, 4);
  s->link = (uint32_t)get(e, o + (e->is64 ? 0x28 : 0x18), 4);
  s->off = get(e, o + (e->is64 ? 0x18 : 0x10), e->is64 ? 8 : 4);
  s->size = get(e, o + (e->is64 ? 0x20 : 0x14), e->is64 ? 8 : 4);
  s->entsize = get(e, o + (e->is64 ? 0x38 : 0x24), e->is64 ? 8 : 4);
  return s->off <= e->n && s->size <= e->n - s->off;
}

/* The functions of E's symbol table of TYPE (SHT_SYMTAB or SHT_DYNSYM)
   inside [LO, HI): defined STT_FUNC and STT_GNU_IFUNC symbols. */
static void elf_funcs(const Elf *e, uint32_t type, vma_t lo, vma_t hi, FSymV *out)
{
  unsigned shnum = (unsigned)get(e, e->is64 ? 0x3c : 0x30, 2);
  for (unsigned i = 0; i < shnum; i++) {
    Shdr s, str;
    if (!shdr(e, i, &s) || s.type != type || !shdr(e, s.link, &str) || str.type != SHT_STRTAB)
      continue;
    unsigned esz = e->is64 ? 24 : 16;
    for (uint64_t k = 1; (k + 1) * esz <= s.size; k++) {
      size_t o = (size_t)(s.off + k * esz);
      uint32_t name = (uint32_t)get(e, o, 4);
      unsigned info = e->d[o + (e->is64 ? 4 : 12)];
      unsigned shndx = (unsigned)get(e, o + (e->is64 ? 6 : 14), 2);
      uint64_t value = get(e, o + (e->is64 ? 8 : 4), e->is64 ? 8 : 4);
      uint64_t size = get(e, o + (e->is64 ? 16 : 8), e->is64 ? 8 : 4);
      unsigned t = ELF64_ST_TYPE(info), bind = ELF64_ST_BIND(info);
      if ((t != STT_FUNC && t != STT_GNU_IFUNC) || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE
          || !value || value < lo || value >= hi || name >= str.size)
        continue;
      const char *nm = (const char *)e->d + str.off + name;
      if (!*nm || !memchr(nm, 0, (size_t)(str.size - name))) continue;
      if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 256;
        out->v = xrealloc(out->v, out->cap * sizeof *out->v);
      }
      /* a size running past the text is cut there */
      out->v[out->n] = (ObjFunc){ value, size > hi - value ? hi - value : size, nm, bind == STB_LOCAL,
                               out->n };
      out->n++;
    }
  }
}

/* The separate debug file of OB with its build-id, if any: by build-id
   under /usr/lib/debug/.build-id, else .gnu_debuglink's name beside the
   object, in its .debug/, or under /usr/lib/debug + its directory
   (DEBUG: -d's bits). */
static int debug_file(const Object *ob, Elf *e, unsigned debug)
{
  Core c;
  unsigned char id[ID_MAX];
  memset(&c, 0, sizeof c);
  c.abfd = ob->abfd;
  size_t idlen = 0;
  if (!ob->abfd) return 0;
  if (core_build_id(&c, id, sizeof id))
    for (idlen = sizeof id; idlen > 0 && !id[idlen - 1]; idlen--) {}
  char cand[4][4096];
  int nc = 0;
  if (idlen >= 2) {
    int p = snprintf(cand[nc], sizeof cand[nc], "/usr/lib/debug/.build-id/%02x/", id[0]);
    for (size_t i = 1; i < idlen && p < 4000; i++) p += snprintf(cand[nc] + p, sizeof cand[nc] - (size_t)p, "%02x", id[i]);
    snprintf(cand[nc] + p, sizeof cand[nc] - (size_t)p, ".debug");
    nc++;
  }
  asection *sec = bfd_get_section_by_name(ob->abfd, ".gnu_debuglink");
  if (sec && bfd_section_size(sec) > 4 && bfd_section_size(sec) < 2048) {
    char link[2048];
    size_t sz = bfd_section_size(sec);
    if (bfd_get_section_contents(ob->abfd, sec, link, 0, sz) && memchr(link, 0, sz)
        && !strchr(link, '/')) {
      char dir[2048];
      snprintf(dir, sizeof dir, "%s", ob->path);
      char *sl = strrchr(dir, '/');
      if (sl) *sl = 0; else strcpy(dir, ".");
      /* (a candidate too long for a path is no candidate) */
      if (snprintf(cand[nc], sizeof cand[0], "%s/%s", dir, link) < (int)sizeof cand[0]) nc++;
      if (snprintf(cand[nc], sizeof cand[0], "%s/.debug/%s", dir, link) < (int)sizeof cand[0]) nc++;
      if (snprintf(cand[nc], sizeof cand[0], "/usr/lib/debug/%s/%s", dir, link) < (int)sizeof cand[0]) nc++;
    }
  }
  for (int i = 0; i < nc; i++) {
    if (!strcmp(cand[i], ob->path)) continue;
    bfd *d = open_object(cand[i]);
    if (!d) continue;
    unsigned char did[ID_MAX];
    Core dc;
    memset(&dc, 0, sizeof dc);
    dc.abfd = d;
    int same = !idlen || (core_build_id(&dc, did, sizeof did) && !memcmp(did, id, sizeof id));
    bfd_close(d);
    if (same && elf_load(e, cand[i])) {
      DBG(debug, DBG_SYMTAB, "objects: %s: symbols from %s\n", ob->path, cand[i]);
      return 1;
    }
  }
  return 0;
}

static int fsym_cmp(const void *a, const void *b)
{
  const ObjFunc *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;    /* table order: qsort is not stable */
}

/* E's PT_LOAD program headers into OB (E: the file's first bytes or all
   of it; the headers past them: the whole file is read, with PATH). */
static void elf_segs(Object *ob, Elf *e, const char *path)
{
  Elf whole;
  memset(&whole, 0, sizeof whole);
  ob->segs_read = 1;
  uint64_t phoff = get(e, e->is64 ? 0x20 : 0x1c, e->is64 ? 8 : 4);
  unsigned entsz = (unsigned)get(e, e->is64 ? 0x36 : 0x2a, 2);
  unsigned phnum = (unsigned)get(e, e->is64 ? 0x38 : 0x2c, 2);
  if (phoff > e->n || (uint64_t)phnum * entsz > e->n - phoff) {
    if (!path || !elf_load(&whole, path)) return;
    e = &whole;
  }
  unsigned need = e->is64 ? 56 : 32;
  for (unsigned i = 0; entsz >= need && phoff <= e->n && i < phnum; i++) {
    if ((uint64_t)(i + 1) * entsz > e->n - phoff) break;
    size_t q = (size_t)phoff + (size_t)i * entsz;
    if ((uint32_t)get(e, q, 4) != PT_LOAD) continue;
    ob->segs = xrealloc(ob->segs, (ob->nsegs + 1) * sizeof *ob->segs);
    ob->segs[ob->nsegs++] = (ObjSeg){
      .flags = (uint32_t)get(e, q + (e->is64 ? 4 : 24), 4),
      .offset = get(e, q + (e->is64 ? 8 : 4), e->is64 ? 8 : 4),
      .vaddr = get(e, q + (e->is64 ? 16 : 8), e->is64 ? 8 : 4),
      .filesz = get(e, q + (e->is64 ? 32 : 16), e->is64 ? 8 : 4),
      .memsz = get(e, q + (e->is64 ? 40 : 20), e->is64 ? 8 : 4),
    };
  }
  free(whole.d);
}

/* The headers only (they are at the file's start in every object a
   linker writes), else the whole file. */
#define ELF_HEAD_MAX (64 << 10)

size_t object_segs(Object *ob, const ObjSeg **segs)
{
  if (!ob->segs_read) {
    Elf e;
    ob->segs_read = 1;
    if (ob->path && elf_load_head(&e, ob->path, ELF_HEAD_MAX)) {
      elf_segs(ob, &e, ob->path);
      free(e.d);
    }
  }
  *segs = ob->segs;
  return ob->nsegs;
}

/* OB's functions in [text_lo, text_hi), read once: its ELF .symtab, else
   its debug file's, else its .dynsym (DEBUG: -d's bits); its segments
   from the same read. */
static void object_funcs(Object *ob, unsigned debug)
{
  if (ob->funcs_read) return;
  ob->funcs_read = 1;
  Elf e, dbg;
  FSymV fv = { 0, 0, 0 };
  memset(&e, 0, sizeof e);
  memset(&dbg, 0, sizeof dbg);
  int have = ob->abfd && elf_load(&e, ob->path);
  const char *from = "none";
  if (have && !ob->segs_read) elf_segs(ob, &e, NULL);
  if (have) elf_funcs(&e, SHT_SYMTAB, ob->text_lo, ob->text_hi, &fv);
  if (fv.n) from = ".symtab";
  if (!fv.n && debug_file(ob, &dbg, debug)) {
    elf_funcs(&dbg, SHT_SYMTAB, ob->text_lo, ob->text_hi, &fv);
    if (fv.n) from = "debug file";
  }
  if (!fv.n && have) {
    elf_funcs(&e, SHT_DYNSYM, ob->text_lo, ob->text_hi, &fv);
    if (fv.n) from = ".dynsym";
  }
  ob->fn_from = from;
  /* by address, ties in table order (symtab_finalize keeps the earlier
     of equals) */
  if (fv.n) qsort(fv.v, fv.n, sizeof *fv.v, fsym_cmp);
  /* the names, out of the file's bytes */
  size_t nl = 0;
  for (size_t i = 0; i < fv.n; i++) nl += strlen(fv.v[i].name) + 1;
  ob->fn_names = xmalloc(nl + 1);
  nl = 0;
  for (size_t i = 0; i < fv.n; i++) {
    size_t l = strlen(fv.v[i].name) + 1;
    memcpy(ob->fn_names + nl, fv.v[i].name, l);
    fv.v[i].name = ob->fn_names + nl;
    nl += l;
  }
  ob->fn = fv.v;
  ob->nfn = fv.n;
  free(e.d);
  free(dbg.d);
}

/* OB's functions and gap symbols, at its addresses plus BASE,
   finalized as a table of their own, in T (empty, its opts set). */
static void object_syms(Object *ob, vma_t base, SymTab *t)
{
  object_funcs(ob, t->opts.debug);
  FSymV fv = { ob->fn, ob->nfn, ob->nfn };
  DBG(t->opts.debug, DBG_SYMTAB, "objects: %s: %zu functions from %s%s\n", ob->path, fv.n, ob->fn_from,
      ob->program ? " (the program's, for the names of the exports)" : "");
  size_t cap = 2 * fv.n + 2;
  t->base = xmalloc(cap * sizeof *t->base);
  t->len = 0;
  vma_t covered = ob->text_lo;  /* where the functions so far reach */
  for (size_t i = 0; i <= fv.n; i++) {
    vma_t at = i < fv.n ? fv.v[i].addr : ob->text_hi;
    if (at > covered) {         /* nothing known from COVERED to AT */
      Sym *g = &t->base[t->len++];
      sym_init(g);
      g->addr = covered + base;
      g->name = ob->gap;
      g->is_static = 1;
      g->file_done = 1;
      g->bfd_seq = (unsigned)t->len;
    }
    if (i == fv.n) break;
    const ObjFunc *f = &fv.v[i];
    vma_t end = f->addr + f->size;
    if (!f->size) {             /* no size: up to the next symbol */
      size_t k = i + 1;
      while (k < fv.n && fv.v[k].addr == f->addr) k++;
      end = k < fv.n ? fv.v[k].addr : ob->text_hi;
    }
    if (end > covered) covered = end;
    if (f->addr > covered) covered = f->addr;
    Sym *s = &t->base[t->len++];
    sym_init(s);
    s->addr = f->addr + base;
    size_t nl = strlen(f->name) + strlen(ob->suffix) + 1;
    char *n = xmalloc(nl);
    snprintf(n, nl, "%s%s", f->name, ob->suffix);
    s->name = n;
    s->is_func = 1;
    s->is_static = f->local;
    s->file_done = 1;
    s->bfd_seq = (unsigned)t->len;
    if (t->opts.demangle) {
      char *d = cplus_demangle(f->name, DMGL_PARAMS | DMGL_ANSI);
      if (d) {
        size_t dl = strlen(d) + strlen(ob->suffix) + 1;
        char *q = xmalloc(dl);
        snprintf(q, dl, "%s%s", d, ob->suffix);
        free(d);
        s->dname = q;
      }
    }
  }
  /* the end of the text: the object's last symbol, its own address only */
  Sym *g = &t->base[t->len++];
  sym_init(g);
  g->addr = ob->text_hi + base;
  g->name = ob->gap;
  g->is_static = 1;
  g->file_done = 1;
  g->bfd_seq = (unsigned)t->len;
  /* names at one address: symtab_finalize keeps one (sym_prefer); the
     others' names are not freed (a few bytes) */
  symtab_finalize(t);
}

static void append_parts(SymTab *tab, Object *const *obs, const vma_t *bases, size_t np);

/* Appends the symbols of objects [FROM, o->n) to TAB, each at its base
   (append_parts). */
static void append_syms(Objects *o, SymTab *tab, size_t from)
{
  size_t np = o->n - from;
  Object **obs = xmalloc((np + 1) * sizeof *obs);
  vma_t *bases = xmalloc((np + 1) * sizeof *bases);
  for (size_t k = from; k < o->n; k++) {
    obs[k - from] = &o->v[k];
    bases[k - from] = o->v[k].base;
  }
  append_parts(tab, obs, bases, np);
  free(obs);
  free(bases);
}

/* Appends the symbols of OBS[0..NP), each at BASES[k], to TAB: the
   program's symbols stay first (and where they are in the table's order),
   each object's after them in one aligned block. */
static void append_parts(SymTab *tab, Object *const *obs, const vma_t *bases, size_t np)
{
  SymTab *parts = xcalloc(np, sizeof *parts);
  size_t total = tab->len;
  for (size_t k = 0; k < np; k++) {
    parts[k].opts = tab->opts;
    object_syms(obs[k], bases[k], &parts[k]);
    total += parts[k].len;
  }
  Sym *nb = xmalloc_huge((total + 1) * sizeof *nb);
  size_t n = tab->len;
  if (n) memcpy(nb, tab->base, n * sizeof *nb);
  for (size_t k = 0; k < np; k++) {
    memcpy(nb + n, parts[k].base, parts[k].len * sizeof *nb);
    n += parts[k].len;
    free(parts[k].base);
    free(parts[k].addrs);
    free(parts[k].bucket);
  }
  free(parts);
  free(tab->base);
  tab->base = nb;
  if (!tab->nmain) {            /* the first objects: the program ends here */
    tab->nmain = tab->len;
    tab->lookup_top = nb[tab->len - 1].end_addr;
  }
  tab->len = n;
  free(tab->addrs);
  tab->addrs = xmalloc((n + 1) * sizeof *tab->addrs);
  for (size_t i = 0; i < n; i++) {
    tab->addrs[i] = nb[i].addr;
    nb[i].cyc_head = &nb[i];
  }
  free(tab->bucket);
  tab->bucket = NULL;
}

/* The first object's base: above every symbol of the program, rounded
   up to the span (the span at least). */
static vma_t first_base(const SymTab *tab)
{
  vma_t top = tab->nmain ? tab->lookup_top : tab->base[tab->len - 1].end_addr;
  return (top / OBJ_SPAN + 1) * OBJ_SPAN;
}

/* The base of the next object O takes: a span above the last. */
static vma_t next_base(const Objects *o, const SymTab *tab)
{
  vma_t b = o->n ? o->v[0].names_base : 0;
  if (o->n > 1 && o->v[o->n - 1].base > b) b = o->v[o->n - 1].base;
  return b ? b + OBJ_SPAN : first_base(tab);
}

int objects_copy_syms(SymTab *to, const SymTab *from)
{
  if (!from->nmain || from->nmain >= from->len || !to->len) return 0;
  size_t k = from->len + from->ntail - from->nmain, n = to->len;
  vma_t top = to->base[n - 1].end_addr;
  if (top >= from->base[from->nmain].addr) return 0;
  Sym *nb = xmalloc_huge((n + k + 1) * sizeof *nb);
  memcpy(nb, to->base, n * sizeof *nb);
  memcpy(nb + n, from->base + from->nmain, k * sizeof *nb);
  free(to->base);
  to->base = nb;
  to->nmain = n;
  to->lookup_top = top;
  to->len = n + k;
  free(to->addrs);
  to->addrs = xmalloc((n + k + 1) * sizeof *to->addrs);
  for (size_t i = 0; i < n + k; i++) {
    to->addrs[i] = nb[i].addr;
    nb[i].cyc_head = &nb[i];
  }
  free(to->bucket);
  to->bucket = NULL;
  return 1;
}

void objects_share(Objects *to, const Objects *from)
{
  *to = *from;
  to->arcs = NULL;
  if (from->narcs) {
    to->arcs = xmalloc(from->narcs * sizeof *to->arcs);
    memcpy(to->arcs, from->arcs, from->narcs * sizeof *to->arcs);
  }
  to->arcs_cap = from->narcs;
  to->sums = NULL;
  to->in_open = 0;
}

void objects_load(Objects *o, SymTab *tab, char *const *files, int nfiles)
{
  objects_program(o, NULL, NULL);
  if (!tab->len) return;        /* (GNU's "no symbols" came first) */
  for (int i = 0; i < nfiles; i++) read_manifest(o, files[i]);
  if (o->n == 1) return;
  vma_t base = first_base(tab);
  for (size_t k = 1; k < o->n; k++) o->v[k].base = base + (k - 1) * OBJ_SPAN;
  append_syms(o, tab, 1);
}

void objects_add(Objects *o, SymTab *tab, const ObjectRef *refs, size_t n, vma_t *bases, uint32_t *objix)
{
  objects_program(o, NULL, NULL);
  size_t from = o->n;
  for (size_t i = 0; i < n; i++) {
    const ObjectRef *r = &refs[i];
    bases[i] = 0;
    objix[i] = 0;
    if (!tab->len || r->idlen > ID_MAX || r->hi < r->lo || r->hi - r->lo >= OBJ_SPAN
        || r->lo >= OBJ_SPAN)
      continue;
    ObjIdent w = ident_of(r->path);
    int left_out;
    Object *ob = find_obj(o, &w, r->path, r->id, r->idlen, &left_out);
    if (left_out) continue;
    if (!ob) {
      vma_t base = next_base(o, tab);
      if (!(ob = new_obj(o, &w, r->path, r->id, r->idlen, r->lo, r->hi, r->where))) continue;
      ob->base = base;
      ob->stacks_only = 1;
    }
    bases[i] = ob->base;
    objix[i] = (uint32_t)(ob - o->v);
  }
  /* one copy of the table for all of them */
  if (o->n > from) append_syms(o, tab, from);
}

vma_t objects_add_program(Objects *o, SymTab *tab)
{
  objects_program(o, NULL, NULL);
  Object *ob = &o->v[0];
  vma_t lo = ob->text_lo, hi = ob->text_hi;
  if (!tab->len || hi <= lo || hi - lo >= OBJ_SPAN || lo >= OBJ_SPAN) return 0;
  if (!ob->who.file || ob->names_base) return ob->names_base;
  if (too_many(o, ob->path, ob->path)) return 0;
  vma_t base = next_base(o, tab);
  append_parts(tab, &ob, &base, 1);
  ob->names_base = base;
  return base;
}

int objects_exec_segment_of(const ObjSeg *segs, size_t n, vma_t lo, vma_t hi, vma_t *vaddr, vma_t *end,
                            uint64_t *offset)
{
  for (size_t i = 0; i < n; i++) {
    const ObjSeg *g = &segs[i];
    if (!(g->flags & PF_X) || g->vaddr >= hi || g->vaddr + g->memsz <= lo) continue;
    /* as the kernel maps it: whole pages */
    uint64_t page = 4096, head = g->vaddr % page;
    if (g->offset % page != head) head = 0;   /* (not mappable: as written) */
    *vaddr = g->vaddr - head;
    *end = (g->vaddr + g->memsz + page - 1) / page * page;
    *offset = g->offset - head;
    return 1;
  }
  return 0;
}

int objects_exec_segment(const char *path, vma_t lo, vma_t hi, vma_t *vaddr, vma_t *end, uint64_t *offset)
{
  if (!path) return 0;
  Object ob;
  memset(&ob, 0, sizeof ob);
  ob.path = (char *)path;
  const ObjSeg *segs;
  size_t n = object_segs(&ob, &segs);
  int found = objects_exec_segment_of(segs, n, lo, hi, vaddr, end, offset);
  free(ob.segs);
  return found;
}

/* What an object's file's arcs are read with. */
typedef struct {
  Objects *o;
  const Object *ob;
  const ObjManifest *mf;
  int narrow;                   /* the file's addresses are 4 bytes */
  struct ObjSum *sum;           /* -s: the object's sum, or NULL */
} ArcSink;

/* ---- -s: an object's files summed ---- */

typedef struct {
  vma_t from, self;
  uint64_t count;
  uint64_t nrec;                /* records summed into it */
} SumArc;

struct ObjSum {
  SumArc *arcs;                 /* as read: summed when written */
  size_t n, cap;
  char *bytes;                  /* the file, encoded */
  size_t len;
};

void objects_want_sum(Objects *o)
{
  if (!o->sums) o->sums = xcalloc(o->n ? o->n : 1, sizeof *o->sums);
}

/* FROM, an arc's caller in the file being read: when it is an outside
   caller (libprof's encoding, 4- or 8-byte), returns 1 with its address
   in *ADDR and in *OBJ its object's place in O, OBJ_PROGRAM for the
   program, or OBJ_NONE (none, or a number the run's manifest does not
   name); else 0. */
enum { OBJ_PROGRAM = -1, OBJ_NONE = -2 };
static int outside_caller(const ArcSink *a, vma_t from, long *obj, vma_t *addr)
{
  if (!(a->narrow ? LIBPROF_CALLER32(from) : LIBPROF_CALLER(from))) return 0;
  unsigned long n = a->narrow ? CALLER_OBJ32(from) : CALLER_OBJ(from);
  *addr = a->narrow ? CALLER_ADDR32(from) : CALLER_ADDR(from);
  *obj = n ? OBJ_NONE : OBJ_PROGRAM;
  for (size_t i = 0; n && n != (a->narrow ? CALLER_NONE32 : CALLER_NONE) && i < a->mf->len; i++)
    if (a->mf->v[i].n == n) {
      *obj = (long)a->mf->v[i].obj;
      break;
    }
  return 1;
}

/* An arc of the file being read, its caller renumbered: an outside
   caller names an object by its number in the run's manifest, which
   becomes its place in O (the program stays 0; a number the
   manifest does not name becomes none). */
static void sum_arc(const ArcSink *a, vma_t from, vma_t self, uint64_t count)
{
  long k;
  vma_t addr;
  if (outside_caller(a, from, &k, &addr)) {
    unsigned long none = a->narrow ? CALLER_NONE32 : CALLER_NONE;
    unsigned long to = k == OBJ_PROGRAM ? 0 : k == OBJ_NONE ? none : (unsigned long)k;
    if (a->narrow)              /* 255 objects at most there (libprof's limit too) */
      from = (vma_t)1 << 31 | (vma_t)(to > 254 ? none : to) << 23 | addr;
    else
      from = (vma_t)1 << 62 | (vma_t)to << 40 | addr;
  }
  struct ObjSum *s = a->sum;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->arcs = xrealloc(s->arcs, s->cap * sizeof *s->arcs);
  }
  s->arcs[s->n++] = (SumArc){ from, self, count, 1 };
}

static int sum_arc_cmp(const void *x, const void *y)
{
  const SumArc *a = x, *b = y;
  if (a->self != b->self) return a->self < b->self ? -1 : 1;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  return 0;
}

/* OB's sum S encoded as a profile in its own layout (ENC): the build-id
   in the header's spare bytes, as libprof writes it; histogram records
   as summed, a bin over 65535 carried into further records over the same
   range (gprof, GNU's too, adds them); then the arcs, one per caller and
   callee, a count over 32 bits in several records. */
static void sum_encode(const Object *ob, struct ObjSum *s, const Profile *p)
{
  FILE *f = open_memstream(&s->bytes, &s->len);
  if (!f) msg_fatal("%s\n", strerror(errno));
  GmonOut out = { f, &p->enc };
  genc_put_bytes(&out, GMON_MAGIC, 4);
  genc_put_u32(&out, GMON_VERSION);
  unsigned char spare[12] = { 0 };
  if (ob->idlen) {
    memcpy(spare, GMON_BUILD_ID_TAG, 4);
    memcpy(spare + 4, ob->id, ob->idlen < GMON_BUILD_ID_LEN ? ob->idlen : GMON_BUILD_ID_LEN);
  }
  genc_put_bytes(&out, spare, sizeof spare);
  const HistSet *hs = &p->hist;
  for (size_t i = 0; i < hs->nrecs; i++) {
    const Hist *h = &hs->recs[i];
    for (uint64_t done = 0, more = 1; more; done += 65535) {
      more = 0;
      gmon_put_hist_head(&out, hs, h);
      for (uint32_t k = 0; k < h->nbins; k++) {
        uint64_t left = h->bins[k] > done ? h->bins[k] - done : 0;
        if (left > 65535) more = 1;
        genc_put_n(&out, left > 65535 ? 65535 : left, 2);
      }
    }
  }
  if (s->n) qsort(s->arcs, s->n, sizeof *s->arcs, sum_arc_cmp);
  int cut = 0;
  for (size_t i = 0; i < s->n;) {
    SumArc a = s->arcs[i++];
    while (i < s->n && s->arcs[i].from == a.from && s->arcs[i].self == a.self) {
      uint64_t c = s->arcs[i].count;
      a.count = c > UINT64_MAX - a.count ? UINT64_MAX : a.count + c;
      a.nrec += s->arcs[i++].nrec;
    }
    /* in as many records as were read for it at most: summed 4-byte
       counts always fit there, so the sum is never larger than what was
       read (an 8-byte BSD count of 2^64 - 1 took 2^32 records) */
    uint64_t c = a.count;
    for (uint64_t k = 0; c && k < a.nrec; k++) {
      uint32_t part = c > 0xffffffffu ? 0xffffffffu : (uint32_t)c;
      genc_put_u8(&out, GMON_TAG_CG_ARC);
      genc_put_addr(&out, a.from);
      genc_put_addr(&out, a.self);
      genc_put_u32(&out, part);
      c -= part;
    }
    if (c && !cut++)
      msg_warn("warning: %s: a call count over 2^32 in one record (a BSD-format file?): "
               "its sum is cut to what 4-byte records hold\n", ob->path);
  }
  free(s->arcs);
  s->arcs = NULL;
  s->n = s->cap = 0;
  if (fclose(f) != 0) msg_fatal("%s\n", strerror(errno));
}

/* NAME's bytes (LEN) written whole, or an error and exit 1. */
static void write_whole(const char *name, const char *bytes, size_t len)
{
  AtomicFile af;
  int err = atomic_open(&af, name);
  if (err) msg_fatal("%s: %s\n", name, strerror(err));
  if (len) fwrite(bytes, 1, len, af.f);
  err = atomic_commit(&af);
  if (err) msg_fatal("%s: %s\n", name, strerror(err));
}

void objects_write_sum(Objects *o, const char *sum)
{
  if (!o->sums) return;
  size_t dl = strlen(sum) + sizeof ".objects";
  char *dir = xmalloc(dl);
  snprintf(dir, dl, "%s.objects", sum);
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) msg_fatal("%s: %s\n", dir, strerror(errno));
  char *man = NULL;
  size_t manlen = 0;
  FILE *m = open_memstream(&man, &manlen);
  if (!m) msg_fatal("%s\n", strerror(errno));
  fprintf(m, "libprof-objects 1\n# file build-id load-base text-start text-end path "
          "(summed by gprof -s: no load base)\n");
  for (size_t k = 1; k < o->n; k++) {
    const Object *ob = &o->v[k];
    struct ObjSum *s = &o->sums[k];
    if (ob->stacks_only || !s->bytes) continue;
    const char *b = strrchr(ob->path, '/');
    b = b ? b + 1 : ob->path;
    char file[64];
    snprintf(file, sizeof file, "%zu-", k);
    size_t nl = strlen(dir) + strlen(file) + strlen(b) + 2;
    char *name = xmalloc(nl);
    snprintf(name, nl, "%s/%s%s", dir, file, b);
    write_whole(name, s->bytes, s->len);
    free(name);
    fprintf(m, "%s%s ", file, b);
    if (!ob->idlen) fputc('-', m);
    for (size_t i = 0; i < ob->idlen; i++) fprintf(m, "%02x", ob->id[i]);
    fprintf(m, " 0 %llx %llx %s\n", (unsigned long long)ob->text_lo,
            (unsigned long long)ob->text_hi, ob->path);
  }
  if (fclose(m) != 0) msg_fatal("%s\n", strerror(errno));
  size_t ml = dl + sizeof "/manifest";
  char *mname = xmalloc(ml);
  snprintf(mname, ml, "%s/manifest", dir);
  write_whole(mname, man, manlen);
  free(mname);
  free(man);
  free(dir);
}

/* One arc record of an object's file: a caller inside the object as the
   callee, shifted by its base; an outside caller decoded (the program, an
   object its manifest names, or none: dropped, as GNU drops a caller it
   cannot place). */
static void take_arc(void *arg, vma_t from, vma_t self, uint64_t count)
{
  ArcSink *a = arg;
  const Object *ob = a->ob;
  if (a->sum && count) sum_arc(a, from, self, count);
  if (self < ob->text_lo || self >= ob->text_hi || !count) return;
  long k;
  vma_t addr;
  if (outside_caller(a, from, &k, &addr)) {
    if (k == OBJ_NONE) return;  /* dropped, as GNU drops a caller it cannot place */
    const Object *c = k == OBJ_PROGRAM ? NULL : &a->o->v[k];
    if (c && (addr < c->text_lo || addr >= c->text_hi)) return;
    from = c ? addr + c->base : addr;
  } else {
    if (from < ob->text_lo || from >= ob->text_hi) return;
    from += ob->base;
  }
  Objects *o = a->o;
  if (o->narcs == o->arcs_cap) {
    o->arcs_cap = o->arcs_cap ? 2 * o->arcs_cap : 256;
    o->arcs = xrealloc(o->arcs, o->arcs_cap * sizeof *o->arcs);
  }
  o->arcs[o->narcs++] = (ObjArc){ from, self + ob->base, count, 0, 0 };
}

int objects_read_hist(Objects *o, HistSet *hs, int addr_size, int big_endian, const GmonOptions *go)
{
  int added = 0;
  SymTab none;
  SymSpecs specs;
  memset(&none, 0, sizeof none);
  none.opts.debug = go->debug;
  sym_id_init(&specs);
  for (size_t k = 1; k < o->n; k++) {
    Object *ob = &o->v[k];
    if (ob->stacks_only) continue;  /* (no file) */
    Profile p;
    Core c;
    memset(&c, 0, sizeof c);
    c.abfd = ob->abfd;
    unsigned char id[GMON_BUILD_ID_LEN];
    vma_t code[64][2];
    GmonContext cx = { .opts = *go, .syms = &none, .specs = &specs, .object = ob->path };
    if (ob->abfd) {             /* its own layout, and what check_origin checks */
      int size = bfd_arch_bits_per_address(ob->abfd) / 8;
      gmon_init(&p, size == 4 ? 4 : 8, bfd_big_endian(ob->abfd));
      cx.build_id = core_build_id(&c, id, sizeof id) ? id : NULL;
      cx.code = (const vma_t (*)[2])code;
      cx.ncode = core_code_ranges(&c, code, 64);
    } else {                    /* the program's (same process) */
      gmon_init(&p, addr_size, big_endian);
    }
    ArcSink sink = { o, ob, NULL, p.enc.addr_size == 4, o->sums ? &o->sums[k] : NULL };
    cx.arc_sink = take_arc;
    cx.arc_arg = &sink;
    for (size_t i = 0; i < ob->nfiles; i++) {
      sink.mf = &o->man[ob->file_man[i]];
      /* (checked when the manifest was read; again, without blocking:
         it may have become a FIFO since) */
      FILE *f;
      int err = open_regular(ob->files[i], &f);
      if (err) {
        msg_warn("warning: %s: %s: left out\n", ob->files[i], open_regular_error(err));
        continue;
      }
      bounded_wrap(&o->in, f, UINT64_MAX);
      o->in_open = 1;
      gmon_read_stream(&p, &cx, ob->files[i], &o->in);
      bounded_close(&o->in);
      o->in_open = 0;
    }
    gmon_finish(&p);
    if (sink.sum) sum_encode(ob, sink.sum, &p);
    if (p.have_hist && p.hist.nrecs) {
      hist_append_shifted(hs, &p.hist, ob->base);
      added = 1;
    }
    gmon_free(&p);
  }
  return added;
}

void objects_settle(Objects *o, SymTab *tab)
{
  if (!objects_present(o)) return;
  /* the arcs' ends, found while every gap symbol still has its place */
  size_t na = 0;
  for (size_t i = 0; i < o->narcs; i++) {
    ObjArc *a = &o->arcs[i];
    Sym *p = sym_lookup_any(tab, a->from), *c = sym_lookup_any(tab, a->self);
    if (!p || !c) continue;
    a->parent = (size_t)(p - tab->base);
    a->child = (size_t)(c - tab->base);
    o->arcs[na++] = *a;
  }
  o->narcs = na;
  size_t *moved = xmalloc(tab->len * sizeof *moved);   /* old place -> new */
  Sym **first = xcalloc(o->n, sizeof *first);
  size_t out = tab->nmain, k = 1, i;
  vma_t names = o->v[0].names_base;
  for (i = 0; i < tab->nmain; i++) moved[i] = i;
  for (i = tab->nmain; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    /* objects_add's and the program's names come last: from here on the
       stacks' only */
    if (names && s->addr >= names) break;
    while (k + 1 < o->n && s->addr >= o->v[k + 1].base) k++;
    if (o->v[k].stacks_only) break;
    if (s->name == o->v[k].gap) {
      if (first[k]) {           /* one row per object: the first */
        first[k]->hist_time += s->hist_time;
        moved[i] = (size_t)(first[k] - tab->base);
        continue;
      }
      if (&tab->base[out] != s) tab->base[out] = *s;
      first[k] = &tab->base[out];
      tab->base[out].cyc_head = &tab->base[out];
      moved[i] = out++;
      continue;
    }
    if (&tab->base[out] != s) {
      tab->base[out] = *s;
      tab->base[out].cyc_head = &tab->base[out];
    }
    moved[i] = out++;
  }
  size_t tail = tab->len - i;
  for (size_t j = i; j < tab->len; j++) moved[j] = out + (j - i);
  /* the arcs follow their ends (which lie in the program or in a
     manifest's objects: the stacks' objects have no file, and an arc
     into their tail, past LEN, would be dropped) */
  na = 0;
  for (size_t j = 0; j < o->narcs; j++) {
    ObjArc *a = &o->arcs[j];
    a->parent = moved[a->parent];
    a->child = moved[a->child];
    if (a->parent < out && a->child < out) o->arcs[na++] = *a;
  }
  o->narcs = na;
  free(moved);
  free(first);
  /* the stacks' objects, whole, past the end (moved down over the gaps
     merged away) */
  if (out != i) memmove(&tab->base[out], &tab->base[i], tail * sizeof *tab->base);
  for (size_t j = out; j < out + tail; j++) {
    tab->base[j].cyc_head = &tab->base[j];
    tab->addrs[j] = tab->base[j].addr;
  }
  tab->len = out;
  tab->ntail = tail;
  for (i = tab->nmain; i < out; i++) {
    tab->addrs[i] = tab->base[i].addr;
    tab->base[i].end_addr = i + 1 < out ? tab->base[i + 1].addr - 1 : tab->base[i].addr;
  }
  free(tab->bucket);
  tab->bucket = NULL;
}

int objects_add_arcs(Objects *o, CallGraph *cg, ArcRecs *keep, const SymTab *tab,
                     const SymSpecs *specs)
{
  int added = 0;
  for (size_t i = 0; i < o->narcs; i++) {
    const ObjArc *a = &o->arcs[i];
    Sym *parent = &tab->base[a->parent], *child = &tab->base[a->child];
    if (!sym_id_arc_ok(specs, tab, parent, child)) continue;
    Arc *arc = arc_add(cg, parent, child, a->count);
    if (keep) cg_kept_add(keep, a->from, a->self, a->count, arc);
    added = 1;
  }
  free(o->arcs);                /* in the call graph now */
  o->arcs = NULL;
  o->narcs = o->arcs_cap = 0;
  return added;
}

void objects_free(Objects *o)
{
  if (o->in_open) bounded_close(&o->in);
  for (size_t k = 0; k < o->n; k++) {
    Object *ob = &o->v[k];
    if (ob->abfd && !ob->program) bfd_close(ob->abfd);
    for (size_t i = 0; i < ob->nfiles; i++) free(ob->files[i]);
    free(ob->files);
    free(ob->file_man);
    free(ob->path);
    free(ob->abspath);
    free(ob->segs);
    free(ob->fn);
    free(ob->fn_names);
    free(ob->gap);
    free(ob->suffix);
  }
  free(o->v);
  for (size_t k = 0; k < o->nbad; k++) free(o->bad[k].path);
  free(o->bad);
  free(o->slot);
  for (size_t k = 0; k < o->nman; k++) free(o->man[k].v);
  free(o->man);
  free(o->arcs);
  memset(o, 0, sizeof *o);
}
