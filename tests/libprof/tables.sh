#!/bin/sh
# libprof's arc tables (DESIGN.md, "The arc tables").  The hash on adversarial sets of
# arcs: programs whose call sites and targets sit at regular strides or
# in dense bands, each built plain and with -pg against libprof.a, timed
# on the process's own CPU clock.  A hash that keeps such arcs in one
# band of the table costs seconds per million calls (400 indirect call
# sites x 300 targets: 12 s where the plain build takes 0.00 s); exact
# counts are checked too.  Then tables grown (and rebuilt) by profiled
# signal handlers that interrupted the stub (grow.c), and moncontrol(0)
# with many arcs in the table.  LIBPROF_A: the archive to link (default
# libprof/libprof.a).  Prints "ok ..." / "FAIL ..." lines.
. "$(dirname "$0")/common.sh"
if [ -n "$LIBPROF_A" ]; then LIB=$LIBPROF_A; else LIB="-L$top/libprof -lprof"; fi

# gen KIND: a C program of one adversarial family on stdout; each prints
# its CPU time and the calls it made into t0 (the flat profile checks it)
gen() {
  awk -v kind="$1" 'BEGIN {
    print "#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>"
    print "typedef void (*fn)(void);\nvolatile unsigned long sink;"
    print "static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }"
    if (kind == "cliff") {        # 400 indirect call sites x 300 targets
      for (j = 0; j < 300; j++) printf "__attribute__((noinline)) void t%d(void) { sink += %d; }\n", j, j
      printf "fn tab[300] = {"; for (j = 0; j < 300; j++) printf "%st%d", j ? "," : "", j; print "};"
      print "__attribute__((noinline)) void sites(fn f) {"
      for (i = 0; i < 400; i++) print "  f();"
      print "}"
      print "int main(int c, char **v) { int r = atoi(v[1]); for (int k = 0; k < r; k++) for (int j = 0; j < 300; j++) sites(tab[j]);"
      print "  fprintf(stderr, \"%.3f\\n\", cpu()); printf(\"%d\\n\", 400 * r); return 0; }"
    } else if (kind == "aligned") {   # 4096 64-byte-aligned like callers x 16 aligned targets
      for (j = 0; j < 16; j++) printf "__attribute__((noinline, aligned(64))) void t%d(void) { sink += %d; }\n", j, j
      printf "fn tab[16] = {"; for (j = 0; j < 16; j++) printf "%st%d", j ? "," : "", j; print "};"
      for (i = 0; i < 4096; i++) printf "__attribute__((noinline, aligned(64))) void c%d(fn f) { f(); }\n", i
      printf "void (*callers[4096])(fn) = {"; for (i = 0; i < 4096; i++) printf "%sc%d", i ? "," : "", i; print "};"
      print "int main(int c, char **v) { int r = atoi(v[1]); for (int k = 0; k < r; k++) for (int i = 0; i < 4096; i++) for (int j = 0; j < 16; j++) callers[i](tab[j]);"
      print "  fprintf(stderr, \"%.3f\\n\", cpu()); printf(\"%d\\n\", 4096 * r); return 0; }"
    } else if (kind == "fanout") {    # one call site x 5000 targets
      for (j = 0; j < 5000; j++) printf "__attribute__((noinline)) void t%d(void) { sink += %d; }\n", j, j
      printf "fn tab[5000] = {"; for (j = 0; j < 5000; j++) printf "%st%d", j ? "," : "", j; print "};"
      print "__attribute__((noinline)) void site(fn f) { f(); }"
      print "int main(int c, char **v) { int r = atoi(v[1]); for (int k = 0; k < r; k++) for (int j = 0; j < 5000; j++) site(tab[j]);"
      print "  fprintf(stderr, \"%.3f\\n\", cpu()); printf(\"%d\\n\", r); return 0; }"
    } else if (kind == "strided") {   # 4096 64-byte-aligned like callers x 1 target
      print "__attribute__((noinline)) void t0(void) { sink++; }"
      for (i = 0; i < 4096; i++) printf "__attribute__((noinline, aligned(64))) void c%d(void) { t0(); }\n", i
      printf "void (*callers[4096])(void) = {"; for (i = 0; i < 4096; i++) printf "%sc%d", i ? "," : "", i; print "};"
      print "int main(int c, char **v) { int r = atoi(v[1]); for (int k = 0; k < r; k++) for (int i = 0; i < 4096; i++) callers[i]();"
      print "  fprintf(stderr, \"%.3f\\n\", cpu()); printf(\"%d\\n\", 4096 * r); return 0; }"
    } else if (kind == "chain") {     # 5000 like functions, each calling the next
      print "__attribute__((noinline)) void t0(void) { sink++; }"
      for (j = 1; j < 5000; j++) printf "__attribute__((noinline)) void t%d(void) { t%d(); sink++; }\n", j, j - 1
      print "int main(int c, char **v) { int r = atoi(v[1]); for (int k = 0; k < r; k++) t4999();"
      print "  fprintf(stderr, \"%.3f\\n\", cpu()); printf(\"%d\\n\", r); return 0; }"
    }
  }'
}

# family rounds: CPU time of the -pg build against the plain one, and t0's calls
for t in "cliff 60" "aligned 40" "fanout 400" "chain 400"; do
  set -- $t
  gen $1 > $1.c
  ok=1
  if cc -O1 -fno-inline $1.c -o $1.plain 2> cc.err && cc -O1 -fno-inline -pg $1.c -o $1.pg $LIB 2>> cc.err; then
    plain=$(./$1.plain $2 2>&1 > /dev/null)
    rm -f gmon.out
    # (a minute at most: the hash this replaced took hours on cliff)
    want=$(timeout 60 ./$1.pg $2 2> cpu.txt); prof=$(cat cpu.txt)
    [ -n "$prof" ] || prof="over 60 (killed)"
    got=$(calls $1.pg gmon.out t0)
    # bounded: within 20x the plain build plus 0.5 s for the program's
    # first call of each arc (the C slow path) and a loaded machine
    echo "$plain $prof" | awk '{exit !($2 <= 20 * $1 + 0.5)}' && [ "$got" = "$want" ] && ok=0
  else
    plain="?" prof="(did not build: $(head -c 200 cc.err))"
  fi
  say $ok "hash on adversarial arcs ($1): -pg CPU ${prof} s against ${plain} s plain (<= 20x + 0.5 s), t0 called ${got:-?}/${want:-?}"
done

# how far lookups probe (LIBPROF_OVERHEAD=report), on the key part's hash
# (i386's tables; aarch64's and other objects' use it too) and the raw
# part's (x86-64): callers at a common stride (64-byte-aligned like
# functions, each calling one target) shared a bucket of the stride's
# size in the key part: about 16 slots per lookup
gen strided > strided.c
for arch in x86-64 i386; do
  case $arch in x86-64) how=$LIB;; i386) how="-m32 -L$top/libprof/32 -lprof";; esac
  if [ $arch = i386 ] && [ ! -f "$top/libprof/32/libprof.a" ]; then echo "skip probe lengths on i386 (no libprof/32/libprof.a)"; continue; fi
  if ! cc -O1 -pg strided.c -o strided.$arch $how 2> cc.err; then echo "skip probe lengths on $arch (did not build)"; continue; fi
  rm -f gmon.out
  if ! LIBPROF_OVERHEAD=report ./strided.$arch 20 > /dev/null 2> report.txt; then echo "skip probe lengths on $arch (does not run here)"; continue; fi
  m=$(sed -n 's/^libprof: arc lookups probed \([0-9.]*\) slots.*/\1/p' report.txt)
  [ -n "$m" ] && echo "$m" | awk '{exit !($1 <= 2)}'
  say $? "lookups on 4096 callers at a 64-byte stride ($arch): ${m:-no} slots probed per call on average (<= 2)"
done
rm -f gmon.out
LIBPROF_OVERHEAD=report ./cliff.pg 5 > /dev/null 2> report.txt
m=$(sed -n 's/^libprof: arc lookups probed \([0-9.]*\) slots.*/\1/p' report.txt)
[ -n "$m" ] && echo "$m" | awk '{exit !($1 <= 2.5)}'
say $? "lookups on cliff's 120,000 arcs: ${m:-no} slots probed per call on average (<= 2.5)"

# a profiled signal handler growing the thread's table (and the sampling
# handler rebuilding it, nested in that handler) while the stub it
# interrupted held a slot of the old slots: that call counted too
cc -O1 -pg "$here/grow.c" -o grow $LIB -lpthread
bad=0
for run in 1 2 3; do
  rm -f gmon.out
  want=$(LIBPROF_HZ=1000 ./grow 8 10000000)
  got=$(calls grow gmon.out work)
  [ -n "$want" ] && [ "$got" = "$want" ] || bad=$((bad + 1))
  all="$all $got/$want"
done
say $bad "tables grown and rebuilt by signal handlers interrupting the stub: work's calls exact in 3 runs of 8 threads ($all)"

# moncontrol(0) with many arcs: no call counted while off (while off the
# x86-64 stub lands on slot 0 of every table, which no arc may take)
awk 'BEGIN {
  print "#include <stdio.h>\nvoid moncontrol(int);\nvolatile unsigned long sink;"
  for (j = 0; j < 300; j++) printf "__attribute__((noinline)) void t%d(void) { sink += %d; }\n", j, j
  print "void all(int n) { for (int i = 0; i < n; i++) {"
  for (j = 0; j < 300; j++) printf "  t%d();\n", j
  print "} }"
  print "int main(void) { all(2); moncontrol(0); all(7); moncontrol(1); all(3); return 0; }"
}' > monctl.c
rm -f gmon.out
cc -O1 -pg monctl.c -o monctl $LIB && ./monctl
"$G" -b -p monctl gmon.out | awk '$NF ~ /^t[0-9]+$/ && NF >= 7 { n++; if ($4 != 5) bad++ } END { exit !(n == 300 && !bad) }'
say $? "moncontrol(0) with 300 arcs in the table: each function counted 5 times (2 before, 3 after)"
