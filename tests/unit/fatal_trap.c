/* Unit test: what the fuzz targets rely on (issue 12) -- fatal() returning
   through util_fatal_trap, BoundedIn cutting off a stream that never
   ends, and the profile reader failing early on a file that claims more
   than it holds, leaving a Profile that gmon_free empties.
// objs: gmon/enc.o gmon_io.o gmon/facts.o hist.o call_graph.o cg_arcs.o cg_dfn.o basic_blocks.o symtab.o sym_ids.o source.o callscan.o core.o lines/dwarf.o lines/linesyms.o i386.o aarch64.o sparc.o mips.o alpha.o vax.o tahoe.o util/util.o util/fmt.o util/options.o
// libs: $BFDLIB -liberty -lz
*/
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gmon_io.h"

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)

int main(void)
{
  util_set_name("gprof");

  /* fatal returns to the trap, quietly */
  jmp_buf env;
  volatile int reached = 0;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    fatal("not printed\n");
    reached = 1;
  }
  util_fatal_trap(NULL, 0);
  CHECK(!reached);

  /* a device that never ends is cut off after the limit */
  BoundedIn in;
  CHECK(bounded_open(&in, "/dev/zero", 100000) == 0);
  char buf[4096];
  size_t total = 0, got;
  while ((got = fread(buf, 1, sizeof buf, in.f)) > 0) total += got;
  CHECK(total == 100000);
  CHECK(bounded_overrun(&in));
  bounded_close(&in);
  /* a regular file is read to its end, whatever the limit */
  CHECK(bounded_open(&in, "/etc/passwd", 10) == 0);
  total = 0;
  while ((got = fread(buf, 1, sizeof buf, in.f)) > 0) total += got;
  CHECK(total > 10 && !bounded_overrun(&in));
  bounded_close(&in);

  /* a GNU file claiming 2^32-1 bins with 4 present: fails at once */
  static unsigned char file[20 + 41 + 8] = "gmon\1\0\0\0";
  unsigned char *h = file + 20;
  h[0] = 0;
  h[1] = 0x10; h[2] = 0x10;                 /* lowpc 0x1010 */
  h[9] = 0x20; h[10] = 0x10;                /* highpc 0x1020 */
  memset(h + 17, 0xff, 4);                  /* 2^32-1 bins */
  h[21] = 100;                              /* rate */
  memcpy(h + 25, "seconds", 7);
  h[40] = 's';
  SymTab tab;
  memset(&tab, 0, sizeof tab);
  SymSpecs specs;
  sym_id_init(&specs);
  Profile prof;
  gmon_init(&prof, 8, 0);
  GmonContext cx = { .syms = &tab, .specs = &specs };
  FILE *f = fmemopen(file, sizeof file, "r");
  bounded_wrap(&in, f, 1 << 20);
  volatile int failed = 0;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    gmon_read_stream(&prof, &cx, "claims.gmon", &in);
  } else {
    failed = 1;
  }
  util_fatal_trap(NULL, 0);
  bounded_close(&in);
  CHECK(failed);
  CHECK(prof.hist.nrecs == 0);
  gmon_free(&prof);
  CHECK(prof.hist.recs == NULL && prof.cg.narcs == 0);

  printf("%s\n", fails ? "FAILED" : "ok");
  return fails != 0;
}
