/* gmon_io.c -- reading profile data (GNU, BSD, 4.4BSD) and writing gmon.sum. */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>
#include "options.h"
#include "gmon_io.h"
#include "gmon_out.h"

void gmon_init(Profile *p, int addr_size, int big_endian)
{
  memset(p, 0, sizeof *p);
  p->enc.addr_size = addr_size;
  p->enc.big_endian = big_endian;
  cg_init(&p->cg);
}

/* One file's reading state. */
typedef struct {
  Profile *p;
  const GmonContext *cx;
  const char *filename;
  int nrec_hist, nrec_arcs, nrec_bb, version;
  const unsigned char *map;     /* the file, when mapped (else NULL) */
  size_t released;              /* bytes of MAP already given back */
} Reader;

/* A mapped file's pages are given back as the records in them are done:
   a large profile then costs a few MiB of memory, not its whole size. */
#define RELEASE_STEP (1u << 18)
#define MAP_MIN (1u << 20)           /* smaller files are simply read */
static void release_read(Reader *r, const unsigned char *upto)
{
  if (!r->map || (size_t)(upto - r->map) < r->released + 2 * RELEASE_STEP) return;
  size_t to = ((size_t)(upto - r->map) - RELEASE_STEP) & ~(size_t)(RELEASE_STEP - 1);
  madvise((void *)(r->map + r->released), to - r->released, MADV_DONTNEED);
  r->released = to;
}

/* A regular file of 1 MiB or more, mapped read-only (NULL otherwise, or
   if mapping fails: then it is read by slurp).  Its size bounds every
   count read from it, as slurp's does. */
static unsigned char *map_file(const char *filename, size_t *len)
{
  struct stat st;
  int fd = open(filename, O_RDONLY);
  if (fd < 0) return NULL;
  void *m = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)MAP_MIN)
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED) return NULL;
  *len = (size_t)st.st_size;
  return m;
}

/* Reads the whole file; its size bounds every count read from it. */
static unsigned char *slurp(const char *filename, size_t *len)
{
  FILE *f = fopen(filename, "rb");
  if (!f) {
    fflush(stdout);
    perror(filename);
    exit(1);
  }
  /* a regular file's size is known: one buffer of that size (doubling
     from a guess cost up to twice the file in peak memory) */
  struct stat st;
  size_t cap = 1 << 16, n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    cap = (size_t)st.st_size + 1;
  unsigned char *buf = xmalloc(cap);
  for (;;) {
    if (n == cap) buf = xrealloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  *len = n;
  return buf;
}

static void read_hist_rec(Reader *r, GmonBuf *b)
{
  const GmonEnc *e = &r->p->enc;
  const char *filename = r->filename;
  vma_t lo, hi;
  uint32_t n, rate;
  if (!genc_get_addr(e, b, &lo) || !genc_get_addr(e, b, &hi) || !genc_get_u32(e, b, &n)
      || !genc_get_u32(e, b, &rate) || b->end - b->p < HIST_DIMEN_LEN + 1)
    fatal("%s: %s: unexpected end of file\n", opt.whoami, filename);
  r->p->last_hist_highpc = hi;
  r->p->last_hist_ncnt = n;
  DBG(DBG_RECORDS, "records: %s: histogram 0x%llx-0x%llx, %u bins, rate %u\n", filename,
      (unsigned long long)lo, (unsigned long long)hi, n, rate);
  char dimen[HIST_DIMEN_LEN + 1];
  memcpy(dimen, b->p, HIST_DIMEN_LEN);
  dimen[HIST_DIMEN_LEN] = 0;
  char abbrev = (char)b->p[HIST_DIMEN_LEN];
  b->p += HIST_DIMEN_LEN + 1;
  size_t avail = (size_t)(b->end - b->p) / 2;
  if (avail < n)
    fatal("%s: %s: unexpected EOF after reading %u of %u samples\n",
          opt.whoami, filename, (unsigned)avail, n);
  uint64_t *same = hist_same_range(&r->p->hist, lo, hi, n, dimen);
  if (same) {                   /* a merge: add in place */
    genc_add_u16s(e, b->p, n, same);
    b->p += 2 * (size_t)n;
    return;
  }
  uint64_t *bins = xmalloc((size_t)n * sizeof *bins);
  genc_get_u16s(e, b->p, n, bins);
  b->p += 2 * (size_t)n;
  hist_add(&r->p->hist, lo, hi, n, rate, dimen, abbrev, bins);
  free(bins);
}

static void add_arc(Reader *r, vma_t from, vma_t self, uint64_t count)
{
  Profile *p = r->p;
  cg_read_arc(&p->cg, opt.want_sum ? &p->arc_recs : NULL, r->cx->syms, r->cx->specs,
              from, self, count);
}

static void read_arc_rec(Reader *r, GmonBuf *b)
{
  const GmonEnc *e = &r->p->enc;
  vma_t from, self;
  uint32_t count;
  if (!genc_get_addr(e, b, &from) || !genc_get_addr(e, b, &self) || !genc_get_u32(e, b, &count))
    fatal("%s: %s: unexpected end of file\n", opt.whoami, r->filename);
  DBG(DBG_RECORDS, "records: %s: arc 0x%llx -> 0x%llx, %u calls\n", r->filename,
      (unsigned long long)from, (unsigned long long)self, count);
  add_arc(r, from, self, count);
}

static void read_bb_rec(Reader *r, GmonBuf *b)
{
  const GmonEnc *e = &r->p->enc;
  uint32_t n;
  if (!r->p->warned_bb && !opt.line && !opt.want_sum) {
    r->p->warned_bb = 1;
    warn_msg("%s: warning: ignoring basic-block exec counts (use -l or --line)\n", opt.whoami);
  }
  if (!genc_get_u32(e, b, &n))
    fatal("%s: %s: unexpected end of file\n", opt.whoami, r->filename);
  for (uint32_t i = 0; i < n; i++) {
    vma_t addr, count;
    if (!genc_get_addr(e, b, &addr) || !genc_get_addr(e, b, &count))
      fatal("%s: %s: unexpected end of file\n", opt.whoami, r->filename);
    DBG(DBG_BB, "bb: 0x%llx executed %llu times\n", (unsigned long long)addr,
        (unsigned long long)count);
    bb_add(&r->p->bb, addr, count);
  }
  r->p->have_bb = 1;
}

static void read_gnu(Reader *r, GmonBuf *b)
{
  const GmonEnc *e = &r->p->enc;
  uint32_t version = 0;
  b->p += 4;
  genc_get_u32(e, b, &version);
  b->p += 12;
  r->version = (int)version;
  if (version != GMON_VERSION)
    fatal("%s: file `%s' has unsupported version %u\n", opt.whoami, r->filename, version);
  while (b->p < b->end) {
    int tag = *b->p++;
    switch (tag) {
    case GMON_TAG_TIME_HIST:
      read_hist_rec(r, b); r->p->have_hist = 1; r->nrec_hist++; break;
    case GMON_TAG_CG_ARC:
      read_arc_rec(r, b); r->p->have_arcs = 1; r->nrec_arcs++; break;
    case GMON_TAG_BB_COUNT: read_bb_rec(r, b); r->nrec_bb++; break;
    default:
      fatal("%s: %s: found bad tag %d (file corrupted?)\n", opt.whoami, r->filename, tag);
    }
    release_read(r, b->p);
  }
}

/* Old BSD layout (and 4.4BSD, told apart by its version word). */
static void read_bsd(Reader *r, GmonBuf *b, int force44)
{
  const GmonEnc *e = &r->p->enc;
  const char *filename = r->filename;
  int as = e->addr_size;
  size_t old_hdr = 2 * (size_t)as + 4, new_hdr = old_hdr + 4 + 4 + 12;
  const unsigned char *start = b->p;
  vma_t lo, hi;
  uint32_t ncnt, version = 0, rate = 0;
  if (!genc_get_addr(e, b, &lo) || !genc_get_addr(e, b, &hi) || !genc_get_u32(e, b, &ncnt))
    fatal("%s: file too short to be a gmon file\n", filename);
  size_t hdr = old_hdr;
  r->p->last_hist_highpc = hi;
  r->p->last_hist_ncnt = ncnt;
  if (b->end - b->p >= 8) {
    GmonBuf t = *b;
    genc_get_u32(e, &t, &version);
    genc_get_u32(e, &t, &rate);
  }
  if (force44 && version != GMONVERSION_44BSD)
    fatal("%s: file `%s' has bad magic cookie\n", opt.whoami, filename);
  if (version == GMONVERSION_44BSD) {
    if ((size_t)(b->end - start) < new_hdr)
      fatal("%s: file too short to be a gmon file\n", filename);
    hdr = new_hdr;
    b->p = start + new_hdr;
  } else {
    rate = 0;                   /* the old layout has none: use the default */
  }
  if (hi < lo || ncnt < hdr)
    fatal("%s: file '%s' does not appear to be in gmon.out format\n", opt.whoami, filename);
  uint32_t nbins = (uint32_t)((ncnt - hdr) / 2);
  size_t avail = (size_t)(b->end - b->p) / 2;
  if (avail < nbins)
    fatal("%s: unexpected EOF after reading %u/%u bins\n", opt.whoami,
          (unsigned)avail, nbins);
  uint64_t *bins = xmalloc((size_t)nbins * sizeof *bins);
  genc_get_u16s(e, b->p, nbins, bins);
  b->p += 2 * (size_t)nbins;
  hist_add(&r->p->hist, lo, hi, nbins, rate ? rate : 100, "seconds", 's', bins);
  free(bins);
  r->p->have_hist = 1;
  r->nrec_hist++;
  while ((size_t)(b->end - b->p) >= 3 * (size_t)as) {
    r->nrec_arcs++;
    vma_t from = 0, self = 0, count = 0;   /* the loop test left room for all three */
    genc_get_addr(e, b, &from);
    genc_get_addr(e, b, &self);
    genc_get_addr(e, b, &count);
    add_arc(r, from, self, count);
    r->p->have_arcs = 1;
  }
}

static const char *plural(int n, const char *one, const char *many)
{
  return n == 1 ? one : many;
}

void gmon_out_read(Profile *p, const GmonContext *cx, const char *filename)
{
  size_t len;
  Reader rd = { p, cx, filename, 0, 0, 0, 0, NULL, 0 }, *r = &rd;
  unsigned char *data = map_file(filename, &len);
  if (data) r->map = data;
  else data = slurp(filename, &len);
  GmonBuf b = { data, data + len };
  int magic = len >= 4 && !memcmp(data, GMON_MAGIC, 4);
  if (opt.file_format == FF_AUTO || opt.file_format == FF_MAGIC) {
    if (len < GMON_HDR_SIZE)
      fatal("%s: file too short to be a gmon file\n", filename);
    if (magic)
      read_gnu(r, &b);
    else if (opt.file_format == FF_MAGIC)
      fatal("%s: file `%s' has bad magic cookie\n", opt.whoami, filename);
    else
      read_bsd(r, &b, 0);
  } else {
    read_bsd(r, &b, opt.file_format == FF_44BSD);
  }
  if (r->map) munmap(data, len);
  else free(data);
  if (opt.want_info) {
    printf("File `%s' (version %d) contains:\n", filename, r->version);
    printf("\t%d %s\n", r->nrec_hist, plural(r->nrec_hist, "histogram record", "histogram records"));
    printf("\t%d %s\n", r->nrec_arcs, plural(r->nrec_arcs, "call-graph record", "call-graph records"));
    printf("\t%d %s\n", r->nrec_bb, plural(r->nrec_bb, "basic-block count record", "basic-block count records"));
  }
}

/* GNU's gmon.sum header carries, in its spare bytes, the high pc (8 bytes)
   and count (4 bytes) of the last histogram header it read, little-endian
   whatever the target: reproduced so the files compare equal. */
void gmon_out_write(Profile *p, const SymTab *syms, const char *filename)
{
  AtomicFile af;
  int err = atomic_open(&af, filename);
  if (err) fatal("%s: %s: %s\n", opt.whoami, filename, strerror(err));
  GmonOut out = { af.f, &p->enc };
  genc_put_bytes(&out, GMON_MAGIC, 4);
  genc_put_u32(&out, GMON_VERSION);
  unsigned char spare[12];
  for (int i = 0; i < 8; i++) spare[i] = (unsigned char)(p->last_hist_highpc >> (8 * i));
  for (int i = 0; i < 4; i++) spare[8 + i] = (unsigned char)(p->last_hist_ncnt >> (8 * i));
  genc_put_bytes(&out, spare, sizeof spare);
  const HistSet *hs = &p->hist;
  for (size_t i = 0; i < hs->nrecs; i++) {
    const Hist *h = &hs->recs[i];
    genc_put_u8(&out, GMON_TAG_TIME_HIST);
    genc_put_addr(&out, h->lowpc);
    genc_put_addr(&out, h->highpc);
    genc_put_u32(&out, h->nbins);
    genc_put_u32(&out, (uint32_t)hs->hz);
    char dim[HIST_DIMEN_LEN];
    memset(dim, 0, sizeof dim);
    memcpy(dim, hs->dimen, strnlen(hs->dimen, HIST_DIMEN_LEN));
    genc_put_bytes(&out, dim, HIST_DIMEN_LEN);
    genc_put_u8(&out, (unsigned char)hs->dimen_abbrev);
    for (uint32_t k = 0; k < h->nbins; k++) genc_put_n(&out, h->bins[k] & 0xffff, 2);
  }
  cg_write_arcs(&p->arc_recs, syms, &out);
  bb_write_blocks(&p->bb, &out);
  err = atomic_commit(&af);
  if (err) fatal("%s: %s: %s\n", opt.whoami, filename, strerror(err));
}
