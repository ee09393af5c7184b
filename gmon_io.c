/* gmon_io.c -- reading profile data (GNU, BSD, 4.4BSD) and writing gmon.sum. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gmon_io.h"
#include "gmon_out.h"
#include "hist.h"
#include "call_graph.h"
#include "basic_blocks.h"

static uint64_t get_n(const unsigned char *p, int n)
{
  uint64_t v = 0;
  int i;
  if (opt.big_endian)
    for (i = 0; i < n; i++) v = (v << 8) | p[i];
  else
    for (i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

int gmon_get_u32(GmonBuf *b, uint32_t *v)
{
  if (b->end - b->p < 4) return 0;
  *v = (uint32_t)get_n(b->p, 4);
  b->p += 4;
  return 1;
}

int gmon_get_addr(GmonBuf *b, vma_t *v)
{
  if (b->end - b->p < opt.addr_size) return 0;
  *v = get_n(b->p, opt.addr_size);
  b->p += opt.addr_size;
  return 1;
}

static void put_n(FILE *f, uint64_t v, int n)
{
  unsigned char buf[8];
  int i;
  for (i = 0; i < n; i++) {
    int shift = opt.big_endian ? 8 * (n - 1 - i) : 8 * i;
    buf[i] = (unsigned char)(v >> shift);
  }
  fwrite(buf, 1, (size_t)n, f);
}

void gmon_put_u32(FILE *f, uint32_t v) { put_n(f, v, 4); }
void gmon_put_addr(FILE *f, vma_t v) { put_n(f, v, opt.addr_size); }

/* Reads the whole file; its size bounds every count read from it. */
static unsigned char *slurp(const char *filename, size_t *len)
{
  FILE *f = fopen(filename, "rb");
  if (!f) {
    fflush(stdout);
    perror(filename);
    exit(1);
  }
  size_t cap = 1 << 16, n = 0;
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

static int nrec_hist, nrec_arcs, nrec_bb, file_version;

/* GNU's gmon.sum header carries, in its spare bytes, the high pc (8 bytes)
   and count (4 bytes) of the last histogram header it read, little-endian
   whatever the target: reproduced so the files compare equal. */
static vma_t last_hist_highpc;
static uint32_t last_hist_ncnt;

static void read_hist_rec(const char *filename, GmonBuf *b)
{
  vma_t lo, hi;
  uint32_t n, rate;
  if (!gmon_get_addr(b, &lo) || !gmon_get_addr(b, &hi) || !gmon_get_u32(b, &n)
      || !gmon_get_u32(b, &rate) || b->end - b->p < HIST_DIMEN_LEN + 1)
    fatal("%s: %s: unexpected end of file\n", opt.whoami, filename);
  last_hist_highpc = hi;
  last_hist_ncnt = n;
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
  uint64_t *bins = xmalloc((size_t)n * sizeof *bins);
  for (uint32_t i = 0; i < n; i++) bins[i] = get_n(b->p + 2 * (size_t)i, 2);
  b->p += 2 * (size_t)n;
  hist_add(lo, hi, n, rate, dimen, abbrev, bins);
  free(bins);
}

static void read_arc_rec(const char *filename, GmonBuf *b)
{
  vma_t from, self;
  uint32_t count;
  if (!gmon_get_addr(b, &from) || !gmon_get_addr(b, &self) || !gmon_get_u32(b, &count))
    fatal("%s: %s: unexpected end of file\n", opt.whoami, filename);
  DBG(DBG_RECORDS, "records: %s: arc 0x%llx -> 0x%llx, %u calls\n", filename,
      (unsigned long long)from, (unsigned long long)self, count);
  cg_read_arc(from, self, count);
}


static void read_bb_rec(const char *filename, GmonBuf *b)
{
  static int warned;
  uint32_t n;
  if (!warned && !opt.line && !opt.want_sum) {
    warned = 1;
    warn_msg("%s: warning: ignoring basic-block exec counts (use -l or --line)\n", opt.whoami);
  }
  if (!gmon_get_u32(b, &n))
    fatal("%s: %s: unexpected end of file\n", opt.whoami, filename);
  for (uint32_t i = 0; i < n; i++) {
    vma_t addr, count;
    if (!gmon_get_addr(b, &addr) || !gmon_get_addr(b, &count))
      fatal("%s: %s: unexpected end of file\n", opt.whoami, filename);
    DBG(DBG_BB, "bb: 0x%llx executed %llu times\n", (unsigned long long)addr,
        (unsigned long long)count);
    bb_add(addr, count);
  }
  opt.have_bb = 1;
}

static void read_gnu(const char *filename, GmonBuf *b)
{
  uint32_t version;
  b->p += 4;
  gmon_get_u32(b, &version);
  b->p += 12;
  file_version = (int)version;
  if (version != GMON_VERSION)
    fatal("%s: file `%s' has unsupported version %u\n", opt.whoami, filename, version);
  while (b->p < b->end) {
    int tag = *b->p++;
    switch (tag) {
    case GMON_TAG_TIME_HIST:
      read_hist_rec(filename, b); opt.have_hist = 1; nrec_hist++; break;
    case GMON_TAG_CG_ARC:
      read_arc_rec(filename, b); opt.have_arcs = 1; nrec_arcs++; break;
    case GMON_TAG_BB_COUNT: read_bb_rec(filename, b); nrec_bb++; break;
    default:
      fatal("%s: %s: found bad tag %d (file corrupted?)\n", opt.whoami, filename, tag);
    }
  }
}

/* Old BSD layout (and 4.4BSD, told apart by its version word). */
static void read_bsd(const char *filename, GmonBuf *b, int force44)
{
  int as = opt.addr_size;
  size_t old_hdr = 2 * (size_t)as + 4, new_hdr = old_hdr + 4 + 4 + 12;
  const unsigned char *start = b->p;
  vma_t lo, hi;
  uint32_t ncnt, version = 0, rate = 0;
  if (!gmon_get_addr(b, &lo) || !gmon_get_addr(b, &hi) || !gmon_get_u32(b, &ncnt))
    fatal("%s: file too short to be a gmon file\n", filename);
  size_t hdr = old_hdr;
  last_hist_highpc = hi;
  last_hist_ncnt = ncnt;
  if (b->end - b->p >= 8) {
    GmonBuf t = *b;
    gmon_get_u32(&t, &version);
    gmon_get_u32(&t, &rate);
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
  for (uint32_t i = 0; i < nbins; i++) bins[i] = get_n(b->p + 2 * (size_t)i, 2);
  b->p += 2 * (size_t)nbins;
  hist_add(lo, hi, nbins, rate ? rate : 100, "seconds", 's', bins);
  free(bins);
  opt.have_hist = 1;
  nrec_hist++;
  while ((size_t)(b->end - b->p) >= 3 * (size_t)as) {
    nrec_arcs++;
    vma_t from, self, count;
    gmon_get_addr(b, &from);
    gmon_get_addr(b, &self);
    gmon_get_addr(b, &count);
    cg_read_arc(from, self, count);
    opt.have_arcs = 1;
  }
}

static const char *plural(int n, const char *one, const char *many)
{
  return n == 1 ? one : many;
}

void gmon_out_read(const char *filename)
{
  size_t len;
  nrec_hist = nrec_arcs = nrec_bb = file_version = 0;
  unsigned char *data = slurp(filename, &len);
  GmonBuf b = { data, data + len };
  int magic = len >= 4 && !memcmp(data, GMON_MAGIC, 4);
  if (opt.file_format == FF_AUTO || opt.file_format == FF_MAGIC) {
    if (len < GMON_HDR_SIZE)
      fatal("%s: file too short to be a gmon file\n", filename);
    if (magic)
      read_gnu(filename, &b);
    else if (opt.file_format == FF_MAGIC)
      fatal("%s: file `%s' has bad magic cookie\n", opt.whoami, filename);
    else
      read_bsd(filename, &b, 0);
  } else {
    read_bsd(filename, &b, opt.file_format == FF_44BSD);
  }
  free(data);
  if (opt.want_info) {
    printf("File `%s' (version %d) contains:\n", filename, file_version);
    printf("\t%d %s\n", nrec_hist, plural(nrec_hist, "histogram record", "histogram records"));
    printf("\t%d %s\n", nrec_arcs, plural(nrec_arcs, "call-graph record", "call-graph records"));
    printf("\t%d %s\n", nrec_bb, plural(nrec_bb, "basic-block count record", "basic-block count records"));
  }
}

void gmon_out_write(const char *filename)
{
  FILE *f = fopen(filename, "wb");
  if (!f) {
    fflush(stdout);
    perror(filename);
    exit(1);
  }
  fwrite(GMON_MAGIC, 1, 4, f);
  gmon_put_u32(f, GMON_VERSION);
  unsigned char spare[12];
  for (int i = 0; i < 8; i++) spare[i] = (unsigned char)(last_hist_highpc >> (8 * i));
  for (int i = 0; i < 4; i++) spare[8 + i] = (unsigned char)(last_hist_ncnt >> (8 * i));
  fwrite(spare, 1, sizeof spare, f);
  for (size_t i = 0; i < hist_nrecs; i++) {
    Hist *h = &hist_recs[i];
    fputc(GMON_TAG_TIME_HIST, f);
    gmon_put_addr(f, h->lowpc);
    gmon_put_addr(f, h->highpc);
    gmon_put_u32(f, h->nbins);
    gmon_put_u32(f, (uint32_t)hist_hz);
    char dim[HIST_DIMEN_LEN];
    memset(dim, 0, sizeof dim);
    memcpy(dim, hist_dimen, strnlen(hist_dimen, HIST_DIMEN_LEN));
    fwrite(dim, 1, HIST_DIMEN_LEN, f);
    fputc(hist_dimen_abbrev, f);
    for (uint32_t k = 0; k < h->nbins; k++) put_n(f, h->bins[k] & 0xffff, 2);
  }
  cg_write_arcs(f);
  bb_write_blocks(f);
  fclose(f);
}
