#!/bin/sh
# Times ./gprof against GNU gprof (/usr/bin/gprof) on one large synthetic
# profile, in the same run, and checks that both print the same report.
# Usage: [OPTS="-b -r"] bench/run.sh [FUNCTIONS [ARCS [SEED]]]
#        (default options -b, default size 20000 200000 1)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-20000} m=${2:-200000} seed=${3:-1} opts=${OPTS:--b}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
python3 "$top/tests/tools/synth.py" $n $m $seed "$d" > /dev/null
t() { s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
ours=$(cd "$d" && t "$top/gprof" $opts bin gmon.out)
echo "functions=$n arcs=$m: ./gprof $opts ${ours}s"
if [ -x /usr/bin/gprof ]; then
  gnu=$(cd "$d" && t /usr/bin/gprof $opts bin gmon.out)
  (cd "$d" && "$top/gprof" $opts bin gmon.out > ours.txt && /usr/bin/gprof $opts bin gmon.out > gnu.txt)
  if cmp -s "$d/ours.txt" "$d/gnu.txt"; then same=identical; else same=DIFFERENT; fi
  echo "GNU gprof $opts ${gnu}s; ratio $(echo "scale=1; $gnu / $ours" | bc)x; reports $same"
fi
