#!/bin/sh
# Self time honest on workloads not tuned for (issue 34): bench/tvd.sh on
# two interpreter workloads of different shape -- Lua 5.4 on bench/tvd.lua
# and on bench/mixed.lua (binary trees, a sort with a Lua comparator,
# string formatting and matching, coroutines, string-keyed tables: many
# short strings interned) -- plus tests' bytecode interpreter and the
# threaded compressor (tests/libprof/compress.c), at libprof's default
# rate and at 1 kHz.  Each report gives TVD against perf on the plain
# build, the noise floor, perf on the -pg build against the plain one
# (what the -pg code itself moves) and libprof against perf on the same
# -pg build (what libprof's sampling adds).
# Usage: bench/selftime.sh [rounds]   (default 8; about 25 minutes on 2 cores)
# SELFTIME_PROGS: tvd.sh's programs (default lua mixed gawk interp compress)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
r=${1:-8}
echo "### libprof at its default rate (perf at 997 Hz)"
TVD_PROGS="${SELFTIME_PROGS:-lua mixed gawk interp compress}" sh "$top/bench/tvd.sh" "$r"
echo
echo "### libprof at 1000 Hz"
TVD_LIBPROF_HZ=1000 TVD_PROGS="${SELFTIME_PROGS:-lua mixed gawk interp compress}" sh "$top/bench/tvd.sh" "$r"
