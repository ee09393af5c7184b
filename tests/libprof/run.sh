#!/bin/sh
# libprof tests: programs built with gcc -pg against libprof/libprof.a, run,
# and their gmon.out checked with our gprof (and GNU gprof when present).
# Prints "ok ..." / "FAIL ..." lines; run.sh in tests/ counts them.
. "$(dirname "$0")/common.sh"
hogs=""; trap 'kill $hogs 2> /dev/null; rm -rf "$w"' EXIT

for mode in pie nopie static fentry; do
  case $mode in
    pie) f="-O1";; nopie) f="-O1 -no-pie";; static) f="-O1 -static";; fentry) f="-O1 -mfentry";;
  esac
  rm -f gmon.out
  cc $f -pg "$here/known.c" -o known -L"$top/libprof" -lprof 2> cc.err && ./known > /dev/null
  ok=1
  [ "$(calls known gmon.out a)" = 3 ] || ok=0
  [ "$(calls known gmon.out b)" = 15 ] || ok=0
  [ "$(calls known gmon.out c)" = 30 ] || ok=0
  [ "$("$G" -b -q known gmon.out | grep -c '30+30 *c \[')" = 1 ] || ok=0
  say $((1 - ok)) "exact counts on a known call graph ($mode)"
  agree known gmon.out; say $? "GNU gprof agrees on libprof's file ($mode)"
done

# no start-up file: objects built with -pg, linked without it
rm -f gmon.out
cc -O1 -pg -c "$here/known.c" -o known.o && cc known.o -o known_lazy -L"$top/libprof" -lprof && ./known_lazy > /dev/null
[ "$(calls known_lazy gmon.out b)" = 15 ]
say $? "started on first use when no start-up file calls it"

# IFUNC resolvers that are -pg (an explicit one, GCC's target_clones):
# the loader calls them while it relocates, before the thread's TLS (or,
# statically linked, %fs) is set up; they used to crash the program
# before main in every mode.  The program's stdout must be the plain
# build's, its `count NAME N` lines gprof's calls, and the resolver's own
# call (before start-up) uncounted, as under glibc's runtime.
cc -O1 "$here/ifunc.c" -o ifunc_plain && ./ifunc_plain 300 > ifunc.want
printf 'int main(void){return 0;}\n' | cc -m32 -x c - -o m32ok 2> /dev/null && ./m32ok 2> /dev/null && m32=1 || m32=0
for mode in pie nopie static static-pie fentry nogcrt1 shared m32 m32-static m32-static-pie; do
  lib="$top/libprof"; f=""
  case $mode in
    nopie) f="-no-pie";; static) f="-static";; static-pie) f="-static-pie";; fentry) f="-mfentry";;
    shared) lib="$top/libprof/shared"; f="-Wl,-rpath,$lib";;
    m32*) lib="$top/libprof/32"; f="-m32 $(echo $mode | sed -n 's/^m32-/-/p')";;
  esac
  case $mode in m32*) [ -f "$lib/libprof.a" ] && [ $m32 = 1 ] || { echo "skip IFUNC resolvers ($mode): no i386 archive or this machine runs no i386 program"; continue; };; esac
  rm -f gmon.out ifunc.got
  if [ $mode = nogcrt1 ]; then cc -O1 -pg -c "$here/ifunc.c" -o ifunc.o && cc ifunc.o -o ifunc -L"$lib" -lprof
  else cc -O1 -pg $f "$here/ifunc.c" -o ifunc -L"$lib" -lprof; fi 2> cc.err
  timeout 20 ./ifunc 300 > ifunc.got 2> /dev/null; rc=$?
  why=""
  [ $rc = 0 ] || why="exit $rc"
  [ -z "$why" ] && ! cmp -s ifunc.want ifunc.got && why="stdout differs from the plain build's"
  [ -z "$why" ] && [ ! -f gmon.out ] && why="no gmon.out"
  if [ -z "$why" ]; then
    while read -r k name n; do
      [ "$k" = count ] || continue
      c=$(calls ifunc gmon.out "$name"); [ "$c" = "$n" ] || why="$why $name $c calls, not $n"
    done < ifunc.got
    [ -z "$(calls ifunc gmon.out resolver_helper)" ] || why="$why the resolver's call counted"
  fi
  say $([ -z "$why" ]; echo $?) "IFUNC resolvers that are -pg, target_clones: run, exact counts ($mode)${why:+: $why}"
done

# the shared library
rm -f gmon.out
cc -O1 -pg "$here/known.c" -o known_so -L"$top/libprof/shared" -lprof && LD_LIBRARY_PATH="$top/libprof/shared" ./known_so > /dev/null
[ "$(calls known_so gmon.out c)" = 30 ]
say $? "libprof.so: exact counts"

# fork: parent and child each write their own file
rm -f gmon.out gmon.out.*
cc -O1 -pg "$here/known.c" -o known -L"$top/libprof" -lprof && child=$(./known fork)
[ "$(calls known gmon.out d)" = 4 ] && [ -f gmon.out.$child ] && [ "$(calls known gmon.out.$child d)" = 7 ]
say $? "fork: the child writes gmon.out.PID, the parent's file is its own"

# GMON_OUT_PREFIX
rm -f gmon.out prof.*
GMON_OUT_PREFIX=prof ./known > /dev/null
[ ! -f gmon.out ] && [ "$(ls prof.* | wc -l)" = 1 ] && [ "$(calls known prof.* a)" = 3 ]
say $? "GMON_OUT_PREFIX names the file PREFIX.PID"

# threads: every call counted, every thread sampled
rm -f gmon.out
cc -O1 -pg "$here/threads.c" -o threads -L"$top/libprof" -lprof -lpthread
cpu=$(./threads 5000000 2>&1 >/dev/null)
[ "$(calls threads gmon.out leaf)" = 20000000 ]
say $? "4 threads x 5000000 calls counted exactly"
# every sample in the file (64-bit layout: the bins start at byte 61), at 100 Hz,
# the runtime's own charged to its callers (LIBPROF_OVERHEAD=charge): by
# default mcount's samples are dropped, and under the sanitizers 20 million
# calls to it are 5-12% of the time (0.878 in a CI run, 0.99 charged)
rm -f gmon.out
cpu=$(LIBPROF_OVERHEAD=charge ./threads 5000000 2>&1 >/dev/null)
n=$(od -An -t u4 -j 37 -N 4 gmon.out | tr -d ' ')
sampled=$(od -An -v -t u2 -j 61 -N $((2 * n)) gmon.out | awk '{for (i = 1; i <= NF; i++) s += $i} END {print s / 100}')
share=$(echo "$sampled $cpu" | awk '{printf "%.3f", $1 / $2}')
echo "$share" | awk '{exit !($1 >= 0.90)}'
say $? "sampled share of CPU time with 4 threads: $share (>= 0.90)"
agree threads gmon.out; say $? "GNU gprof agrees on the threaded file"

# arc tables rebuilt busiest-first by the sampling handler while threads
# count and snapshots read them: no call lost or counted twice
# (every run exact; up to 3 runs for 4 rebuilds: a thread rebuilds at
# its 4th, 16th, 64th... tick when no snapshot holds the tables, and a
# loaded machine once left 3)
cc -O1 -pg "$here/rehome.c" -o rehome -L"$top/libprof" -lprof -lpthread
for try in 1 2 3; do
  rm -f gmon.out
  LIBPROF_HZ=1000 LIBPROF_INTERVAL=0.02 LIBPROF_OVERHEAD=report ./rehome 600 2> rehome.err
  rebuilt=$(sed -n 's/^libprof: arc tables rebuilt busiest-first \([0-9]*\) times$/\1/p' rehome.err)
  "$G" -b -p rehome gmon.out | awk -v r=600 '
    $NF ~ /^f[0-9]+$/ && NF >= 7 { i = substr($NF, 2) + 0; n++; if ($4 != 4 * (1 + r * (i % 7 + 1))) bad++ }
    $NF == "hot" && NF >= 7 { hot = $4 }
    END { exit !(n == 100 && !bad && hot == 4 * r * 2000) }'
  exact=$?; [ $exact = 0 ] || break
  [ -n "$rebuilt" ] && [ "$rebuilt" -ge 4 ] && break
done
[ $exact = 0 ] && [ -n "$rebuilt" ] && [ "$rebuilt" -ge 4 ]
say $? "arc tables rebuilt busiest-first ($rebuilt times, run $try) under 4 threads and snapshots: every count exact"

# a profiled signal handler interrupting profiled code
rm -f gmon.out
cc -O1 -pg "$here/signals.c" -o signals -L"$top/libprof" -lprof && ticks=$(./signals)
[ -n "$ticks" ] && [ "$(calls signals gmon.out work)" = 3000000 ] && [ -n "$(calls signals gmon.out in_handler)" ]
say $? "profiled signal handlers: no crash, calls counted ($ticks signals)"

# Whether this machine runs i386 programs: a kernel built without IA-32
# emulation links them but cannot start them ("Exec format error"), and
# then the tests that run one are skipped, saying so.
run32=0
if printf 'int main(void){return 0;}\n' | cc -m32 -x c - -o m32run 2>/dev/null; then
  if ./m32run 2>/dev/null; then run32=1
  else echo "skip: gcc -m32 links but this kernel cannot run i386 programs: the tests that run one are left out"; fi
fi

# i386: make builds libprof/32/libprof.a when gcc -m32 links programs
if [ -f "$top/libprof/32/libprof.a" ]; then
  if [ $run32 = 1 ]; then
    rm -f gmon.out && cc -m32 -O1 -pg "$here/known.c" -o known32 -L"$top/libprof/32" -lprof && ./known32 > /dev/null
    [ "$(calls known32 gmon.out b)" = 15 ] && [ "$(calls known32 gmon.out c)" = 30 ]
    say $? "i386 (-m32 link of libprof/32/libprof.a): exact counts"
  fi
elif printf 'int main(void){return 0;}\n' | cc -m32 -x c - -o m32test 2>/dev/null; then
  say 1 "gcc -m32 works but make built no libprof/32/libprof.a"
fi

# aarch64 (and i386 again, more widely): tests/libprof/cross.sh, run by
# tests/run.sh

# ---- libprof never shows in the user's profile ----
# GNU gprof lists every global function and every static one without a '$'
# in its name: libprof's must be none of them, with either analyzer, in any
# listing; and no sample may fall on libprof's code.
pat='mcount|_mcount|__fentry__|__monstartup|monstartup|_mcleanup|mcleanup|moncontrol|libprof_dump|libprof\$[a-z_]*'
cat > heavy.c <<'C'
static volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }
__attribute__((noinline)) void mid(unsigned long i) { leaf(i); leaf(i + 1); }
int main(void) { for (unsigned long i = 0; i < 20000000; i++) mid(i); return 0; }
C
for mode in pie static nopie fentry m32; do
  case $mode in
    pie) f="";; static) f="-static";; nopie) f="-no-pie";; fentry) f="-mfentry";; m32) f="-m32";;
  esac
  lib="$top/libprof"; [ $mode = m32 ] && lib="$top/libprof/32"
  [ -f "$lib/libprof.a" ] || continue
  [ $mode = m32 ] && [ $run32 = 0 ] && continue
  ok=1
  cc -O1 $f -pg "$here/known.c" -o vis -L"$lib" -lprof && rm -f gmon.out && ./vis > /dev/null || ok=0
  nm -A vis > vis.map
  for g in "$G" /usr/bin/gprof; do
    [ -x "$g" ] || continue
    for o in "-z" "-z -c" "-r" "-z -r" "-R vis.map" "-C" "-z -C" "-b -z -c -q" "-z -T"; do
      "$g" $o vis gmon.out > vis.out 2>&1
      if grep -E -w -q "$pat" vis.out; then ok=0; echo "libprof shows: $g $o ($mode): $(grep -E -w "$pat" vis.out | head -1)"; fi
    done
  done
  say $((1 - ok)) "no libprof function in -z, -c, -r, -R, -C listings, ours and GNU's ($mode)"
  cc -O1 $f -pg heavy.c -o heavy -L"$lib" -lprof
  range=$(nm heavy | awk '/libprof\$text_begin/ {b = $1} /libprof\$text_end/ {e = $1} END {print b, e}')
  if [ $mode = m32 ]; then h="-m32"; else h=""; fi
  # (the program spends 80-90% of its CPU in mcount, whose samples are
  # dropped: at the kernel's 250 Hz tick a run now and then has no sample
  # left in the program at all, which proves nothing either way; such a
  # run is made again, up to three times)
  for k in 1 2 3; do
    rm -f gmon.out && LIBPROF_HZ=1000 ./heavy
    r=$(python3 "$here/hist.py" $h gmon.out 1 $range)
    case "$r" in *"sampled 0.0000 "*) ;; *) break;; esac
  done
  top_fn=$("$G" -b -p heavy gmon.out | awk 'NR == 6 {print $NF}')
  # (i386 PIC code calls a thunk for every access to a global: as hot
  # as the functions themselves once mcount's time is dropped; with
  # -mfentry leaf and mid keep no frame, so main's loop, which calls mid
  # 20 M times, is as busy as they are: it came first in 1 run of 30)
  case "$r" in *"in-range 0") [ -n "$range" ] && case $top_fn in leaf|mid|main|__x86.get_pc_thunk.*) true;; *) false;; esac ;; *) false;; esac
  say $? "no sample on libprof's code in a call-heavy program ($mode: $r; busiest $top_fn)"
done

# mcount's samples are dropped by default (glibc's mcount lies outside the
# program, so its time is never sampled); LIBPROF_OVERHEAD=charge charges
# them to the function that called mcount
cc -O1 -pg heavy.c -o heavy -L"$top/libprof" -lprof
rm -f gmon.out; LIBPROF_HZ=1000 ./heavy
dropped=$(python3 "$here/hist.py" gmon.out | awk '{print $4}')
range=$(nm heavy | awk '/libprof\$text_begin/ {b = $1} /libprof\$text_end/ {e = $1} END {print b, e}')
in_range=$(python3 "$here/hist.py" gmon.out 1 $range | awk '{print $NF}')
rm -f gmon.out; LIBPROF_HZ=1000 LIBPROF_OVERHEAD=charge ./heavy
charged=$(python3 "$here/hist.py" gmon.out | awk '{print $4}')
[ "$in_range" = 0 ] && echo "$dropped $charged" | awk '{exit !($1 < 0.9 * $2)}'
say $? "mcount's time dropped by default: ${dropped}s sampled, ${charged}s with LIBPROF_OVERHEAD=charge"

# x86-64: a counted call's path (entry to the ret after the increment)
# lies in one 64-byte line, the entry 64-byte aligned: the same code
# across two lines cost Lua about 6% more CPU (DESIGN.md, "Raw-address
# slots").  Read from a linked program, stripped so that objdump
# disassembles the weak objects mcount and __fentry__ as code.
if command -v objdump > /dev/null && [ "$(uname -m)" = x86_64 ]; then
  strip -o heavy.s heavy
  for fn in mcount __fentry__; do
    a=$(nm heavy | awk -v f=$fn '$3 == f {print $1}')
    [ -n "$a" ] || { say 1 "the fast path of $fn in one cache line (no $fn in the program)"; continue; }
    objdump -d --no-show-raw-insn --start-address=0x$a --stop-address=$(printf 0x%x $((0x$a + 64))) heavy.s \
      | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ {print $2}' > path.txt
    n=$(awk '{n++} /^ret/ {print n; exit}' path.txt)
    prev=$(awk '/^ret/ {print p; exit} {p = $1}' path.txt)
    [ $((0x$a % 64)) = 0 ] && [ -n "$n" ] && [ "$n" -le 16 ] && [ "$prev" = incq ]
    say $? "the fast path of $fn in one cache line: at $a (mod 64: $((0x$a % 64))), ${n:-no} instructions to the ret, counted by ${prev:-nothing}"
    # the return addresses the calls have just stored read by movs only:
    # as an imul's memory operand one made the stub wait, and small
    # callees' time went into the stub's samples (notes-credit.md).
    # mcount's selfpc is at (%rsp); __fentry__, called before the
    # prologue, finds both selfpc and frompc there, at (%rsp) and 8(%rsp)
    other=$(awk '/^ret/ {exit} /\(%rsp\)/ && !/^mov/ {print $1; exit}' path.txt)
    [ -n "$n" ] && [ -z "$other" ]
    say $? "$fn's fast path reads the stack only with movs (${other:-no} other instruction reads it)"
  done
  # libprof.so's paths read the stack the same way; its __fentry__'s
  # counted path (16 instructions, a GOT load more) fits a line too
  # (its mcount's, with the frame-pointer check, does not)
  so="$top/libprof/shared/libprof.so"
  for fn in mcount __fentry__; do
    [ -f "$so" ] || break
    a=$(nm -D --defined-only "$so" | awk -v f=$fn '$3 == f {print $1}')
    [ -n "$a" ] || { say 1 "libprof.so's $fn found"; continue; }
    objdump -d --no-show-raw-insn --start-address=0x$a --stop-address=$(printf 0x%x $((0x$a + 128))) "$so" \
      | awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ {print $1 "\t" $2}' > path.txt
    end=$(awk -F'\t' '$2 ~ /^ret/ {sub(/:$/, "", $1); print $1; exit}' path.txt | tr -d ' ')
    other=$(awk -F'\t' '$2 ~ /^ret/ {exit} $2 ~ /\(%rsp\)/ && $2 !~ /^mov/ {print $2; exit}' path.txt | awk '{print $1}')
    [ -n "$end" ] && [ -z "$other" ]
    say $? "libprof.so's $fn: its fast path reads the stack only with movs (${other:-no} other instruction reads it)"
    if [ $fn = __fentry__ ]; then
      [ -n "$end" ] && [ $((0x$a % 64)) = 0 ] && [ $((0x$end - 0x$a)) -lt 64 ]
      say $? "libprof.so's __fentry__ fast path in one cache line: at $a, its ret at ${end:-none}"
    fi
  done
fi

# ---- every tick counted ----
cc -O1 -pg "$here/short.c" -o short -L"$top/libprof" -lprof
for hz in 100 1000 10000; do
  # the kernel delivers CPU-timer ticks in bunches (one per clock tick):
  # one landing outside the text loses the bunch, so the best of 3 runs
  best=0
  for run in 1 2 3; do
    rm -f gmon.out
    cpu=$(LIBPROF_HZ_LIMIT=0 LIBPROF_HZ=$hz ./short 0.06 2>&1 >/dev/null)   # (the rate asked)
    r=$(python3 "$here/hist.py" gmon.out "$cpu")
    s=$(echo "$r" | awk '{print $6}')
    rate=$(echo "$r" | awk '{print $2}')
    best=$(echo "$best $s" | awk '{print ($2 > $1) ? $2 : $1}')
  done
  echo "$best" | awk '{exit !($1 >= 0.95)}' && [ "$rate" = $hz ]
  r=$?
  # a sanitized program spends milliseconds in its runtime's start-up
  # before libprof starts: that time is the sanitizer's, not a lost tick
  if [ -n "$LIBPROF_SANITIZED" ]; then
    echo "skip 0.06 s of CPU at LIBPROF_HZ=$hz under sanitizers (share $best)"
  else
    say $r "0.06 s of CPU at LIBPROF_HZ=$hz: sampled share $best (>= 0.95), rate field $rate"
  fi
done
# four threads, 0.7 s of CPU, on a machine kept busy by two other programs
cc -O1 -pg "$here/threads.c" -o threads -L"$top/libprof" -lprof -lpthread
sh -c 'while :; do :; done' & hogs="$hogs $!"
sh -c 'while :; do :; done' & hogs="$hogs $!"
best=0
for run in 1 2 3; do
  rm -f gmon.out
  cpu=$(LIBPROF_OVERHEAD=charge ./threads 5000000 550000000 2>&1 >/dev/null)   # (as above)
  s=$(python3 "$here/hist.py" gmon.out "$cpu" | awk '{print $6}')
  best=$(echo "$best $s" | awk '{print ($2 > $1) ? $2 : $1}')
done
kill $hogs; hogs=""
echo "$best" | awk '{exit !($1 >= 0.95)}'
say $? "4 threads, $cpu s of CPU on a loaded machine: sampled share $best (>= 0.95)"

# ---- a profile whatever the ending ----
# Killed by each fatal signal left at its default: the profile is written
# (GNU gprof reads the right count) and the exit status is the one the
# same program has without profiling.
cc -O1 -pg "$here/die.c" -o die -L"$top/libprof" -lprof && cc -O1 "$here/die.c" -o die_plain
for s in INT TERM HUP QUIT SEGV BUS FPE ILL ABRT overflow handler; do
  rm -f gmon.out gmon.out.tmp.*
  (ulimit -c 0; ./die $s 1234 > /dev/null 2>&1; exit $?) 2> /dev/null; got=$?
  (ulimit -c 0; ./die_plain $s 1234 > /dev/null 2>&1; exit $?) 2> /dev/null; want=$?
  n=$(calls die gmon.out work)
  if [ -x /usr/bin/gprof ]; then gn=$(/usr/bin/gprof -b -p die gmon.out | awk '$NF == "work" {print $4}'); else gn=1234; fi
  [ "$got" = "$want" ] && [ "$n" = 1234 ] && [ "$gn" = 1234 ] && [ -z "$(ls gmon.out.tmp.* 2>/dev/null)" ]
  say $? "ended by $s: profile written, work called $n/$gn times, exit status $got (without profiling $want)"
done
# killed from outside while it waits
rm -f gmon.out
./die wait 777 > ready.txt 2>/dev/null & pid=$!
i=0; while [ ! -s ready.txt ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
kill -TERM $pid; wait $pid 2> /dev/null; got=$?
[ "$got" = 143 ] && [ "$(calls die gmon.out work)" = 777 ]
say $? "kill -TERM from another process: profile written, status $got"

# snapshots: LIBPROF_DUMP_SIGNAL, libprof_dump(), LIBPROF_INTERVAL
cc -O1 -pg -I"$top/libprof" "$here/snap.c" -o snap -L"$top/libprof" -lprof
rm -f gmon.out snap.out
LIBPROF_DUMP_SIGNAL=USR1 ./snap signal snap.out > /dev/null
[ "$(calls snap snap.out phase1)" = 1000 ] && [ -z "$(calls snap snap.out phase2)" ] \
  && [ "$(calls snap gmon.out phase1)" = 1000 ] && [ "$(calls snap gmon.out phase2)" = 1000 ]
say $? "LIBPROF_DUMP_SIGNAL=USR1 writes a snapshot and profiling goes on"
rm -f gmon.out dump.out
./snap call dump.out > /dev/null
[ "$(calls snap dump.out phase1)" = 1000 ] && [ -z "$(calls snap dump.out phase2)" ] \
  && [ "$(calls snap gmon.out phase2)" = 1000 ]
say $? "libprof_dump(path) writes a snapshot and profiling goes on"
rm -f gmon.out iv.out
n=$(LIBPROF_INTERVAL=0.2 ./snap interval iv.out)
s1=$(calls snap iv.out phase1)
[ -n "$s1" ] && [ "$s1" -le "$n" ] && [ "$(calls snap gmon.out phase1)" = "$n" ] && [ "$(calls snap gmon.out phase2)" = 1000 ]
say $? "LIBPROF_INTERVAL=0.2 writes periodic snapshots ($s1 of $n calls in the first)"
[ -z "$(ls ./*.tmp.* 2>/dev/null)" ]
say $? "no temporary file left behind"

# GMON_OUT_PREFIX in a missing directory falls back to gmon.out, as glibc
rm -f gmon.out
GMON_OUT_PREFIX=/nonexistent/dir/p ./known > /dev/null 2> prefix.err
[ "$(calls known gmon.out a)" = 3 ] && [ ! -s prefix.err ]
say $? "GMON_OUT_PREFIX in a missing directory: ./gmon.out"

# threads with more arcs than a table's log (32) are folded by a full scan
{
  echo '#include <pthread.h>'
  echo 'static volatile int sink;'
  i=0; while [ $i -lt 100 ]; do echo "__attribute__((noinline)) void f$i(void) { sink++; }"; i=$((i + 1)); done
  echo 'static void *body(void *a) { (void)a;'
  i=0; while [ $i -lt 100 ]; do echo " f$i();"; i=$((i + 1)); done
  echo ' return 0; }'
  echo 'int main(void) { for (int k = 0; k < 8; k++) { pthread_t t; pthread_create(&t, 0, body, 0); pthread_join(t, 0); } body(0); return 0; }'
} > wide.c
cc -O1 -pg wide.c -o wide -L"$top/libprof" -lprof -lpthread && rm -f gmon.out && ./wide
[ "$(calls wide gmon.out f0)" = 9 ] && [ "$(calls wide gmon.out f57)" = 9 ] && [ "$(calls wide gmon.out f99)" = 9 ]
say $? "threads of 100 arcs each: counts folded exactly"

# ---- bounded memory: 100,000 short-lived threads ----
cc -O1 -pg "$here/many.c" -o many -L"$top/libprof" -lprof -lpthread
cc -O1 -pg "$here/many.c" -o many_glibc -lpthread
rm -f gmon.out
set -- $(./many 100000)
ours_kb=$1 ours_cpu=$2
n=$(calls many gmon.out work)
set -- $(mkdir -p "$w/glibc_run" && cd "$w/glibc_run" && "$w/many_glibc" 100000)
glibc_kb=$1 glibc_cpu=$2
# CPU times swing with the machine's load (a sanitized run next to other
# jobs once took 11.6 s against glibc's 5.3 s, 5.4 against 5.7 when
# repeated): a pair that fails the bound is measured once more
if ! echo "$ours_cpu $glibc_cpu" | awk '{exit !($1 <= 1.5 * $2 + 0.5)}'; then
  set -- $(./many 100000); ours_cpu=$2
  set -- $(cd "$w/glibc_run" && "$w/many_glibc" 100000); glibc_cpu=$2
fi
[ "$n" = 100000 ] && [ "$ours_kb" -le $((glibc_kb + 4096)) ] \
  && echo "$ours_cpu $glibc_cpu" | awk '{exit !($1 <= 1.5 * $2 + 0.5)}'
say $? "100,000 threads: all $n calls counted, peak ${ours_kb} kB (glibc ${glibc_kb} kB), CPU ${ours_cpu} s (glibc ${glibc_cpu} s)"

# ---- installed like a library ----
# make install prefix=/usr into a staging directory; a program built with
# the flags pkg-config gives links the shared library by its SONAME and
# runs; a -m32 program links the i386 archive.
st="$w/stage"
if make -C "$top" install DESTDIR="$st" prefix=/usr > install.log 2>&1; then
  lib=$(dirname "$(find "$st" -name libprof.so.1 | head -1)")
  soname=$(readelf -d "$lib/libprof.so.1" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
  [ "$soname" = libprof.so.1 ] && [ "$(readlink "$lib/libprof.so")" = libprof.so.1 ] && [ -f "$lib/libprof.a" ] \
    && [ -n "$(find "$st" -path '*/include/libprof.h')" ] && [ -n "$(find "$st" -path '*/man3/libprof.3')" ] \
    && [ -f "$st/usr/share/gprof/gprof.schema.json" ]
  say $? "make install: libprof.so.1 (SONAME $soname), libprof.so, libprof.a, libprof.h, libprof(3), the JSON schema gprof(1) names"
  if command -v pkg-config > /dev/null; then
    flags=$(PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$st" pkg-config --cflags --libs libprof)
    rm -f gmon.out dump.out
    cc -O1 "$here/snap.c" $flags -o snap_inst && LD_LIBRARY_PATH="$lib" ./snap_inst call dump.out > /dev/null \
      && readelf -d snap_inst | grep -q 'NEEDED.*libprof.so.1' \
      && [ "$(calls snap_inst dump.out phase1)" = 1000 ] && [ "$(calls snap_inst gmon.out phase2)" = 1000 ]
    say $? "installed tree: built with \$(pkg-config --cflags --libs libprof) = $flags, runs against libprof.so.1"
    # the objects test program (objcalls.sh) built the same way: each
    # library's file, its counts, the arcs across objects
    cc -O1 -g -pg -shared -fPIC -DLIB_A "$here/objcalls_lib.c" -o libca.so \
      && cc -O1 -g -pg -shared -fPIC -DLIB_B "$here/objcalls_lib.c" -o libcb.so -L. -lca \
      && echo 'int fill(void) { return 5; }' > fill.c && cc -O1 -shared -fPIC fill.c -o libfill.so \
      && cc -O1 "$here/objcalls.c" -o objcalls_inst -L. -lca $flags -lpthread -ldl -Wl,-rpath,"$w"
    rm -rf gmon.out gmon.out.objects
    out=$(LIBPROF_OBJECTS=1 LD_LIBRARY_PATH="$lib" ./objcalls_inst "$w/libcb.so" "$w/libfill.so")
    for f in a_work a_leaf b_work b_leaf a_leaf_from_b; do
      eval "k_$f=\$(echo \"\$out\" | tr ' ' '\\n' | sed -n 's/^$f=//p')"
    done
    ga=$("$G" -b -p libca.so $(files gmon.out libca.so) | awk '$NF == "a_leaf" && NF == 7 {print $4}')
    "$G" --objects --json=- objcalls_inst gmon.out | python3 "$here/arcs.py" --json > inst.graph
    readelf -d objcalls_inst | grep -q 'NEEDED.*libprof.so.1' && [ "$k_a_leaf" = 800006 ] && [ "$ga" = "$k_a_leaf" ] \
      && [ -n "$(files gmon.out libcb.so)" ] && objcalls_arcs inst.graph
    say $? "installed tree: objcalls.c built with pkg-config's flags, LIBPROF_OBJECTS=1: libca's file has a_leaf's $ga calls, every arc across objects exact"
  else
    say 1 "pkg-config is not installed (the README's Quick start installs it)"
  fi
  if [ -f "$top/libprof/32/libprof.a" ]; then
    l32=$(dirname "$(find "$st" -path '*/lib32/libprof.a' | head -1)")
    rm -f gmon.out
    cc -m32 -O1 -pg "$here/known.c" -o known32i -L"$l32" -lprof \
      && { [ $run32 = 0 ] || { ./known32i > /dev/null && [ "$(calls known32i gmon.out c)" = 30 ]; }; } \
      && [ "${l32%/lib32}" = "${lib%/lib}" ] && ld -m elf_i386 --verbose | grep -q "SEARCH_DIR(\"=${l32#$st}\")"
    say $? "installed tree: -m32 program linked with the i386 archive in ${l32#$st}, where ld -m elf_i386 looks$([ $run32 = 1 ] && echo ', and runs')"
  fi
else
  say 1 "make install DESTDIR=... (see install.log)"
fi
