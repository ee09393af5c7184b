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
    1|2|3|4|5|6|7|8) prog=storm th=1 it=10000;;
    9|10|11|12|13|14|15|16) prog=storm th=4 it=2500;;
    *) prog=storm_so th=4 it=2500;;
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
