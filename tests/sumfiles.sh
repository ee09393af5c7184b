#!/bin/sh
# sumfiles.sh -- gmon.sum is written whole or not at all: a full device, a
# file-size limit and a directory in the way each give a message and exit
# 1 and an old gmon.sum stays as it was; links and modes as GNU; a kill -9
# mid-write leaves the old file; and C++ symspecs.  sh sumfiles.sh DIR
# (scratch); GPROF is the gprof to test.  Prints ok/FAIL lines (run.sh).
cd "$(dirname "$0")"
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}"
sc=${1:-$top/tests/out/sum}
out=$sc.bin; rm -rf "$out"; mkdir -p "$out/bin"
ln -s "$GPROF" "$out/bin/gprof"    # run as plain `gprof`: messages start with argv[0]
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
# gmon.sum is written whole or not at all (issue 12): a full device, a
# file-size limit and a directory in the way each give a message and exit 1,
# and an old gmon.sum stays as it was.
w=$sc; rm -rf $w; mkdir -p $w
cp cases/cycles/bin cases/cycles/gmon.out $w/
(cd $w && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1 && cp gmon.sum old.sum)
ln -s /dev/full $w/full.sum
(cd $w && rm -f gmon.sum && ln -s full.sum gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gprof: gmon.sum: No space left on device' $w/err; then ok "-s to /dev/full"; else bad "-s to /dev/full: $(cat $w/err)"; fi
(cd $w && rm -f gmon.sum && cp old.sum gmon.sum && trap '' XFSZ && ulimit -f 1 && PATH="$out/bin:$PATH" gprof -s bin gmon.out gmon.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gprof: gmon.sum: File too large' $w/err && cmp -s $w/gmon.sum $w/old.sum \
   && [ -z "$(ls $w | grep tmp)" ]; then ok "-s past ulimit -f"; else bad "-s past ulimit -f: $(cat $w/err)"; fi
(cd $w && rm -f gmon.sum && mkdir gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gmon.sum: Is a directory' $w/err; then ok "-s onto a directory"; else bad "-s onto a directory: $(cat $w/err)"; fi
# (issue 25) C++ symspecs: a name with "::", alone or after "file:",
# names that function (GNU cuts at the first colon and matches nothing)
w2=$sc.cxx; rm -rf $w2; mkdir -p $w2
if (cd $w2 && g++ -O1 -g -pg "$top/tests/progs/cxxgraph.cc" -o cxx -L"$top/libprof" -lprof 2> cc.err && ./cxx 500 > /dev/null); then
  flat() { (cd $w2 && PATH="$out/bin:$PATH" gprof -b "$@" cxx gmon.out | awk 'NF >= 4 && $1 ~ /^[0-9.]+$/' | sed 's/.*[0-9]  //'); }
  a=$(flat -p'shapes::Square::area() const'); b=$(flat -p'cxxgraph.cc:shapes::Square::area() const')
  c=$(flat -p'other.cc:shapes::Square::area() const'); d=$(flat -p -P'shapes::Circle::area() const')
  # (a spec another file's: it selects nothing, and a flat profile limited
  # to nothing lists every function, as GNU's does)
  if [ "$a" = "shapes::Square::area() const" ] && [ "$b" = "$a" ] && [ "$(echo "$c" | wc -l)" -gt 5 ] \
     && [ "$(echo "$d" | wc -l)" -gt 5 ] && ! echo "$d" | grep -q 'Circle::area'; then ok "C++ symspecs"
  else bad "C++ symspecs: -p name: [$a], -p file:name: [$b], other file: $(echo "$c" | wc -l) rows, -P Circle: $(echo "$d" | grep -c 'Circle::area') Circle rows"; fi
else
  bad "C++ symspecs: cannot build cxxgraph.cc: $(cat $w2/cc.err)"
fi
# (issue 25) a write that fails mid-file names its errno, not EIO
cp cases/lines_big/bin $w/big.bin; cp cases/lines_big/gmon.out $w/big.out
(cd $w && rm -rf gmon.sum && cp old.sum gmon.sum && trap '' XFSZ && ulimit -f 8 && PATH="$out/bin:$PATH" gprof -s big.bin big.out > /dev/null 2> err; echo $? > rc)
if [ "$(cat $w/rc)" = 1 ] && grep -qx 'gprof: gmon.sum: File too large' $w/err && cmp -s $w/gmon.sum $w/old.sum \
   && [ -z "$(ls -a $w | grep tmp)" ]; then ok "-s past ulimit -f mid-file"; else bad "-s past ulimit -f mid-file: $(cat $w/err)"; fi
# as GNU: a dangling link's target is written (the link stays), a hard
# link keeps sharing the file, a mode-600 file stays 600
(cd $w && rm -f gmon.sum target.sum && ln -s target.sum gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1)
if [ -L $w/gmon.sum ] && cmp -s $w/target.sum $w/old.sum; then ok "-s through a dangling link"; else bad "-s through a dangling link"; fi
(cd $w && rm -f gmon.sum target.sum && echo x > shared && ln shared gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1)
if cmp -s $w/shared $w/old.sum && [ "$(stat -c %h $w/gmon.sum)" = 2 ]; then ok "-s onto a hard-linked gmon.sum"; else bad "-s onto a hard-linked gmon.sum"; fi
(cd $w && rm -f gmon.sum shared && echo x > gmon.sum && chmod 600 gmon.sum && PATH="$out/bin:$PATH" gprof -s bin gmon.out > /dev/null 2>&1)
if [ "$(stat -c %a $w/gmon.sum)" = 600 ] && cmp -s $w/gmon.sum $w/old.sum; then ok "-s onto a mode-600 gmon.sum"; else bad "-s onto a mode-600 gmon.sum: $(stat -c %a $w/gmon.sum)"; fi
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
  if [ $caught = 0 ]; then echo "skip kill -9 during -s (the write ended before it was seen)"
  elif [ "$(cat $k/gmon.sum)" = old ] && [ "$(ls -a $k | wc -l)" = 5 ]; then ok "kill -9 during -s"; else bad "kill -9 during -s: $(ls -a $k)"; fi
  rm -rf $k
fi
