#!/bin/sh
# run.sh SECONDS TARGET... -- runs each libFuzzer target (built by
# `make fuzz-build` in build/) for SECONDS from its committed seeds
# (corpus/TARGET) into a working corpus (out/TARGET, not committed).
# Findings land in findings/; a summary line per target goes to
# out/summary.  Exits non-zero if any target found something.
cd "$(dirname "$0")"
secs=$1; shift
mkdir -p out findings
status=0
: > out/summary
for t in "$@"; do
  mkdir -p out/$t
  log=out/$t.log
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    build/fuzz_$t -max_total_time=$secs -timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=1024 \
      -max_len=16384 -close_fd_mask=2 -artifact_prefix=findings/$t- -print_final_stats=1 \
      out/$t corpus/$t > $log 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' $log | tail -1)
  cov=$(grep -o 'cov: [0-9]*' $log | tail -1)
  echo "fuzz_$t: ${secs}s, ${runs:-?} executions, $cov, exit $rc" | tee -a out/summary
  [ $rc -eq 0 ] || { status=1; grep -m3 -E 'ERROR|runtime error|SUMMARY' $log; }
done
exit $status
