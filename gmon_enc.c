/* gmon_enc.c -- words and addresses in the object's byte order. */
#include "gmon_enc.h"

uint64_t genc_get_n(const GmonEnc *e, const unsigned char *p, int n)
{
  uint64_t v = 0;
  int i;
  if (e->big_endian)
    for (i = 0; i < n; i++) v = (v << 8) | p[i];
  else
    for (i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

int genc_get_u32(const GmonEnc *e, GmonBuf *b, uint32_t *v)
{
  if (b->end - b->p < 4) return 0;
  *v = (uint32_t)genc_get_n(e, b->p, 4);
  b->p += 4;
  return 1;
}

int genc_get_addr(const GmonEnc *e, GmonBuf *b, vma_t *v)
{
  if (b->end - b->p < e->addr_size) return 0;
  *v = genc_get_n(e, b->p, e->addr_size);
  b->p += e->addr_size;
  return 1;
}

/* Write errors stick to the stream (ferror); the owner checks them when
   it closes the file. */
void genc_put_bytes(GmonOut *o, const void *p, size_t n) { fwrite(p, 1, n, o->f); }

void genc_put_u8(GmonOut *o, unsigned v) { putc((int)(v & 0xff), o->f); }

void genc_put_n(GmonOut *o, uint64_t v, int n)
{
  unsigned char buf[8];
  for (int i = 0; i < n; i++) {
    int shift = o->enc->big_endian ? 8 * (n - 1 - i) : 8 * i;
    buf[i] = (unsigned char)(v >> shift);
  }
  fwrite(buf, 1, (size_t)n, o->f);
}

void genc_put_u32(GmonOut *o, uint32_t v) { genc_put_n(o, v, 4); }
void genc_put_addr(GmonOut *o, vma_t v) { genc_put_n(o, v, o->enc->addr_size); }
