#!/bin/sh
# Instructions per mcount call, libprof against glibc's runtime, counted by
# valgrind --tool=callgrind on a call-heavy loop (one million calls).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "needs valgrind"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/loop.c" <<'C'
static volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }
int main(void) { for (unsigned long i = 0; i < 1000000; i++) leaf(i); return 0; }
C
cc -O1 -pg "$d/loop.c" -o "$d/glibc"
cc -O1 -pg "$d/loop.c" -o "$d/libprof" -L"$top/libprof" -lprof
per_call() { # instructions spent in functions whose name mentions mcount
  (cd "$d" && valgrind --tool=callgrind --callgrind-out-file=cg.out ./"$1" > /dev/null 2>&1)
  callgrind_annotate "$d/cg.out" | awk '/mcount/ {gsub(",", "", $1); s += $1} END {printf "%.1f", s / 1000000}'
}
g=$(per_call glibc); o=$(per_call libprof)
echo "instructions per call: glibc $g, libprof $o, ratio $(echo "$o $g" | awk '{printf "%.2f", $1 / $2}')"
