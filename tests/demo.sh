#!/bin/sh
# make demo: builds the bundled example with -pg against libprof, runs it,
# and prints ./gprof's report on it.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cc -O0 -g -pg "$top/tests/progs/cycles.c" -o "$d/demo" -L"$top/libprof" -lprof
(cd "$d" && ./demo 2000 > /dev/null)
"$top/gprof" "$d/demo" "$d/gmon.out"
