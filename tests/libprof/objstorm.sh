#!/bin/sh
# objstorm.sh -- LIBPROF_OBJECTS=1 under dlopen/dlclose storms and many
# objects: the program runs as without libprof (no crash: libprof never
# writes an object's memory while the loader may still be relocating
# it), and the calls it knows it made into its -pg library are counted
# exactly.  Prints "ok ..." / "FAIL ..." lines like run.sh.
. "$(dirname "$0")/common.sh"
if [ "$(uname -m)" != x86_64 ]; then echo "skip objstorm: calls in other objects are counted on x86-64 only"; exit 0; fi
cc -O1 -pg -shared -fPIC "$here/objstorm_lib.c" -o libstorm.so
cc -O1 -pg "$here/objstorm.c" -o storm -L"$top/libprof" -lprof -lpthread -ldl
cc -O1 -pg "$here/objstorm.c" -o storm_so -L"$top/libprof/shared" -lprof -lpthread -ldl -Wl,-rpath,"$top/libprof/shared"
# flat NAME: its calls in gprof --objects' flat profile of ./$prog's gmon.out
flat() { "$G" --objects -b -p "$prog" gmon.out 2> /dev/null | awk -v n="$1 [libstorm.so]" 'substr($0, length($0) - length(n) + 1) == n && NF >= 7 {print $4}'; }

# ---- dlopen / call / dlclose, one thread and four, 20 runs ----
bad=0 crashed=0 wrong=0 runs=0
for r in $(seq 1 20); do
  case $r in
    1|2|3|4|5|6|7|8) prog=storm th=1 it=5000;;
    9|10|11|12|13|14|15|16) prog=storm th=4 it=1200;;
    *) prog=storm_so th=4 it=1200;;
  esac
  rm -rf gmon.out gmon.out.*
  out=$(LIBPROF_OBJECTS=1 ./$prog "$w/libstorm.so" $th $it 2> err.txt); st=$?
  runs=$((runs + 1))
  if [ $st != 0 ]; then crashed=$((crashed + 1)); bad=1; echo "run $r ($prog, $th threads): status $st $(head -c 200 err.txt)"; continue; fi
  kw=$(echo "$out" | sed -n 's/.*storm_work=\([0-9]*\).*/\1/p'); kl=$(echo "$out" | sed -n 's/.*storm_leaf=\([0-9]*\).*/\1/p')
  gw=$(flat storm_work); gl=$(flat storm_leaf)
  if [ "$gw" != "$kw" ] || [ "$gl" != "$kl" ]; then
    wrong=$((wrong + 1)); bad=1; echo "run $r ($prog, $th threads): storm_work $gw of $kw, storm_leaf $gl of $kl"
  fi
done
say $bad "dlopen/call/dlclose storms ($runs runs: 1 and 4 threads, libprof.a and .so): $crashed crashed, $wrong with a wrong count of storm_work/storm_leaf"

# ---- a library opened by a relative path: the manifest names it by its
# absolute path, so that gprof --objects finds it from any directory ----
cp libstorm.so librel.so
rm -rf gmon.out gmon.out.*
out=$(LIBPROF_OBJECTS=1 ./storm ./librel.so 1 3); kl=$(echo "$out" | sed -n 's/.*storm_leaf=\([0-9]*\).*/\1/p')
p=$(awk '$6 ~ /librel\.so$/ {print $6}' gmon.out.objects/manifest)
gl=$(cd / && "$G" --objects -b -p "$w/storm" "$w/gmon.out" 2> /dev/null | awk '/storm_leaf \[librel\.so\]$/ {print $4}')
[ "$p" = "$w/librel.so" ] && [ "$gl" = "$kl" ]
say $? "dlopen(\"./librel.so\"): the manifest says ${p:-nothing}, gprof --objects run from / finds storm_leaf [librel.so] called ${gl:-no} times ($kl)"

# ---- a library in another link namespace (dlmopen LM_ID_NEWLM), which
# dl_iterate_phdr does not list: seen through the loader's namespace
# chain, its calls (made once libprof has looked) counted exactly and its
# samples credited; a storm of them runs too ----
prog=storm
if [ -n "$LIBPROF_SANITIZED" ]; then
  echo "skip: dlmopen: AddressSanitizer does not run in another link namespace"
else
  rm -rf gmon.out gmon.out.*
  out=$(LIBPROF_OBJECTS=1 LIBPROF_HZ=1000 ./storm "$w/libstorm.so" 1 100000000 nswait); st=$?
  kl=$(echo "$out" | sed -n 's/.*storm_leaf=\([0-9]*\).*/\1/p')
  gl=$(flat storm_leaf); gw=$(flat storm_work)
  t=$("$G" --objects -b -p storm gmon.out 2> /dev/null | awk '/ storm_(leaf|work) \[libstorm\.so\]$/ {s += $3} END {print s + 0}')
  [ $st = 0 ] && [ "$gl" = "$kl" ] && [ "$gw" = 1 ] && awk -v t="$t" 'BEGIN {exit !(t > 0)}'
  say $? "dlmopen(LM_ID_NEWLM): storm_leaf [libstorm.so] called ${gl:-no} times ($kl), storm_work ${gw:-no} (1), ${t}s sampled in it"
  # calls made at once, before libprof's poller finds the namespace: its
  # C library's own mcount takes them, and libprof sees none; they are
  # counted, or gprof --objects says that calls may have been lost
  rm -rf gmon.out gmon.out.*
  out=$(LIBPROF_OBJECTS=1 ./storm "$w/libstorm.so" 1 100000 nsnow); st=$?
  kl=$(echo "$out" | sed -n 's/.*storm_leaf=\([0-9]*\).*/\1/p')
  gl=$(flat storm_leaf)
  said=$("$G" --objects -b -p storm gmon.out 2>&1 > /dev/null | grep -c 'link namespace (dlmopen).*not counted')
  [ $st = 0 ] && { [ "${gl:-0}" = "$kl" ] || [ "$said" = 1 ]; }
  say $? "dlmopen(LM_ID_NEWLM), calls at once: storm_leaf [libstorm.so] called ${gl:-no} times ($kl), the loss said $said times"
  rm -rf gmon.out gmon.out.*
  out=$(LIBPROF_OBJECTS=1 ./storm "$w/libstorm.so" 1 300 ns 2> err.txt); st=$?
  [ $st = 0 ] && [ -n "$out" ]
  say $? "a dlmopen/call/dlclose storm (300 namespaces in turn): status $st $(head -c 200 err.txt)"
  # a thread running a new namespace's C library's mcount while libprof
  # finds it: its code is not rewritten under the thread (it resumed
  # inside the jump's bytes: status 139 in 3 of 3 runs)
  cc -O1 -pg "$here/nspatch.c" -o nspatch -lpthread -L"$top/libprof" -lprof
  out=$(LIBPROF_OBJECTS=1 timeout 120 ./nspatch "$w/libstorm.so" 30 2> err.txt); st=$?
  [ $st = 0 ] && [ "$out" = "rounds 30" ]
  say $? "a thread in a new namespace's mcount while libprof finds it (30 namespaces): status $st $(head -c 200 err.txt | tr '\n' ' ')"
fi

# ---- 600 -pg libraries open at once: each gets its file, every call is
# counted (the map grows) ----
for i in $(seq 0 599); do cp libstorm.so many$i.so; done
rm -rf gmon.out gmon.out.*
out=$(LIBPROF_OBJECTS=1 ./storm "$w/many" 1 600 many 2> /dev/null)
kl=$(echo "$out" | sed -n 's/.*storm_leaf=\([0-9]*\).*/\1/p')
nf=$(ls gmon.out.objects | grep -c '^[0-9]*-many[0-9]*\.so$')
"$G" --objects -b -p storm gmon.out > many.txt 2> many.err
gl=$(awk '/ storm_leaf \[many[0-9]*\.so\]$/ {s += $4} END {print s + 0}' many.txt)
nl=$(grep -c ' storm_leaf \[many[0-9]*\.so\]$' many.txt)
[ "$nf" = 600 ] && [ "$gl" = "$kl" ] && [ "$nl" = 600 ]
say $? "600 libraries: $nf files, storm_leaf in $nl of them, called $gl times in all ($kl)"

# ---- what libprof cannot place is counted, written and said: samples in
# code of no object (an anonymous mapping, as a JIT writes) ----
rm -rf gmon.out gmon.out.*
LIBPROF_OBJECTS=1 LIBPROF_HZ=1000 ./storm - 1 3 jit > /dev/null
n=$(sed -n 's/^lost samples \([0-9]*\)$/\1/p' gmon.out.objects/manifest)
"$G" --objects -b -p storm gmon.out > /dev/null 2> jit.err
grep -q "manifest: $n samples fell in no object" jit.err && [ "${n:-0}" -gt 0 ]
say $? "code in no object: the manifest says \"lost samples ${n:-?}\", gprof --objects: $(head -1 jit.err | sed 's/.*manifest: //')"
