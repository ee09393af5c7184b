#!/bin/sh
# objperf.sh -- the time LIBPROF_OBJECTS=1 finds in the C library against
# perf's (event cpu-clock) on the same program built without -pg
# (libcwork.c): libc's share of the user-space samples within 5 points.
# Skipped with a message where perf is missing or cannot record here.
. "$(dirname "$0")/common.sh"
say_prefix="objects vs perf: "
command -v perf > /dev/null || { echo "skip: objects vs perf: perf is not installed (linux-perf)"; exit 0; }
cc -O1 -g "$here/libcwork.c" -o plain
cc -O1 -g -pg "$here/libcwork.c" -o pg -L"$top/libprof" -lprof
if ! perf record -q -e cpu-clock -F 997 -o perf.data ./plain > /dev/null 2> perf.err; then
  echo "skip: objects vs perf: perf cannot record here: $(head -1 perf.err)"; exit 0
fi
# three runs of each, interleaved (the machine's load moves both alike),
# medians.  perf: libc's samples over the program's and libc's (the
# kernel's time is invisible to libprof)
for r in 1 2 3; do
  perf record -q -e cpu-clock -F 997 -o perf.data ./plain 1500 > /dev/null 2> perf.err
  perf report -q -i perf.data --stdio --sort dso 2>/dev/null \
    | awk '{gsub("%", "", $1)} $2 == "plain" {m += $1} $2 ~ /^libc[.-]/ {c += $1} END {if (m + c > 0) printf "%.1f\n", 100 * c / (m + c)}' >> perfs.txt
  rm -rf gmon.out gmon.out.objects
  LIBPROF_HZ=1000 LIBPROF_OBJECTS=1 ./pg 1500 > /dev/null
  "$G" -b -p --objects pg gmon.out > flat.txt
  # (the same shares as perf's: libc's over the program's and libc's; under
  # the sanitizers a third object, their runtime, holds time too)
  awk 'NF >= 4 && $1 ~ /^[0-9.]+$/ {if ($0 ~ /\[libc\.so\.6\]$/) {c += $3; t += $3} else if ($0 !~ /\]$/) t += $3}
       END {if (t > 0) printf "%.1f\n", 100 * c / t}' flat.txt >> shares.txt
done
p=$(sort -n perfs.txt | sed -n 2p)
g=$(sort -n shares.txt | sed -n 2p)
echo "libc's share of user time: perf ${p:-?}% (median of $(echo $(cat perfs.txt))), gprof --objects ${g:-?}% (median of $(echo $(cat shares.txt)))"
[ -n "$p" ] && [ -n "$g" ] && awk -v p="$p" -v g="$g" 'BEGIN {d = p - g; exit !(p > 10 && d < 5 && d > -5)}'
say $? "libc's share: perf ${p}%, gprof --objects ${g}% (within 5 points)"
