#!/bin/sh
# rebin.sh -- rebuilds the programs of the gcc-built cases of tests/cases
# (gen.sh's `prog` lines with -g) as gen.sh builds them now, with
# -fdebug-prefix-map so that their debug information names the sources
# /gprof-tests/progs/... and no directory of the machine that built them,
# and copies them into the cases derived from them (the same bytes, or the
# same bytes relabelled as hostile_cases.sh and cross.sh relabel them).
# The profiles are kept: the script refuses a program whose loaded bytes
# (.text, .data, symbols, ...) differ from the one it replaces, since the
# recorded gmon.out files were written by that one.  Then record GNU's
# reports again for the cases whose output names a source:
#   sh tests/tools/rebin.sh && sh tests/expect.sh CASE...
set -e
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
map="-fdebug-prefix-map=$(pwd)/progs=/gprof-tests/progs"
# the sections whose bytes a profile depends on (addresses, symbols)
same() { # old new
  for s in .text .rodata .data .plt .plt.got .plt.sec .got .dynsym .symtab .strtab .init .fini; do
    a=$(objcopy -O binary --only-section=$s "$1" "$tmp/a" 2>/dev/null && md5sum < "$tmp/a" || echo none)
    b=$(objcopy -O binary --only-section=$s "$2" "$tmp/b" 2>/dev/null && md5sum < "$tmp/b" || echo none)
    [ "$a" = "$b" ] || { echo "rebin.sh: $1: $s differs from the rebuilt program" >&2; return 1; }
  done
  [ "$(nm -n "$1")" = "$(nm -n "$2")" ]
}
relabel() { # in out e_machine
  python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[18:20] = int(sys.argv[3]).to_bytes(2, "little"); open(sys.argv[2], "wb").write(d)' "$@"
}
copies() { # the cases whose bin is byte for byte cases/$1/bin
  h=$(md5sum < cases/$1/bin)
  for b in cases/*/bin; do [ "$(md5sum < $b)" = "$h" ] && echo "${b%/bin}"; done
}
rebuild() { # name compiler flags source
  name=$1 cc=$2 flags=$3 src=$4
  (cd progs && $cc $flags $map -pg $src -o "$tmp/$name")
  same cases/$name/bin "$tmp/$name"
  for d in $(copies $name); do cp "$tmp/$name" $d/bin; done
}
# relabelled copies first, from the old program they were made of
um=$(relabel cases/cycles/bin "$tmp/um" 39321; cmp -s "$tmp/um" cases/hostile_unknown_machine/bin && echo y)
cu=$(relabel cases/cycles_m32/bin "$tmp/cu" 243; cmp -s "$tmp/cu" cases/c_unsupported/bin && echo y)
rebuild cycles        gcc "-O0 -g"          cycles.c
rebuild cycles_O2     gcc "-O2 -g -no-pie"  cycles.c
rebuild cycles_m32    gcc "-O0 -g -m32"     cycles.c
rebuild cycles_static gcc "-O1 -g -static"  cycles.c
rebuild names         g++ "-O0 -g"          names.cc
rebuild multi         gcc "-O0 -g"          "multi/main.c multi/alpha.c multi/beta.c"
[ "$um" = y ] && relabel cases/cycles/bin cases/hostile_unknown_machine/bin 39321
[ "$cu" = y ] && relabel cases/cycles_m32/bin cases/c_unsupported/bin 243
exit 0
