#!/bin/sh
# stacks.sh -- libprof's sampled stacks (PROFILE.stacks, issue 23) read by
# gprof: --folded against the folded stacks tools/stackgen.py works out
# from nm's symbols (non-PIE and PIE programs, a shared library and its
# padding, the vdso, a missing object, PCs in no object, cut and broken
# stacks, two threads, -l, --objects), --flame's SVG checked against the
# same tree and rendered, the missing file, hostile stack files, and end
# to end: a program linked with libprof run with LIBPROF_STACKS=64.
# Prints "ok WHAT" or "FAIL WHAT: why" per check; run.sh counts them.
# GPROF is the gprof to test; OUT a scratch directory; HOSTILE_NO_VLIMIT=1
# (sanitizer builds) leaves out the memory limit.
cd "$(dirname "$0")"
here=$(pwd)
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/stacks}"
rm -rf "$OUT"; mkdir -p "$OUT/bin"
# run as plain `gprof`, since messages start with argv[0]
ln -s "$GPROF" "$OUT/bin/gprof"; PATH="$OUT/bin:$PATH"
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
say() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
lim() { if [ -z "$HOSTILE_NO_VLIMIT" ]; then ulimit -v 262144; fi; ulimit -t 20; }
for tool in cc c++ python3 nm readelf; do
  command -v $tool > /dev/null || { bad "stacks: $tool is not installed"; exit 0; }
done
gen="python3 $here/tools/stackgen.py"
w=$OUT
P=$here/progs/stacks
LIBBASE=0x7f1234560000

cc -shared -fPIC -g -O0 -Wl,--build-id $P/lib.c -o $w/libstk.so || bad "building libstk.so"
mkdir -p $w/nopie $w/pie
cc -pg -no-pie -g -O0 $P/prog.c -o $w/nopie/prog || bad "building prog (-no-pie)"
cc -pg -pie -fPIE -g -O0 $P/prog.c -o $w/pie/prog || bad "building prog (-pie)"
(cd $w/nopie && ./prog > /dev/null) && (cd $w/pie && ./prog > /dev/null) || bad "running prog"

# 1. --folded against the expectation, for both programs, three seeds and
#    several option sets; the text with --folded is the text without.
for kind in nopie pie; do
  d=$w/$kind
  base=0; [ $kind = pie ] && base=0x555555554000
  for seed in 1 2 3; do
    $gen $d/prog $base $w/libstk.so $LIBBASE $seed $d/gmon.out.stacks $d/exp.$seed || { bad "stackgen $kind $seed"; continue; }
    for o in "" "-l" "-b -z" "--no-demangle" "-pmid_a -q"; do
      (cd $d && gprof $o --folded=got prog gmon.out > with.txt 2> err; echo $? > rc)
      (cd $d && gprof $o prog gmon.out > without.txt 2> /dev/null)
      sort $d/got > $d/got.sorted
      why=""
      [ "$(cat $d/rc)" = 0 ] || why="$why exit $(cat $d/rc)"
      cmp -s $d/got.sorted $d/exp.$seed || why="$why folded differs (diff $d/exp.$seed $d/got.sorted)"
      cmp -s $d/with.txt $d/without.txt || why="$why the text changed"
      # said once: the missing object that frames reach; nothing of the
      # one no frame reaches
      [ "$(cat $d/err)" = "gprof: warning: /nonexistent/libgone.so: cannot read it: its time is counted for the object as a whole" ] \
        || why="$why stderr: $(head -3 $d/err)"
      if [ -z "$why" ]; then ok "folded $kind seed $seed [$o]: $(wc -l < $d/got) lines"; else bad "folded $kind seed $seed [$o]:$why"; fi
    done
  done
done

# a program whose build-id ends in a zero byte is its stacks' own (the
# reader once took the id's trailing zeros for padding and warned; 1
# program in 256 has such an id)
z=$w/zeroid; mkdir -p $z
if cc -pg -no-pie -g -O0 -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234500 $P/prog.c -o $z/prog \
   && (cd $z && ./prog > /dev/null) && $gen $z/prog 0 $w/libstk.so $LIBBASE 1 $z/gmon.out.stacks $z/exp; then
  (cd $z && gprof --folded=got prog gmon.out > /dev/null 2> err)
  sort $z/got > $z/got.sorted
  # (only the missing object's warning, as above)
  ! grep -v "/nonexistent/libgone.so: cannot read it" $z/err > /dev/null && cmp -s $z/got.sorted $z/exp
  say $? "a build-id ending in a zero byte is the program's own: $(grep -v libgone $z/err | head -c 160)"
else
  bad "building the program with a build-id ending in a zero byte"
fi

d=$w/nopie
$gen $d/prog 0 $w/libstk.so $LIBBASE 1 $d/gmon.out.stacks $d/exp || bad "stackgen"
# the same file beside two profiles: every count twice
(cd $d && cp gmon.out gmon2.out && cp gmon.out.stacks gmon2.out.stacks && gprof --folded=- prog gmon.out gmon2.out 2> /dev/null | sort > twice)
awk '{ $NF = 2 * $NF; print }' $d/exp | sort > $d/exp.twice
cmp -s $d/twice $d/exp.twice; say $? "folded over two profiles: each count twice"
# "-" is standard output, which then holds only the folded stacks
(cd $d && gprof --folded=- prog gmon.out 2> /dev/null | sort > stdout.sorted)
cmp -s $d/stdout.sorted $d/exp; say $? "--folded=- writes the stacks alone to standard output"
(cd $d && rm -f gprof.folded gprof.svg && gprof --folded --flame prog gmon.out > /dev/null 2>&1)
[ -s $d/gprof.folded ] && [ -s $d/gprof.svg ]; say $? "default files gprof.folded and gprof.svg"

# --objects: the library's own profile read too (a manifest and a
# histogram with 7 samples in lib_work); the stacks' frames in it are the
# same functions, its padding the object's one merged row
o=$w/objs; mkdir -p $o/gmon.out.objects
cp $d/prog $d/gmon.out $d/gmon.out.stacks $o/
libid=$(readelf -n $w/libstk.so | sed -n 's/.*Build ID: //p')
text=$(readelf -SW $w/libstk.so | sed -n 's/.*\] \.text *[A-Z]* *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\).*/\1 \2/p')
set -- $text
lo=$((0x$1)); hi=$((0x$1 + 0x$2))
work=$(nm $w/libstk.so | awk '$3 == "lib_work" {print $1}')
printf 'libprof-objects 1\n1 %s %s 0x%x 0x%x %s\n' "$libid" $LIBBASE $lo $hi $w/libstk.so > $o/gmon.out.objects/manifest
python3 -c "
import struct, sys
lo = int('$work', 16); n = 16
bins = [7] + [0] * (n - 1)
sys.stdout.buffer.write(b'gmon' + struct.pack('<I', 1) + bytes(12) + b'\0' + struct.pack('<QQII', lo, lo + 2 * n, n, 100)
    + b'seconds'.ljust(15, b'\0') + b's' + struct.pack('<%dH' % n, *bins))" > $o/gmon.out.objects/1
(cd $o && gprof -b -p --objects --folded=got prog gmon.out > with.txt 2> err; echo $? > rc)
(cd $o && gprof -b -p --objects prog gmon.out > without.txt 2> /dev/null)
sort $o/got > $o/got.sorted
[ "$(cat $o/rc)" = 0 ] && cmp -s $o/got.sorted $d/exp && cmp -s $o/with.txt $o/without.txt \
  && grep -q ' lib_work \[libstk.so\]$' $o/with.txt
say $? "--objects: the library's profile in the report, the same folded stacks, the same text"

# the epoch rule (version 2): a stack sampled where no load was live is
# named after the load there next -- unless a blind mark (libprof could
# not read the map at a dlclose) lies between its epoch and that load's
e=$w/epochs; mkdir -p $e; cp $d/prog $d/gmon.out $e/
pc=$(printf '0x%x' $((LIBBASE + 0x$work + 4)))
for c in "-:lib_work" "blind 2:$pc" "blind 1 -:$pc" "blind 3:lib_work" "blind 0:lib_work" "blind 2\nblind 9:$pc"; do
  marks=${c%:*} want=${c##*:}
  { printf 'libprof-stacks 2\nhz 100\ndepth 8\n'
    grep '^object 0 ' $d/gmon.out.stacks; echo "span 0 0 -"
    grep '^object 1 ' $d/gmon.out.stacks; echo "span 1 3 4"
    [ "$marks" = - ] || printf "$marks\n"
    echo "stack 1 5 c 1 $pc"; } > $e/gmon.out.stacks
  got=$(cd $e && gprof --folded=- prog gmon.out 2> err | awk '{sub(/ [0-9]+$/, ""); sub(/ \[.*/, ""); print}')
  [ "$got" = "$want" ] && [ ! -s $e/err ]
  say $? "epoch 1, object 1 loaded at 3, marks [$(echo "$marks" | tr '\n' ' ')]: the stack is $got (want $want) $(head -2 $e/err)"
done

# 2. --flame: valid XML; one box per node of the expected tree wide
#    enough to draw, with its samples, width and row; no two boxes of a
#    row overlap; rendered by rsvg-convert.
(cd $d && gprof --flame=flame.svg prog gmon.out > /dev/null 2> /dev/null); rc=$?
if [ $rc != 0 ]; then bad "--flame: exit $rc"; else
  if command -v xmllint > /dev/null; then
    xmllint --noout $d/flame.svg 2> $d/xmllint.err; say $? "--flame: xmllint reads the SVG $(cat $d/xmllint.err | head -2)"
  else
    echo "skip --flame: xmllint is not installed (libxml2-utils)"
  fi
  python3 - $d/flame.svg $d/exp <<'PYEOF'
import re, sys, xml.etree.ElementTree as ET
from collections import Counter
svg, exp = sys.argv[1], sys.argv[2]
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(svg).getroot()
# the expected tree: (path) -> samples
total, node = 0, Counter()
for line in open(exp):
    path, n = line.rstrip('\n').rsplit(' ', 1)
    n = int(n); total += n
    parts = path.split(';')
    for i in range(1, len(parts) + 1):
        node[tuple(parts[:i])] += n
W, XPAD, ROW = 1200, 10, 16
scale = (W - 2 * XPAD) / total
maxdepth = max(len(p) for p in node)
want = Counter({(p[-1], n, len(p)) for p, n in node.items() if n * scale >= 0.1})
want = Counter((p[-1], n, len(p)) for p, n in node.items() if n * scale >= 0.1)
want[('all', total, 0)] += 1
got, rows, errs = Counter(), {}, []
top = None
for g in root.iter(ns + 'g'):
    t, r = g.find(ns + 'title'), g.find(ns + 'rect')
    if t is None or r is None:
        continue
    m = re.match(r'(.*) \((\d+) samples?, ([0-9.]+)%', t.text, re.S)
    if not m:
        errs.append(f'title {t.text!r}'); continue
    name, n = m.group(1), int(m.group(2))
    x, y, wd = float(r.get('x')), float(r.get('y')), float(r.get('width'))
    if abs(wd - n * scale) > 0.01:
        errs.append(f'{name}: width {wd} for {n} samples')
    if abs(float(m.group(3)) - 100.0 * n / total) > 0.006:
        errs.append(f'{name}: {m.group(3)}% of {total}')
    if top is None:
        top = y             # the root, drawn first, on the bottom row
    depth = round((top - y) / ROW)
    got[(name, n, depth)] += 1
    rows.setdefault(depth, []).append((x, wd, name))
for d, boxes in rows.items():
    boxes.sort()
    for a, b in zip(boxes, boxes[1:]):
        if a[0] + a[1] > b[0] + 0.02:     # (x and width are rounded to 0.01)
            errs.append(f'row {d}: {a[2]} overlaps {b[2]}')
if got != want:
    errs.append(f'boxes: missing {list((want - got).items())[:3]}, extra {list((got - want).items())[:3]}')
if errs:
    print('FAIL --flame: ' + '; '.join(errs[:5]))
else:
    print(f'ok --flame: {sum(got.values())} boxes, samples, widths, percents and rows as the folded stacks say')
PYEOF
  if command -v rsvg-convert > /dev/null; then
    rsvg-convert $d/flame.svg -o $d/flame.png 2> $d/rsvg.err && [ -s $d/flame.png ]
    say $? "--flame: rsvg-convert renders it $(head -2 $d/rsvg.err)"
  else
    echo "skip --flame rendering: rsvg-convert is not installed (librsvg2-bin)"
  fi
fi

# 3. C++ names: demangled as the report prints them, or not
c=$w/cxx; mkdir -p $c
if c++ -pg -no-pie -g -O0 $P/cxx.cc -o $c/cxx 2> /dev/null && (cd $c && ./cxx); then
  f=$(nm $c/cxx | awk '$3 == "_ZN2ns1fEi" {print $1}'); m=$(nm $c/cxx | awk '$3 == "main" {print $1}')
  { echo 'libprof-stacks 1'; echo 'depth 8'; echo "object 0 0x0 0x1000 0x10000000 - $c/cxx"
    echo "stack 1 7 c 0x$(printf %x $((0x$f + 1))) 0x$(printf %x $((0x$m + 4)))"; } > $c/gmon.out.stacks
  a=$(cd $c && gprof --folded=- cxx gmon.out 2>&1); b=$(cd $c && gprof --no-demangle --folded=- cxx gmon.out 2>&1)
  [ "$a" = "main;ns::f(int) 7" ] && [ "$b" = "main;_ZN2ns1fEi 7" ]; say $? "C++ names: '$a', '$b' with --no-demangle"
  # the flame graph's box shows the short name, its title the whole one
  (cd $c && gprof --flame=cxx.svg cxx gmon.out > /dev/null 2>&1)
  grep -q '<title>ns::f(int) (7 samples, 100.00%)</title><rect [^>]*/><text [^>]*>ns::f(…)</text>' $c/cxx.svg
  say $? "C++ names in the flame graph: ns::f(…) on the box, ns::f(int) in its title"
else
  bad "building and running tests/progs/stacks/cxx.cc"
fi

# 4. No stack file: one line, status 1, no file written; a profile that
#    is missing is said first
n=$w/none; mkdir -p $n; cp $d/prog $d/gmon.out $n/
(cd $n && gprof --folded=x.folded prog gmon.out > out 2> err; echo $? > rc)
[ "$(cat $n/rc)" = 1 ] && [ "$(cat $n/err)" = "gprof: gmon.out.stacks: no stack file: --folded draws the stacks libprof samples (run the program with LIBPROF_STACKS=64)" ] \
  && [ ! -e $n/x.folded ] && [ ! -s $n/out ]
say $? "no stack file: $(cat $n/err)"
(cd $n && gprof --flame prog nothere.out > out 2> err; echo $? > rc)
[ "$(cat $n/rc)" = 1 ] && [ "$(cat $n/err)" = "nothere.out: No such file or directory" ]
say $? "no profile and no stack file: the profile's message"
# object 0 of another build: a warning
x=$w/other; mkdir -p $x; cp $d/prog $d/gmon.out $x/
$gen $x/prog 0 $w/libstk.so $LIBBASE 1 $x/gmon.out.stacks $x/exp wrong-id
(cd $x && gprof --folded=got prog gmon.out > /dev/null 2> err)
grep -qx "gprof: warning: gmon.out.stacks: written by another program or build (build-id 0123456789abcdef0123456789abcdef01234567, the program has $(readelf -n $x/prog | sed -n 's/.*Build ID: //p')): the stacks may be wrong" $x/err
say $? "object 0 of another build: $(head -1 $x/err)"

# 5. Hostile stack files: each is status 1 and one message naming the
#    file (and line), fast and in little memory.
h=$w/hostile; mkdir -p $h; cp $d/prog $d/gmon.out $h/
hdr='libprof-stacks 1
hz 100
depth 64
object 0 0x0 0x401000 0x402000 - prog'
# expect WHAT MESSAGE CONTENT: CONTENT (printf %b) as the stack file
expect() {
  printf '%b' "$3" > $h/gmon.out.stacks
  (cd $h && lim && exec gprof --folded=- prog gmon.out) > $h/out 2> $h/err; rc=$?
  [ $rc = 1 ] && [ "$(cat $h/err)" = "gprof: gmon.out.stacks: $2" ]
  r=$?; [ $r = 0 ] || echo "  status $rc, stderr: $(head -3 $h/err)"
  say $r "hostile: $1"
}
expect "empty file" "not a libprof-stacks 1 or 2 file" ""
expect "another version" "not a libprof-stacks 1 or 2 file" "libprof-stacks 3\n"
h2='libprof-stacks 2
depth 64
object 0 0x0 0x401000 0x402000 - prog'
expect "v2: a stack with an epoch only" "line 4: a stack with no PC" "$h2\nstack 1 5 c 7\n"
expect "v2: an epoch not a number" "line 4: epoch \`0x401100' is not a number from 0 to 18446744073709551615" "$h2\nstack 1 5 c 0x401100\n"
expect "v2: a span of no object" "line 4: a span of object 3, which is not listed" "$h2\nspan 3 0 -\n"
expect "v2: a span ending before it starts" "line 4: object 0: span ends at 1, before its start 2" "$h2\nspan 0 2 1\n"
expect "v2: a blind mark not a number" "line 4: blind epoch \`x' is not a number from 0 to 18446744073709551615" "$h2\nblind x\n"
expect "v2: a blind mark with a third field" "line 4: a blind mark is an epoch, then \"-\" or nothing" "$h2\nblind 1 2\n"
expect "v2: two spans of one object" "line 5: a second span of object 0" "$h2\nspan 0 0 -\nspan 0 1 -\n"
expect "v2: two start lines" "line 5: a second start line" "$h2\nstart 1\nstart 2\n"
expect "a line cut short" "line 5: no end of line (the file is cut short)" "$hdr\nstack 1 5 c 0x401100 0x4011"
expect "a bad hex PC" "line 5: PC \`0x40zz' is not an address (0x...)" "$hdr\nstack 1 5 c 0x40zz\n"
expect "a PC of 17 digits" "line 5: PC \`0x12345678901234567' is not an address (0x...)" "$hdr\nstack 1 5 c 0x12345678901234567\n"
expect "a PC without 0x" "line 5: PC \`401100' is not an address (0x...)" "$hdr\nstack 1 5 c 401100\n"
expect "a count past 2^64" "line 5: count \`18446744073709551616' is not a number from 0 to 18446744073709551615" "$hdr\nstack 1 18446744073709551616 c 0x401100\n"
expect "counts adding up past 2^64" "line 6: the counts add up to more than 2^64" "$hdr\nstack 1 18446744073709551615 c 0x401100\nstack 1 1 c 0x401100\n"
expect "a count of 0" "line 5: a stack of count 0" "$hdr\nstack 1 0 c 0x401100\n"
expect "a negative count" "line 5: count \`-5' is not a number from 0 to 18446744073709551615" "$hdr\nstack 1 -5 c 0x401100\n"
expect "an end not c, t, b" "line 5: end \`x' is not c, t or b" "$hdr\nstack 1 5 x 0x401100\n"
expect "a stack with no PC" "line 5: a stack with no PC" "$hdr\nstack 1 5 c\n"
expect "two spaces" "line 5: PC \`' is not an address (0x...)" "$hdr\nstack 1 5 c 0x401100  0x401100\n"
expect "a tid past 2^32" "line 5: thread id \`4294967296' is not a number from 0 to 4294967295" "$hdr\nstack 4294967296 5 c 0x401100\n"
expect "depth 1e9" "line 2: depth \`1000000000' is not a number from 1 to 65536" "libprof-stacks 1\ndepth 1000000000\n"
expect "depth 0" "line 2: depth \`0' is not a number from 1 to 65536" "libprof-stacks 1\ndepth 0\n"
expect "two depth lines" "line 3: a second depth line" "libprof-stacks 1\ndepth 4\ndepth 1000\n"
expect "more frames than the depth" "line 4: more frames than the depth, 2" "libprof-stacks 1\ndepth 2\nobject 0 0x0 0x401000 0x402000 - prog\nstack 1 1 c 0x1 0x2 0x3\n"
expect "a stack before the depth" "line 2: a stack before the depth line" "libprof-stacks 1\nstack 1 1 c 0x1\n"
expect "no object 0" "no object 0 (the program)" "libprof-stacks 1\ndepth 2\nobject 1 0x0 0x401000 0x402000 - prog\nstack 1 1 c 0x1\n"
expect "object 0 twice" "object 0 listed twice" "$hdr\nobject 0 0x0 0x401000 0x402000 - prog\n"
expect "an object number of 1e9" "line 5: object number \`1000000000' is not a number from 0 to 4095" "$hdr\nobject 1000000000 0x0 0x1 0x2 - x\n"
expect "text below the base" "line 5: object 1: text start 0x400 below its base 0x500" "$hdr\nobject 1 0x500 0x400 0x402000 - /x\n"
expect "text end below start" "line 5: object 1: text end 0x300 below its start 0x400" "$hdr\nobject 1 0x0 0x400 0x300 - /x\n"
expect "a bad build-id" "line 5: build-id \`zzz' is not hex pairs (at most 64) or -" "$hdr\nobject 1 0x0 0x401000 0x402000 zzz /x\n"
expect "an object without a path" "line 5: no path" "$hdr\nobject 1 0x0 0x401000 0x402000 -\n"
expect "hz 0" "line 2: hz \`0' is not a number from 1 to 1000000000" "libprof-stacks 1\nhz 0\n"
expect "a NUL byte" "line 2: a NUL byte" "libprof-stacks 1\nhz 1\0000\n"
# a line of 20 MB with no end: refused at 1.3 MB, not read whole
python3 -c "import sys; sys.stdout.write('libprof-stacks 1\ndepth 64\nstack 1 1 c ' + '0x1 ' * 5000000)" > $h/long
cp $h/long $h/gmon.out.stacks
(cd $h && lim && exec gprof --folded=- prog gmon.out) > $h/out 2> $h/err; rc=$?
[ $rc = 1 ] && grep -qx 'gprof: gmon.out.stacks: line 3: longer than 1318911 bytes' $h/err
say $? "hostile: a 20 MB line ($(head -1 $h/err))"
rm -f $h/long
# /dev/zero and /dev/urandom as the stack file
for dev in /dev/zero /dev/urandom; do
  rm -f $h/gmon.out.stacks; ln -s $dev $h/gmon.out.stacks
  (cd $h && lim && exec gprof --folded=- prog gmon.out) > $h/out 2> $h/err; rc=$?
  [ $rc = 1 ] && [ $(wc -l < $h/err) = 1 ] && grep -q '^gprof: gmon.out.stacks: ' $h/err
  say $? "hostile: $dev as the stack file ($(head -1 $h/err))"
done
rm -f $h/gmon.out.stacks
# a directory as the stack file
mkdir $h/gmon.out.stacks
(cd $h && lim && exec gprof --folded=- prog gmon.out) > $h/out 2> $h/err; rc=$?
[ $rc = 1 ] && [ "$(cat $h/err)" = "gprof: gmon.out.stacks: Is a directory" ]; say $? "hostile: a directory as the stack file"
rmdir $h/gmon.out.stacks
# damaged copies of a good file: each is read (status 0) or refused with
# one message (status 1); never a crash, a hang or a second line
python3 - $d/gmon.out.stacks $h gprof "${HOSTILE_NO_VLIMIT:-}" <<'PYEOF'
import os, random, resource, subprocess, sys
good, h, gprof, novlimit = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
data = open(good, 'rb').read()
lines = data.split(b'\n')
rnd = random.Random(7)
def limits():
    if not novlimit:
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))
    resource.setrlimit(resource.RLIMIT_CPU, (20, 20))
def damage():
    d = bytearray(data)
    k = rnd.randrange(6)
    if k == 0:                  # bytes flipped
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(len(d)); d[i] = rnd.randrange(256)
        return bytes(d)
    if k == 1:                  # cut anywhere
        return bytes(d[:rnd.randrange(len(d))])
    ls = list(lines)
    i = rnd.randrange(len(ls))
    f = ls[i].split(b' ')
    j = rnd.randrange(len(f))
    if k == 2:                  # a field made huge, negative, empty or odd
        f[j] = rnd.choice([b'99999999999999999999999', b'-1', b'', b'0x', b'0xffffffffffffffff', b'4294967296', b'0', b'1e9'])
    elif k == 3:                # a field dropped
        del f[j]
    elif k == 4:                # a line repeated
        ls.insert(i, ls[i])
    else:                       # lines swapped
        a = rnd.randrange(len(ls)); ls[i], ls[a] = ls[a], ls[i]
    ls[i] = b' '.join(f)
    return b'\n'.join(ls)
n0 = n1 = 0
for t in range(150):
    with open(os.path.join(h, 'gmon.out.stacks'), 'wb') as f:
        f.write(damage())
    try:
        p = subprocess.run([gprof, '--folded=-', 'prog', 'gmon.out'], cwd=h, capture_output=True,
                           preexec_fn=limits, timeout=60)
    except subprocess.TimeoutExpired:
        print(f'FAIL hostile: damaged copy {t}: no end after 60 s'); continue
    err = p.stderr.decode('utf-8', 'replace').rstrip('\n').split('\n')
    err = [e for e in err if 'cannot read it' not in e and 'written by another' not in e]
    if p.returncode == 0:
        n0 += 1
    elif p.returncode == 1 and len(err) == 1 and err[0].startswith('gprof: gmon.out.stacks: '):
        n1 += 1
    else:
        os.rename(os.path.join(h, 'gmon.out.stacks'), os.path.join(h, f'bad{t}.stacks'))
        print(f'FAIL hostile: damaged copy {t} (kept as {h}/bad{t}.stacks): status {p.returncode}, {err[:2]}')
print(f'ok hostile: 150 damaged stack files: {n0} read, {n1} refused with one line')
PYEOF
# 6. End to end: the program linked with libprof and run with
#    LIBPROF_STACKS=64; the stacks whose leaf is one of its functions add
#    up to the flat profile's samples exactly (libprof drops from the
#    stacks what it drops from the histogram); each of its frames sits
#    under a caller it has (frame pointers at -O0: the walk is exact);
#    the flame graph renders.
e=$w/e2e; mkdir -p $e
if [ ! -f $top/libprof/libprof.a ]; then
  bad "end to end: no libprof/libprof.a"
else
  cc -O0 -g -pg $P/prog.c -o $e/prog -L$top/libprof -lprof || bad "end to end: building prog with libprof"
  (cd $e && LIBPROF_STACKS=64 ./prog 1500000 > /dev/null)
  if [ ! -s $e/gmon.out.stacks ]; then
    bad "end to end: LIBPROF_STACKS=64 wrote no gmon.out.stacks"
  else
    (cd $e && gprof --folded=folded --json=run.json --flame=flame.svg prog gmon.out > /dev/null 2> err)
    [ -s $e/err ] && bad "end to end: stderr $(head -2 $e/err)"
    python3 - $e/folded $e/run.json <<'PYEOF'
import json, sys
folded, run = sys.argv[1], sys.argv[2]
total = json.load(open(run))['histogram']['total_samples']
callers = {'spin': {'leaf', 'mid_b', 'rec'}, 'leaf': {'mid_a', 'mid_b'}, 'mid_a': {'main'},
           'mid_b': {'main'}, 'rec': {'main', 'rec'}}
own, wrong, all_ = 0, [], 0
for line in open(folded):
    path, n = line.rstrip('\n').rsplit(' ', 1)
    n = int(n); frames = path.split(';'); all_ += n
    if frames[-1] in callers or frames[-1] == 'main':
        own += n
    for a, b in zip(frames, frames[1:]):
        if b in callers and a not in callers[b]:
            wrong.append(f'{a};{b} ({n})')
if own != total or own < 50 or wrong:
    print(f'FAIL end to end: {own} samples in stacks with the program\'s leaves, {total} in the flat profile; '
          f'callers not the program\'s: {wrong[:5]}')
else:
    print(f'ok end to end: {own} samples in stacks with a leaf in the program = the flat profile\'s {total} '
          f'(of {all_} in all); every frame under one of its callers')
PYEOF
    if command -v rsvg-convert > /dev/null; then
      rsvg-convert $e/flame.svg -o $e/flame.png 2> /dev/null && [ -s $e/flame.png ]
      say $? "end to end: the flame graph renders"
    fi
  fi
fi
echo "stacks: done"
