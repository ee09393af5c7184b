/* stacks/sum.c -- -s keeps the stacks and the other objects' profiles
 * (stacks/sum.h).
 *
 * The stack files are read by stacks.c's reader without a symbol table
 * (stacks_read): each frame mapped to the object of its file whose text
 * holds it (version 2: whose span holds the stack's epoch too), then
 * moved from that run's load address to one that is the same for every run:
 * the program at its link-time addresses (base 0), each other object,
 * numbered in the order first met (same path and build-id: one object),
 * at 2^60 + G * 2^36 plus its link-time address, above any user-space
 * PC, so that no object's range meets another's or a PC left as it was
 * (one in no object).  Written as version 1, which every reader takes:
 * what version 2 adds (epochs, spans, clock, start, duration) is about
 * one run, and the fixed bases make the epochs needless. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "stacks/sum.h"
#include "stacks/objects.h"
#include "stacks/stacks.h"
#include "hist.h"

#define SUM_BASE ((uint64_t)1 << 60)
#define SUM_SPAN ((uint64_t)1 << 36)

static void hexid(char *out, const Load *o)
{
  for (size_t i = 0; i < o->idlen; i++) sprintf(out + 2 * i, "%02x", o->id[i]);
  if (!o->idlen) strcpy(out, "-");
}

void stacks_sum_write(char *const *files, int nfiles, const unsigned char *build_id, size_t idlen,
                      const char *sum)
{
  Stacks st;
  stacks_read(&st, files, nfiles, build_id, idlen);
  char *out = xmalloc(strlen(sum) + 8);
  sprintf(out, "%s.stacks", sum);
  if (!st.present) {
    /* none of the runs had stacks: an older sum's are not this one's */
    if (unlink(out) && errno != ENOENT) msg_fatal("%s: %s\n", out, strerror(errno));
    free(out);
    stacks_free(&st);
    return;
  }
  AtomicFile af;
  int e = atomic_open(&af, out);
  if (e) msg_fatal("%s: %s\n", out, strerror(e));
  FILE *f = af.f;
  fputs("libprof-stacks 1\n", f);
  if (st.hz) fprintf(f, "hz %d\n", st.hz);
  fprintf(f, "depth %d\nsamples %llu\ndropped %llu\n", st.depth ? st.depth : 1,
          (unsigned long long)st.samples, (unsigned long long)st.dropped);
  for (size_t g = 0; g < st.nloads; g++) {
    const Load *o = &st.loads[g];
    uint64_t base = g ? SUM_BASE + g * SUM_SPAN : 0;
    char id[2 * OBJECTS_ID_MAX + 1];
    hexid(id, o);
    fprintf(f, "object %zu 0x%llx 0x%llx 0x%llx %s %s\n", g, (unsigned long long)base,
            (unsigned long long)(o->lo - o->base + base), (unsigned long long)(o->hi - o->base + base), id,
            o->path);
  }
  for (size_t i = 0; i < st.nthreads; i++) fprintf(f, "thread %lu %s\n", (unsigned long)st.threads[i].tid,
                                                   st.threads[i].name);
  for (size_t i = 0; i < st.n; i++) {
    const Stack *sk = &st.v[i];
    fprintf(f, "stack %lu %llu %c", (unsigned long)sk->tid, (unsigned long long)sk->count, sk->end);
    for (uint32_t j = 0; j < sk->n; j++) {
      size_t x = sk->first + j;
      uint32_t k = st.obj[x];
      /* a frame in no object stays as it was; one in an object moves to
         the object's fixed base (a return address back past its call) */
      uint64_t a = k == UINT32_MAX ? st.pc[x]
                 : st.addr[x] + (j && st.pc[x] ? 1 : 0) + (k ? SUM_BASE + k * SUM_SPAN : 0);
      fprintf(f, " 0x%llx", (unsigned long long)a);
    }
    fputc('\n', f);
  }
  if ((e = atomic_commit(&af)) != 0) msg_fatal("%s: %s\n", out, strerror(e));
  free(out);
  stacks_free(&st);
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
