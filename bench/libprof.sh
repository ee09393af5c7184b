#!/bin/sh
# libprof against glibc's profiling runtime, in one run, on the bytecode
# interpreter and the threaded compressor of tests/libprof (and the small
# test programs beside them):
#  - wall and CPU time with each runtime against the program built
#    without -pg (least of 3 runs each), and calls counted;
#  - samples on libprof's own code (0 expected) and the sampled share of
#    the CPU time;
#  - the sampled share on a 0.7 s four-thread program on a machine kept
#    busy by two other processes, and on a 0.06 s program at 1000 and
#    10000 Hz;
#  - peak memory and CPU time for 100,000 short-lived threads;
#  - the sampled share with four threads that block every signal, and
#    the peak memory of 10,000 threads alive at once;
#  - instructions per mcount call and slow-path share (bench/mcount.sh);
#  - self-time shares against perf, and CPU overhead, on the interpreter
#    and on Lua (bench/tvd.sh, TVD_ROUNDS rounds, default 10: about 7
#    minutes; LIBPROF_BENCH_NO_TVD=1 skips it).
# Usage: bench/libprof.sh [interp-N compress-blocks]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
t=$top/tests/libprof
n_interp=${1:-300000}; n_comp=${2:-128}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
# "CPU-seconds wall-seconds peak-kB" of a command
run() { python3 -c '
import resource, subprocess, sys, time
t = time.time(); subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
w = time.time() - t; r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f %d" % (r.ru_utime + r.ru_stime, w, r.ru_maxrss))' "$@"; }
best() { # the least CPU time and the least wall time of 3 runs: "cpu wall"
  for i in 1 2 3; do rm -f gmon.out; run "$@"; done | sort -n | awk 'NR == 1 {c = $1} {w = (NR == 1 || $2 < w) ? $2 : w} END {print c, w}'; }
range() { nm "$1" | awk '/libprof\$text_begin/ {b = $1} /libprof\$text_end/ {e = $1} END {print b, e}'; }
for p in interp compress; do
  case $p in interp) a=$n_interp; hot=step;; compress) a=$n_comp; hot=match_len;; esac
  cc -O2 "$t/$p.c" -o ${p}_plain -lpthread
  cc -O2 -pg "$t/$p.c" -o ${p}_glibc -lpthread
  cc -O2 -pg "$t/$p.c" -o ${p}_libprof -L"$top/libprof" -lprof -lpthread
  set -- $(best ./${p}_plain $a); plain=$2 plain_cpu=$1
  for rt in glibc libprof; do
    set -- $(best ./${p}_$rt $a); wall=$2 bcpu=$1
    rm -f gmon.out; set -- $(run ./${p}_$rt $a); cpu=$1     # the profile and its CPU time
    calls=$("$top/gprof" -b -p ${p}_$rt gmon.out | awk -v f=$hot '$NF == f {print $4}')
    h=$(python3 "$t/hist.py" gmon.out "$cpu" $(range ${p}_$rt))
    first=$("$top/gprof" -b -p ${p}_$rt gmon.out | awk 'NR == 6 {print $1 "% " $NF}')
    echo "$p $rt: wall ${wall}s (no -pg ${plain}s, overhead $(echo "$wall $plain" | awk '{printf "%.0f%%", 100 * ($1 / $2 - 1)}')), CPU ${bcpu}s (no -pg ${plain_cpu}s, overhead $(echo "$bcpu $plain_cpu" | awk '{printf "%.0f%%", 100 * ($1 / $2 - 1)}')); $hot called $calls times; $h; first row $first"
  done
done
cc -O1 -pg "$t/threads.c" -o threads -L"$top/libprof" -lprof -lpthread
cc -O1 -pg "$t/threads.c" -o threads_glibc -lpthread
sh -c 'while :; do :; done' & h1=$!; sh -c 'while :; do :; done' & h2=$!
for rt in glibc libprof; do
  b=threads; [ $rt = glibc ] && b=threads_glibc
  rm -f gmon.out; cpu=$(./$b 5000000 550000000 2>&1 >/dev/null)
  echo "4 threads on a loaded machine, $rt: $(python3 "$t/hist.py" gmon.out "$cpu") of ${cpu}s CPU"
done
kill $h1 $h2
cc -O1 -pg "$t/short.c" -o short -L"$top/libprof" -lprof
cc -O1 -pg "$t/short.c" -o short_glibc
for hz in 100 1000 10000; do
  rm -f gmon.out; cpu=$(LIBPROF_HZ_LIMIT=0 LIBPROF_HZ=$hz ./short 0.06 2>&1 >/dev/null)
  echo "0.06 s program, libprof at $hz Hz: $(python3 "$t/hist.py" gmon.out "$cpu")"
done
rm -f gmon.out; cpu=$(./short_glibc 0.06 2>&1 >/dev/null)
echo "0.06 s program, glibc: $(python3 "$t/hist.py" gmon.out "$cpu")"
cc -O1 -pg "$t/many.c" -o many -L"$top/libprof" -lprof -lpthread
cc -O1 -pg "$t/many.c" -o many_glibc -lpthread
for rt in glibc libprof; do
  b=many; [ $rt = glibc ] && b=many_glibc
  # the program reports its own peak (a child's ru_maxrss would include
  # python's, kept across exec)
  rm -f gmon.out; set -- $(run ./$b 100000); wall=$2
  rm -f gmon.out; set -- $(./$b 100000)
  echo "100,000 threads, $rt: peak ${1} kB, CPU ${2}s, wall ${wall}s, work called $("$top/gprof" -b -p $b gmon.out | awk '$NF == "work" {print $4}') times"
done
# threads that block every signal (libprof samples them; glibc's runtime
# cannot), and 10,000 threads alive at once
cc -O1 -pg "$t/masked.c" -o masked -L"$top/libprof" -lprof -lpthread
cc -O1 -pg "$t/masked.c" -o masked_glibc -lpthread
for rt in glibc libprof; do
  b=masked; [ $rt = glibc ] && b=masked_glibc
  rm -f gmon.out; cpu=$(./$b 0.5 2>&1 >/dev/null)
  echo "4 threads blocking every signal, $rt: $(python3 "$t/hist.py" gmon.out "$cpu")"
done
cc -O1 -pg "$t/many_live.c" -o live -L"$top/libprof" -lprof -lpthread
cc -O1 -pg "$t/many_live.c" -o live_glibc -lpthread
for rt in glibc libprof; do
  b=live; [ $rt = glibc ] && b=live_glibc
  rm -f gmon.out; echo "10,000 live threads, $rt: peak $(./$b 10000) kB"
done
sh "$top/bench/mcount.sh"
if [ -z "$LIBPROF_BENCH_NO_TVD" ]; then
  if command -v perf >/dev/null; then sh "$top/bench/tvd.sh" "${TVD_ROUNDS:-10}"
  else echo "self time against perf: skipped (no perf)"; fi
fi
