#!/bin/sh
# --pprof, checked by decoding the file (tests/tools/pprofcheck.py: gzip
# and a small protobuf reader, against the JSON of the same run) and with
# the real reader, `go tool pprof` (-raw, -top, -traces), when go is
# installed.  Prints "ok WHAT", "FAIL WHAT: why" or "skip WHAT: why" per
# check; run.sh counts them.  GPROF is the gprof to test; OUT a scratch
# directory.
cd "$(dirname "$0")"
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/pprof}"
rm -rf "$OUT"; mkdir -p "$OUT/bin" "$OUT/home"
# run as plain `gprof`, since messages start with argv[0]
ln -s "$GPROF" "$OUT/bin/gprof"; GPROF=gprof; PATH="$OUT/bin:$PATH"
py=python3
chk="$py $top/tests/tools/pprofcheck.py"
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
command -v $py > /dev/null || { bad "pprof: python3 is not installed"; exit 0; }
# go tool pprof runs offline: a home and a build cache of its own, no
# module look-ups (it is a prebuilt tool of the Go distribution)
if command -v go > /dev/null && HOME=$OUT/home GOCACHE=$OUT/home/cache go tool pprof -h > /dev/null 2>&1; then
  havego=1
else
  havego=0; echo "skip go tool pprof: go is not installed; the files are checked by pprofcheck.py only"
fi
gopprof() { HOME=$OUT/home GOCACHE=$OUT/home/cache GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local go tool pprof "$@"; }

# WHAT DIR OPTS: gprof OPTS with --pprof and --json in case DIR; the text
# unchanged by --pprof; the file decoded and checked against the JSON; go
# tool pprof's -raw totals, -top's per-function figures (TOPMODE "total":
# the total only, as under -l, whose rows are lines) and -traces' arcs.
check() {
  what=$1; d=$2; o=$3; topmode=$4; k=$((k + 1)); p=$OUT/$k.pb.gz; j=$OUT/$k.json
  (cd $d && "$GPROF" $o bin $(cat files) > $OUT/$k.txt 2>&1)
  if ! (cd $d && "$GPROF" $o --pprof=$p --json=$j bin $(cat files) > $OUT/$k.ptxt 2>&1); then
    bad "$what: gprof failed: $(head -2 $OUT/$k.ptxt)"; return
  fi
  cmp -s $OUT/$k.txt $OUT/$k.ptxt || { bad "$what: the text changed with --pprof"; return; }
  r=$($chk flat $p $j) && ok "$what: decoded: $r" || { bad "$what: decoded: $r"; return; }
  [ $havego = 1 ] || return
  gopprof -raw $p > $OUT/$k.raw 2> $OUT/$k.goerr && [ ! -s $OUT/$k.goerr ] && r=$($chk raw $OUT/$k.raw $j) \
    && ok "$what: pprof -raw: $r" || bad "$what: pprof -raw: $(head -2 $OUT/$k.goerr) $r"
  if grep -q '"rate":[1-9]' $j; then
    gopprof -top -unit=ns -nodecount=1000000 -nodefraction=0 $p > $OUT/$k.top 2> $OUT/$k.goerr \
      && [ ! -s $OUT/$k.goerr ] && r=$($chk top $OUT/$k.top $j $topmode) \
      && ok "$what: pprof -top: $r" || bad "$what: pprof -top: $(head -2 $OUT/$k.goerr) $r"
  fi
  # (under -l a frame is a line, and may be a function inlined into
  # another: two lines in -traces)
  if grep -q '"call_graph":{' $j && [ -z "$topmode" ]; then
    gopprof -sample_index=calls -traces $p > $OUT/$k.traces 2> $OUT/$k.goerr \
      && [ ! -s $OUT/$k.goerr ] && r=$($chk traces $OUT/$k.traces $j) \
      && ok "$what: pprof -traces: $r" || bad "$what: pprof -traces: $(head -2 $OUT/$k.goerr) $r"
  fi
}

# 1. The suite's profiles: C and C++ (demangled and linkage names, long
#    template names), cycles and self recursion, 32-bit and other
#    targets' objects, a histogram or arcs alone, two files summed, -l
#    (line symbols: a location each, inlined code as an inline frame).
k=0
for c in cycles cycles_m32 cycles_static cxxgraph hotlines multi names histonly arcsonly lines_O2 lines_stl \
         cross_aarch64 cross_sparc64 cross_mips synth_700_27 fileorder_synth; do
  [ -d cases/$c ] || { bad "pprof: no case $c"; continue; }
  check "$c" cases/$c "-b"
done
for c in hotlines lines_O2 lines_stl lines_cc; do
  check "$c [-l -z]" cases/$c "-b -l -z" total
done
check "cycles [-b -z -c]" cases/cycles "-b -z -c"
# names that are not UTF-8, with quotes, spaces and controls
# (tests/tools/weirdnames.py): strings are bytes in the file, decoded
# names equal to the JSON's; go tool pprof's displays rewrite some names
# ("<html>..."), so only its totals are compared
b=$OUT/weird; $py tools/weirdnames.py $b && echo gmon.out > $b/files && check "weird names" $b "-b" total
check "cycles [-b -P]" cases/cycles "-b -Pspin"

# 2. Deterministic (gzip's header carries no time), and readable as a
#    stream: --pprof=- into a file is the same bytes; not onto a terminal.
m=cases/cycles; f=$OUT/files; mkdir -p $f
(cd $m && "$GPROF" -b --pprof=$f/a.pb.gz bin gmon.out > /dev/null && "$GPROF" -b --pprof=$f/b.pb.gz bin gmon.out > /dev/null \
   && "$GPROF" -b --pprof=- bin gmon.out > $f/c.pb.gz)
if cmp -s $f/a.pb.gz $f/b.pb.gz && cmp -s $f/a.pb.gz $f/c.pb.gz; then ok "deterministic, and the same to standard output"
else bad "two runs, or --pprof=-, gave different files"; fi
r=$($py - "$OUT/bin/gprof" "$top/tests/$m" <<'PYEOF'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.chdir(sys.argv[2])
    os.execv(sys.argv[1], ['gprof', '-b', '--pprof=-', 'bin', 'gmon.out'])
out = b''
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
_, st = os.waitpid(pid, 0)
print(os.WEXITSTATUS(st), out.decode('latin-1').strip())
PYEOF
)
case $r in "1 gprof: --pprof: binary data not written to a terminal") ok "--pprof=- refused on a terminal";;
  *) bad "--pprof=- on a terminal: $r";; esac
mkdir -p $f/cwd; (cd $f/cwd && "$GPROF" -b --pprof "$top/tests/$m/bin" "$top/tests/$m/gmon.out" > out)
[ -s $f/cwd/gprof.pb.gz ] && gzip -t $f/cwd/gprof.pb.gz && ok "default file gprof.pb.gz" || bad "default file gprof.pb.gz"
: > $f/plain
(cd $m && "$GPROF" -b --pprof=$f/plain/x.pb.gz bin gmon.out > $f/out 2> $f/err); rc=$?
if [ $rc = 1 ] && grep -qx "gprof: $f/plain/x.pb.gz: Not a directory" $f/err && [ ! -s $f/out ]; then ok "unwritable --pprof file"
else bad "unwritable --pprof file: rc $rc: $(cat $f/err)"; fi

# 3. A program built here with -pg against libprof, run, and read back
#    (tests/progs/cycles.c: its cycles, recursion and exact calls).
if [ -f "$top/libprof/libprof.a" ] && command -v cc > /dev/null; then
  b=$OUT/live; mkdir -p $b; echo gmon.out > $b/files
  if cc -O1 -g -pg progs/cycles.c -o $b/bin -L"$top/libprof" -lprof 2> $b/cc.err && (cd $b && ./bin 30000 > /dev/null); then
    check "built with libprof" $b "-b"
    # the file names the object: its build-id as readelf reads it
    id=$(readelf -n $b/bin 2> /dev/null | sed -n 's/.*Build ID: //p')
    if [ $havego = 1 ] && [ -n "$id" ]; then
      gopprof -top $OUT/$k.pb.gz 2>&1 | grep -qx "Build ID: $id" && ok "build-id $id in the mapping" \
        || bad "the mapping's build-id is not $id"
    fi
  else
    bad "built with libprof: $(head -3 $b/cc.err)"
  fi
fi

# 4. 20,000 functions and 200,000 arcs (tests/tools/synth.py): written,
#    decoded and read by pprof.
b=$OUT/big; $py tools/synth.py 20000 200000 5 $b > /dev/null && echo gmon.out > $b/files
check "20000 functions" $b "-b"

# 5. With stacks (PROFILE.stacks; stacks.c): a sample per stack, leaf
#    first, labelled with its thread; a mapping per object; the arcs too.
#    stackgen.py's hand-made file (a PIE program, a shared library and its
#    padding, the vdso, a missing object, PCs in no object, two threads);
#    then a program built here against libprof and run with
#    LIBPROF_STACKS=64, whose stacks with their leaf in the program add up
#    to the histogram.
# STACKCHECK WHAT DIR PROG OPTS [--live]: --pprof over DIR/gmon.out and
# its stacks, the text (standard output) as without it, decoded and read
# by go tool pprof
stackcheck() {
  what="$1 [$4]"; d=$2; prog=$3; o=$4; live=$5
  (cd $d && "$GPROF" $o $prog gmon.out > plain.txt 2> /dev/null)
  if ! (cd $d && "$GPROF" $o --pprof=s.pb.gz --json=s.json $prog gmon.out > s.txt 2> s.err); then
    bad "$what: gprof failed: $(head -2 $d/s.err)"; return
  fi
  cmp -s $d/plain.txt $d/s.txt || bad "$what: the text changed with --pprof"
  r=$($chk stacks $d/s.pb.gz $d/s.json $live $d/gmon.out.stacks) && ok "$what: decoded: $r" || bad "$what: decoded: $r"
  [ $havego = 1 ] || return
  gopprof -top -unit=ns $d/s.pb.gz > $d/s.top 2> $d/s.goerr && [ ! -s $d/s.goerr ] \
    && r=$($chk top-stacks $d/s.top $d/gmon.out.stacks) && ok "$what: pprof -top: $r" \
    || bad "$what: pprof -top: $(head -2 $d/s.goerr) $r"
  gopprof -traces $d/s.pb.gz > $d/s.traces 2> $d/s.goerr && [ ! -s $d/s.goerr ] \
    && r=$($chk traces-stacks $d/s.traces $d/gmon.out.stacks) && ok "$what: pprof -traces: $r" \
    || bad "$what: pprof -traces: $(head -2 $d/s.goerr) $r"
}
s=$OUT/stacks; mkdir -p $s
if [ -f tools/stackgen.py ] && command -v cc > /dev/null && command -v readelf > /dev/null; then
  if cc -shared -fPIC -g -O0 -Wl,--build-id progs/stacks/lib.c -o $s/libstk.so \
     && cc -pg -pie -fPIE -g -O0 progs/stacks/prog.c -o $s/prog && (cd $s && ./prog > /dev/null) \
     && (cd $s && $py $top/tests/tools/stackgen.py prog 0x555555554000 libstk.so 0x7f1234560000 1 gmon.out.stacks exp); then
    for o in "-b" "-b -l" "-b -z --objects"; do stackcheck "stacks (stackgen.py)" $s prog "$o"; done
  else
    bad "stacks: building or generating failed"
  fi
fi
l=$OUT/live_stacks; mkdir -p $l
if [ -f "$top/libprof/libprof.a" ] && command -v cc > /dev/null \
   && cc -O1 -g -pg -fno-omit-frame-pointer progs/cycles.c -o $l/bin -L"$top/libprof" -lprof 2> $l/cc.err \
   && (cd $l && LIBPROF_STACKS=64 ./bin 30000 > /dev/null) && [ -f $l/gmon.out.stacks ]; then
  stackcheck "stacks (LIBPROF_STACKS=64)" $l bin -b --live
else
  echo "skip stacks (LIBPROF_STACKS=64): libprof wrote no stack file"
fi
