#!/bin/sh
# The stack-sampling handler's cost per sample (issue 35): bench/stkcost.c
# sends itself libprof's sampling signal N times at DEPTH frames, with
# the signal arriving in the program and inside libc's syscall(), each
# without stacks and with LIBPROF_STACKS=64 (and 256), ROUNDS runs each
# in turn; prints the medians in ns per signal and the difference, the
# walk's cost per sample.  LIBPROF_HZ=0: only the signals sent count.
# Usage: bench/stkcost.sh [rounds [N [DEPTH]]]  (default 7 200000 10)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-7}; n=${2:-200000}; depth=${3:-10}
[ -f "$top/libprof/libprof.a" ] || { echo "stkcost.sh: build the tree first" >&2; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
cc -O1 -pg "$top/bench/stkcost.c" -o stkcost -L"$top/libprof" -lprof
med() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf "%-8s %8s %8s %8s %10s %10s\n" where off 64 256 "walk(64)" "walk(256)"
for where in program libc; do
  : > off; : > s64; : > s256
  for r in $(seq "$rounds"); do
    LIBPROF_HZ=0 ./stkcost "$n" "$depth" $where >> off
    LIBPROF_HZ=0 LIBPROF_STACKS=64 ./stkcost "$n" "$depth" $where >> s64
    LIBPROF_HZ=0 LIBPROF_STACKS=256 ./stkcost "$n" "$depth" $where >> s256
  done
  o=$(med < off); a=$(med < s64); b=$(med < s256)
  awk -v w=$where -v o="$o" -v a="$a" -v b="$b" \
    'BEGIN {printf "%-8s %8.1f %8.1f %8.1f %+10.1f %+10.1f\n", w, o, a, b, a - o, b - o}'
done
