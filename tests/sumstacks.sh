#!/bin/sh
# sumstacks.sh -- -s keeps everything (issue 32): summing two runs of a
# PIE program (other load addresses each run) that work in a shared
# library linked at start and in one opened later, run with
# LIBPROF_STACKS and LIBPROF_OBJECTS, writes gmon.sum.stacks, whose
# --folded is the two runs' read together, and gmon.sum.objects/ without
# --objects (the same bytes as with it); gmon.sum itself is the bytes it
# was without the stacks beside the runs; a sum summed again adds up; a
# run of another build is left out with a warning; a version-2 stack file
# sums as its version-1 twin; a malformed one stops the run; with no
# stacks no gmon.sum.stacks is left.  Prints "ok ..." / "FAIL ..." /
# "skip ..." lines like run.sh; GPROF is the gprof to test, OUT a scratch
# directory.
cd "$(dirname "$0")"
here=$(pwd)
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/sumstacks}"
G=$GPROF
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
say() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
if [ "$(uname -m)" != x86_64 ] || [ ! -f "$top/libprof/libprof.a" ]; then
  echo "skip sumstacks: needs libprof on x86-64"; echo "sumstacks: done"; exit 0
fi
rm -rf "$OUT"; mkdir -p "$OUT"; cd "$OUT" || exit 1
L=$here/libprof
cc -O1 -g -shared -fPIC -DLIB_WORK "$L/objlib.c" -o libwork.so || bad "building libwork.so"
cc -O1 -g -shared -fPIC "$L/objlib.c" -o libplug.so || bad "building libplug.so"
build() { # output [cflags]
  cc -O0 -g -pg -fno-omit-frame-pointer -fPIE -pie "$L/objects.c" -o "$1" -L. -lwork -L"$top/libprof" -lprof \
    -ldl -Wl,-rpath,"$OUT" -Wl,--build-id $2 || bad "building $1"
}
build prog
build other -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567   # another build
run() { # program run-name (about 0.3 s of work)
  LIBPROF_STACKS=64 LIBPROF_OBJECTS=1 ./"$1" 40000000 ./libplug.so > /dev/null || bad "running $1"
  mv gmon.out "$2" && mv gmon.out.stacks "$2.stacks" && mv gmon.out.objects "$2.objects"
}
run prog r1
run prog r2
run other r3
b1=$(sed -n 's/^object 0 \(0x[0-9a-f]*\) .*/\1/p' r1.stacks)
b2=$(sed -n 's/^object 0 \(0x[0-9a-f]*\) .*/\1/p' r2.stacks)
[ -n "$b1" ] && [ "$b1" != "$b2" ]
say $? "the two runs loaded the program at other addresses ($b1, $b2)"

# 1. the sum's stacks are the two runs'
rm -rf gmon.sum*
"$G" -s prog r1 r2 2> err; rc=$?
[ $rc = 0 ] && [ ! -s err ]; say $? "-s of two runs with stacks and objects: no message (rc $rc: $(head -c 200 err))"
[ -f gmon.sum.stacks ]; say $? "-s writes gmon.sum.stacks"
"$G" --folded=both.folded prog r1 r2 > /dev/null 2>&1
"$G" --folded=sum.folded prog gmon.sum > /dev/null 2> err
[ -s both.folded ] && cmp -s both.folded sum.folded
say $? "--folded of gmon.sum is that of the two runs read together ($(wc -l < both.folded) lines)"
grep -q 'libwork.so\]' sum.folded && grep -q 'libplug.so\]' sum.folded
say $? "the sum's stacks name the libraries' functions"
grep -q '0x[0-9a-f]\{9,\}' sum.folded; [ $? != 0 ]; say $? "no frame of the sum is left a bare address"
s1=$(awk '{s += $NF} END {print s}' both.folded); s2=$(awk '{s += $NF} END {print s}' sum.folded)
[ "$s1" = "$s2" ]; say $? "the sum's samples are the runs' ($s1, $s2)"
"$G" --flame=sum.svg prog gmon.sum > /dev/null 2>&1 && grep -q '<svg' sum.svg
say $? "--flame draws gmon.sum"

# 2. objects: without --objects the same folder as with it
[ -f gmon.sum.objects/manifest ]; say $? "-s writes gmon.sum.objects/ without --objects"
mv gmon.sum.objects plain.objects
"$G" -s --objects prog r1 r2 > /dev/null 2>&1
diff -r plain.objects gmon.sum.objects > /dev/null; say $? "gmon.sum.objects/ is the same with and without --objects"
"$G" --objects -p -q -b prog r1 r2 > both.txt 2>&1
"$G" --objects -p -q -b prog gmon.sum > sum.txt 2>&1
cmp -s both.txt sum.txt; say $? "--objects of gmon.sum reports what the two runs do"

# 3. gmon.sum's own bytes do not change (GNU's file)
mkdir -p bare && cp r1 r2 prog bare/ && (cd bare && "$G" -s prog r1 r2 > /dev/null 2> err)
[ ! -s bare/err ]; say $? "runs without stacks or objects: -s says nothing ($(head -c 200 bare/err))"
cp r2 lone
"$G" -s prog r1 lone > /dev/null 2> err
[ ! -s err ] && [ -f gmon.sum.objects/manifest ]
say $? "a run with objects and one without: summed, nothing said ($(head -c 200 err))"
"$G" -s prog r1 r2 > /dev/null 2>&1
cmp -s bare/gmon.sum gmon.sum; say $? "gmon.sum is the same bytes with stacks and objects beside the runs"
[ ! -e bare/gmon.sum.stacks ] && [ ! -e bare/gmon.sum.objects ]
say $? "runs without stacks or objects: neither is written"

# 4. a sum summed again adds up
cp gmon.sum s1 && cp gmon.sum.stacks s1.stacks
"$G" -s prog s1 r1 > /dev/null 2>&1
"$G" --folded=again.folded prog gmon.sum > /dev/null 2>&1
"$G" --folded=three.folded prog r1 r2 r1 > /dev/null 2>&1
cmp -s again.folded three.folded; say $? "gmon.sum summed again with a run: the three runs' stacks"

# 5. another build: left out with the warning
rm -rf gmon.sum*
"$G" -s prog r1 r3 > /dev/null 2> err
grep -q "r3.stacks: written by another program or build" err
say $? "a run of another build: warned ($(head -c 160 err))"
"$G" --folded=one.folded prog r1 > /dev/null 2>&1
"$G" --folded=sum3.folded prog gmon.sum > /dev/null 2>&1
cmp -s one.folded sum3.folded; say $? "a run of another build: its stacks are left out of the sum"

# 6. version 2 (epochs, spans) sums as version 1: r1.stacks as version 1
#    (libprof writes version 2: its twin without epochs and spans, each
#    object loaded all along), then that as version 2 again
awk 'BEGIN {v = 1}
     /^libprof-stacks 2$/ {v = 2; print "libprof-stacks 1"; next}
     v == 2 && /^(span|start|duration|clock) / {next}
     v == 2 && /^stack / {printf "%s %s %s %s", $1, $2, $3, $4; for (i = 6; i <= NF; i++) printf " %s", $i; print ""; next}
     {print}' r1.stacks > r1v1.stacks
awk '/^libprof-stacks/ {print "libprof-stacks 2"; next}
     /^object / {print; print "span " $2 " 0 -"; next}
     /^stack / {printf "%s %s %s %s 7", $1, $2, $3, $4; for (i = 5; i <= NF; i++) printf " %s", $i; print ""; next}
     {print}' r1v1.stacks > v2.stacks
printf 'clock itimer\nstart 1\nduration 2\n' >> v2.stacks
cp r1 v2
rm -rf gmon.sum*
"$G" -s prog v2 r2 > /dev/null 2> err && "$G" --folded=v2.folded prog gmon.sum > /dev/null 2>&1
cmp -s both.folded v2.folded; say $? "a version-2 stack file sums as its version-1 twin"
# an object unloaded and another loaded at its addresses: the epoch decides
awk '/^span / {next}
     /^object 0 / {print; print "span 0 0 -"; next}
     /^object / {k = $2; print; print "span " k " 0 5"; $2 = k + 100; $6 = "-"; $7 = "/nonexistent/lib" k ".so";
                 print; print "span " k + 100 " 5 -"; next}
     {print}' v2.stacks > v2b.stacks
cp r1 v2b
rm -rf gmon.sum*
"$G" -s prog v2b > /dev/null 2>&1
grep -q "/nonexistent/lib2.so" gmon.sum.stacks && ! grep -q ' 0x7f' gmon.sum.stacks
say $? "version 2: stacks of epoch 7 resolve to the objects loaded then"
"$G" --folded=v2b.folded prog gmon.sum > /dev/null 2>&1
grep -q "\\[lib[0-9]*.so\\]" v2b.folded && ! grep -q "libwork\\|0x" v2b.folded; say $? "version 2: their frames go to the object live at their epoch"

# 7. a malformed stack file stops the run, naming the line
printf 'libprof-stacks 1\nhz 100\ndepth 4\nobject 0 0x0 0x0 0x10 - prog\nstack 1 0 c 0x1\n' > bad.stacks
cp r1 bad
"$G" -s prog bad > /dev/null 2> err; rc=$?
[ $rc = 1 ] && grep -q "bad.stacks: line 5: a stack of count 0" err; say $? "a malformed stack file: exit 1, its line named ($(cat err))"

# what the reader refuses, the sum refuses, naming the line: the sum is always readable
printf 'libprof-stacks 1\nhz 100\ndepth 2\nobject 0 0x0 0x0 0x10 - prog\nstack 1 1 c 0x1 0x2 0x3\n' > bad.stacks
"$G" -s prog bad > /dev/null 2> err; rc=$?
[ $rc = 1 ] && grep -q "bad.stacks: line 5: more frames than the depth, 2" err
say $? "a stack deeper than its file's depth: exit 1 ($(cat err))"
printf 'libprof-stacks 1\nhz 100\nobject 0 0x0 0x0 0x10 - prog\nstack 1 1 c 0x1\ndepth 2\n' > bad.stacks
"$G" -s prog bad > /dev/null 2> err; rc=$?
[ $rc = 1 ] && grep -q "bad.stacks: line 4: a stack before the depth line" err
say $? "a stack before the depth line: exit 1 ($(cat err))"

# 8. no stacks: an older sum's gmon.sum.stacks is not left beside the new gmon.sum
rm -rf gmon.sum*
echo stale > gmon.sum.stacks
cp r1 nost
"$G" -s prog nost > /dev/null 2>&1
[ ! -e gmon.sum.stacks ]; say $? "no run with stacks: an older gmon.sum.stacks is removed"
echo "sumstacks: done"
