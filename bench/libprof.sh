#!/bin/sh
# libprof against glibc's profiling runtime, in one run: calls counted in
# a 4-thread program (4 x N calls to one function), share of the process's
# CPU time found in the histogram, and instructions per mcount call
# (callgrind, via bench/mcount.sh).   Usage: bench/libprof.sh [N]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-5000000}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cc -O1 -pg "$top/tests/libprof/threads.c" -o "$d/glibc" -lpthread
cc -O1 -pg "$top/tests/libprof/threads.c" -o "$d/libprof" -L"$top/libprof" -lprof -lpthread
for rt in glibc libprof; do
  (cd "$d" && rm -f gmon.out && cpu=$(./$rt $n 2>&1 >/dev/null) \
   && calls=$("$top/gprof" -b -p $rt gmon.out | awk '$NF == "leaf" {print $4}') \
   && k=$(od -An -t u4 -j 37 -N 4 gmon.out | tr -d ' ') \
   && s=$(od -An -v -t u2 -j 61 -N $((2 * k)) gmon.out | awk '{for (i = 1; i <= NF; i++) t += $i} END {print t / 100}') \
   && echo "$rt: calls counted $calls of $((4 * n)); sampled ${s}s of ${cpu}s CPU, share $(echo "$s $cpu" | awk '{printf "%.2f", $1 / $2}')")
done
sh "$top/bench/mcount.sh"
