#!/bin/sh
# names.sh -- the names our exports give (issue 31, the analyzer side):
#  1. a program whose time runs in GCC's clones (progs/names/clones.c:
#     .isra, .part, .constprop, .cold), run with libprof's stacks: each
#     program frame of --folded is the function of the ELF symbol table
#     that holds it (tools/names.py), never the neighbour GNU's rules
#     name it after; --flame, --stack-times, --json and --pprof name the
#     clones too; GNU's text reports keep their bytes (and GNU gprof's,
#     when installed);
#  2. --pprof's mappings: `go tool pprof -symbolize=force` finds, through
#     them, the same functions as the names gprof wrote, for the program
#     (PIE), a library linked at start and a dlopened plugin (skipped
#     when go is not installed);
#  3. stack file version 2 (doc/DESIGN.md "Stacks"): a plugin unloaded
#     and another loaded at its address are two objects, each PC named
#     after the one loaded at its stack's epoch; start and duration in
#     pprof's time and duration; dropped samples a [dropped] entry and
#     truncated stacks a [truncated] root (folded, flame), a label
#     (pprof), a count (--stack-times, --json).
# Prints "ok WHAT", "FAIL WHAT: why" or "skip WHAT: why"; run.sh counts
# them.  GPROF is the gprof to test; OUT a scratch directory.
cd "$(dirname "$0")"
here=$(pwd)
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/names}"
rm -rf "$OUT"; mkdir -p "$OUT/bin" "$OUT/home"
ln -s "$GPROF" "$OUT/bin/gprof"; PATH="$OUT/bin:$PATH"
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
say() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
names="python3 $here/tools/names.py"
P=$here/progs/names
for tool in cc python3 readelf nm; do
  command -v $tool > /dev/null || { bad "names: $tool is not installed"; echo "names: done"; exit 0; }
done
[ -f "$top/libprof/libprof.a" ] || { echo "skip names: libprof is not built"; echo "names: done"; exit 0; }
if command -v go > /dev/null && HOME=$OUT/home GOCACHE=$OUT/home/cache go tool pprof -h > /dev/null 2>&1; then
  havego=1
else
  havego=0; echo "skip go tool pprof: go is not installed (Debian golang-go): the mappings are not symbolized"
fi
gopprof() { TZ=UTC HOME=$OUT/home GOCACHE=$OUT/home/cache GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local go tool pprof "$@"; }
cd "$OUT"

# 1. GCC's clones
cc -O2 -g -pg -no-pie $P/clones.c -o clones -L"$top/libprof" -lprof || bad "building clones"
have=$(nm clones | awk '$3 ~ /\.(isra|part|constprop)\.[0-9]|\.cold$/ {print $3}' | tr '\n' ' ')
for c in isra part constprop cold; do
  # (the sanitizers' build is compiled otherwise and may make fewer)
  case $have in
    *.$c*) ;;
    *) if [ -n "$LIBPROF_SANITIZED" ]; then echo "skip clones: no .$c clone in the sanitizers' build (it has: $have)"
       else bad "clones: gcc made no .$c clone (it has: $have)"; fi;;
  esac
done
LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./clones 20 > /dev/null || bad "running clones"
gprof -b clones gmon.out > plain.txt 2> plain.err
gprof -b --folded=got --flame=got.svg --pprof=got.pb.gz --json=got.json clones gmon.out > with.txt 2> with.err
r=$($names folded gmon.out.stacks got); say $? "clones: --folded names the functions that ran: $r"
cmp -s plain.txt with.txt && [ ! -s with.err ]
say $? "clones: the text is the same with the exports ($(head -1 with.err))"
if [ -x /usr/bin/gprof ]; then
  /usr/bin/gprof -b clones gmon.out > gnu.txt 2> /dev/null
  cmp -s gnu.txt plain.txt; say $? "clones: the text is GNU gprof's bytes"
else
  echo "skip clones: GNU gprof (/usr/bin/gprof) is not installed"
fi
# the clones with samples, by the folded stacks' leaves
leaves=$(sed 's/ [0-9]*$//; s/.*;//' got | grep -E '\.(isra|part|constprop)\.[0-9]|\.cold$' | sort -u | tr '\n' ' ')
[ -n "$leaves" ]; say $? "clones: clones with samples: $leaves"
miss=""
for l in $leaves; do grep -q ">$l " got.svg || miss="$miss flame:$l"; done
gprof -b --stack-times clones gmon.out > st.txt 2> st.err
for l in $leaves; do
  awk -v n="$l" '$NF == n && NF == 4' st.txt | grep -q . || miss="$miss stack-times:$l"
done
gprof -b --stack-times --json=st.json clones gmon.out > /dev/null 2>&1
for l in $leaves; do
  python3 -c "import json,sys; d=json.load(open('st.json')); sys.exit(0 if any(f['name'] == sys.argv[1] for f in d['stack_times']['functions']) else 1)" "$l" \
    || miss="$miss json:$l"
done
if [ $havego = 1 ]; then
  gopprof -symbolize=none -top -nodecount=100 got.pb.gz > top.txt 2> /dev/null
  for l in $leaves; do grep -q " $l\$" top.txt || miss="$miss pprof:$l"; done
fi
# the call graph's exports: from a table that keeps the clones (the text
# keeps GNU's): each clone an entry with its own time, the neighbour GNU
# names (rare, before cold_work.cold) not holding the clone's samples
gprof -b --dot=cg.dot --callgrind=cg.out --json=cg.json clones gmon.out > cg.txt 2> cg.err
cmp -s cg.txt plain.txt && [ ! -s cg.err ]; say $? "clones: the text is the same with --dot, --callgrind, --json ($(head -1 cg.err))"
# (drawn from the table --all-functions makes: the same)
gprof -b --all-functions --json=all.json clones gmon.out > all.txt 2> /dev/null
cmp -s all.json cg.json; say $? "clones: the exports are --all-functions' exports"
# the exports' table is analysed from what was read once: a profile read
# from a pipe gives them too (a second reading found the pipe empty)
cat gmon.out | gprof -b --dot=pipe.dot --json=pipe.json clones /dev/stdin > pipe.txt 2> pipe.err
rc=$?
[ $rc = 0 ] && cmp -s pipe.dot cg.dot && cmp -s pipe.txt plain.txt && [ ! -s pipe.err ]
say $? "clones: a profile from a pipe is read once, for the text and the exports (exit $rc)"
python3 $here/tools/exportcheck.py json cg.json all.txt > /dev/null
say $? "clones: --json agrees with the text of --all-functions"
for l in $leaves; do
  grep -q "label=\"$l \[" cg.dot || miss="$miss dot:$l"
  grep -q "^c\{0,1\}fn=([0-9]*) $l\$" cg.out || miss="$miss callgrind:$l"
  python3 -c "import json,sys; d=json.load(open('cg.json')); sys.exit(0 if any(r['name'] == sys.argv[1] and r['self_seconds'] > 0 for r in d['flat_profile']) else 1)" "$l" \
    || miss="$miss json-flat:$l"
done
python3 -c "
import json, sys
d = {r['name']: r['self_seconds'] for r in json.load(open('cg.json'))['flat_profile']}
sys.exit(0 if d.get('rare', 0) < d.get('cold_work.cold', 0) else 1)" || miss="$miss json:rare-holds-cold_work.cold"
[ -n "$leaves" ] && [ -z "$miss" ]; say $? "clones: named in --flame, --stack-times, --json, --dot, --callgrind$([ $havego = 1 ] && echo ", --pprof"):${miss:- all}"

# 2. --pprof's mappings, symbolized by go tool pprof
F="-O1 -g -fno-omit-frame-pointer -Wl,--build-id"
cc $F -shared -fPIC $P/maplib.c -o libmaplib.so || bad "building libmaplib.so"
cc $F -shared -fPIC -DWHO=a $P/plug.c -o plug_a.so && cc $F -shared -fPIC -DWHO=b $P/plug.c -o plug_b.so \
  || bad "building the plugins"
cc $F -pie -fPIE -pg $P/maps.c -o maps -L. -lmaplib -Wl,-rpath,"$OUT" -L"$top/libprof" -lprof -ldl \
  || bad "building maps"
mkdir -p run && (cd run && LIBPROF_HZ=1000 LIBPROF_STACKS=64 ../maps "$OUT/plug_a.so" 20 > /dev/null) \
  || bad "running maps"
if [ $havego = 1 ]; then
  (cd run && gprof --pprof=../maps.pb.gz ../maps gmon.out > /dev/null 2> ../maps.err)
  gopprof -symbolize=none -raw maps.pb.gz > none.raw 2> /dev/null
  gopprof -symbolize=force -raw maps.pb.gz > force.raw 2> force.err
  r=$($names pprof none.raw force.raw maps libmaplib.so plug_a.so)
  say $? "pprof: go tool pprof -symbolize=force names as gprof does: $r"
else
  echo "skip pprof: go tool pprof -symbolize=force (go is not installed)"
fi

# 3. Version 2: load generations, start and duration, dropped, truncated
seg() { # FILE: the executable segment's first page and end (hex, no 0x)
  readelf -lW "$1" | python3 -c "
import sys
for l in sys.stdin:
    f = l.split()
    if f and f[0] == 'LOAD' and 'E' in f[6:-1]:
        v, m = int(f[2], 16), int(f[5], 16)
        print('%x %x' % (v - v % 4096, v + m))
        break"
}
sym() { printf '%x' $(( 0x$(nm "$1" | awk -v n="$2" '$3 == n {print $1; exit}') )); }
B=555555554000; X=7f0000100000
set -- $(seg maps); plo=$1; phi=$2
set -- $(seg plug_a.so); qlo=$1; qhi=$2
set -- $(seg plug_b.so)
[ "$1 $2" = "$qlo $qhi" ] || bad "v2: the plugins' text differs in place ($qlo $qhi, $1 $2)"
[ "$(sym plug_a.so spin_a)" = "$(sym plug_b.so spin_b)" ] || bad "v2: spin_a and spin_b are not at one address"
pca=$(printf '0x%x' $((0x$X + 0x$(sym plug_a.so spin_a) + 4)))
pcm=$(printf '0x%x' $((0x$B + 0x$(sym maps main) + 9)))
mkdir -p v2 && cp maps v2/ && cp run/gmon.out v2/
cat > v2/gmon.out.stacks <<EOF
libprof-stacks 2
hz 1000
clock itimer
depth 64
samples 21
dropped 4
start 1700000000000000000
duration 2500000000
object 0 0x$B 0x$(printf %x $((0x$B + 0x$plo))) 0x$(printf %x $((0x$B + 0x$phi))) - $OUT/maps
object 1 0x$X 0x$(printf %x $((0x$X + 0x$qlo))) 0x$(printf %x $((0x$X + 0x$qhi))) - $OUT/plug_a.so
span 1 1 3
object 2 0x$X 0x$(printf %x $((0x$X + 0x$qlo))) 0x$(printf %x $((0x$X + 0x$qhi))) - $OUT/plug_b.so
span 2 3 -
a-later-kind 1 2 3
thread 7 main
stack 7 5 c 2 $pca $pcm
stack 7 7 c 4 $pca $pcm
stack 7 3 t 1 $pca
stack 7 4 b 3 $pca $pcm
stack 7 2 c 0 $pca $pcm
EOF
(cd v2 && gprof --folded=../v2.folded --flame=../v2.svg --pprof=../v2.pb.gz maps gmon.out > /dev/null 2> ../v2.err)
sort v2.folded > v2.sorted
# (epoch 0, before plug_a's span: libprof sees a load at its next scan, so
# a sample in an object loaded since carries the epoch before it and goes
# to the first object loaded there after it, plug_a)
printf '%s\n' "[dropped] 4" "[truncated];main;spin_b [plug_b.so] 4" "[truncated];spin_a [plug_a.so] 3" \
  "main;spin_a [plug_a.so] 7" "main;spin_b [plug_b.so] 7" | sort > v2.want
cmp -s v2.sorted v2.want; say $? "v2: --folded: each PC in the object of its epoch, [dropped], [truncated] ($(tr '\n' '|' < v2.sorted))"
grep -q "gmon.out.stacks: note: 4 of 25 samples were not recorded" v2.err
say $? "v2: a note on the dropped samples ($(head -1 v2.err))"
grep -q '>\[dropped\] ' v2.svg && grep -q '>\[truncated\] ' v2.svg && grep -q '>spin_b \[plug_b.so\] ' v2.svg
say $? "v2: --flame draws [dropped], [truncated] and both plugins"
(cd v2 && gprof -b --stack-times --json=../v2.json maps gmon.out > ../v2.st 2> /dev/null)
grep -q '^7 of them (33.3%) in stacks cut short' v2.st && grep -q '^4 more samples were not recorded' v2.st \
  && python3 -c "import json; t = json.load(open('v2.json'))['stack_times']; assert (t['truncated_samples'], t['dropped_samples'], t['samples']) == (7, 4, 21), t"
say $? "v2: --stack-times and --json count truncated and dropped samples"
if [ $havego = 1 ]; then
  gopprof -raw v2.pb.gz > v2.raw 2> /dev/null
  gopprof -symbolize=none -tagfocus=stack=truncated -top v2.pb.gz > v2.trunc 2> /dev/null
  grep -q '^Time: 2023-11-14 22:13:20 +0000 UTC' v2.raw && grep -q '^Duration: 2.5s' v2.raw \
    && [ "$(grep -c 'plug_[ab].so' v2.raw)" -ge 2 ] && grep -q '^Showing nodes accounting for 7ms, 28.00% of 25ms total' v2.trunc
  say $? "v2: pprof: time, duration, a mapping per load generation, truncated stacks labelled, dropped in the total"
fi
echo "names: done"
