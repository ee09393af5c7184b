/* gmon/enc.h -- the byte-level encoding of profile data: words and
 * addresses in the profiled object's byte order and address width.
 *
 * The bottom of the profile-data layer: the readers (gmon_io.c) decode
 * with it and every writer of gmon.sum records (gmon_io.c, call_graph.c,
 * basic_blocks.c) encodes with it, so no stage calls back up into the
 * reader to write.  A GmonOut keeps the first write error; the caller
 * checks it once at the end. */
#ifndef GMON_ENC_H
#define GMON_ENC_H
#include <endian.h>
#include <string.h>
#include "util/util.h"

typedef struct {
  int addr_size;                /* 4 or 8 bytes */
  int big_endian;
} GmonEnc;

/* A reader over bytes in memory. */
typedef struct {
  const unsigned char *p, *end;
} GmonBuf;

/* Inline: the readers decode millions of words. */
static inline uint64_t genc_get_n(const GmonEnc *e, const unsigned char *p, int n)
{
  uint64_t v = 0;
  int i;
  if (!e->big_endian && (n == 8 || n == 4)) {   /* the common words, whole */
    if (n == 8) { memcpy(&v, p, 8); return le64toh(v); }
    uint32_t w;
    memcpy(&w, p, 4);
    return le32toh(w);
  }
  if (e->big_endian)
    for (i = 0; i < n; i++) v = (v << 8) | p[i];
  else
    for (i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* N 16-bit words at P (histogram bins), the byte order decided once. */
static inline void genc_get_u16s(const GmonEnc *e, const unsigned char *restrict p, size_t n,
                                 uint64_t *restrict out)
{
  size_t i;
  if (e->big_endian)
    for (i = 0; i < n; i++) out[i] = (uint64_t)p[2 * i] << 8 | p[2 * i + 1];
  else
    for (i = 0; i < n; i++) out[i] = (uint64_t)p[2 * i + 1] << 8 | p[2 * i];
}

/* The same, added to OUT (merging histograms without a copy): four words
   per 8-byte load, and four loads found zero skipped at once -- a merge
   of a thousand files spends its time here, and most bins of a profile
   are empty (their sums in OUT then not even read). */
static inline void genc_add_u16s(const GmonEnc *e, const unsigned char *restrict p, size_t n,
                                 uint64_t *restrict out)
{
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    uint64_t w0, w1, w2, w3;
    memcpy(&w0, p + 2 * i, 8);
    memcpy(&w1, p + 2 * i + 8, 8);
    memcpy(&w2, p + 2 * i + 16, 8);
    memcpy(&w3, p + 2 * i + 24, 8);
    if (!(w0 | w1 | w2 | w3)) continue;
    for (int k = 0; k < 4; k++) {
      uint64_t x;
      memcpy(&x, p + 2 * i + 8 * k, 8);
      x = e->big_endian ? be64toh(x) : le64toh(x);
      if (!x) continue;
      uint64_t *o = out + i + 4 * k;
      if (e->big_endian) {
        o[0] += x >> 48;
        o[1] += (x >> 32) & 0xffff;
        o[2] += (x >> 16) & 0xffff;
        o[3] += x & 0xffff;
      } else {
        o[0] += x & 0xffff;
        o[1] += (x >> 16) & 0xffff;
        o[2] += (x >> 32) & 0xffff;
        o[3] += x >> 48;
      }
    }
  }
  if (e->big_endian)
    for (; i < n; i++) out[i] += (uint64_t)p[2 * i] << 8 | p[2 * i + 1];
  else
    for (; i < n; i++) out[i] += (uint64_t)p[2 * i + 1] << 8 | p[2 * i];
}

/* Each returns 0, consuming nothing, when the buffer ends first. */
static inline int genc_get_u32(const GmonEnc *e, GmonBuf *b, uint32_t *v)
{
  if (b->end - b->p < 4) return 0;
  *v = (uint32_t)genc_get_n(e, b->p, 4);
  b->p += 4;
  return 1;
}

static inline int genc_get_addr(const GmonEnc *e, GmonBuf *b, vma_t *v)
{
  if (b->end - b->p < e->addr_size) return 0;
  *v = genc_get_n(e, b->p, e->addr_size);
  b->p += e->addr_size;
  return 1;
}

typedef struct {
  FILE *f;
  const GmonEnc *enc;
} GmonOut;

void genc_put_bytes(GmonOut *o, const void *p, size_t n);
void genc_put_u8(GmonOut *o, unsigned v);
void genc_put_n(GmonOut *o, uint64_t v, int n);
void genc_put_u32(GmonOut *o, uint32_t v);
void genc_put_addr(GmonOut *o, vma_t v);
#endif
