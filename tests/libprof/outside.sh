#!/bin/sh
# outside.sh -- time outside the program reported (issue 34): without
# LIBPROF_OBJECTS, libprof writes in gmon.out the samples outside the
# program's text (by object: the C library, the loader, the vDSO, other)
# and those it could not take, as facts records (gmon_out.h) GNU gprof
# reads with no change to its report; our gprof then says on stderr what
# share of the run the profile leaves out and how to see it, and nothing
# else changes.  outside.c's modes: lib (time in a shared library built
# without -pg), libc, own (none outside), blocked (a thread libprof cannot
# sample).  tests/libprof/facts.py reads and strips the records.
. "$(dirname "$0")/common.sh"
say_prefix="outside: "
facts() { python3 "$here/facts.py" dump "$@"; }
fact() { facts "$1" | awk -v k="$2" '$1 == k {print $2}'; }
# FILE's lines but the note of samples not taken (a loaded machine's; the
# 'blocked' check tests that note)
others() { grep -v 'libprof could not take' "$1"; }
cc -O2 -g -fPIC -shared "$here/outside_lib.c" -o liboutside.so
build() { # output, extra flags (libprof or not)
  cc -O2 -g -pg "$here/outside.c" -o "$1" -L. -loutside -Wl,-rpath,"$w" -lpthread $2
}
build outside "-L$top/libprof -lprof"
for m in lib libc own blocked; do
  rm -f gmon.out; ./outside $m 0.4 > /dev/null && mv gmon.out $m.gmon
  python3 "$here/facts.py" strip $m.gmon $m.strip
  "$G" -b -p outside $m.gmon > $m.out 2> $m.err
  "$G" -b -p outside $m.strip > $m.sout 2> $m.serr
done

# lib: nearly all the time in "other shared objects", told with the way to see it
ok=0
o=$(fact lib.gmon other); t=$(fact lib.gmon text)
[ -n "$o" ] && [ "$(fact lib.gmon runs)" = 1 ] && [ "$o" -ge 30 ] && [ "$o" -ge $((9 * t)) ] || { ok=1; echo "lib.gmon's facts: other ${o:-none}, text ${t:-none}"; }
grep -q "outside the program's code.*other shared objects" lib.err && grep -q 'LIBPROF_OBJECTS=1' lib.err \
  && grep -q -- '--objects' lib.err && [ "$(others lib.err | wc -l)" = 1 ] || { ok=1; echo "lib stderr:"; cat lib.err; }
say $ok "time in a shared library: counted ($o of $((o + t)) samples) and told on stderr"
# the C library named
ok=0
grep -q "outside the program's code.*the C library" libc.err || { ok=1; cat libc.err; }
say $ok "time in the C library: told on stderr"
# nothing said when the time is the program's
ok=0
[ -n "$(others own.err)" ] && { ok=1; cat own.err; }
[ "$(fact own.gmon text)" -gt 20 ] || ok=1
say $ok "time in the program: no note"
# a thread that blocks every signal with the raw system call: not taken
ok=0
n=$(fact blocked.gmon not_taken); t=$(fact blocked.gmon text)
[ -n "$n" ] && [ "$n" -ge $((t / 2)) ] && [ "$n" -le $((t * 2)) ] || { ok=1; echo "blocked.gmon: not_taken ${n:-none}, text ${t:-none}"; }
grep -q 'libprof could not take' blocked.err && ! grep -q 'outside' blocked.err || { ok=1; cat blocked.err; }
say $ok "a thread libprof cannot sample: $n samples not taken (of $((n + t))), told on stderr"
# nothing else changes: stdout as without the records, stderr empty then
ok=0
for m in lib libc own blocked; do
  cmp -s $m.out $m.sout || { ok=1; echo "$m: stdout differs with the facts"; }
  [ -s $m.serr ] && { ok=1; echo "$m: stderr without the facts:"; cat $m.serr; }
done
say $ok "our report's stdout is the same with and without the facts records"

# GNU gprof: the same output on the file with and without the records
# (-i counts the records, so it is left out; so is -c, with which GNU
# gprof crashes now and then on these programs, with or without them)
gnu_same() { # file-with file-without: status 0 when every report is the same
  [ -x /usr/bin/gprof ] || return 0
  mkdir -p ga gb; cp "$1" ga/gmon.out; cp "$2" gb/gmon.out
  r=0
  for o in "-b -p" "-b -q" "" "-l -b -p" "-A" "-b -p -z" "-C" "-T -b" "-b -p -y"; do
    (cd ga && /usr/bin/gprof $o "$w/outside" gmon.out > ../ga.out 2>&1)
    (cd gb && /usr/bin/gprof $o "$w/outside" gmon.out > ../gb.out 2>&1)
    cmp -s ga.out gb.out || { r=1; echo "GNU gprof $o differs on $1"; diff ga.out gb.out | head -5; }
  done
  return $r
}
ok=0
for m in lib libc blocked; do gnu_same $m.gmon $m.strip || ok=1; done
say $ok "GNU gprof's output unchanged by the records$([ -x /usr/bin/gprof ] || echo ' (skipped: no /usr/bin/gprof)')"

# -s: ours sums the facts and keeps them; GNU reads our gmon.sum as it
# reads it without them; GNU's gmon.sum loses them (no note then)
ok=0
rm -f gmon.sum; "$G" -s outside lib.gmon libc.gmon > /dev/null 2>&1 && mv gmon.sum ours.sum
[ "$(fact ours.sum runs)" = 2 ] && [ "$(fact ours.sum other)" = $(($(fact lib.gmon other) + $(fact libc.gmon other))) ] \
  && [ "$(fact ours.sum libc)" = $(($(fact lib.gmon libc) + $(fact libc.gmon libc))) ] \
  && [ "$(fact ours.sum clock)" = "$(fact lib.gmon clock)" ] || { ok=1; echo "ours.sum:"; facts ours.sum; }
"$G" -b -p outside ours.sum 2>&1 > /dev/null | grep -q "outside the program's code" || { ok=1; echo "no note on gmon.sum"; }
rm -f gmon.sum; "$G" -s outside ours.sum lib.gmon > /dev/null 2>&1 && [ "$(fact gmon.sum runs)" = 3 ] || { ok=1; echo "a gmon.sum summed again:"; facts gmon.sum; }
python3 "$here/facts.py" strip ours.sum ours.strip
gnu_same ours.sum ours.strip || ok=1
if [ -x /usr/bin/gprof ]; then
  rm -f gmon.sum; /usr/bin/gprof -s outside lib.gmon libc.gmon > /dev/null 2>&1 && mv gmon.sum gnu.sum
  facts gnu.sum | grep -q '^lost' && ! facts gnu.sum | grep -q '^runs' || { ok=1; echo "GNU's gmon.sum:"; facts gnu.sum; }
  "$G" -b -p outside gnu.sum > gnu.sum.out 2> gnu.sum.err
  python3 "$here/facts.py" strip gnu.sum gnu.strip
  "$G" -b -p outside gnu.strip > gnu.strip.out 2>&1
  [ -s gnu.sum.err ] && { ok=1; echo "GNU's gmon.sum:"; cat gnu.sum.err; }
  cmp -s gnu.sum.out gnu.strip.out || { ok=1; echo "GNU's gmon.sum read differently with its lost records"; }
fi
say $ok "-s sums the facts (GNU gprof reads our gmon.sum unchanged; GNU's gmon.sum loses them, and no note)"

# a profile glibc's runtime wrote: no note
ok=0
build outside_glibc ""
rm -f gmon.out; ./outside_glibc lib 0.2 > /dev/null
"$G" -b -p outside_glibc gmon.out > /dev/null 2> glibc.err; [ -s glibc.err ] && { ok=1; cat glibc.err; }
facts gmon.out | grep -q . && ok=1
say $ok "a profile of glibc's runtime: no facts, no note"

# LIBPROF_OBJECTS=1: --objects shows the time, so no note with it; without
# it the note points there
ok=0
rm -rf gmon.out gmon.out.objects; LIBPROF_OBJECTS=1 ./outside lib 0.3 > /dev/null
[ "$(fact gmon.out objects)" = 1 ] || ok=1
"$G" -b -p --objects outside gmon.out > objects.out 2> objects.err
[ -n "$(others objects.err)" ] && { ok=1; cat objects.err; }
grep -q 'lib_spin' objects.out || { ok=1; echo "--objects shows no lib_spin"; }
"$G" -b -p outside gmon.out 2>&1 > /dev/null | grep -q 'gprof --objects shows where' || ok=1
say $ok "LIBPROF_OBJECTS=1: no note with --objects, one pointing to it without"

# i386: the records with 4-byte addresses
if [ -f "$top/libprof/32/libprof.a" ] && printf 'int main(void){return 0;}\n' | cc -m32 -x c - -o m32ok 2> /dev/null && ./m32ok 2> /dev/null; then
  ok=0
  cc -m32 -O2 -fPIC -shared "$here/outside_lib.c" -o liboutside32.so
  cc -m32 -O2 -g -pg "$here/outside.c" -o outside32 -L. -loutside32 -Wl,-rpath,"$w" -lpthread -L"$top/libprof/32" -lprof
  rm -f gmon.out; ./outside32 lib 0.3 > /dev/null
  [ "$(python3 "$here/facts.py" dump gmon.out 32 | awk '$1 == "runs" {print $2}')" = 1 ] || ok=1
  "$G" -b -p outside32 gmon.out 2>&1 > /dev/null | grep -q "outside the program's code.*other shared objects" || ok=1
  python3 "$here/facts.py" strip gmon.out strip32 32
  "$G" -b -p outside32 gmon.out > a32.out 2> /dev/null; "$G" -b -p outside32 strip32 > b32.out 2>&1
  cmp -s a32.out b32.out || ok=1
  say $ok "i386: the facts records read, the report otherwise the same"
else
  echo "skip: outside: i386 (no archive, or this machine runs no i386 program)"
fi

# calls libprof could not count: written into the profile and said by
# gprof where the profile is read, not only by libprof at the program's
# exit (a clang -pg library's IFUNC resolver, bound lazily while counting,
# has no frame pointer: its call is not counted)
if command -v clang > /dev/null && [ -f "$top/libprof/shared/libprof.so" ]; then
  ok=0
  clang -O1 -pg -fPIC -shared "$top/tests/torture/ifunc_dso_lib.c" -o libnofp.so
  cc -O1 -g -pg "$top/tests/torture/ifunc_lazy.c" -o nofp -L. -lnofp -Wl,-rpath,"$w" \
    -L"$top/libprof/shared" -lprof -Wl,-rpath,"$top/libprof/shared"
  rm -f gmon.out; ./nofp > /dev/null 2> nofp.err || ok=1
  said=$(sed -n 's/^libprof: \([0-9]*\) calls not counted.*/\1/p' nofp.err | head -1)
  inf=$(python3 "$here/facts.py" dump gmon.out | awk '$1 == "lost_calls" {print $2}')
  "$G" -b -p nofp gmon.out > nofp.out 2> nofp.gerr
  [ -n "$said" ] && [ "$inf" = "$said" ] && grep -q "libprof could not count $said calls" nofp.gerr || ok=1
  # a run that loses nothing writes no such record (GNU's bytes as before)
  [ "$(fact own.gmon lost_calls)" = "" ] || ok=1
  say $ok "calls not counted: libprof said ${said:-none}, the file holds ${inf:-none}, gprof: $(cat nofp.gerr)"
else
  echo "skip: outside: calls not counted (no clang or no libprof.so)"
fi
