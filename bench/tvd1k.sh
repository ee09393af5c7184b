#!/bin/sh
# The clock's accuracy at 1 kHz (issue 34's closing figures): libprof's flat
# profile against perf on the program built without -pg, single-run and
# pooled, before (LIBPROF_CLOCK=itimer: ITIMER_PROF, which expires on the
# kernel's tick) and after (libprof's default clock), with perf's own noise
# (a second perf run of each round against the first).  Two programs: Lua
# 5.4 on bench/mixed.lua and tests/libprof/compress.c (four threads).
#
# Each round runs, rotated: perf A, perf B (perf record -e cpu-clock at
# TVD_PERF_HZ, default 1000, on the plain build), libprof itimer and
# libprof default (LIBPROF_HZ=1000, the -pg build).  TVD (points) between
# shares of self time (gprof --json's exact seconds; perf's samples mapped
# to the functions gprof lists, as bench/tvd.sh does):
#   single-run: each round's run against that round's perf A; median and
#               range over rounds; floor = perf B against perf A.
#   pooled:     all rounds' runs against all perf A runs; floor = pooled
#               perf B against pooled perf A.
# Usage: bench/tvd1k.sh [rounds [lua-scale [compress-blocks]]] (default 8 4 400)
# TVD_LUA_SRC: a Lua 5.4 source tree (else apt-get source lua5.4).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-8}; scale=${2:-4}; nblk=${3:-400}
command -v perf >/dev/null || { echo "tvd1k.sh: perf is needed" >&2; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
lp="-L$top/libprof -lprof"
cc -O2 -g "$top/tests/libprof/compress.c" -o compress_plain -lpthread
cc -O2 -g -pg "$top/tests/libprof/compress.c" -o compress_libprof $lp -lpthread
progs=compress
lua=${TVD_LUA_SRC:-}
if [ -z "$lua" ] && (mkdir luasrc && cd luasrc && apt-get source lua5.4) >luasrc.log 2>&1; then
  lua=$(ls -d "$d"/luasrc/lua5.4-*/ | head -n 1)
fi
if [ -n "$lua" ]; then
  echo "#define DEB_HOST_MULTIARCH \"$(gcc -print-multiarch)\"" > lua5.4-deb-multiarch.h
  srcs=$(ls "$lua"/src/*.c | grep -v '/luac\.c$')
  cc -O2 -g -I. -DLUA_USE_LINUX -o mixed_plain $srcs -lm -ldl
  cc -O2 -g -I. -DLUA_USE_LINUX -pg -o mixed_libprof $srcs $lp -lm -ldl
  cp "$top/bench/mixed.lua" .
  progs="mixed $progs"
else
  echo "Lua: skipped (no source: set TVD_LUA_SRC)"
fi
python3 "$top/bench/tvd1k.py" "$top/gprof" "$rounds" "$scale" "$nblk" $progs
