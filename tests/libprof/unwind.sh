#!/bin/sh
# unwind.sh -- LIBPROF_STACKS through code without frame pointers and
# through -pg shared libraries, by the objects' unwind tables (libprof/
# cfi.c): a program whose hot work runs in Debian's libz and libbz2 has
# >= 95% of its samples rooted at _start and main, and no invented
# recursion; a -pg library's outer and inner frames both appear
# (via;lib_outer;lib_inner); a plugin unloaded and another loaded at its
# address are two load generations in the stack file (version 2).
# Prints "ok ..." / "FAIL ..." / "skip ..." lines like run.sh.
. "$(dirname "$0")/common.sh"
say_prefix="unwind: "
if [ "$(uname -m)" != x86_64 ]; then echo "skip unwind: the unwind tables are read on x86-64 only"; exit 0; fi
lp="-L$top/libprof -lprof"
walk() { python3 "$here/stk_walk.py" "$@"; }
field() { sed -n "s/.*$1 \([0-9]*\).*/\1/p" | head -1; }

# 1. libz and libbz2 (no frame pointers), from the archive and libprof.so
if echo '#include <zlib.h>
#include <bzlib.h>
int main(void) { return 0; }' > hz.c && cc hz.c -o hz -lz -lbz2 2> /dev/null; then
  cc -O2 -pg -g "$here/unwind_z.c" -o uz $lp -lz -lbz2
  cc -O2 -pg -g "$here/unwind_z.c" -o uz_so -L"$top/libprof/shared" -lprof -lz -lbz2 -Wl,-rpath,"$top/libprof/shared"
  cc -O2 -pg -g -static "$here/unwind_z.c" -o uz_static $lp -lz -lbz2 2> /dev/null || rm -f uz_static
  for b in uz uz_so uz_static; do
    [ -x $b ] || { echo "skip unwind: $b (no static libz/libbz2)"; continue; }
    rm -f gmon.out*
    LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./$b 3 > out.txt; say $? "$b runs"
    walk gmon.out.stacks "main;compress_z;compress2" "main;compress_bz;BZ2_bzBuffToBuffCompress" > facts.txt
    cat facts.txt
    n=$(field samples < facts.txt); r=$(field rooted < facts.txt); x=$(field recursion < facts.txt)
    [ "$n" -gt 100 ] && [ $((r * 100)) -ge $((n * 95)) ]
    say $? "$b: samples rooted at _start and main through libz/libbz2 ($r of $n)"
    [ "$x" = 0 ]; say $? "$b: no invented recursion ($x samples)"
    z=$(grep 'compress_z;' facts.txt | awk '{print $3}'); bz=$(grep 'compress_bz;' facts.txt | awk '{print $3}')
    [ "$z" -gt $((n / 5)) ] && [ "$bz" -gt $((n / 5)) ]
    say $? "$b: each phase's library calls under its caller ($z, $bz of $n)"
  done
else
  echo "skip unwind: no zlib1g-dev/libbz2-dev"
fi

# 2. a -pg shared library: its frames are walked like the program's
cc -O1 -pg -g -fPIC -shared "$here/unwind_lib.c" -o libuwlib.so
cc -O1 -pg -g "$here/unwind_pg.c" -o upg -L. -luwlib -Wl,-rpath,"$w" $lp
rm -f gmon.out*
LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./upg 600; say $? "upg runs"
walk gmon.out.stacks "via;lib_outer;lib_inner" "via;lib_inner" > facts.txt
cat facts.txt
n=$(field samples < facts.txt); r=$(field rooted < facts.txt)
full=$(grep 'chain via;lib_outer;lib_inner ' facts.txt | awk '{print $3}')
[ "$n" -gt 100 ] && [ $((full * 100)) -ge $((n * 95)) ] && [ $((r * 100)) -ge $((n * 95)) ]
say $? "-pg library: via;lib_outer;lib_inner in $full of $n samples, $r rooted"
[ "$(grep 'chain via;lib_inner ' facts.txt | awk '{print $3}')" = 0 ]; say $? "-pg library: lib_outer never skipped"

# 2b. the same on i386 (the -m32 archive, run natively), when built
printf 'int main(void){return 0;}\n' > t32.c
if [ -z "$LIBPROF_SANITIZED" ] && cc -m32 t32.c -o t32 2> /dev/null && ! ./t32 2> /dev/null; then
  echo "skip unwind: this kernel runs no i386 program (no IA32 emulation)"
elif [ -z "$LIBPROF_SANITIZED" ] && [ -f "$top/libprof/32/libprof.a" ] && cc -m32 -O1 -pg -g -fPIC -shared "$here/unwind_lib.c" -o libuwlib32.so 2> /dev/null; then
  cc -m32 -O1 -pg -g "$here/unwind_pg.c" -o upg32 -L. -luwlib32 -Wl,-rpath,"$w" -L"$top/libprof/32" -lprof
  rm -f gmon.out*
  LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./upg32 600; say $? "upg32 runs"
  walk gmon.out.stacks "via;lib_outer;lib_inner" > facts.txt
  cat facts.txt
  n=$(field samples < facts.txt); r=$(field rooted < facts.txt)
  full=$(grep 'chain via;lib_outer;lib_inner ' facts.txt | awk '{print $3}')
  [ "$n" -gt 100 ] && [ $((full * 100)) -ge $((n * 95)) ] && [ $((r * 100)) -ge $((n * 95)) ]
  say $? "-pg library, i386: via;lib_outer;lib_inner in $full of $n samples, $r rooted"
else
  echo "skip unwind: no i386 archive, no -m32, or a sanitized run"
fi

# 2c. a leaf whose epilogue popped the frame register, 0x5d bytes ahead
#     (issue 35's frame_gone guess): the tables find its caller
cc -O1 -pg -g "$here/unwind_gone.c" -o gone $lp
rm -f gmon.out*
LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./gone 600; say $? "gone runs"
walk gmon.out.stacks "main;outer;tailer" "main;tailer" > facts.txt
cat facts.txt
n=$(field samples < facts.txt); full=$(grep 'chain main;outer;tailer ' facts.txt | awk '{print $3}')
skip=$(grep 'chain main;tailer ' facts.txt | awk '{print $3}')
[ "$n" -gt 100 ] && [ $((full * 100)) -ge $((n * 95)) ] && [ "$skip" = 0 ]
say $? "frame popped, 0x5d ahead: main;outer;tailer in $full of $n samples, main;tailer in $skip"

# 3. a plugin dlclose'd and another loaded at its address: two load
#    generations (version 2's object and span lines), each stack with its
#    epoch, so each plugin's samples are named after it
cc -O1 -fPIC -shared -DPLUG_A "$here/unwind_plug_lib.c" -o libplugA.so
cc -O1 -fPIC -shared -DPLUG_B "$here/unwind_plug_lib.c" -o libplugB.so
cc -O1 -pg "$here/unwind_plug.c" -o plug -ldl $lp
rm -f gmon.out*
LIBPROF_HZ=1000 LIBPROF_STACKS=32 ./plug 600 > out.txt; say $? "plug runs: $(cat out.txt)"
set -- $(cat out.txt)
if [ "$6" != "$7" ]; then
  echo "skip unwind: the second plugin was not loaded where the first was ($6, $7)"
else
  head -1 gmon.out.stacks | grep -qx 'libprof-stacks 2'; say $? "the stack file is version 2"
  python3 "$here/stk.py" gmon.out.stacks > /dev/null; say $? "the stack file is well formed"
  ka=$(awk '$1 == "object" && $NF ~ /libplugA.so$/ {print $2}' gmon.out.stacks)
  kb=$(awk '$1 == "object" && $NF ~ /libplugB.so$/ {print $2}' gmon.out.stacks)
  la=$(awk -v k="$ka" '$1 == "object" && $2 == k {print $4}' gmon.out.stacks)
  lb=$(awk -v k="$kb" '$1 == "object" && $2 == k {print $4}' gmon.out.stacks)
  sa=$(awk -v k="$ka" '$1 == "span" && $2 == k {print $3, $4}' gmon.out.stacks)
  sb=$(awk -v k="$kb" '$1 == "span" && $2 == k {print $3, $4}' gmon.out.stacks)
  [ -n "$ka" ] && [ -n "$kb" ] && [ "$la" = "$lb" ] && [ "${sa#* }" != - ] && [ "${sa#* }" -le "${sb% *}" ]
  say $? "two generations at one address ($ka [$sa), $kb [$sb), text at $la)"
  walk gmon.out.stacks "@$ka:plug_a_spin" "@$kb:plug_b_spin" "@$ka:plug_b_spin" "@$kb:plug_a_spin" > facts.txt
  cat facts.txt
  na=$(grep "leafgen $ka plug_a_spin" facts.txt | awk '{print $4}'); nb=$(grep "leafgen $kb plug_b_spin" facts.txt | awk '{print $4}')
  ea=$(awk -v t="$2" 'BEGIN {printf "%d", t * 1000}'); eb=$(awk -v t="$4" 'BEGIN {printf "%d", t * 1000}')
  # (the poller sees a load within 20 ms: samples before it are the old map's)
  [ $((na * 100)) -ge $((ea * 80)) ] && [ $((nb * 100)) -ge $((eb * 80)) ]
  say $? "each plugin's samples named after it: A $na of ~$ea, B $nb of ~$eb"
fi

echo "unwind: done"
