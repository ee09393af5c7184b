/* gmon_enc.h -- the byte-level encoding of profile data: words and
 * addresses in the profiled object's byte order and address width.
 *
 * The bottom of the profile-data layer: the readers (gmon_io.c) decode
 * with it and every writer of gmon.sum records (gmon_io.c, call_graph.c,
 * basic_blocks.c) encodes with it, so no stage calls back up into the
 * reader to write.  A GmonOut keeps the first write error; the caller
 * checks it once at the end. */
#ifndef GMON_ENC_H
#define GMON_ENC_H
#include "util.h"

typedef struct {
  int addr_size;                /* 4 or 8 bytes */
  int big_endian;
} GmonEnc;

/* A reader over bytes in memory. */
typedef struct {
  const unsigned char *p, *end;
} GmonBuf;

uint64_t genc_get_n(const GmonEnc *e, const unsigned char *p, int n);
int genc_get_u32(const GmonEnc *e, GmonBuf *b, uint32_t *v);   /* 0 at the end */
int genc_get_addr(const GmonEnc *e, GmonBuf *b, vma_t *v);

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
