#!/bin/sh
# hostile.sh -- inputs that never end or claim too much (issue 12): each
# must fail (or finish) fast, with a clear message, in little memory.
# Prints "ok ..." / "FAIL ..." lines for run.sh.  HOSTILE_NO_VLIMIT=1
# (sanitizer builds, which reserve huge address space) skips the limits.
cd "$(dirname "$0")"
G=${HOSTILE_GPROF:-../gprof}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
lim() { if [ -z "$HOSTILE_NO_VLIMIT" ]; then ulimit -v 262144; fi; ulimit -t 20; }
say() { if [ "$1" = 0 ]; then echo "ok $2"; else echo "FAIL $2"; fi; }
B=cases/multi/bin
# expect NAME STATUS MESSAGE-PATTERN gprof-args...: status and stderr
expect() {
  name=$1 st=$2 pat=$3; shift 3
  (lim; exec "$G" "$@") > "$w/out" 2> "$w/err"; rc=$?
  [ $rc = "$st" ] && grep -q -- "$pat" "$w/err"
  r=$?
  [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 "$w/err"; }
  say $r "$name"
}
expect "/dev/zero as the profile" 1 "file '/dev/zero' does not appear to be in gmon.out format" -b $B /dev/zero
expect "/dev/zero as a GNU profile (-O magic)" 1 "has bad magic cookie" -b -O magic $B /dev/zero
expect "/dev/zero as a 4.4BSD profile" 1 "has bad magic cookie" -b -O 4.4bsd $B /dev/zero
expect "-R /dev/zero" 1 "unable to parse mapping file /dev/zero." -b -R /dev/zero $B cases/multi/gmon.out
expect "-R /dev/urandom" 1 "unable to parse mapping file /dev/urandom." -b -R /dev/urandom $B cases/multi/gmon.out
expect "-S /dev/zero" 1 "/dev/zero: no end of file after 268435456 bytes" -b -S /dev/zero $B cases/multi/gmon.out
expect "-S /dev/null" 1 "file \`/dev/null' has no symbols" -b -S /dev/null $B cases/multi/gmon.out
# a profile whose histogram claims 2^32-1 bins: no allocation of them
python3 -c "
import struct, sys
sys.stdout.buffer.write(b'gmon' + struct.pack('<I', 1) + bytes(12) + b'\0' + struct.pack('<QQII', 0x1000, 0x2000, 0xffffffff, 100) + b'seconds'.ljust(15, b'\0') + b's' + bytes(64))" > "$w/big.gmon"
expect "2^32-1 bins claimed, 32 present" 1 "unexpected EOF after reading 32 of 4294967295 samples" -b $B "$w/big.gmon"
python3 -c "
import struct, sys
sys.stdout.buffer.write(struct.pack('<QQI', 0x1000, 0x2000, 0xfffffff0) + bytes(64))" > "$w/bigbsd.gmon"
expect "BSD header claiming 2 GB of bins" 1 "unexpected EOF after reading 31/2147483630 bins" -b $B "$w/bigbsd.gmon"
python3 -c "
import struct, sys
sys.stdout.buffer.write(b'gmon' + struct.pack('<I', 1) + bytes(12) + b'\2' + struct.pack('<I', 0xffffffff) + bytes(40))" > "$w/bigbb.gmon"
# (the message carries the errno loading the locale left: ENOENT for a
# locale no machine has)
(export LC_ALL=gprof_TEST.UTF-8; expect "2^32-1 basic blocks claimed" 1 "No such file or directory" -b $B "$w/bigbb.gmon")
# thousands of one-bin histogram records: a limit, not quadratic time
python3 -c "
import struct, sys
o = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
for i in range(5000):
    o += b'\0' + struct.pack('<QQII', 0x1000 + 4 * i, 0x1004 + 4 * i, 1, 100) + b'seconds'.ljust(15, b'\0') + b's\1\0'
sys.stdout.buffer.write(o)" > "$w/many.gmon"
expect "5000 histogram ranges" 1 "more than 4096 histogram ranges" -b $B "$w/many.gmon"
# a histogram over nearly all of the address space: the granularity is
# GNU's wrapped value (found by fuzzing: it overflowed a long; the flat
# profile's per-call columns still differ from GNU's there)
python3 -c "
import struct, sys
d = open('cases/cycles/gmon.out', 'rb').read()
n = struct.unpack_from('<I', d, 37)[0]
sys.stdout.buffer.write(d[:20] + b'\\0' + struct.pack('<QQII', 0x1000, 0xfffffffffffff000, 1, 100) + b'seconds'.ljust(15, b'\\0') + b's' + struct.pack('<H', 3) + d[61 + 2 * n:])" > "$w/huge.gmon"
g=$( (lim; exec "$G" -b -q cases/cycles/bin "$w/huge.gmon") 2>&1 | grep granularity)
[ "$g" = "granularity: each sample hit covers -8192 byte(s) for 49877633770575232.00% of 0.00 seconds" ]
say $? "histogram over the whole address space: GNU's granularity"
# -w 999999999: GNU's 1,333,335,657 bytes, written without building lines
n=$( (lim; exec "$G" -b -q -w 999999999 $B cases/multi/gmon.out) | wc -c)
[ "$n" = 1333335657 ]; say $? "-w 999999999 in 256 MB ($n bytes)"
# -A on a source the user may not read: "PATH: Permission denied" (as
# GNU), the other files still annotated.  Needs another user: run as
# nobody when we are root and setpriv is there.
# Everything it reads is copied into a directory of its own under /tmp
# (not $TMPDIR, nor the checkout: either may lie where nobody cannot go,
# e.g. under /root).
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
  a=$(mktemp -d /tmp/gprof-anno.XXXXXX); mkdir -p $a/src; chmod 755 $a $a/src
  cp cases/hostile_anno/bin cases/hostile_anno/gmon.out $a/; cp progs/hostile/*.c $a/src/
  chmod 644 $a/gmon.out $a/src/*.c; chmod 755 $a/bin; chmod 000 $a/src/c.c
  cp "$(readlink -f "$G")" $a/gprof 2>/dev/null && chmod 755 $a/gprof
  (cd $a && setpriv --reuid=65534 --regid=65534 --clear-groups ./gprof -b -A -I src bin gmon.out > out 2> err); rc=$?
  [ $rc = 0 ] && [ "$(cat $a/err)" = "/nonexistent/hostile/c.c: Permission denied" ] && [ "$(grep -c '^\*\*\* File' $a/out)" = 2 ]
  r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; cat $a/err; }
  say $r "-A on an unreadable source"
  rm -rf "$a"
else
  echo "skip -A on an unreadable source (needs root and setpriv)"
fi
# Command-line edge cases (issue 25): exact stderr and status, as GNU.
# exact NAME STATUS STDERR gprof-args...
exact() {
  name=$1 st=$2 want=$3; shift 3
  (lim; exec "$G" "$@") > "$w/out" 2> "$w/err"; rc=$?
  [ $rc = "$st" ] && [ "$(cat "$w/err")" = "$want" ]
  r=$?
  [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 "$w/err"; }
  say $r "$name"
}
# an empty file name: perror's form, no ": " before the message
exact "'' as the object" 1 "No such file or directory" ''
exact "'' as the profile" 1 "No such file or directory" $B ''
exact "'' as a second profile" 1 "No such file or directory" -b $B cases/multi/gmon.out ''
# -O prof: refused only when a profile is to be read, so --help still works
exact "--file-format=prof --help: usage, status 0" 0 "" --file-format=prof --help
exact "-O prof: refused at the profile" 1 "$G: sorry, file format \`prof' is not yet supported" -O prof $B cases/multi/gmon.out
# a BSD-layout file after a file with a histogram must repeat its range
# and size (and a 4.4BSD one the rate): GNU's words, without the program name
python3 -c "import sys; sys.stdout.buffer.write(b'A' * 24)" > "$w/junk24"
exact "junk second profile" 1 "$w/junk24: incompatible with first gmon file" -b $B cases/multi/gmon.out "$w/junk24"
python3 -c "
import struct, sys
d = open('cases/bsd_4.4bsd/gmon.data', 'rb').read()
sys.stdout.buffer.write(d[:24] + struct.pack('<I', 1000) + d[28:])" > "$w/rate.data"
exact "4.4BSD profile of another rate" 1 "$w/rate.data: profiling rate incompatible with first gmon file" \
  -b cases/bsd_4.4bsd/bin cases/bsd_4.4bsd/gmon.data "$w/rate.data"
# -R with a directory: GNU loops forever; we say why
mkdir -p "$w/mapdir"
exact "-R with a directory" 1 "$G: could not read $w/mapdir: Is a directory" -b -R "$w/mapdir" $B cases/multi/gmon.out
# gprof -s over many profiles: memory that barely grows with their number
# (glibc's sliding mmap threshold once left each outgrown copy of the
# doubling tables resident: 3 MB more at 100 files than at 1, GNU 0.7),
# and no more than GNU's (the histogram's bins were kept through the
# reports under -s: 600 KB above); skipped under the sanitizers, whose
# runtime has memory of its own
if [ -z "$HOSTILE_NO_VLIMIT" ] && [ -x /usr/bin/time ] && python3 ../bench/genprof.py merge 2000 100 1 "$w/merge" > /dev/null 2>&1; then
  peak() { (cd "$w/merge" && /usr/bin/time -f %M -o "$w/peak" "$@" > /dev/null 2>&1); cat "$w/peak"; }
  set -- $(cd "$w/merge" && ls gmon.*)
  one=$(peak "$G" -s prog gmon.0); all=$(peak "$G" -s prog "$@")
  gnu=$all; [ -x /usr/bin/gprof ] && gnu=$(peak /usr/bin/gprof -s prog "$@")
  [ $((all - one)) -le 2048 ] && [ $((all - gnu)) -le 384 ]
  say $? "-s on 100 profiles: peak $all KB, $((all - one)) KB over 1 profile's (at most 2048), GNU's $gnu KB (ours at most 384 KB above)"
fi
# ---- --objects' manifests and folders, and stack files (issue 35) ----
# (timeout: a FIFO blocks without using CPU, which ulimit -t never ends)
to() { timeout 20 "$@"; }
P=$w/obj; mkdir -p $P/o; cp $B $P/o/bin; ln $P/o/bin $P/o/hard; ln -s bin $P/o/sym
cp cases/multi/gmon.out $P/gmon.out
# a profile file of an object: the header only (no build-id)
python3 -c "import sys; sys.stdout.buffer.write(b'gmon\1\0\0\0' + bytes(12))" > $P/empty.gmon
# one object (cases/multi/bin, no build-id) by 40 spellings of its path:
# opened once, so one "functions from" line of -d128
spell() {
  i=0
  for d in "$P/o" "$P/o/" "$P/./o" "$P//o" "$P/o/." "$P/o/../o" "$P/../obj/o" "$P/o/./."; do
    for b in bin hard sym ./bin .//sym; do i=$((i + 1)); echo "$i $d/$b"; done
  done
}
mkdir -p $P/gmon.out.objects
{ echo "libprof-objects 1"; spell | while read i p; do echo "$i-bin - 0 0 100000 $p"; cp $P/empty.gmon $P/gmon.out.objects/$i-bin; done; } > $P/gmon.out.objects/manifest
n=$( (cd $P && lim && to "$G" -b -d128 --objects o/bin gmon.out) 2> $w/err | grep -c 'functions from')
[ "$n" = 1 ] && [ ! -s $w/err ]; say $? "--objects: a manifest naming one object by 40 spellings (links too): opened $n times (1)"
# the same in a stack file: object lines of 40 spellings, a frame in each
{ printf 'libprof-stacks 1\nhz 100\ndepth 4\nobject 0 0x0 0x0 0x1000 - prog\n'
  spell | while read i p; do printf 'object %d 0x%x 0x%x 0x%x - %s\n' $i $((i << 32)) $((i << 32)) $(((i << 32) + 0x100000)) "$p"; done
  spell | while read i p; do printf 'stack 1 1 c 0x%x\n' $(((i << 32) + 0x10)); done; } > $P/gmon.out.stacks
n=$( (cd $P && lim && to "$G" -b -d128 --folded=$w/folded o/bin gmon.out) 2> $w/err | grep 'functions from' | grep -vc "the program's, for the names")
[ "$n" = 1 ] && [ ! -s $w/err ] && [ "$(wc -l < $w/folded)" = 1 ]
say $? "stacks: a stack file naming one object by 40 spellings: opened $n times (1), one folded line ($(wc -l < $w/folded))"
rm -f $P/gmon.out.stacks
# FIFOs in the profile's folder: a warning, never a wait
m=$P/gmon.out.objects/manifest
mv $P/gmon.out.objects/7-bin $P/f.save; mkfifo $P/gmon.out.objects/7-bin
(cd $P && lim && to "$G" -b --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 0 ] && [ "$(cat $w/err)" = "$G: warning: gmon.out.objects/manifest: line 8: gmon.out.objects/7-bin: not a regular file: left out" ]
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 $w/err; }
say $r "--objects: a FIFO as an object's file: left out with a warning, no wait"
rm $P/gmon.out.objects/7-bin; mv $P/f.save $P/gmon.out.objects/7-bin
mv $m $P/m.save; mkfifo $m
(cd $P && lim && to "$G" -b --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 0 ] && [ "$(cat $w/err)" = "$G: warning: gmon.out.objects/manifest: not a regular file" ]
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 $w/err; }
say $r "--objects: a FIFO as the manifest: a warning, no wait"
rm $m; mkfifo $P/gmon.out.stacks
(cd $P && lim && to "$G" -b --folded=$w/folded o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 1 ] && [ "$(cat $w/err)" = "$G: gmon.out.stacks: not a regular file" ]
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 $w/err; }
say $r "stacks: a FIFO as the stack file: refused, no wait"
rm $P/gmon.out.stacks
# bad manifest lines: each left out with a warning naming its line, the
# rest reported (a line ".." once read the folder as a profile and
# stopped the whole report)
{ echo "libprof-objects 1"; echo ".. - 0 0 100000 $P/o/bin"; echo "1-bin - 0 0 100000 $P/o/bin"
  printf '2-bin - 0 0 100000 %s\n' "$(python3 -c 'print("x" * 9000)')"; printf '3-bin - 0\0 0 100000 /x\n'
  echo "junk"; echo "4-bin - 0 0 100000 $P/o/sym"; echo "5-gone - 0 0 100000 $P/o/bin"; } > $m
cp $P/empty.gmon $P/gmon.out.objects/4-bin
(cd $P && lim && to "$G" -b -d128 --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
cat > $w/want <<EOW
$G: warning: gmon.out.objects/manifest: line 2: \`..' is not a file of gmon.out.objects: left out
$G: warning: gmon.out.objects/manifest: line 4: longer than 8191 bytes: left out
$G: warning: gmon.out.objects/manifest: line 5: a NUL byte: left out
$G: warning: gmon.out.objects/manifest: line 6: not understood: junk
$G: warning: gmon.out.objects/manifest: line 7: gmon.out.objects/4-bin: the file of line 3 again: left out
$G: warning: gmon.out.objects/manifest: line 8: gmon.out.objects/5-gone: No such file or directory: left out
EOW
ln -f $P/gmon.out.objects/1-bin $P/gmon.out.objects/4-bin
(cd $P && lim && to "$G" -b -d128 --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 0 ] && cmp -s $w/err $w/want && [ "$(grep -c 'functions from' $w/out)" = 1 ] && grep -q '^Flat profile' $w/out
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; diff $w/want $w/err | head -8; }
say $r "--objects: bad manifest lines (.., too long, NUL, junk, a file twice, a file missing): each left out with a warning, the rest reported"
# a manifest past 4 MiB: read up to there, a warning
python3 -c "
import sys
sys.stdout.write('libprof-objects 1\n' + '# a comment line to fill the manifest up\n' * 120000)" > $m
(cd $P && lim && to "$G" -b --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 0 ] && [ "$(cat $w/err)" = "$G: warning: gmon.out.objects/manifest: line 102301: more than 4194304 bytes: the rest is left out" ]
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 $w/err; }
say $r "--objects: a 4.8 MB manifest: read up to 4 MiB, a warning"
# 30 lines that cannot be used: the first 20 told, then how many more
{ echo "libprof-objects 1"; for i in $(seq 30); do echo "bad line $i"; done; } > $m
(cd $P && lim && to "$G" -b --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 0 ] && [ "$(wc -l < $w/err)" = 21 ] && [ "$(sed -n 20p $w/err)" = "$G: warning: gmon.out.objects/manifest: line 21: not understood: bad line 20" ] \
  && [ "$(tail -1 $w/err)" = "$G: warning: gmon.out.objects/manifest: 10 more lines left out (not shown)" ]
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; tail -3 $w/err; }
say $r "--objects: 30 bad manifest lines: 20 warnings, then how many more"
# -s --objects: an object's file in the BSD layout (8-byte counts) with
# an arc of 2^64-1 calls: summed in as many 4-byte records as were read,
# with a warning (found by fuzz_objects: 2^32 records were written)
rm -rf $P/gmon.out.objects; mkdir $P/gmon.out.objects
echo "libprof-objects 1
1-bin - 0 0x1090 0x1449 $P/o/bin" > $m
python3 -c "
import struct, sys
sys.stdout.buffer.write(struct.pack('<QQQ', 0x1090, 0x10a0, 24 + 8) + bytes(8) + struct.pack('<QQQ', 0x1100, 0x1150, 2**64 - 1))" > $P/gmon.out.objects/1-bin
(cd $P && lim && to "$G" -s --objects o/bin gmon.out) > $w/out 2> $w/err; rc=$?
[ $rc = 0 ] && [ "$(cat $w/err)" = "$G: warning: $P/o/bin: a call count over 2^32 in one record (a BSD-format file?): its sum is cut to what 4-byte records hold" ] \
  && [ "$(ls $P/gmon.sum.objects)" = "1-bin
manifest" ] && [ $(wc -c < $P/gmon.sum.objects/1-bin) -lt 200 ]
r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 $w/err; }
say $r "-s --objects: an arc count of 2^64-1 in a BSD-layout object file: one record, a warning"
rm -rf $P/gmon.out.objects $P/gmon.sum $P/gmon.sum.objects
# a stack file over 4 GiB (sparse): refused at once
truncate -s 4294967297 $P/gmon.out.stacks 2> /dev/null
if [ -f $P/gmon.out.stacks ]; then
  (cd $P && lim && to "$G" -b --folded=$w/folded o/bin gmon.out) > $w/out 2> $w/err; rc=$?
  [ $rc = 1 ] && [ "$(cat $w/err)" = "$G: gmon.out.stacks: larger than 4294967296 bytes" ]
  r=$?; [ $r = 0 ] || { echo "  status $rc, stderr:"; head -3 $w/err; }
  say $r "stacks: a stack file over 4 GiB: refused at once"
  rm -f $P/gmon.out.stacks
fi
# --stack-times on stacks of no function (and on none at all): no
# qsort of a NULL array (UBSan stopped the sanitizer build there)
printf 'libprof-stacks 1\nhz 100\ndepth 4\nobject 0 0x0 0x0 0x10 - prog\n' > $P/gmon.out.stacks
(cd $P && lim && to "$G" -b --stack-times o/bin gmon.out) > $w/out 2> $w/err; rc=$?
printf 'stack 1 1 c 0x5\n' >> $P/gmon.out.stacks
(cd $P && lim && to "$G" -b --stack-times o/bin gmon.out) > $w/out2 2> $w/err2; rc2=$?
[ $rc = 0 ] && [ $rc2 = 0 ] && [ ! -s $w/err ] && [ ! -s $w/err2 ] && grep -q '^0 stack samples' $w/out && grep -q '^1 stack samples' $w/out2
r=$?; [ $r = 0 ] || { echo "  status $rc $rc2, stderr:"; head -3 $w/err $w/err2; }
say $r "--stack-times: no stack, and a stack in no function"
rm -f $P/gmon.out.stacks
