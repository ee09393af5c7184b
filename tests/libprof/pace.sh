#!/bin/sh
# A thread's perf clock slowed where its signals cost their period
# (perf_pace) comes back to the rate asked once they no longer do, and
# the exit's line says the rate at the end.  Deep stacks or a loaded
# machine make a handler dear for a while; no program can choose that
# cost, so the runtime is built here with PROF_TEST_HOOKS, whose handler
# runs as long as the program's libprof_test_handler_ns says (pace.c:
# 3 ms in its first phase, at 1 kHz; nothing in its second).
. "$(dirname "$0")/common.sh"
par=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo 9)
if [ -n "$LIBPROF_SANITIZED" ]; then
  echo "skip pace: the test's own runtime is built without the sanitizers"; exit 0
fi
if [ "$par" -gt 2 ] && [ "$(id -u)" != 0 ]; then
  echo "skip pace: no perf clock here (perf_event_paranoid $par)"; exit 0
fi
case $(uname -m) in
  x86_64) stub=arch/x86_64/mcount;; aarch64) stub=arch/aarch64/mcount;; *) stub=arch/i386/mcount;;
esac
cc -O2 -g -std=gnu11 -fPIC -fno-omit-frame-pointer -ftls-model=initial-exec -DLIBPROF_STATIC -DPROF_TEST_HOOKS \
  -c "$top/libprof/gmon.c" -o gmon-t.o
cc -DLIBPROF_STATIC -c "$top/libprof/$stub.S" -o stub-t.o
cc -c "$top/libprof/arch/end.S" -o end-t.o
cc -O1 -pg "$here/pace.c" -o pace stub-t.o gmon-t.o end-t.o -lpthread

# the figures of a run: signals taken, and fast_phase's self seconds
run() {
  rm -f gmon.out
  cpu=$(LIBPROF_HZ=1000 LIBPROF_OVERHEAD=report timeout 60 ./pace "$@" 2> pace.err) || return 1
  sig=$(sed -n 's/^libprof: clock [^:]*: \([0-9]*\) signals carried.*/\1/p' pace.err)
  fast=$("$G" -b -p pace gmon.out 2> /dev/null | awk '$NF == "fast_phase" {print $3}')
  paced=$(grep "lower rate" pace.err)
}

# slowed to 250 Hz by 3 ms handlers, then 0.6 s with cheap ones: back at
# 1 kHz once 32 signals in a row found the period ample, twice (0.13 s
# at 250 Hz, 0.06 s at 500 Hz), so the phase gets about 470 signals and
# its samples are its CPU time.  Before, the thread stayed at 250 Hz to
# the end: about 220 signals in all.
run 0.3 0.6 3000000
echo "$paced" | grep -q "(down to 250 Hz, 1000 Hz at the end)" && [ "${sig:-0}" -ge 400 ] \
  && awk -v f="${fast:-0}" -v c="${cpu#* }" 'BEGIN { exit !(f >= 0.85 * c && f <= 1.15 * c) }'
say $? "slowed for a phase, back to the rate after it: ${sig:-no} signals (>= 400), fast phase ${fast:-no} s for ${cpu#* } s of CPU; said: ${paced:-nothing}"

# the same where the program took SIGPROF: the clocks on the real-time
# signal, every period signalled and drained, none weighed.  The handler
# was not timed there: paced by the drain alone, which a handler that
# returns to its own signal pending sees every other time, the thread
# stopped at 500 Hz under its 3 ms handlers and the program starved (the
# runtime of before, its test hook spinning on this path too: killed
# after 20 s, 6,710 ms in libprof, its 0.3 s phase not done)
run 0.3 0.6 3000000 own
echo "$paced" | grep -q "(down to 250 Hz, 1000 Hz at the end)" && [ "${sig:-0}" -ge 400 ] \
  && grep -q "^libprof: the program took signal 27 for itself" pace.err \
  && awk -v f="${fast:-0}" -v c="${cpu#* }" 'BEGIN { exit !(f >= 0.85 * c && f <= 1.15 * c) }'
say $? "the same with the program's own SIGPROF (the real-time signal): ${sig:-no} signals (>= 400), fast phase ${fast:-no} s for ${cpu#* } s of CPU; said: ${paced:-nothing}$(grep "took signal" pace.err | sed 's/^/; /')"

# still slow at the end: the rate it ended at, nothing more
run 0.3 0 3000000
echo "$paced" | grep -q "(down to 250 Hz); the times include"
say $? "slowed to the end: ${paced:-nothing said}"

# a handler of half the period: never paced

LIBPROF_HZ=1000 LIBPROF_OVERHEAD=report ./pace 0.3 0 500000 > /dev/null 2> half.err
! grep -q "lower rate" half.err
say $? "a handler of half the period is not paced: $(grep "lower rate" half.err)"
