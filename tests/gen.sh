#!/bin/sh
# Regenerates the test fixtures in tests/cases: builds tests/progs with -pg,
# runs them under the system's profiling runtime (glibc), derives edited and
# broken profile files, and records what GNU gprof 2.40 prints for each
# option set in tests/optsets.  A development step: `make check` only reads
# what this leaves behind.
set -e
cd "$(dirname "$0")"
[ -x /usr/bin/gprof ] || { echo "gen.sh needs GNU gprof in /usr/bin" >&2; exit 1; }
ed="python3 tools/gmonedit.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# per-case option sets are hand-written: keep them across the rebuild
mkdir "$tmp/optsets"
for f in cases/*/optsets; do [ -f "$f" ] && cp "$f" "$tmp/optsets/$(basename $(dirname $f))"; done
rm -rf cases; mkdir cases

prog() { # name compiler flags source args
  name=$1 cc=$2 flags=$3 src=$4; shift 4
  d=cases/$name; mkdir -p $d
  # no directory of this machine in the debug information: sources are
  # named /gprof-tests/progs/... (tools/rebin.sh rebuilds the programs alone)
  (cd progs && $cc $flags -fdebug-prefix-map="$(pwd)"=/gprof-tests/progs -pg $src -o "$tmp/bin")
  cp "$tmp/bin" $d/bin
  (cd "$tmp" && rm -f gmon.out && ./bin "$@" >/dev/null && mv gmon.out "$OLDPWD/$d/gmon.out")
  echo gmon.out > $d/files
}
derive() { # name from files...
  name=$1 from=$2; shift 2
  d=cases/$name; mkdir -p $d
  cp cases/$from/bin $d/bin
  echo "$*" > $d/files
}

prog cycles      gcc "-O0 -g"          cycles.c
prog cycles_O2   gcc "-O2 -g -no-pie"  cycles.c 2000
prog cycles_nog  gcc "-O1"             cycles.c 1500
prog cycles_m32  gcc "-O0 -g -m32"     cycles.c 2000
prog cycles_static gcc "-O1 -g -static" cycles.c 2000
prog names       g++ "-O0 -g"          names.cc
prog cxxgraph    g++ "-O1"             cxxgraph.cc 8000
prog multi       gcc "-O0 -g"          "multi/main.c multi/alpha.c multi/beta.c"
# --callgrind by line (exports.sh): sources named /gprof-tests/progs/...
prog hotlines    gcc "-O0 -g -fdebug-prefix-map=$(pwd)/progs=/gprof-tests/progs" hotlines.c

derive twofiles cycles gmon.a gmon.b
(cd "$tmp" && cp "$OLDPWD/cases/cycles/bin" . && ./bin 700 >/dev/null && mv gmon.out "$OLDPWD/cases/twofiles/gmon.a" \
   && ./bin 1900 >/dev/null && mv gmon.out "$OLDPWD/cases/twofiles/gmon.b")
for f in bsd 4.4bsd; do
  derive bsd_$f cycles gmon.data
  $ed bsd cases/cycles/gmon.out cases/bsd_$f/gmon.data $f
done
derive histonly cycles gmon.h;  $ed keep cases/cycles/gmon.out cases/histonly/gmon.h h
derive arcsonly cycles gmon.a;  $ed keep cases/cycles/gmon.out cases/arcsonly/gmon.a a
derive headeronly cycles gmon.e; $ed keep cases/cycles/gmon.out cases/headeronly/gmon.e x
derive bad_short cycles gmon.bad; $ed trunc cases/cycles/gmon.out cases/bad_short/gmon.bad 12
derive bad_eof cycles gmon.bad;   $ed trunc cases/cycles/gmon.out cases/bad_eof/gmon.bad 33
derive bad_bins cycles gmon.bad;  $ed trunc cases/cycles/gmon.out cases/bad_bins/gmon.bad 400
derive bad_tag cycles gmon.bad;   $ed tag cases/cycles/gmon.out cases/bad_tag/gmon.bad 9
derive bad_version cycles gmon.bad; $ed version cases/cycles/gmon.out cases/bad_version/gmon.bad 7
derive bad_scale cycles gmon.out gmon.half
cp cases/cycles/gmon.out cases/bad_scale/; $ed rescale cases/cycles/gmon.out cases/bad_scale/gmon.half
derive bad_notobj cycles gmon.out; cp cases/cycles/gmon.out cases/bad_notobj/; cp progs/cycles.c cases/bad_notobj/bin
derive bad_missing cycles gmon.none
derive options cycles gmon.out; cp cases/cycles/gmon.out cases/options/
# bytes after the dimension string ("seconds\0" then garbage): gmon.sum
# carries the first record's 15 bytes as they are
derive dimen_tail cycles gmon.out
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); i = d.index(b"seconds\0"); d[i + 8:i + 15] = b"\x10tail!\x01"; open(sys.argv[2], "wb").write(d)' cases/cycles/gmon.out cases/dimen_tail/gmon.out
# -c on i386: hand-made calls of every kind GNU's scan meets
mkdir -p cases/callscan
gcc -m32 -nostdlib -no-pie -Wl,-e,_start -o cases/callscan/bin progs/callscan.s
python3 tools/nullprof.py cases/callscan/bin cases/callscan/gmon.out "_start>first=1" "second>third=4"
echo gmon.out > cases/callscan/files
# which dotted static names GNU keeps (hand-made symbol table)
mkdir -p cases/dotted
cc -nostdlib -no-pie -Wl,-e,_start -Wa,-I,progs/dotted -o cases/dotted/bin progs/dotted/one.s progs/dotted/two.s
python3 tools/nullprof.py cases/dotted/bin cases/dotted/gmon.out; echo gmon.out > cases/dotted/files
# -S tables cut after the first K text symbols (the last one reaches to
# the end of .text)
derive extsyms cycles gmon.out; cp cases/cycles/gmon.out cases/extsyms/
nm -n cases/cycles/bin | grep ' [Tt] ' > "$tmp/syms"
for k in 1 4 19 23; do head -$k "$tmp/syms" > cases/extsyms/first$k.syms; done

# -R maps: nm's own output for the objects of multi, hand-written ones
# (tests/progs/maps) and random ones for a large synthetic graph.
derive fileorder multi gmon.out; cp cases/multi/gmon.out cases/fileorder/
(cd progs/multi && for f in main alpha beta; do gcc -O0 -g -pg -c $f.c -o "$tmp/$f.o"; done)
(cd "$tmp" && nm --extern-only --defined-only -v --print-file-name main.o alpha.o beta.o) > cases/fileorder/nm.map
cp progs/maps/*.map cases/fileorder/

# Synthetic graphs: many cycles, self arcs, ties, cycles nobody calls.
for spec in "8 12 1" "8 12 3" "30 60 9" "300 2000 2" "250 900 11" "450 2500 22" "700 4000 27"; do
  set -- $spec
  python3 tools/synth.py $1 $2 $3 cases/synth_$1_$3
done
# -r past 80 called functions: ladders with uncalled callers, specials
# calling specials, the five-callers stop, six specials
python3 tools/ladder.py 121 4 cases/ladder_u "242>27=1" "243>29=1" "242>31=1"
python3 tools/ladder.py 121 4 cases/ladder_cycle "31>27=5" "27>29=9" "29>31=2" "242>31=1"
python3 tools/ladder.py 121 12 cases/ladder_five "1>242=1" "1>243=1" "1>244=1" "1>245=1" \
  "242>201=10100" "243>201=10101" "244>201=10102" "245>201=10103"
python3 tools/ladder.py 241 4 cases/ladder_six "57>55=1" "51>61=1"
derive fileorder_synth synth_300_2 gmon.out; cp cases/synth_300_2/gmon.out cases/fileorder_synth/
for s in 1 2 3; do python3 tools/synthmap.py cases/synth_300_2/bin $s cases/fileorder_synth/$s.map; done
# several functions of one object on adjacent lines: GNU reads
# uninitialised memory (valgrind), so it is recorded in a clean heap (env)
python3 tools/synthmap.py cases/synth_300_2/bin 29 cases/fileorder_synth/4.map --adjacent
echo MALLOC_MMAP_THRESHOLD_=0 > cases/fileorder_synth/env

# line-level cases (-l, basic blocks, -A with line counts)
sh ./gen-lines.sh

for f in "$tmp"/optsets/*; do [ -d cases/$(basename $f) ] && cp "$f" cases/$(basename $f)/optsets; done

sh ./expect.sh
sh tools/hostile_cases.sh
