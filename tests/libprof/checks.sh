#!/bin/sh
# checks.sh -- libprof's debug build (-DLIBPROF_CHECKS, the one make
# check-sanitize links the programs with): LP_ASSERT (prof.h) aborts with
# "libprof: invariant COND failed at FILE:LINE" there and is nothing in
# the ordinary build; programs run on the checked runtime with every
# invariant holding (exact counts, stacks recorded).
. "$(dirname "$0")/common.sh"
say_prefix="checks: "
case $(uname -m) in
  x86_64) stub=arch/x86_64/mcount;; aarch64) stub=arch/aarch64/mcount;;
  *) echo "skip checks (the debug build is tried on x86-64 and aarch64 only)"; exit 0;;
esac
if [ -n "$LIBPROF_SANITIZED" ]; then echo "skip checks (under the sanitizers the runtime is the checked build already)"; exit 0; fi
F="-O2 -g -Wall -Wextra -std=gnu11 -fno-omit-frame-pointer -fPIC -DLIBPROF_STATIC -I$top/libprof -I$top"
cc -DLIBPROF_STATIC -c "$top/libprof/$stub.S" -o stub.o && cc -c "$top/libprof/arch/end.S" -o end.o
# the runtime's translation unit with a main() that asserts argc == 7
printf '#include "gmon.c"\nint main(int argc, char **argv) { (void)argv; LP_ASSERT(argc == 7); return 0; }\n' > t.c
cc $F -DLIBPROF_CHECKS -Werror -c t.c -o t.o 2> cc.err && cc -o t stub.o t.o end.o -lpthread
./t 1 2 3 4 5 6 > /dev/null 2>&1; ok=$?
./t > out 2> err; rc=$?
[ $ok = 0 ] && [ $rc = 134 ] && [ "$(head -1 err)" = "libprof: invariant argc == 7 failed at t.c:2" ]
r=$?; [ $r = 0 ] || { echo "  status $ok, $rc, stderr:"; cat cc.err err | head -5; }
say $r "-DLIBPROF_CHECKS: a broken invariant aborts, naming it and its place"
cc $F -c t.c -o t0.o && cc -o t0 stub.o t0.o end.o -lpthread && ./t0 2> err0
[ $? = 0 ] && [ ! -s err0 ]
say $? "without it LP_ASSERT is nothing"
# programs on the checked runtime: arc tables grown, stacks stored
cc $F -DLIBPROF_CHECKS -Werror -c "$top/libprof/gmon.c" -o gmon.o 2> cc.err
cc -O1 -pg "$here/known.c" -o known stub.o gmon.o end.o -lpthread && ./known > /dev/null
[ $? = 0 ] && [ "$(calls known gmon.out c)" = 30 ] && [ "$(calls known gmon.out b)" = 15 ]
say $? "a program on the checked runtime: exact counts"
rm -f gmon.out*
cc -O1 -pg -g "$here/stk_acc.c" -o acc stub.o gmon.o end.o -lpthread && LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./acc 1 > /dev/null
[ $? = 0 ] && [ -s gmon.out.stacks ]
say $? "... and with its stacks recorded (LIBPROF_STACKS=64)"
# the object registry's invariants (objects.c obj_check), checked after
# each scan: a real scan holds them; a generation closed under a loaded
# entry (the program's, entry 0, made first as start-up does) is caught
# by the next scan
rm -f gmon.out*
printf '#include "gmon.c"\nint main(int argc, char **argv) { (void)argv; objects_program(0, 0); P.stack_depth = 1; objects_scan(1);\n  if (argc > 1) O.gen[O.obj[0].gen - 1].to = O.epoch;\n  objects_scan(1); return O.nobjs > 0 ? 0 : 3; }\n' > o.c
cc $F -DLIBPROF_CHECKS -Werror -c o.c -o o.o 2> cc.err && cc -o o stub.o o.o end.o -lpthread
./o > /dev/null 2> oerr0; ok=$?
./o broken > /dev/null 2> oerr; rc=$?
[ $ok = 0 ] && [ ! -s oerr0 ] && [ $rc = 134 ] && grep -q '^libprof: invariant .*failed at .*objects\.c:[0-9]*$' oerr
r=$?; [ $r = 0 ] || { echo "  status $ok, $rc, stderr:"; cat cc.err oerr0 oerr | head -5; }
say $r "the object registry: a scan holds its invariants, a broken one aborts ($(head -1 oerr | cut -c1-70))"
# a storm of dlopen and dlclose of a -pg library, counted (LIBPROF_OBJECTS=1):
# entries reloaded, generations opened and closed, codes and trampolines given
cc -O1 -g -pg -fPIC -shared "$top/tests/torture/dlopen_lib.c" -o libstorm.so \
  && cc -O1 -pg "$top/tests/torture/dlopen.c" -o storm stub.o gmon.o end.o -ldl -lpthread \
  && LIBPROF_OBJECTS=1 ./storm ./libstorm.so > storm.out 2> storm.err
[ $? = 0 ] && grep -q 'answers right' storm.out && ! grep -q invariant storm.err && ls gmon.out > /dev/null 2>&1
r=$?; [ $r = 0 ] || { echo "  stderr:"; head -5 storm.err; }
say $r "... and a dlopen storm on the checked runtime with LIBPROF_OBJECTS=1 holds them"
