/* gmon/enc.c -- words and addresses in the object's byte order. */
#include "gmon/enc.h"

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
