#!/bin/sh
# reuse.sh -- a plugin dlclose'd and another dlopen'ed at its address,
# each running a few ms (less than the 20 ms between the poller's looks
# at the map), 60 times: with LIBPROF_OBJECTS=1 and LIBPROF_STACKS every
# sample is named after the plugin that ran -- in the flat profile and
# in the stacks, from libprof.a and libprof.so -- since libprof's dlclose
# reads the map before and after the C library's (libprof/objects.c).
# The two plugins hold the same code with their functions swapped, so a
# sample named after the wrong one lands on a *_never function, which
# never runs.  And the program sees dlclose as without libprof (errno, a
# pending dlerror, dlclose in a dl_iterate_phdr callback, an atexit
# handler, a destructor).  And a dlclose that cannot read the map leaves a
# blind mark: samples of a load never seen are not named after the next
# one seen there.  Prints "ok ..." / "FAIL ..." lines like run.sh.
. "$(dirname "$0")/common.sh"
say_prefix="reuse: "
rounds=60 ms=4
cc -O1 -fPIC -shared -fno-toplevel-reorder -DPLUG_A "$here/reuse_lib.c" -o libreuseA.so
cc -O1 -fPIC -shared -fno-toplevel-reorder -DPLUG_B "$here/reuse_lib.c" -o libreuseB.so
cc -O1 "$here/reuse.c" -o plain -ldl
cc -O1 -pg "$here/reuse.c" -o reuse -ldl -L"$top/libprof" -lprof
cc -O1 -pg "$here/reuse.c" -o reuse_so -ldl -L"$top/libprof/shared" -lprof -Wl,-rpath,"$top/libprof/shared"
# a function's self time in the flat profile (ms), and the samples whose
# leaf is a function in the stacks (unnamed: a bare address)
fs() { awk -v n="$1" 'NF >= 3 && $(NF-1) == n {s += $3 * 1000} END {printf "%d", s + 0.5}' flat.txt; }
leaf() { awk -v n="$1" '{f = $0; sub(/ [0-9]+$/, "", f); k = split(f, a, ";"); if (a[k] ~ ("^" n " ")) s += $NF} END {print s + 0}' folded.txt; }
unnamed() { awk '{f = $0; sub(/ [0-9]+$/, "", f); k = split(f, a, ";"); if (a[k] ~ /^0x[0-9a-f]+$/) s += $NF} END {print s + 0}' folded.txt; }
for p in reuse reuse_so; do
  rm -rf gmon.out gmon.out.*
  out=$(LIBPROF_HZ=1000 LIBPROF_OBJECTS=1 LIBPROF_STACKS=32 ./$p $rounds $ms); say $? "$p runs: $out"
  set -- $out
  if [ "$4" -lt $((rounds / 2)) ]; then
    echo "skip reuse: $p: B was loaded where A was in $4 of $rounds rounds only"
    continue
  fi
  # the flat profile: each *_spin's samples, and the *_never ones
  "$G" --objects -b -p $p gmon.out > flat.txt 2> /dev/null
  sa=$(fs a_spin) sb=$(fs b_spin) na=$(fs a_never) nb=$(fs b_never)
  want=$((rounds * ms / 2))
  [ "$sa" -ge $want ] && [ "$sb" -ge $want ] && [ "$na" = 0 ] && [ "$nb" = 0 ]
  say $? "$p: flat profile: a_spin $sa ms, b_spin $sb ms (each >= $want), named after the other plugin (a_never, b_never): $na, $nb ms (0)"
  # the stacks: samples whose leaf is each function
  "$G" --folded=folded.txt $p gmon.out > /dev/null 2>&1
  ka=$(leaf a_spin) kb=$(leaf b_spin) wa=$(leaf a_never) wb=$(leaf b_never)
  [ "$ka" -ge $want ] && [ "$kb" -ge $want ] && [ "$wa" = 0 ] && [ "$wb" = 0 ]
  say $? "$p: stacks: a_spin $ka, b_spin $kb samples (each >= $want), named after the other plugin: $wa, $wb (0)"
done

# callback_run P MODE: P run in MODE (blind, stale: A closed, B opened
# inside a dl_iterate_phdr callback), its flat profile (flat.txt) and
# stacks (folded.txt) written; fails when B was not loaded where A was
callback_run() {
  rm -rf gmon.out gmon.out.*
  out=$(LIBPROF_HZ=1000 LIBPROF_OBJECTS=1 LIBPROF_STACKS=32 ./$1 $2); say $? "$1 $2 runs: $out"
  if [ "$out" != "$2 same 1" ]; then echo "skip reuse: $1 $2: B was not loaded where A was"; return 1; fi
  "$G" --objects -b -p $1 gmon.out > flat.txt 2> /dev/null
  "$G" --folded=folded.txt $1 gmon.out > /dev/null 2>&1
}

# a dlclose that cannot read the map (`reuse blind`: in a dl_iterate_phdr
# callback, the poller waiting for the loader's lock with the map's):
# A's load was never seen, B was loaded at its place and seen.  A's
# samples are not named after B -- in the stacks (unnamed addresses, the
# blind mark between their epoch and B's) nor in the flat profile (lost)
for p in reuse reuse_so; do
  callback_run $p blind || continue
  na=$(fs a_never) nb=$(fs b_never)
  wa=$(leaf a_never) wb=$(leaf b_never) ka=$(leaf a_spin) un=$(unnamed)
  [ "$na" = 0 ] && [ "$nb" = 0 ] && [ "$wa" = 0 ] && [ "$wb" = 0 ] && [ "$ka" = 0 ] && [ "$un" -ge 20 ]
  say $? "$p blind: named after the other plugin: flat $na, $nb ms, stacks $wa, $wb (0); A's samples unnamed $un (>= 20 of its 60 ms), named after A $ka (0: A was never seen)"
done

# and a dlclose that can read the map neither before nor after (`reuse
# stale`: the same callback; A seen, closed there, B opened there at its
# place and run before any scan): B's samples are not named after A --
# the flat profile waits for the scan that sees B, A's load ends at the
# blind mark in the stacks
for p in reuse reuse_so; do
  callback_run $p stale || continue
  sa=$(fs a_spin) sb=$(fs b_spin) na=$(fs a_never) nb=$(fs b_never)
  ka=$(leaf a_spin) kb=$(leaf b_spin) wa=$(leaf a_never) wb=$(leaf b_never)
  [ "$na" = 0 ] && [ "$nb" = 0 ] && [ "$wa" = 0 ] && [ "$wb" = 0 ] && [ "$sa" -ge 20 ] && [ "$sb" -ge 20 ] \
    && [ "$ka" -ge 20 ] && [ "$kb" -ge 20 ]
  say $? "$p stale: a_spin, b_spin: flat $sa, $sb ms, stacks $ka, $kb (each >= 20 of 40); named after the other plugin: flat $na, $nb ms, stacks $wa, $wb (0)"
done

# dlclose as the program sees it, with and without libprof
exp=$(./plain edges 2>&1; echo "status $?")
for v in "" "LIBPROF_OBJECTS=1" "LIBPROF_OBJECTS=1 LIBPROF_STACKS=16"; do
  got=$(env $v ./reuse edges 2>&1; echo "status $?")
  [ "$got" = "$exp" ]; say $? "edges${v:+ with $v}: $(echo "$got" | tr '\n' ' ')"
done
echo "reuse: done"
