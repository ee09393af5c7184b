#!/bin/sh
# The test suite: committed GNU gprof 2.40 reports compared byte for byte,
# live comparisons against /usr/bin/gprof when it is installed, and unit
# tests.  Ends with "N passed, M failed"; exits non-zero on any failure.
cd "$(dirname "$0")"
top=$(cd .. && pwd)
GPROF=${GPROF:-$top/gprof}
out=$top/tests/out
rm -rf "$out"; mkdir -p "$out/bin" "$out/refbin"
# Both programs run as plain `gprof`, since messages start with argv[0].
ln -s "$GPROF" "$out/bin/gprof"
[ -x /usr/bin/gprof ] && ln -s /usr/bin/gprof "$out/refbin/gprof"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }


gaps=0
known() { grep -qxF "$1 $2" known-gaps; }
# A section's log, tests/out/NAME.log: "ok" lines pass, "FAIL" lines fail
# as "NAME: ...", "skip" lines are shown; with DONE, a log without a line
# matching it means the section did not run to the end.
section_log() {
  while IFS= read -r l; do
    case $l in
      ok*) ok;;
      FAIL*) bad "$1: ${l#FAIL }";;
      skip*) echo "$1: $l";;
    esac
  done < "$out/$1.log"
  [ -z "$2" ] || grep -q "$2" "$out/$1.log" || bad "$1: the tests did not run to the end (see tests/out/$1.log)"
}
optfile() { if [ -f $1/optsets ]; then echo $1/optsets; else echo optsets; fi; }

# 1. Committed expectations.
for d in cases/*/; do
  d=${d%/}; c=${d#cases/}
  k=0
  while IFS= read -r o; do
    k=$((k + 1))
    e=$d/expected/$k
    [ -f $e.rc ] || continue
    # a locale no machine has: the stale errno GNU prints for a cut
    # basic-block entry (what loading the locale left) is then ENOENT
    # everywhere, as when the expectations were recorded
    (cd $d && PATH="$out/bin:$PATH" LC_ALL=gprof_TEST.UTF-8 gprof $o bin $(cat files) > "$out/$c.$k.out" 2> "$out/$c.$k.err"; echo $? > "$out/$c.$k.rc")
    why=""
    cmp -s $e.out "$out/$c.$k.out" || why="$why stdout"
    cmp -s $e.err "$out/$c.$k.err" || why="$why stderr"
    cmp -s $e.rc "$out/$c.$k.rc" || why="$why exit"
    if known "$c" "$o"; then
      gaps=$((gaps + 1)); echo "KNOWN-GAP $c [$o]:${why:- now matches, remove it from known-gaps}"
    elif [ -z "$why" ]; then ok; else bad "$c [$o]:$why"; fi
  done < $(optfile $d)
done

# 2. Live comparison with GNU gprof, when present (in a case's env, as
# expect.sh records it).
if [ -x /usr/bin/gprof ]; then
  for d in cases/*/; do
    d=${d%/}; c=${d#cases/}
    while IFS= read -r o; do
      w=$out/live; rm -rf $w; mkdir -p $w/ref $w/cand
      for who in ref cand; do
        if [ $who = ref ]; then p=$out/refbin; else p=$out/bin; fi
        (cd $w/$who && env $(cat "$top/tests/$d/env" 2> /dev/null) PATH="$p:$PATH" gprof $o "$top/tests/$d/bin" $(for f in $(cat "$top/tests/$d/files"); do echo "$top/tests/$d/$f"; done) \
           > ../$who.out 2> ../$who.err; echo $? > ../$who.rc)
      done
      why=""
      cmp -s $w/ref.out $w/cand.out || why="$why stdout"
      cmp -s $w/ref.err $w/cand.err || why="$why stderr"
      cmp -s $w/ref.rc $w/cand.rc || why="$why exit"
      [ -f $w/ref/gmon.sum ] && { cmp -s $w/ref/gmon.sum $w/cand/gmon.sum || why="$why gmon.sum"; }
      if known "$c" "$o"; then
        gaps=$((gaps + 1)); echo "KNOWN-GAP live $c [$o]:${why:- now matches, remove it from known-gaps}"
      elif [ -z "$why" ]; then ok; else bad "live $c [$o]:$why"; fi
    done < optsets.live
  done
else
  echo "note: /usr/bin/gprof not installed; live comparisons skipped"
fi

# 2b. -y writes one FILE-ann per source file, as GNU does.
if [ -x /usr/bin/gprof ]; then
  w=$out/ann; rm -rf $w; mkdir -p $w/ref $w/cand
  for who in ref cand; do
    if [ $who = ref ]; then p=$out/refbin; else p=$out/bin; fi
    (cd $w/$who && PATH="$p:$PATH" gprof -b -A -y -I "$top/tests/progs/multi" "$top/tests/cases/multi/bin" \
       "$top/tests/cases/multi/gmon.out" > stdout 2> stderr)
  done
  if diff -r $w/ref $w/cand > /dev/null && [ -s $w/cand/alpha.c-ann ]; then ok; else bad "-y files differ from GNU's (tests/out/ann)"; fi
fi

# 2c. gmon.sum is written whole or not at all (issue 12): a full device, a
# file-size limit and a directory in the way each give a message and exit 1,
# and an old gmon.sum stays as it was.
w=$out/sum; rm -rf $w; mkdir -p $w
cp cases/cycles/bin cases/cycles/gmon.out $w/
(cd $w && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1 && cp gmon.sum old.sum)
ln -s /dev/full $w/full.sum
(cd $w && rm -f gmon.sum && ln -s full.sum gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gprof: gmon.sum: No space left on device' $w/err; then ok; else bad "-s to /dev/full: $(cat $w/err)"; fi
(cd $w && rm -f gmon.sum && cp old.sum gmon.sum && trap '' XFSZ && ulimit -f 1 && PATH="$out/bin:$PATH" gprof -s bin gmon.out gmon.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gprof: gmon.sum: File too large' $w/err && cmp -s $w/gmon.sum $w/old.sum \
   && [ -z "$(ls $w | grep tmp)" ]; then ok; else bad "-s past ulimit -f: $(cat $w/err)"; fi
(cd $w && rm -f gmon.sum && mkdir gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gmon.sum: Is a directory' $w/err; then ok; else bad "-s onto a directory: $(cat $w/err)"; fi
# (issue 25) C++ symspecs: a name with "::", alone or after "file:",
# names that function (GNU cuts at the first colon and matches nothing)
w2=$out/cxxspec; rm -rf $w2; mkdir -p $w2
if (cd $w2 && g++ -O1 -g -pg "$top/tests/progs/cxxgraph.cc" -o cxx -L"$top/libprof" -lprof 2> cc.err && ./cxx 500 > /dev/null); then
  flat() { (cd $w2 && PATH="$out/bin:$PATH" gprof -b "$@" cxx gmon.out | awk 'NF >= 4 && $1 ~ /^[0-9.]+$/' | sed 's/.*[0-9]  //'); }
  a=$(flat -p'shapes::Square::area() const'); b=$(flat -p'cxxgraph.cc:shapes::Square::area() const')
  c=$(flat -p'other.cc:shapes::Square::area() const'); d=$(flat -p -P'shapes::Circle::area() const')
  # (a spec another file's: it selects nothing, and a flat profile limited
  # to nothing lists every function, as GNU's does)
  if [ "$a" = "shapes::Square::area() const" ] && [ "$b" = "$a" ] && [ "$(echo "$c" | wc -l)" -gt 5 ] \
     && [ "$(echo "$d" | wc -l)" -gt 5 ] && ! echo "$d" | grep -q 'Circle::area'; then ok
  else bad "C++ symspecs: -p name: [$a], -p file:name: [$b], other file: $(echo "$c" | wc -l) rows, -P Circle: $(echo "$d" | grep -c 'Circle::area') Circle rows"; fi
else
  bad "C++ symspecs: cannot build cxxgraph.cc: $(cat $w2/cc.err)"
fi
# (issue 25) a write that fails mid-file names its errno, not EIO
cp cases/lines_big/bin $w/big.bin; cp cases/lines_big/gmon.out $w/big.out
(cd $w && rm -rf gmon.sum && cp old.sum gmon.sum && trap '' XFSZ && ulimit -f 8 && PATH="$out/bin:$PATH" gprof -s big.bin big.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gprof: gmon.sum: File too large' $w/err && cmp -s $w/gmon.sum $w/old.sum \
   && [ -z "$(ls -a $w | grep tmp)" ]; then ok; else bad "-s past ulimit -f mid-file: $(cat $w/err)"; fi
# as GNU: a dangling link's target is written (the link stays), a hard
# link keeps sharing the file, a mode-600 file stays 600
(cd $w && rm -f gmon.sum target.sum && ln -s target.sum gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1)
if [ -L $w/gmon.sum ] && cmp -s $w/target.sum $w/old.sum; then ok; else bad "-s through a dangling link"; fi
(cd $w && rm -f gmon.sum target.sum && echo x > shared && ln shared gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1)
if cmp -s $w/shared $w/old.sum && [ "$(stat -c %h $w/gmon.sum)" = 2 ]; then ok; else bad "-s onto a hard-linked gmon.sum"; fi
(cd $w && rm -f gmon.sum shared && echo x > gmon.sum && chmod 600 gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1)
if [ "$(stat -c %a $w/gmon.sum)" = 600 ] && cmp -s $w/gmon.sum $w/old.sum; then ok; else bad "-s onto a mode-600 gmon.sum: $(stat -c %a $w/gmon.sum)"; fi
# a kill -9 while gmon.sum is written leaves the old one and no temporary
if command -v python3 > /dev/null && [ -d /proc/self/fd ]; then
  k=$w/kill; mkdir -p $k; cp cases/cycles/bin $k/
  python3 -c "
import struct, sys
n = 40000000
sys.stdout.buffer.write(b'gmon' + struct.pack('<I', 1) + bytes(12) + b'\0' + struct.pack('<QQII', 0x1000, 0x1000 + 2 * n, n, 100) + b'seconds'.ljust(15, b'\0') + b's' + bytes(2 * n))" > $k/big.out
  echo old > $k/gmon.sum
  (cd $k && exec "$GPROF" -s bin big.out) & pid=$!
  caught=0
  while kill -0 $pid 2> /dev/null; do
    if ls -l /proc/$pid/fd 2> /dev/null | grep -q "$k/#\|gmon.sum.tmp"; then kill -9 $pid; caught=1; break; fi
  done
  wait $pid 2> /dev/null
  if [ $caught = 0 ] || { [ "$(cat $k/gmon.sum)" = old ] && [ "$(ls -a $k | wc -l)" = 5 ]; }; then ok; else bad "kill -9 during -s: $(ls -a $k)"; fi
  rm -rf $k
fi
# 2d. Random call graphs of ten to twenty thousand functions against GNU
#     (rounding and ordering at size; tests/diffrand.sh).
if [ -x /usr/bin/gprof ] && command -v python3 > /dev/null && command -v cc > /dev/null; then
  sh diffrand.sh "$GPROF" /usr/bin/gprof "$out/diffrand" > "$out/diffrand.log" 2>&1
  while IFS= read -r l; do
    case $l in
      ok*) ok;;
      FAIL*) bad "${l#FAIL }";;
    esac
  done < "$out/diffrand.log"
  grep -q '^ok diffrand 20000' "$out/diffrand.log" || bad "diffrand did not reach 20000 functions (see tests/out/diffrand.log)"
fi

# 3. Our own banners: -v names this program honestly, -h lists options.
v=$(PATH="$out/bin:$PATH" gprof -v); rc=$?
if [ $rc -eq 0 ] && echo "$v" | grep -q 'clean-room' && ! echo "$v" | grep -q 'GNU gprof (GNU Binutils'; then ok; else bad "gprof -v"; fi
# -h prints the usage text an unknown option gets on stderr (GNU's), then
# our export options, and it names every option (each long one, @FILE,
# the short ones).
h=$(PATH="$out/bin:$PATH" gprof -h); rc=$?
e=$(PATH="$out/bin:$PATH" gprof --no-such-option 2>&1 | tail -n +2); erc=$?
miss=""
for w in annotated-source exec-counts flat-profile graph time all-lines brief debug function-ordering \
         file-ordering inline-file-names directory-path display-unused-functions file-format file-info \
         help line min-count no-static print-path separate-files static-call-graph sum table-length \
         traditional version width ignore-non-functions demangle no-demangle external-symbol-table @FILE \
         abcDhilLrsTvwxyz ABCeEfFJnNOpPqQRStZ "-I dirs" "-k from/to" "-m min-count" "-t table-length" \
         dot node-threshold edge-threshold max-nodes dot-full-names callgrind json pprof objects folded flame \
         stack-times; do
  echo "$h" | grep -q -- "$w" || miss="$miss $w"
done
case "$h" in "$e"*) hs=1;; *) hs=0;; esac
if [ $rc -eq 0 ] && [ $hs = 1 ] && [ "$h" != "$e" ] && [ -z "$miss" ]; then ok; else bad "gprof -h:$miss"; fi

# 4. -d traces: each flag the manual lists prints its own kind of line.
for fl in "2 dfn:" "4 cycle" "16 tally:" "32 arcsort:" "64 records:" "128 symtab:" "512 lookup:" "1024 propagate:" "4096 symspec:"; do
  set -- $fl
  n=$(cd cases/cycles && PATH="$out/bin:$PATH" gprof -b -d$1 -qspin bin gmon.out | grep -c "^$2")
  if [ "$n" -gt 0 ]; then ok; else bad "gprof -d$1 prints no '$2' lines"; fi
done

# 5. libprof: programs built against it, their files read back.
if [ -f "$top/libprof/libprof.a" ] && command -v cc > /dev/null; then
  { GPROF="$out/bin/gprof" sh libprof/run.sh; GPROF="$out/bin/gprof" sh libprof/fire.sh; GPROF="$out/bin/gprof" sh libprof/buildid.sh; GPROF="$out/bin/gprof" sh libprof/stacks.sh; GPROF="$out/bin/gprof" sh libprof/stksafe.sh; GPROF="$out/bin/gprof" sh libprof/objcalls.sh; GPROF="$out/bin/gprof" sh libprof/objperf.sh; GPROF="$out/bin/gprof" sh libprof/objstorm.sh; GPROF="$out/bin/gprof" sh libprof/owned.sh; GPROF="$out/bin/gprof" sh libprof/tables.sh; GPROF="$out/bin/gprof" sh libprof/outside.sh; } > "$out/libprof.log" 2>&1
  while IFS= read -r l; do
    case $l in
      ok*) ok;;
      FAIL*) bad "libprof: ${l#FAIL }";;
      KNOWN-GAP*) gaps=$((gaps + 1)); echo "KNOWN-GAP libprof: ${l#KNOWN-GAP }";;
    esac
  done < "$out/libprof.log"
  grep -q '^ok 4 threads' "$out/libprof.log" || bad "libprof: the thread test did not run (see tests/out/libprof.log)"
  # the i386 and aarch64 archives (libprof/cross.sh: natively or under
  # qemu-user); not again under the sanitizers, which build neither
  if [ -z "$LIBPROF_SANITIZED" ]; then
    for a in i386 aarch64; do
      GPROF="$out/bin/gprof" sh libprof/cross.sh $a > "$out/libprof-$a.log" 2>&1
      while IFS= read -r l; do
        case $l in ok*) ok;; FAIL*) bad "libprof ${l#FAIL }";; skip*) echo "libprof $a: $l";; esac
      done < "$out/libprof-$a.log"
    done
  fi
fi

# 6. Unit tests (they link the analyzer's objects; BFDLIB comes from make).
BFDLIB=${BFDLIB:--lbfd}
for u in unit/*.c; do
  [ -f "$u" ] || continue
  n=$(basename $u .c)
  if ${CC:-cc} -std=gnu11 -O1 -g -I"$top" -o "$out/$n" $u $(sed -n 's/^\/\/ objs: //p' $u | sed "s|[^ ]*|${UNIT_OBJDIR:-$top}/&|g") $(eval echo $(sed -n 's/^\/\/ libs: //p' $u)) -lm 2> "$out/$n.cc.err" \
     && "$out/$n" > "$out/$n.log" 2>&1; then ok; else bad "unit $n (see tests/out/$n.log)"; fi
done

# 7. Hostile input (issue 12): endless and oversized inputs fail fast and
#    small, and the mutation test (damaged copies of every profile file).
HOSTILE_GPROF="$out/bin/gprof" sh hostile.sh > "$out/hostile.log" 2>&1
section_log hostile
grep -q '^ok /dev/zero' "$out/hostile.log" || bad "hostile: the checks did not run (see tests/out/hostile.log)"
if command -v python3 > /dev/null; then
  python3 tools/mutate.py --gprof "$out/bin/gprof" --count ${MUTATE_COUNT:-300} --seed 1 > "$out/mutate.log" 2>&1
  while IFS= read -r l; do
    case $l in ok*) ok;; FAIL*) bad "mutate ${l#FAIL }";; esac
  done < "$out/mutate.log"
  grep -q '^mutate: ' "$out/mutate.log" || bad "mutate: did not finish (see tests/out/mutate.log)"
fi

# 8. The exports (--dot, --callgrind, --json), read back by dot,
#    callgrind_annotate and a JSON Schema check (tests/exports.sh).
GPROF="$GPROF" OUT="$out/exports" sh exports.sh > "$out/exports.log" 2>&1
section_log exports '^ok 20000 functions (dagprof)'

# 8b. --pprof, decoded here and read by go tool pprof (tests/pprof.sh).
GPROF="$GPROF" OUT="$out/pprof" sh pprof.sh > "$out/pprof.log" 2>&1
section_log pprof '^ok 20000 functions: decoded'

# 9. libprof's sampled stacks (--folded, --flame; tests/stacks.sh): hand-
#    made stack files against stacks worked out from nm, the SVG checked
#    and rendered, hostile stack files.
GPROF="$GPROF" OUT="$out/stacks" sh stacks.sh > "$out/stacks.log" 2>&1
section_log stacks '^stacks: done'

# 10. --stack-times: measured inclusive time against the program's own
#     clock where the estimate is wrong (tests/stack_times.sh).
GPROF="$GPROF" OUT="$out/stack_times" sh stack_times.sh > "$out/stack_times.log" 2>&1
section_log stack_times '^stack_times: done'

# 11. The torture suite (tests/torture/README): hostile programs built in
#     every mode, run once each under each variant of libprof's settings
#     (`make torture` loops them).  Not under the sanitizers, which build
#     neither the i386 archive nor programs in the static modes.
if [ -z "$LIBPROF_SANITIZED" ] && [ -f "$top/libprof/libprof.a" ]; then
  GPROF="$out/bin/gprof" sh torture/run.sh > "$out/torture.log" 2>&1
  section_log torture '^torture: '
fi

[ $gaps -gt 0 ] && echo "$gaps known gaps (tests/known-gaps)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
