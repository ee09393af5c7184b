#!/bin/sh
# libprof's tests for another architecture: sh cross.sh i386|aarch64.
# Programs built with -pg against that architecture's archive
# (libprof/32/libprof.a, libprof/aarch64/libprof.a), run natively when
# the machine can (i386 on an x86-64 kernel with IA-32 emulation), else
# under qemu-user (qemu-i386, qemu-aarch64), and read back with our gprof
# (and GNU gprof when present).  Prints "ok ..." / "FAIL ..." lines, as
# run.sh does; tests/run.sh counts them.
#
# Counts are checked exactly.  Samples are not: qemu-user's CPU-time
# timers are the host thread's, so what lands where under emulation says
# little about the stub (the native x86-64 run checks sampling).
#
# aarch64: $A64CC is the cross compiler (configure finds it).  GCC's -pg
# passes frompc in x0 to _mcount; clang's passes nothing, so with clang
# each program goes through assembly and gets "mov x0, x30" before its
# "bl _mcount" (x30 is still the function's return address there, and
# x0 is free: the call is an ordinary one for the compiler).
arch=$1
. "$(dirname "$0")/common.sh"
say_prefix="$arch: "

case $arch in
  i386)
    lib=$top/libprof/32
    [ -f "$lib/libprof.a" ] || { echo "skip: no $lib/libprof.a"; exit 0; }
    printf 'int main(void){return 0;}\n' > t.c && cc -m32 t.c -o t || { echo "skip: cc -m32 does not link"; exit 0; }
    if ./t 2> /dev/null; then run() { "$@"; }; how=native
    # (under qemu-i386 -- a kernel without IA32 emulation -- a program
    # now and then never ended, its threads waiting on futexes, main as
    # well as now: bounded, a failed check rather than a suite that hangs)
    elif command -v qemu-i386 > /dev/null; then run() { timeout 120 qemu-i386 -L / "$@"; }; how=qemu-i386
    else echo "skip: this kernel runs no i386 program and qemu-i386 is missing"; exit 0; fi
    # qemu-i386 (7.2 here) shares one descriptor table among a process's
    # threads: once a second thread has set its thread-local storage, a
    # signal taken by the first reloads %gs from it, and the handler reads
    # the other thread's storage -- any threaded i386 program, libprof or
    # not (tls32.c: 112 of 113 signals).  libprof's handler then took every
    # sample for its own code, and its per-thread tables were shared: no
    # check of it can pass there
    if [ $how = qemu-i386 ]; then
      cat > tls32.c <<'C'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>
static __thread int mine;
static volatile int own, other;
static void h(int s) { (void)s; if (mine) other++; else own++; }
static void *peer(void *a) { (void)a; mine = 1; sleep(3); return 0; }
int main(void)
{
  sigset_t m; sigemptyset(&m); sigaddset(&m, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &m, 0);
  pthread_t t; pthread_create(&t, 0, peer, 0);
  pthread_sigmask(SIG_UNBLOCK, &m, 0);
  usleep(50000);
  signal(SIGPROF, h);
  struct itimerval v = { { 0, 1000 }, { 0, 1000 } };
  setitimer(ITIMER_PROF, &v, 0);
  volatile unsigned long x = 0;
  for (unsigned long i = 0; i < 100000000UL; i++) x += i;
  printf("%d %d\n", own, other);
  return 0;
}
C
      set -- $(cc -m32 -O1 tls32.c -o tls32 -lpthread && run ./tls32)
      if [ "${2:-0}" -gt 0 ]; then
        echo "skip: qemu-i386 gives a thread's signal handler another thread's thread-local storage ($2 of $(($1 + $2)) signals): libprof's i386 checks need a kernel that runs i386 programs"
        exit 0
      fi
    fi
    # xcc SRC OUT [FLAGS...]: a -pg program linked with the archive
    xcc() { s=$1 o=$2; shift 2; cc -m32 -O1 -pg -I"$top/libprof" "$s" -o "$o" "$@" -L"$lib" -lprof -lpthread; }
    # xso SRC OUT CFLAG [LINK...]: a -pg shared library
    xso() { s=$1 o=$2 d=$3; shift 3; cc -m32 -O1 -g -pg -fPIC -shared $d "$s" -o "$o" "$@"; }
    modes="pie nopie static";;
  aarch64)
    lib=$top/libprof/aarch64
    [ -f "$lib/libprof.a" ] || { echo "skip: no $lib/libprof.a (no aarch64 cross compiler at configure time)"; exit 0; }
    [ -n "$A64CC" ] || { echo "skip: A64CC is not set"; exit 0; }
    command -v qemu-aarch64 > /dev/null || { echo "skip: qemu-aarch64 is missing"; exit 0; }
    sysroot=/usr/aarch64-linux-gnu
    run() { qemu-aarch64 -L "$sysroot" "$@"; }; how=qemu-aarch64
    printf 'void f(void) {}\n' > t.c
    if $A64CC -O1 -pg -S t.c -o - | grep -B1 'bl[[:space:]]*_mcount' | grep -q 'mov[[:space:]]*x0, *x30'; then
      xcc() { s=$1 o=$2; shift 2; $A64CC -O1 -pg -I"$top/libprof" "$s" -o "$o" "$@" -L"$lib" -lprof -lpthread; }
      xso() { s=$1 o=$2 d=$3; shift 3; $A64CC -O1 -g -pg -fPIC -shared $d "$s" -o "$o" "$@"; }
    else
      xcc() {
        s=$1 o=$2; shift 2
        $A64CC -O1 -pg -I"$top/libprof" -S "$s" -o "$o.raw.s" \
          && sed 's/^\([[:space:]]*\)bl[[:space:]]*_mcount$/\1mov\tx0, x30\n\1bl\t_mcount/' "$o.raw.s" > "$o.s" \
          && $A64CC -pg "$o.s" -o "$o" "$@" -L"$lib" -lprof -lpthread
      }
      xso() {
        s=$1 o=$2 d=$3; shift 3
        $A64CC -O1 -g -pg -fPIC $d -S "$s" -o "$o.raw.s" \
          && sed 's/^\([[:space:]]*\)bl[[:space:]]*_mcount$/\1mov\tx0, x30\n\1bl\t_mcount/' "$o.raw.s" > "$o.s" \
          && $A64CC -shared "$o.s" -o "$o" "$@"
      }
    fi
    modes="pie static";;
  *) echo "usage: cross.sh i386|aarch64" >&2; exit 2;;
esac
echo "# $arch programs run by: $how"
flags() { case $1 in pie) echo "";; nopie) echo "-no-pie";; static) echo "-static";; esac; }

# exact counts on the known call graph (a 3, b 15, c 30; c called 30 times
# from each of its two callers), in every link mode
for mode in $modes; do
  rm -f gmon.out
  xcc "$here/known.c" known $(flags $mode) && run ./known > /dev/null
  [ "$(calls known gmon.out a)" = 3 ] && [ "$(calls known gmon.out b)" = 15 ] && [ "$(calls known gmon.out c)" = 30 ] \
    && [ "$("$G" -b -q known gmon.out | grep -c '30+30 *c \[')" = 1 ]
  say $? "exact counts on a known call graph ($mode)"
  agree known gmon.out
  say $? "GNU gprof agrees on libprof's file ($mode)"
  # the header's spare bytes: the tag and the program's build-id (issue 24)
  id=$(readelf -n known | sed -n 's/.*Build ID: \(................\).*/\1/p')
  [ -n "$id" ] && [ "$(od -An -v -tx1 -j 8 -N 12 gmon.out | tr -d ' \n')" = "bb424944$id" ] \
    && [ -z "$("$G" -b known gmon.out 2>&1 > /dev/null)" ]
  say $? "gmon.out holds the program's build-id, read back without a warning ($mode)"
done

# IFUNC resolvers that are -pg, called by the loader before the thread's
# TLS exists (tpidr_el0 / %gs unset in a static program): they crashed
# the static programs before main
for mode in $modes; do
  rm -f gmon.out ifunc.got
  xcc "$here/ifunc.c" ifunc $(flags $mode) && run ./ifunc 300 > ifunc.got; rc=$?
  why=""
  [ $rc = 0 ] || why="exit $rc"
  [ -z "$why" ] && [ "$(sed -n 1p ifunc.got)" != 179700 ] && why="wrong output"
  for k in $(sed -n 's/^count \([a-z_]*\) \([0-9]*\)$/\1=\2/p' ifunc.got); do
    c=$(calls ifunc gmon.out "${k%=*}"); [ "$c" = "${k#*=}" ] || why="$why ${k%=*} $c calls, not ${k#*=}"
  done
  [ -z "$(calls ifunc gmon.out resolver_helper)" ] || why="$why the resolver's call counted"
  say $([ -z "$why" ]; echo $?) "IFUNC resolvers that are -pg: run, exact counts ($mode)${why:+: $why}"
done

# many arcs: the table grows past its first 1024 slots, arcs collide and
# are probed for, the stub's wrap-round is taken
{
  echo 'static volatile unsigned sink;'
  i=0; while [ $i -lt 1500 ]; do echo "__attribute__((noinline)) void f$i(void) { sink += $i; }"; i=$((i + 1)); done
  for c in p q; do
    echo "__attribute__((noinline)) void $c(int r) {"
    i=0; while [ $i -lt 1500 ]; do echo " if (r < $((i % 7 + 1))) f$i();"; i=$((i + 1)); done
    echo '}'
  done
  echo 'int main(void) { for (int r = 0; r < 7; r++) { p(r); q(r); } return 0; }'
} > arcs.c
rm -f gmon.out
xcc arcs.c arcs && run ./arcs
bad=$("$G" -b -p arcs gmon.out | awk '$NF ~ /^f[0-9]+$/ {n = substr($NF, 2); if ($4 != 2 * (n % 7 + 1)) bad++; k++} END {print k + 0, bad + 0}')
[ "$bad" = "1500 0" ]
say $? "3000 arcs from two callers, counted exactly (functions seen, wrong: $bad)"

# threads: every call counted
rm -f gmon.out
xcc "$here/threads.c" threads && run ./threads 200000 > /dev/null 2>&1
[ "$(calls threads gmon.out leaf)" = 800000 ]
say $? "4 threads x 200000 calls counted exactly"

# fork: parent and child each write their own file
rm -f gmon.out gmon.out.*
xcc "$here/known.c" known && child=$(run ./known fork)
[ "$(calls known gmon.out d)" = 4 ] && [ -f gmon.out.$child ] && [ "$(calls known gmon.out.$child d)" = 7 ]
say $? "fork: the child writes gmon.out.PID, the parent's file is its own"

# profiling off (moncontrol(0)): calls return at once, uncounted
cat > off.c <<'C'
void moncontrol(int);
static volatile int sink;
__attribute__((noinline)) void f(void) { sink++; }
int main(void) {
  for (int i = 0; i < 5; i++) f();
  moncontrol(0); for (int i = 0; i < 7; i++) f();
  moncontrol(1); for (int i = 0; i < 3; i++) f();
  return 0;
}
C
rm -f gmon.out
xcc off.c off && run ./off
[ "$(calls off gmon.out f)" = 8 ]
say $? "moncontrol(0) stops counting, moncontrol(1) resumes"

# snapshots: libprof_dump(path) and LIBPROF_DUMP_SIGNAL
xcc "$here/snap.c" snap
rm -f gmon.out dump.out
run ./snap call dump.out > /dev/null
[ "$(calls snap dump.out phase1)" = 1000 ] && [ -z "$(calls snap dump.out phase2)" ] \
  && [ "$(calls snap gmon.out phase2)" = 1000 ]
say $? "libprof_dump(path) writes a snapshot and profiling goes on"
rm -f gmon.out snap.out
LIBPROF_DUMP_SIGNAL=USR1 run ./snap signal snap.out > /dev/null
[ "$(calls snap snap.out phase1)" = 1000 ] && [ -z "$(calls snap snap.out phase2)" ] \
  && [ "$(calls snap gmon.out phase1)" = 1000 ] && [ "$(calls snap gmon.out phase2)" = 1000 ]
say $? "LIBPROF_DUMP_SIGNAL=USR1 writes a snapshot and profiling goes on"

# libprof never shows in a listing, ours or GNU's
pat='mcount|_mcount|__fentry__|__monstartup|monstartup|_mcleanup|mcleanup|moncontrol|libprof_dump|libprof\$[a-z_]*'
for mode in $modes; do
  ok=1
  rm -f gmon.out
  xcc "$here/known.c" vis $(flags $mode) && run ./vis > /dev/null || ok=0
  for g in "$G" /usr/bin/gprof; do
    [ -x "$g" ] || continue
    for o in "-z" "-z -c" "-r" "-C" "-z -C" "-b -z -c -q" "-z -T"; do
      "$g" $o vis gmon.out > vis.out 2>&1
      if grep -E -w -q "$pat" vis.out; then ok=0; echo "libprof shows: $g $o ($mode): $(grep -E -w "$pat" vis.out | head -1)"; fi
    done
  done
  say $((1 - ok)) "no libprof function in -z, -c, -r, -C listings, ours and GNU's ($mode)"
done

# real stacks (LIBPROF_STACKS): the walk names the known chain, the file
# is well formed and its leaves in the program add up to the histogram;
# then the same with the signal sent by the program from inside libc's
# syscall wrapper (a leaf without a frame)
for mode in $modes; do
  rm -f gmon.out gmon.out.stacks
  xcc "$here/stk_chain.c" chain $(flags $mode) && LIBPROF_HZ=1000 LIBPROF_STACKS=32 run ./chain
  h=$(python3 "$here/hist.py" $( [ $arch = i386 ] && echo -m32 ) gmon.out | awk '{printf "%d\n", $2 * $4 + 0.5}')
  # (qemu's CPU time translating code it has not run before is charged to
  # that code's first instruction: in the static link the C library's
  # exit path is the program's text, and the return paths of b and a run
  # once; they take a few samples there in about one run of two.  So
  # every stack whose leaf is spin must be spin <- b <- a <- main, and
  # spin must hold at least 98% of the histogram.)
  facts=$(python3 "$here/stk.py" gmon.out.stacks chain spin b a main)
  n=$(echo "$facts" | sed -n 's/^leaf spin //p')
  [ -n "$n" ] && [ "$(echo "$facts" | sed -n 's/.* leaf-in-program \([0-9]*\).*/\1/p')" = "$h" ] \
      && [ "$(echo "$facts" | sed -n 's/^chain b a main //p')" = "$n" ] \
      && [ "$h" -gt 100 ] && [ $((n * 100)) -ge $((h * 98)) ]
  st=$?; [ $st = 0 ] || grep '^stack' gmon.out.stacks | sort -k3 -n -r | head -5 | sed 's/^/  /'
  say $st "LIBPROF_STACKS: main -> a -> b -> spin in every stack, $n of $h samples ($mode): $(echo $facts)"
  # (not static: libc's wrapper is then the program's text, taken for
  # code with frames; not i386, whose system calls go through the vDSO's
  # __kernel_vsyscall, whose frame holds saved registers, not a caller)
  [ $mode = static ] || [ $arch = i386 ] && continue
  rm -f gmon.out gmon.out.stacks
  LIBPROF_HZ=0 LIBPROF_STACKS=32 run ./chain raise
  facts=$(python3 "$here/stk.py" gmon.out.stacks chain spin) && n=$(echo "$facts" | sed -n 's/^samples \([0-9]*\).*/\1/p') \
    && [ "$n" -ge 150 ] && [ "$(echo "$facts" | sed -n 2p)" = "b $n" ] \
    && [ "$(python3 "$here/stk.py" gmon.out.stacks chain b | sed -n 2p)" = "a $n" ] \
    && [ "$(python3 "$here/stk.py" gmon.out.stacks chain a | sed -n 2p)" = "main $n" ]
  say $? "LIBPROF_STACKS: from libc's syscall wrapper, main -> a -> b -> spin in every stack ($mode): $(echo $facts)"
done

# a -pg shared library's frames, walked by the unwind tables (libprof/
# cfi.c; unwind.sh on x86-64): via;lib_outer;lib_inner in every stack
rm -f gmon.out gmon.out.stacks
xso "$here/unwind_lib.c" libuwlib.so "" && xcc "$here/unwind_pg.c" upg -L. -luwlib -Wl,-rpath,"$w" \
  && LIBPROF_HZ=1000 LIBPROF_STACKS=64 run ./upg 200
facts=$(python3 "$here/stk_walk.py" gmon.out.stacks "via;lib_outer;lib_inner")
n=$(echo "$facts" | sed -n 's/^samples \([0-9]*\).*/\1/p'); full=$(echo "$facts" | sed -n 's/^chain [^ ]* //p')
[ -n "$n" ] && [ "$n" -gt 50 ] && [ $((full * 100)) -ge $((n * 95)) ]
say $? "LIBPROF_STACKS: a -pg library's two frames, via;lib_outer;lib_inner in $full of $n samples"

# calls into and inside -pg shared libraries (LIBPROF_OBJECTS=1), as
# objcalls.sh checks them on x86-64: objcalls.c's four threads into
# libca (linked at start), libcb opened, closed and opened again
# elsewhere, libcb calling libca, qsort calling libca back; each count
# exact in the libraries' own files (GNU gprof: the calls inside each)
# and in gprof --objects' call graph (every arc, across objects too);
# the program's gmon.out as without the variable
m32=$( [ $arch = i386 ] && echo -m32 )
xso "$here/objcalls_lib.c" libca.so -DLIB_A && xso "$here/objcalls_lib.c" libcb.so -DLIB_B -L. -lca \
  && echo 'int fill(void) { return 5; }' > fill.c && xso fill.c libfill.so "" \
  && xcc "$here/objcalls.c" objcalls -L. -lca -ldl -Wl,-rpath,"$w"
ocalls() { # the program's printed counts, as k_NAME
  for f in a_work a_leaf b_work b_leaf a_leaf_from_b a_cmp moved; do
    eval "k_$f=\$(echo \"\$1\" | tr ' ' '\\n' | sed -n 's/^$f=//p')"
  done
}
# (the -pg library's run above left a gmon.out.stacks, another program's:
# -s would rightly warn that it does not match)
rm -rf gmon.out gmon.out.objects gmon.out.stacks
out=$(run ./objcalls "$w/libcb.so" "$w/libfill.so") && ocalls "$out"
python3 "$here/arcs.py" $m32 gmon.out > plain.arcs
[ ! -e gmon.out.objects ] && [ -s plain.arcs ] && [ "$k_a_leaf" = 800006 ]
say $? "objects' calls: without LIBPROF_OBJECTS, gmon.out alone, $(wc -l < plain.arcs) arcs of the program"
rm -rf gmon.out gmon.out.objects
out=$(LIBPROF_OBJECTS=1 run ./objcalls "$w/libcb.so" "$w/libfill.so") && ocalls "$out"
python3 "$here/arcs.py" $m32 gmon.out > objects.arcs
cmp -s plain.arcs objects.arcs
say $? "objects' calls: with LIBPROF_OBJECTS=1 the program's gmon.out has the same arcs"
ga=$(gnu_calls gmon.out libca.so a_leaf); gb=$(gnu_calls gmon.out libcb.so b_leaf)
[ "$ga" = "$k_a_leaf" ] && [ "$gb" = "$k_b_leaf" ] && [ "$(files gmon.out libcb.so | wc -l)" = 1 ]
say $? "objects' calls: GNU gprof on libca.so's file: a_leaf $ga (program: $k_a_leaf); on libcb.so's (opened twice, moved=$k_moved, one file): b_leaf $gb ($k_b_leaf)"
if [ -x /usr/bin/gprof ]; then
  agree libca.so $(files gmon.out libca.so)
  say $? "objects' calls: our gprof reads a library's file as GNU gprof does (outside callers dropped)"
fi
"$G" --objects --json=- objcalls gmon.out 2> /dev/null | python3 "$here/arcs.py" --json > all.graph
objcalls_arcs all.graph; ok=$?
[ "$(awk -F'|' '$1 == "[libc.so.6]" && $2 == "a_cmp [libca.so]" {s += $3} END {print s + 0}' all.graph)" = "$k_a_cmp" ] || ok=1
# (the program's own arcs vary: clang inlines run)
[ "$(grep -c '\[lib' all.graph)" = 7 ] || ok=1
say $ok "objects' calls: --objects: worker_a -> a_work [libca.so] $k_a_work, a_work -> a_leaf $k_a_leaf, worker_b -> b_work [libcb.so] $k_b_work, b_work -> b_leaf $k_b_leaf, b_work -> a_leaf [libca.so] $k_a_leaf_from_b, [libc.so.6] -> a_cmp [libca.so] $k_a_cmp: every arc exact, none other"
# -s --objects: the run summed with itself, per object, callers in other
# objects renumbered in this target's encoding
rm -rf gmon.sum gmon.sum.objects
"$G" -s --objects objcalls gmon.out gmon.out > /dev/null 2> sum.err
"$G" --objects --json=- objcalls gmon.sum 2> /dev/null | python3 "$here/arcs.py" --json > sum.graph
awk -F'|' '{print $1 "|" $2 "|" 2 * $3}' all.graph | sort > twice.graph
# (under qemu the C library's path names the sysroot's: a warning that it
# cannot be read, as in the other checks here)
grep -v ': cannot read it: ' sum.err > sum.other
sort sum.graph | cmp -s - twice.graph && [ ! -s sum.other ]
say $? "objects' calls: -s --objects sums every object: each arc of --objects twice over gmon.out with itself $(cat sum.other)"
rm -rf gmon.out gmon.out.objects
out=$(LIBPROF_OBJECTS=1 run ./objcalls "$w/libcb.so" "$w/libfill.so" snap snap.out) && ocalls "$out"
[ "$(gnu_calls snap.out libca.so a_leaf)" = "$k_a_leaf" ] \
  && [ -z "$(files snap.out libcb.so)" ]
say $? "objects' calls: a snapshot after the calls into libca has a_leaf's $k_a_leaf, no libcb yet"

# i386: calls of a -pg library's function without a frame pointer
# (nofp_lib.c: %ebp 0 at its mcount call, which reads 4(%ebp)), through
# the library path and, dlopen'ed and called at once, through the C
# library's mcount sent to libprof's: not counted and said, the
# program's arcs exact (they crashed the program before).  AArch64's
# _mcount reads no frame: frompc comes in x0.
if [ "$arch" = i386 ]; then
  xso "$here/nofp_lib.c" libnofp.so "" && xso "$here/nofp_lib.c" libnofp2.so "" -Wl,-soname,libnofp2.so \
    && xcc "$here/nofp.c" nofp -L. -lnofp -Wl,-rpath,"$w" -ldl
  for a in "" ./libnofp2.so; do
    rm -rf gmon.out gmon.out.objects
    LIBPROF_OBJECTS=1 run ./nofp $a > nofp.out 2> nofp.err; rc=$?
    want=10; [ -n "$a" ] && want=11
    said=$(sed -n 's/^libprof: \([0-9]*\) calls not counted.*/\1/p' nofp.err)
    [ $rc = 0 ] && [ "$said" = "$want" ] && [ "$(calls nofp gmon.out twice)" = 10 ]
    say $? "calls without a frame pointer from a library${a:+ dlopen'ed}: not counted and said (status $rc, said ${said:-nothing}, want $want)"
  done
fi
