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
# handler, a destructor).  Prints "ok ..." / "FAIL ..." lines like run.sh.
. "$(dirname "$0")/common.sh"
say_prefix="reuse: "
rounds=60 ms=4
cc -O1 -fPIC -shared -fno-toplevel-reorder -DPLUG_A "$here/reuse_lib.c" -o libreuseA.so
cc -O1 -fPIC -shared -fno-toplevel-reorder -DPLUG_B "$here/reuse_lib.c" -o libreuseB.so
cc -O1 "$here/reuse.c" -o plain -ldl
cc -O1 -pg "$here/reuse.c" -o reuse -ldl -L"$top/libprof" -lprof
cc -O1 -pg "$here/reuse.c" -o reuse_so -ldl -L"$top/libprof/shared" -lprof -Wl,-rpath,"$top/libprof/shared"
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
  fs() { awk -v n="$1" 'NF >= 3 && $(NF-1) == n {s += $3 * 1000} END {printf "%d", s + 0.5}' flat.txt; }
  sa=$(fs a_spin) sb=$(fs b_spin) na=$(fs a_never) nb=$(fs b_never)
  want=$((rounds * ms / 2))
  [ "$sa" -ge $want ] && [ "$sb" -ge $want ] && [ "$na" = 0 ] && [ "$nb" = 0 ]
  say $? "$p: flat profile: a_spin $sa ms, b_spin $sb ms (each >= $want), named after the other plugin (a_never, b_never): $na, $nb ms (0)"
  # the stacks: samples whose leaf is each function
  "$G" --folded=folded.txt $p gmon.out > /dev/null 2>&1
  leaf() { awk -v n="$1" '{f = $0; sub(/ [0-9]+$/, "", f); k = split(f, a, ";"); if (a[k] ~ ("^" n " ")) s += $NF} END {print s + 0}' folded.txt; }
  ka=$(leaf a_spin) kb=$(leaf b_spin) wa=$(leaf a_never) wb=$(leaf b_never)
  [ "$ka" -ge $want ] && [ "$kb" -ge $want ] && [ "$wa" = 0 ] && [ "$wb" = 0 ]
  say $? "$p: stacks: a_spin $ka, b_spin $kb samples (each >= $want), named after the other plugin: $wa, $wb (0)"
done

# dlclose as the program sees it, with and without libprof
exp=$(./plain edges 2>&1; echo "status $?")
for v in "" "LIBPROF_OBJECTS=1" "LIBPROF_OBJECTS=1 LIBPROF_STACKS=16"; do
  got=$(env $v ./reuse edges 2>&1; echo "status $?")
  [ "$got" = "$exp" ]; say $? "edges${v:+ with $v}: $(echo "$got" | tr '\n' ' ')"
done
echo "reuse: done"
