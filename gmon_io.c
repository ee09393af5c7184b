/* gmon_io.c -- reading profile data (GNU, BSD, 4.4BSD) and writing gmon.sum. */
#include <stdlib.h>
#include <string.h>
#include "util/options.h"
#include "gmon_io.h"
#include "gmon_out.h"

void gmon_init(Profile *p, int addr_size, int big_endian)
{
  memset(p, 0, sizeof *p);
  p->enc.addr_size = addr_size;
  p->enc.big_endian = big_endian;
  cg_init(&p->cg);
}

void gmon_free(Profile *p)
{
  hist_free(&p->hist);
  cg_free(&p->cg);
  free(p->arc_recs.v);
  free(p->arc_recs.slot);       /* -s's read-time hash, when no gmon.sum was written */
  free(p->bb.v);
  gmon_init(p, p->enc.addr_size, p->enc.big_endian);
}

void gmon_derive(Profile *p, const Profile *q)
{
  *p = *q;
  cg_init(&p->cg);
  memset(&p->arc_recs, 0, sizeof p->arc_recs);
}

/* A profile read from a pipe or a device is cut off after this much (a
   regular file is read to its end): a stream that never ends is an error,
   not a hang.  Memory never depends on it: it grows only with the data
   actually read. */
#define GMON_STREAM_MAX (4ull << 30)

/* One file's reading state: the file is read as a stream through a small
   window, so memory is bounded by what the file really holds and a file
   that claims more than it has fails as soon as it runs out. */
typedef struct {
  Profile *p;
  const GmonContext *cx;
  const char *filename;
  int nrec_hist, nrec_arcs, nrec_bb, version;
  /* whether the file is the object's (check_origin): the header's spare
     bytes, histogram records with a range and how many lie outside the
     object's code, arcs and how many end outside it, and whether a
     histogram record has the high pc and count a gmon.sum header keeps */
  unsigned char spare[12];
  int spare_read, sum_like;
  uint64_t nhist, hist_out, narcs, arcs_out;
  GmonFacts facts;               /* libprof's facts records, this file's */
  BoundedIn *in;
  unsigned char buf[1 << 16];
  size_t pos, len;
} Reader;

/* Whether [LO, HI) meets none of the object's code sections (none
   known: it does). */
static int outside_code(const GmonContext *cx, vma_t lo, vma_t hi)
{
  if (!cx->ncode) return 0;
  for (size_t i = 0; i < cx->ncode; i++)
    if (lo < cx->code[i][1] && cx->code[i][0] < hi) return 0;
  return 1;
}


/* Makes up to K (<= sizeof buf) bytes available at buf + pos; returns how
   many there are (fewer only at the end of the file). */
static size_t avail(Reader *r, size_t k)
{
  if (r->len - r->pos >= k) return k;
  memmove(r->buf, r->buf + r->pos, r->len - r->pos);
  r->len -= r->pos;
  r->pos = 0;
  while (r->len < k) {
    size_t got = fread(r->buf + r->len, 1, sizeof r->buf - r->len, r->in->f);
    if (got == 0) {
      if (bounded_overrun(r->in))
        msg_fatal("%s: no end of file after %llu bytes\n", r->filename,
                  (unsigned long long)GMON_STREAM_MAX);
      break;
    }
    r->len += got;
  }
  return r->len - r->pos < k ? r->len - r->pos : k;
}

static const unsigned char *take(Reader *r, size_t k)
{
  const unsigned char *q = r->buf + r->pos;
  r->pos += k;
  return q;
}

static int get_u32(Reader *r, uint32_t *v)
{
  if (avail(r, 4) < 4) return 0;
  *v = (uint32_t)genc_get_n(&r->p->enc, take(r, 4), 4);
  return 1;
}

static int get_addr(Reader *r, vma_t *v)
{
  int n = r->p->enc.addr_size;
  if (avail(r, (size_t)n) < (size_t)n) return 0;
  *v = genc_get_n(&r->p->enc, take(r, (size_t)n), n);
  return 1;
}

/* Reads N two-byte bins, a buffer's worth at a time: added to ADD_TO's
   when it is not NULL (a range already read, merging files in place),
   else into a buffer grown as they arrive, put in *OUT.  Returns how
   many whole bins the file held (N when it held them all). */
static uint32_t read_bins(Reader *r, uint32_t n, uint64_t *add_to, uint64_t **out)
{
  /* room for all N at once when the file is known to hold them (a
     regular file); else grown as they arrive, so a header's claim costs
     nothing the input does not back */
  size_t cap = 0;
  if (!add_to) {
    uint64_t left = bounded_left(r->in);
    if (left != UINT64_MAX && (left + (r->len - r->pos)) / 2 >= n) cap = n;
    else cap = n < 4096 ? n : 4096;
  }
  uint64_t *bins = add_to ? add_to : xmalloc((cap ? cap : 1) * sizeof *bins);
  uint32_t i = 0;
  while (i < n) {
    /* what the window holds first, so the window is refilled only when
       empty, never moved: asking avail for more than it holds would
       move the rest of it to its start (64 KiB per file of a merge) */
    size_t want = (size_t)(n - i) * 2, have = r->len - r->pos;
    if (have < 2) have = avail(r, 2);
    size_t got = (have < want ? have : want) / 2;
    if (!got) break;
    const unsigned char *q = take(r, got * 2);
    if (add_to) {
      genc_add_u16s(&r->p->enc, q, got, bins + i);
    } else {
      if (i + got > cap) {
        while (cap < i + got) cap *= 2;
        if (cap > n) cap = n;
        bins = xrealloc(bins, cap * sizeof *bins);
      }
      genc_get_u16s(&r->p->enc, q, got, bins + i);
    }
    i += (uint32_t)got;
  }
  if (out) *out = bins;
  return i;
}

/* A histogram record's range, for check_origin. */
static void note_hist(Reader *r, vma_t lo, vma_t hi, uint32_t n)
{
  if (lo < hi) {
    r->nhist++;
    if (outside_code(r->cx, lo, hi)) r->hist_out++;
  }
  int same = 1;                  /* what a gmon.sum header would say */
  for (int i = 0; i < 8; i++) same &= r->spare[i] == (unsigned char)(hi >> (8 * i));
  for (int i = 0; i < 4; i++) same &= r->spare[8 + i] == (unsigned char)(n >> (8 * i));
  if (same) r->sum_like = 1;
}

static void read_hist_rec(Reader *r)
{
  const char *filename = r->filename;
  vma_t lo, hi;
  uint32_t n, rate;
  if (!get_addr(r, &lo) || !get_addr(r, &hi) || !get_u32(r, &n)
      || !get_u32(r, &rate) || avail(r, HIST_DIMEN_LEN + 1) < HIST_DIMEN_LEN + 1)
    msg_fatal("%s: unexpected end of file\n", filename);
  r->p->last_hist_highpc = hi;
  r->p->last_hist_ncnt = n;
  DBG(r->cx->opts.debug, DBG_RECORDS, "records: %s: histogram 0x%llx-0x%llx, %u bins, rate %u\n",
      filename, (unsigned long long)lo, (unsigned long long)hi, n, rate);
  char dimen[HIST_DIMEN_LEN + 1];
  const unsigned char *q = take(r, HIST_DIMEN_LEN + 1);
  memcpy(dimen, q, HIST_DIMEN_LEN);
  dimen[HIST_DIMEN_LEN] = 0;
  char abbrev = (char)q[HIST_DIMEN_LEN];
  unsigned char raw[HIST_DIMEN_LEN];         /* (q moves with the window) */
  memcpy(raw, q, HIST_DIMEN_LEN);
  /* libprof's facts (gmon_out.h), after a histogram: no range of the
     file's, but checked against the histogram as GNU checks any record */
  if (r->p->hist.nrecs && gmon_facts_is(lo, hi, n, r->p->enc.addr_size)) {
    hist_check(&r->p->hist, filename, lo, hi, n, dimen, abbrev);
    if (avail(r, 2) == 2 && !r->buf[r->pos] && !r->buf[r->pos + 1]) {
      take(r, 2);
      note_hist(r, hi, hi, n);
      gmon_facts_take(&r->facts, lo, r->p->enc.addr_size, raw);
      return;
    }
  }
  note_hist(r, lo, hi, n);
  /* GNU checks the header against earlier records before the samples */
  int k = hist_check(&r->p->hist, filename, lo, hi, n, dimen, abbrev);
  /* a range read before (a merge, -s of many files): added in place */
  uint64_t *same = k >= 0 ? r->p->hist.recs[k].bins : NULL;
  uint64_t *bins = NULL;
  uint32_t got = read_bins(r, n, same, same ? NULL : &bins);
  if (got < n) {
    free(bins);
    msg_fatal("%s: unexpected EOF after reading %u of %u samples\n", filename, got, n);
  }
  if (same) return;
  hist_add(&r->p->hist, lo, hi, n, rate, dimen, abbrev, bins);
  free(bins);
}

/* Arc records are decoded this many at a time and handed to the call
   graph together, by both readers (cg_read_arcs reads ahead, across
   batches too). */
#define ARC_BATCH 256

typedef struct {
  vma_t from[ARC_BATCH], self[ARC_BATCH];
  uint64_t count[ARC_BATCH];        /* BSD's are address-sized */
  size_t n;
} ArcBatch;

/* Hands the batch's records to the call graph: all of them when ALL is
   set, else all but the last few, moved to the batch's start to be
   passed again with the next records (cg_read_arcs). */
static void arc_flush(Reader *r, ArcBatch *b, int all)
{
  Profile *p = r->p;
  size_t done = cg_read_arcs(&p->cg, r->cx->opts.keep_arcs ? &p->arc_recs : NULL, r->cx->syms,
                             r->cx->specs, b->from, b->self, b->count, b->n, all);
  size_t left = b->n - done;
  memmove(b->from, b->from + done, left * sizeof *b->from);
  memmove(b->self, b->self + done, left * sizeof *b->self);
  memmove(b->count, b->count + done, left * sizeof *b->count);
  b->n = left;
}

/* One more record in the batch, which is handed on when full (with -d,
   at once: each record's traces then follow its own line). */
static void arc_push(Reader *r, ArcBatch *b, vma_t from, vma_t self, uint64_t count)
{
  r->narcs++;
  if (outside_code(r->cx, self, self + 1)) r->arcs_out++;
  if (r->cx->arc_sink) {
    r->cx->arc_sink(r->cx->arc_arg, from, self, count);
    return;
  }
  if (r->cx->pairs) cg_pairs_add(r->cx->pairs, from, self, count);
  b->from[b->n] = from;
  b->self[b->n] = self;
  b->count[b->n] = count;
  unsigned dbg = r->cx->opts.debug;
  if (++b->n == ARC_BATCH || dbg) arc_flush(r, b, dbg != 0);
}

/* Arc records, the first one's tag taken, and those that follow it:
   decoded in place while the window holds them whole (a merge of 1,000
   files reads millions; field by field through avail, each cost some
   250 instructions), field by field when one is cut by the window's
   end -- or by the file's, which is an error. */
static void read_arc_recs(Reader *r)
{
  const GmonEnc *e = &r->p->enc;
  size_t as = (size_t)e->addr_size, body = 2 * as + 4;
  ArcBatch b;
  b.n = 0;
  r->p->have_arcs = r->p->arcs_read = 1;
  for (;;) {
    vma_t from, self;
    uint32_t count;
    if (r->len - r->pos >= body) {
      const unsigned char *q = take(r, body);
      from = genc_get_n(e, q, (int)as);
      self = genc_get_n(e, q + as, (int)as);
      count = (uint32_t)genc_get_n(e, q + 2 * as, 4);
    } else {                    /* the batch holds values: the window may move */
      if (!get_addr(r, &from) || !get_addr(r, &self) || !get_u32(r, &count))
        msg_fatal("%s: unexpected end of file\n", r->filename);
    }
    DBG(r->cx->opts.debug, DBG_RECORDS, "records: %s: arc 0x%llx -> 0x%llx, %u calls\n", r->filename,
        (unsigned long long)from, (unsigned long long)self, count);
    arc_push(r, &b, from, self, count);
    r->nrec_arcs++;
    if (r->pos == r->len || r->buf[r->pos] != GMON_TAG_CG_ARC) break;
    r->pos++;
  }
  arc_flush(r, &b, 1);
}

/* N bytes, little-endian whatever the object's byte order. */
static int get_le(Reader *r, int n, uint64_t *v)
{
  if (avail(r, (size_t)n) < (size_t)n) return 0;
  const unsigned char *q = take(r, (size_t)n);
  uint64_t x = 0;
  for (int i = n; i-- > 0;) x = x << 8 | q[i];
  *v = x;
  return 1;
}

/* Passes a string and its NUL. */
static int skip_string(Reader *r)
{
  for (;;) {
    if (avail(r, 1) < 1) return 0;
    if (*take(r, 1) == 0) return 1;
  }
}

/* A version-0 file's basic-block record, as GNU 2.40 on x86-64 reads it
   (measured byte by byte, doc/DESIGN.md): the count of entries, then a
   string (read even for none, and cut by the end of the file without
   complaint), then per entry the count and the address (8 bytes each),
   two strings and 4 bytes.  Numbers are little-endian on every target;
   only the count and the address are used. */
static int get_bb_v0(Reader *r, vma_t *addr, vma_t *count)
{
  uint64_t skip;
  return get_le(r, 8, count) && get_le(r, 8, addr) && skip_string(r) && skip_string(r) &&
         get_le(r, 4, &skip);
}

static void read_bb_rec(Reader *r)
{
  uint32_t n;
  uint64_t n_le = 0;
  if (r->version == 0 ? !get_le(r, 4, &n_le) : !get_u32(r, &n))
    msg_fatal("%s: unexpected end of file\n", r->filename);
  if (r->version == 0) {
    n = (uint32_t)n_le;
    (void)skip_string(r);
  }
  for (uint32_t i = 0; i < n; i++) {
    vma_t addr, count;
    /* GNU reports a short entry with perror and a stale errno, the one
       its start-up left loading the locale, without the program name */
    if (r->version == 0 ? !get_bb_v0(r, &addr, &count) : !get_addr(r, &addr) || !get_addr(r, &count))
      fatal("%s: %s\n", r->filename, strerror(util_locale_errno()));
    /* and warns once it has read a whole entry (a record of none: no
       warning) */
    if (!r->p->warned_bb && !r->cx->opts.use_bb) {
      r->p->warned_bb = 1;
      msg_warn("warning: ignoring basic-block exec counts (use -l or --line)\n");
    }
    DBG(r->cx->opts.debug, DBG_BB, "bb: 0x%llx executed %llu times\n", (unsigned long long)addr,
        (unsigned long long)count);
    bb_add(&r->p->bb, addr, count);
  }
  r->p->have_bb = 1;
}

static void read_gnu(Reader *r)
{
  uint32_t version = 0;
  take(r, 4);
  get_u32(r, &version);
  memcpy(r->spare, take(r, 12), 12);
  r->spare_read = 1;
  r->version = (int)version;
  if (version != GMON_VERSION && version != 0)       /* GNU takes 0 too */
    msg_fatal("file `%s' has unsupported version %d\n", r->filename, (int)version);
  while (avail(r, 1)) {
    int tag = *take(r, 1);
    switch (tag) {
    case GMON_TAG_TIME_HIST:
      read_hist_rec(r); r->p->have_hist = 1; r->nrec_hist++; break;
    case GMON_TAG_CG_ARC: read_arc_recs(r); break;
    case GMON_TAG_BB_COUNT: read_bb_rec(r); r->nrec_bb++; break;
    default:
      msg_fatal("%s: found bad tag %d (file corrupted?)\n", r->filename, tag);
    }
  }
}

/* Old BSD layout, and 4.4BSD told apart by its version word.  GNU's
   rules, measured with hand-made headers: the old header and a 4-byte
   word after it must be there ("too short" otherwise); with the 4.4BSD
   version in that word the rate must follow, the 12 spare bytes are
   skipped unchecked; only then come the "does not appear" checks.  A
   short histogram reports one bin fewer than it held (-1 for none).  A
   BSD file always has call-graph data, even with no arcs in it. */
static void read_bsd(Reader *r, int force44)
{
  const GmonEnc *e = &r->p->enc;
  const char *filename = r->filename;
  int as = e->addr_size;
  size_t old_hdr = 2 * (size_t)as + 4, new_hdr = old_hdr + 4 + 4 + 12;
  vma_t lo, hi;
  uint32_t ncnt, version = 0, rate = 0;
  if (!get_addr(r, &lo) || !get_addr(r, &hi) || !get_u32(r, &ncnt) || avail(r, 4) < 4)
    fatal("%s: file too short to be a gmon file\n", filename);
  size_t hdr = old_hdr;
  r->p->last_hist_highpc = hi;
  r->p->last_hist_ncnt = ncnt;
  note_hist(r, lo, hi, ncnt);
  version = (uint32_t)genc_get_n(e, r->buf + r->pos, 4);
  if (force44 && version != GMONVERSION_44BSD)
    msg_fatal("file `%s' has bad magic cookie\n", filename);
  if (version == GMONVERSION_44BSD) {
    take(r, 4);
    if (!get_u32(r, &rate))
      fatal("%s: file too short to be a gmon file\n", filename);
    take(r, avail(r, 12));
    hdr = new_hdr;
  }
  /* after a file with a histogram (GNU's or BSD's), a BSD header must
     repeat the first histogram record's range and size, and a 4.4BSD one
     the rate in force (100 after a rate of 0): GNU's checks, made before
     the header's own sanity check */
  const HistSet *hs = &r->p->hist;
  if (hs->nrecs) {
    if (hdr == new_hdr && (double)rate != hs->hz)
      fatal("%s: profiling rate incompatible with first gmon file\n", filename);
    if (lo != hs->recs[0].lowpc || hi != hs->recs[0].highpc
        || (uint32_t)((ncnt - hdr) / 2) != hs->recs[0].nbins)
      fatal("%s: incompatible with first gmon file\n", filename);
  }
  if (hi < lo || ncnt < hdr)
    msg_fatal("file '%s' does not appear to be in gmon.out format\n", filename);
  uint32_t nbins = (uint32_t)((ncnt - hdr) / 2);
  static const char seconds[HIST_DIMEN_LEN + 1] = "seconds";
  hist_check(&r->p->hist, filename, lo, hi, nbins, seconds, 's');
  uint64_t *bins;
  uint32_t got = read_bins(r, nbins, NULL, &bins);
  if (got < nbins) {
    free(bins);
    msg_fatal("unexpected EOF after reading %d/%u bins\n", (int)got - 1, nbins);
  }
  hist_add(&r->p->hist, lo, hi, nbins, rate ? rate : 100, seconds, 's', bins);
  free(bins);
  r->p->have_hist = 1;
  r->p->have_arcs = 1;
  r->nrec_hist++;
  ArcBatch b;
  b.n = 0;
  while (avail(r, 3 * (size_t)as) == 3 * (size_t)as) {
    r->nrec_arcs++;
    vma_t from = 0, self = 0, count = 0;   /* the loop test left room for all three */
    get_addr(r, &from);
    get_addr(r, &self);
    get_addr(r, &count);
    arc_push(r, &b, from, self, count);
    r->p->arcs_read = 1;
  }
  arc_flush(r, &b, 1);
}

static void hex(char *out, const unsigned char *id)
{
  for (int i = 0; i < GMON_BUILD_ID_LEN; i++) {
    out[2 * i] = "0123456789abcdef"[id[i] >> 4];
    out[2 * i + 1] = "0123456789abcdef"[id[i] & 15];
  }
  out[2 * GMON_BUILD_ID_LEN] = 0;
}

/* Our own warning (GNU has none) when the file read is not the object's:
   its header names another build-id (libprof writes the program's; see
   gmon_out.h), or, without an id to compare, its histogram or every one
   of its arcs lies outside the object's code, which no run of the
   object can give.  Said nothing when nothing is sure. */
static void check_origin(Reader *r)
{
  const GmonContext *cx = r->cx;
  const char *obj = cx->object ? cx->object : "the object";
  int tagged = r->spare_read && !memcmp(r->spare, GMON_BUILD_ID_TAG, 4) && !r->sum_like;
  if (tagged && cx->build_id) {
    if (!memcmp(r->spare + 4, cx->build_id, GMON_BUILD_ID_LEN)) return;
    char a[2 * GMON_BUILD_ID_LEN + 1], b[2 * GMON_BUILD_ID_LEN + 1];
    hex(a, r->spare + 4);
    hex(b, cx->build_id);
    msg_warn("warning: %s does not match %s: written by another program or build "
             "(build-id %s..., %s has %s...): the report may be wrong\n",
             r->filename, obj, a, obj, b);
    return;
  }
  int hist = r->nhist && r->hist_out == r->nhist;
  int arcs = r->narcs && r->arcs_out == r->narcs;
  if (!hist && !arcs) return;
  char what[128];
  if (hist && arcs)
    snprintf(what, sizeof what, "its histogram and all its %llu arcs lie", (unsigned long long)r->narcs);
  else if (hist)
    snprintf(what, sizeof what, "its histogram lies");
  else if (r->narcs == 1)
    snprintf(what, sizeof what, "its only arc ends");
  else
    snprintf(what, sizeof what, "all its %llu arcs end", (unsigned long long)r->narcs);
  msg_warn("warning: %s does not match %s: %s outside %s's code: "
           "the report may be wrong\n", r->filename, obj, what, obj);
}

static const char *plural(int n, const char *one, const char *many)
{
  return n == 1 ? one : many;
}

void gmon_read_stream(Profile *p, const GmonContext *cx, const char *filename, BoundedIn *in)
{
  Reader rd, *r = &rd;
  r->p = p;
  r->cx = cx;
  r->filename = filename;
  r->nrec_hist = r->nrec_arcs = r->nrec_bb = r->version = 0;
  memset(r->spare, 0, sizeof r->spare);
  r->spare_read = r->sum_like = 0;
  r->nhist = r->hist_out = r->narcs = r->arcs_out = 0;
  memset(&r->facts, 0, sizeof r->facts);
  r->in = in;
  r->pos = r->len = 0;
  /* the reader has a window of its own: stdio's buffer would only copy
     every byte once more (a merge of 1,000 files reads 100s of MB) */
  setvbuf(in->f, NULL, _IONBF, 0);
  size_t len = avail(r, GMON_HDR_SIZE);
  int magic = len >= 4 && !memcmp(r->buf, GMON_MAGIC, 4);
  int format = cx->opts.file_format;
  if (format == FF_AUTO || format == FF_MAGIC) {
    if (len < GMON_HDR_SIZE)
      fatal("%s: file too short to be a gmon file\n", filename);
    if (magic)
      read_gnu(r);
    else if (format == FF_MAGIC)
      msg_fatal("file `%s' has bad magic cookie\n", filename);
    else
      read_bsd(r, 0);
  } else {
    read_bsd(r, format == FF_44BSD);
  }
  check_origin(r);
  gmon_facts_merge(&p->facts, &r->facts);
  if (cx->opts.info) {
    printf("File `%s' (version %d) contains:\n", filename, r->version);
    printf("\t%d %s\n", r->nrec_hist, plural(r->nrec_hist, "histogram record", "histogram records"));
    printf("\t%d %s\n", r->nrec_arcs, plural(r->nrec_arcs, "call-graph record", "call-graph records"));
    printf("\t%d %s\n", r->nrec_bb, plural(r->nrec_bb, "basic-block count record", "basic-block count records"));
    gmon_facts_info(&r->facts);  /* libprof's clock; GNU's bytes without facts */
  }
}

void gmon_finish(Profile *p)
{
  cg_kept_settle(&p->arc_recs, &p->cg);
}

void gmon_out_read(Profile *p, const GmonContext *cx, const char *filename)
{
  BoundedIn in;
  int err = bounded_open(&in, filename, GMON_STREAM_MAX);
  if (err) fatal_perror(filename, strerror(err));
  gmon_read_stream(p, cx, filename, &in);
  bounded_close(&in);
}

/* GNU's gmon.sum header carries, in its spare bytes, the high pc (8 bytes)
   and count (4 bytes) of the last histogram header it read, little-endian
   whatever the target: reproduced so the files compare equal. */
void gmon_put_hist_head(GmonOut *out, const HistSet *hs, const Hist *h)
{
  genc_put_u8(out, GMON_TAG_TIME_HIST);
  genc_put_addr(out, h->lowpc);
  genc_put_addr(out, h->highpc);
  genc_put_u32(out, h->nbins);
  genc_put_u32(out, (uint32_t)hs->hz);
  char dim[HIST_DIMEN_LEN];
  memset(dim, 0, sizeof dim);
  memcpy(dim, hs->dimen, HIST_DIMEN_LEN);
  genc_put_bytes(out, dim, HIST_DIMEN_LEN);
  genc_put_u8(out, (unsigned char)hs->dimen_abbrev);
}

void gmon_out_write(Profile *p, const SymTab *syms, const char *filename)
{
  AtomicFile af;
  int err = atomic_open(&af, filename);
  if (err) fatal("%s: %s\n", filename, strerror(err));   /* GNU's words */
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
    gmon_put_hist_head(&out, hs, h);
    for (uint32_t k = 0; k < h->nbins; k++) genc_put_n(&out, h->bins[k] & 0xffff, 2);
  }
  gmon_facts_write(&p->facts, &out, (uint32_t)hs->hz);
  cg_write_arcs(&p->arc_recs, syms, &out);
  if (p->have_bb && !p->bb.n) {
    /* records that held no blocks still give GNU's gmon.sum one */
    genc_put_u8(&out, GMON_TAG_BB_COUNT);
    genc_put_u32(&out, 0);
  } else {
    bb_write_blocks(&p->bb, syms, &out);
  }
  err = atomic_commit(&af);
  if (err) msg_fatal("%s: %s\n", filename, strerror(err));
}
