/* A threaded compressor, the other shape of program libprof is measured
   on: four threads each compress blocks of generated text with LZ77
   (hash chains, greedy matching), the hot function being the match
   length, called millions of times.  argv[1] is the number of 256 kB
   blocks (default 32); prints the compressed size. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (256 * 1024)
#define HBITS 15
#define CHAIN 16

static long nblocks = 32, next_block;
static long total_out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) static unsigned hash3(const unsigned char *p)
{
  return ((unsigned)p[0] << 16 ^ (unsigned)p[1] << 8 ^ p[2]) * 2654435761u >> (32 - HBITS);
}

__attribute__((noinline)) static int match_len(const unsigned char *a, const unsigned char *b, int max)
{
  int n = 0;
  while (n < max && a[n] == b[n]) n++;
  return n;
}

__attribute__((noinline)) static long emit_literal(unsigned char c) { return c < 128 ? 8 : 9; }
__attribute__((noinline)) static long emit_match(int len, int dist) { return 12 + (len > 18) * 8 + (dist > 4096) * 4; }

__attribute__((noinline)) static void make_text(unsigned char *buf, long seed)
{
  static const char *words[] = { "the ", "profile ", "of ", "a ", "program ", "counts ", "every ",
                                 "call ", "and ", "samples ", "time ", "in ", "each ", "function ",
                                 "thread ", "gmon.out ", "histogram ", "arc " };
  uint64_t x = (uint64_t)seed * 0x9E3779B97F4A7C15u + 1;
  long i = 0;
  while (i < BLOCK) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    const char *w = words[x % (sizeof words / sizeof *words)];
    for (; *w && i < BLOCK; w++) buf[i++] = (unsigned char)*w;
  }
}

__attribute__((noinline)) static long compress_block(const unsigned char *in, int *head, int *prev)
{
  long bits = 0;
  memset(head, -1, sizeof(int) << HBITS);
  for (int i = 0; i < BLOCK;) {
    if (i + 3 > BLOCK) { bits += emit_literal(in[i++]); continue; }
    unsigned h = hash3(in + i);
    int best = 0, dist = 0, max = BLOCK - i > 258 ? 258 : BLOCK - i;
    for (int c = head[h], k = 0; c >= 0 && k < CHAIN; c = prev[c], k++) {
      int l = match_len(in + c, in + i, max);
      if (l > best) { best = l; dist = i - c; }
    }
    prev[i] = head[h];
    head[h] = i;
    if (best >= 3) {
      bits += emit_match(best, dist);
      for (int j = 1; j < best && i + j + 3 <= BLOCK; j++) {
        unsigned h2 = hash3(in + i + j);
        prev[i + j] = head[h2];
        head[h2] = i + j;
      }
      i += best;
    } else {
      bits += emit_literal(in[i++]);
    }
  }
  return bits / 8;
}

static void *worker(void *arg)
{
  (void)arg;
  unsigned char *buf = malloc(BLOCK);
  int *head = malloc(sizeof(int) << HBITS), *prev = malloc(sizeof(int) * BLOCK);
  for (;;) {
    pthread_mutex_lock(&lock);
    long b = next_block < nblocks ? next_block++ : -1;
    pthread_mutex_unlock(&lock);
    if (b < 0) break;
    make_text(buf, b);
    long out = compress_block(buf, head, prev);
    pthread_mutex_lock(&lock);
    total_out += out;
    pthread_mutex_unlock(&lock);
  }
  free(buf); free(head); free(prev);
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc > 1) nblocks = atol(argv[1]);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("%ld\n", total_out);
  return 0;
}
