/* Unit test: the profile-data readers (GNU format in both byte orders and
   address widths, BSD and 4.4BSD) and their error exits.
// objs: gmon/enc.o gmon_io.o gmon/facts.o hist.o call_graph.o cg_arcs.o cg_dfn.o basic_blocks.o symtab.o sym_ids.o source.o callscan.o core.o lines/dwarf.o lines/linesyms.o i386.o aarch64.o sparc.o mips.o alpha.o vax.o tahoe.o util/util.o util/fmt.o util/options.o
// libs: $BFDLIB -liberty -lz
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gmon_io.h"

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

static unsigned char buf[1 << 20];
static SymTab symtab;
static SymSpecs specs;
static Profile prof;
static GmonContext cx = { .syms = &symtab, .specs = &specs };
static size_t blen;

static void put(uint64_t v, int n, int be)
{
  for (int i = 0; i < n; i++)
    buf[blen++] = (unsigned char)(v >> (8 * (be ? n - 1 - i : i)));
}
static void bytes(const char *s, size_t n) { memcpy(buf + blen, s, n); blen += n; }

static const char *write_file(void)
{
  static char name[64];
  snprintf(name, sizeof name, "/tmp/gprof-unit-%d.gmon", (int)getpid());
  FILE *f = fopen(name, "wb");
  fwrite(buf, 1, blen, f);
  fclose(f);
  return name;
}

/* three functions at 0x1000, 0x1010, 0x1020 */
static void make_symtab(void)
{
  static const char *names[] = { "alpha", "beta", "gamma" };
  symtab.base = calloc(3, sizeof(Sym));
  symtab.len = 3;
  for (int i = 0; i < 3; i++) {
    sym_init(&symtab.base[i]);
    symtab.base[i].name = names[i];
    symtab.base[i].addr = 0x1000 + 0x10 * (vma_t)i;
    symtab.base[i].is_func = 1;   /* (arcs into untyped symbols are dropped) */
  }
  symtab_finalize(&symtab);
}

static void reset(int as, int be)
{
  gmon_init(&prof, as, be);
  blen = 0;
  for (size_t i = 0; i < symtab.len; i++) {
    symtab.base[i].ncalls = symtab.base[i].self_calls = 0;
    symtab.base[i].parents = symtab.base[i].children = NULL;
  }
}

static void gnu_file(int as, int be)
{
  reset(as, be);
  bytes("gmon", 4); put(1, 4, be); bytes("\0\0\0\0\0\0\0\0\0\0\0\0", 12);
  buf[blen++] = 0;                                   /* histogram */
  put(0x1000, as, be); put(0x1030, as, be); put(24, 4, be); put(100, 4, be);
  bytes("seconds\0\0\0\0\0\0\0\0s", 16);
  for (int i = 0; i < 24; i++) put(i == 3 ? 7 : 0, 2, be);
  buf[blen++] = 1;                                   /* alpha -> beta x5 */
  put(0x1004, as, be); put(0x1012, as, be); put(5, 4, be);
  buf[blen++] = 1;                                   /* again x2 */
  put(0x1008, as, be); put(0x1014, as, be); put(2, 4, be);
  buf[blen++] = 1;                                   /* outside: ignored */
  put(0x9000, as, be); put(0x1014, as, be); put(9, 4, be);
}

static void check_gnu(const char *what)
{
  int f0 = fails;
  gmon_out_read(&prof, &cx, write_file());
  CHECK(prof.have_hist && prof.have_arcs);
  CHECK(prof.hist.nrecs == 1 && prof.hist.recs[0].nbins == 24 && prof.hist.recs[0].bins[3] == 7);
  CHECK(prof.hist.recs[0].lowpc == 0x1000 && prof.hist.recs[0].highpc == 0x1030);
  Arc *a = arc_lookup(&prof.cg, &symtab.base[0], &symtab.base[1]);
  CHECK(a && a->count == 7);
  CHECK(symtab.base[1].ncalls == 7);
  if (fails != f0) printf("  (%s)\n", what);
}

/* Runs the reader in a child; returns its exit status and stderr text. */
static int read_in_child(char *err, size_t errlen)
{
  const char *name = write_file();
  int pfd[2];
  if (pipe(pfd)) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pfd[1], 2);
    close(pfd[0]);
    gmon_out_read(&prof, &cx, name);
    _exit(0);
  }
  close(pfd[1]);
  ssize_t n = read(pfd[0], err, errlen - 1);
  err[n > 0 ? n : 0] = 0;
  close(pfd[0]);
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void bsd_file(int as, int is44)
{
  reset(as, 0);
  size_t hdr = 2 * (size_t)as + 4 + (is44 ? 20 : 0);
  put(0x1000, as, 0); put(0x1030, as, 0); put(hdr + 48, 4, 0);
  if (is44) { put(0x51879, 4, 0); put(1000, 4, 0); put(0, 4, 0); put(0, 4, 0); put(0, 4, 0); }
  for (int i = 0; i < 24; i++) put(i == 17 ? 3 : 0, 2, 0);
  put(0x1014, as, 0); put(0x1002, as, 0); put(4, as, 0);
}

/* -s: the same file read three times.  Its arc records (more than a
   read window and a decoding batch hold, pairs repeated within the file)
   must leave one kept record per distinct pair, every call counted; its
   sparse bins (a count not a multiple of the 16 added at once, values at
   the edges of those groups) summed exactly. */
static void check_merge(int as, int be)
{
  enum { NB = 1003, NREC = 6000, NPAIR = 700 };
  static uint64_t want_bins[NB], want_arc[3][3];
  static unsigned char seen[32][32];
  int f0 = fails;
  reset(as, be);
  memset(want_bins, 0, sizeof want_bins);
  memset(want_arc, 0, sizeof want_arc);
  memset(seen, 0, sizeof seen);
  bytes("gmon", 4); put(1, 4, be); bytes("\0\0\0\0\0\0\0\0\0\0\0\0", 12);
  buf[blen++] = 0;
  put(0x1000, as, be); put(0x1000 + 2 * NB, as, be); put(NB, 4, be); put(100, 4, be);
  bytes("seconds\0\0\0\0\0\0\0\0s", 16);
  for (int i = 0; i < NB; i++) {
    int v = (i % 97 == 0 || (i % 16 == 15 && i % 5 == 0) || i >= NB - 2) ? 1 + i % 300 : 0;
    if (i == 17) v = 65535;
    want_bins[i] = 3 * (uint64_t)v;
    put((uint64_t)v, 2, be);
  }
  size_t distinct = 0;
  unsigned x = 12345;
  for (int i = 0; i < NREC; i++) {
    int k = (int)((i * 7919u) % NPAIR);          /* pair k: a fixed (from, self) */
    int from = (k * 13) % 32, self = (k * 29 + k / 32) % 32;   /* in alpha and beta */
    x = x * 1103515245u + 12345u;
    uint32_t c = 1 + (x >> 16) % 1000;
    buf[blen++] = 1;
    put(0x1000 + (uint64_t)from, as, be); put(0x1000 + (uint64_t)self, as, be); put(c, 4, be);
    want_arc[from / 16][self / 16] += 3 * (uint64_t)c;
    if (!seen[from][self]) { seen[from][self] = 1; distinct++; }
  }
  const char *name = write_file();
  cx.opts.keep_arcs = cx.opts.use_bb = 1;     /* as -s reads them */
  for (int r = 0; r < 3; r++) gmon_out_read(&prof, &cx, name);
  gmon_finish(&prof);
  cx.opts.keep_arcs = cx.opts.use_bb = 0;
  CHECK(prof.arc_recs.n == distinct);
  for (int i = 0; i < NB; i++) CHECK(prof.hist.recs[0].bins[i] == want_bins[i]);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      Arc *arc = arc_lookup(&prof.cg, &symtab.base[a], &symtab.base[b]);
      CHECK(want_arc[a][b] ? arc && arc->count == want_arc[a][b] : !arc);
    }
  if (fails != f0) printf("  (-s merge, %d-byte addresses, %s-endian)\n", as, be ? "big" : "little");
  gmon_free(&prof);
}

int main(void)
{
  char err[512];
  util_set_name("gprof");
  sym_id_init(&specs);
  make_symtab();
  gnu_file(8, 0); check_gnu("64-bit little-endian");
  gnu_file(8, 1); check_gnu("64-bit big-endian");
  gnu_file(4, 0); check_gnu("32-bit little-endian");
  gnu_file(4, 1); check_gnu("32-bit big-endian");

  check_merge(8, 0);
  check_merge(8, 1);
  check_merge(4, 0);
  check_merge(4, 1);

  bsd_file(8, 0);
  gmon_out_read(&prof, &cx, write_file());
  CHECK(prof.hist.nrecs == 1 && prof.hist.recs[0].nbins == 24 && prof.hist.recs[0].bins[17] == 3);
  CHECK(prof.hist.hz == 100);
  CHECK(symtab.base[0].ncalls == 4);
  bsd_file(8, 1);   /* 4.4BSD: the header's rate replaces the default */
  gmon_out_read(&prof, &cx, write_file());
  CHECK(prof.hist.nrecs == 1 && prof.hist.recs[0].bins[17] == 3 && symtab.base[0].ncalls == 4);
  CHECK(prof.hist.hz == 1000);

  /* damaged files */
  gnu_file(8, 0); blen = 10;
  CHECK(read_in_child(err, sizeof err) == 1 && strstr(err, "file too short to be a gmon file"));
  gnu_file(8, 0); blen = 30;
  CHECK(read_in_child(err, sizeof err) == 1 && strstr(err, "unexpected end of file"));
  gnu_file(8, 0); blen = 70;
  CHECK(read_in_child(err, sizeof err) == 1 && strstr(err, "unexpected EOF after reading 4 of 24 samples"));
  gnu_file(8, 0); buf[blen++] = 7;
  CHECK(read_in_child(err, sizeof err) == 1 && strstr(err, "found bad tag 7 (file corrupted?)"));
  gnu_file(8, 0); buf[4] = 2;
  CHECK(read_in_child(err, sizeof err) == 1 && strstr(err, "has unsupported version 2"));
  /* a BSD header claiming four gigabytes of bins: refused, not allocated */
  bsd_file(8, 0); buf[16] = buf[17] = buf[18] = buf[19] = 0xff;
  CHECK(read_in_child(err, sizeof err) == 1 && strstr(err, "unexpected EOF after reading"));

  unlink(write_file());
  printf("%s\n", fails ? "readers: FAILED" : "readers: all checks passed");
  return fails != 0;
}
