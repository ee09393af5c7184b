#!/bin/sh
# Calls into and inside -pg shared libraries (LIBPROF_OBJECTS=1): the
# counts objcalls.c knows it made -- from four threads, into a library
# linked at start and one opened, closed and opened again elsewhere,
# between the two libraries, and from the C library's qsort -- found in
# each library's own file by GNU gprof (calls inside it) and by
# gprof --objects (every arc, across objects too); the program's own
# file as without the variable; snapshots, fork, a fatal signal,
# libprof.so.  Prints "ok ..." / "FAIL ..." lines like run.sh.
. "$(dirname "$0")/common.sh"
if [ "$(uname -m)" != x86_64 ]; then echo "skip objcalls: calls in other objects are counted on x86-64 only"; exit 0; fi
cc -O1 -g -pg -shared -fPIC -DLIB_A "$here/objcalls_lib.c" -o libca.so
cc -O1 -g -pg -mfentry -shared -fPIC -DLIB_B "$here/objcalls_lib.c" -o libcb.so -L. -lca
# a small library opened where libcb was, so that libcb comes back elsewhere
echo 'int fill(void) { return 5; }' > fill.c && cc -O1 -shared -fPIC fill.c -o libfill.so
build() { # output, libprof's directory
  cc -O1 -pg -I"$top/libprof" "$here/objcalls.c" -o "$1" -L. -lca -L"$2" -lprof -lpthread -ldl \
    -Wl,-rpath,"$w" -Wl,-rpath,"$2"
}
build objcalls "$top/libprof"
build objcalls_so "$top/libprof/shared"
run() { # program libcb libfill [mode [arg]]: its counts in $k_*, its status in $st
  out=$(./"$@"); st=$?
  for f in a_work a_leaf b_work b_leaf a_leaf_from_b a_cmp moved child; do
    eval "k_$f=\$(echo \"\$out\" | tr ' ' '\\n' | sed -n 's/^$f=//p')"
  done
}
graph() { "$G" --objects --json=- "$1" "$2" | python3 "$here/arcs.py" --json; }
arc() { # graph file caller callee: the calls
  awk -F'|' -v p="$2" -v c="$3" '$1 == p && $2 == c {s += $3} END {print s + 0}' "$1"
}
into() { awk -F'|' -v c="$2" '$2 == c {s += $3} END {print s + 0}' "$1"; }

for prog in objcalls objcalls_so; do
  case $prog in objcalls) how="libprof.a (libraries bound to the C library's mcount)";; *) how="libprof.so";; esac
  # without LIBPROF_OBJECTS: the program's file alone, as before
  rm -rf gmon.out gmon.out.objects
  run $prog "$w/libcb.so" "$w/libfill.so"
  python3 "$here/arcs.py" gmon.out > plain.arcs
  [ ! -e gmon.out.objects ] && [ -s plain.arcs ] && [ "$k_a_leaf" = 800006 ]
  say $? "$how: without LIBPROF_OBJECTS, gmon.out alone, $(wc -l < plain.arcs) arcs of the program"
  rm -rf gmon.out gmon.out.objects
  LIBPROF_OBJECTS=1 run $prog "$w/libcb.so" "$w/libfill.so"
  python3 "$here/arcs.py" gmon.out > objects.arcs
  cmp -s plain.arcs objects.arcs
  say $? "$how: with LIBPROF_OBJECTS=1 the program's gmon.out has the same arcs"
  # GNU gprof on each library's own files: the calls inside it
  ga=$(gnu_calls gmon.out libca.so a_leaf); gb=$(gnu_calls gmon.out libcb.so b_leaf)
  [ "$ga" = "$k_a_leaf" ] && [ "$gb" = "$k_b_leaf" ] && [ "$(files gmon.out libcb.so | wc -l)" = 1 ]
  say $? "$how: GNU gprof on libca.so's file: a_leaf called $ga times (program: $k_a_leaf), on libcb.so's (opened twice, moved=$k_moved, one file): b_leaf $gb ($k_b_leaf)"
  if [ -x /usr/bin/gprof ]; then
    agree libca.so $(files gmon.out libca.so)
    say $? "$how: our gprof reads a library's file as GNU gprof does (outside callers dropped)"
  fi
  # --objects: every arc, across objects too
  graph $prog gmon.out > all.graph
  objcalls_arcs all.graph; ok=$?
  [ "$(into all.graph 'a_cmp [libca.so]')" = "$k_a_cmp" ] || ok=1
  # (under check-sanitize ASan's qsort calls the comparison function
  # too, checking the order: one more caller of a_cmp, its calls counted
  # in k_a_cmp)
  [ "$(grep -v '^[^|]*\[libasan\.so[.0-9]*\]|a_cmp \[libca\.so\]|' all.graph | grep -c .)" = 10 ] || ok=1
  say $ok "$how: --objects: worker_a -> a_work [libca.so] $k_a_work, a_work -> a_leaf $k_a_leaf, worker_b -> b_work [libcb.so] $k_b_work, b_work -> b_leaf $k_b_leaf, b_work [libcb.so] -> a_leaf [libca.so] $k_a_leaf_from_b, qsort -> a_cmp [libca.so] $k_a_cmp: every arc exact, none other"
done

# ---- snapshots, fork, a fatal signal ----
rm -rf gmon.out gmon.out.objects snap.out snap.out.objects
LIBPROF_OBJECTS=1 run objcalls "$w/libcb.so" "$w/libfill.so" snap snap.out
[ "$(gnu_calls snap.out libca.so a_leaf)" = "$k_a_leaf" ] && [ -z "$(files snap.out libcb.so)" ] \
  && [ "$(gnu_calls gmon.out libcb.so b_leaf)" = "$k_b_leaf" ]
say $? "a snapshot after the calls into libca: a_leaf $k_a_leaf, no libcb yet; the final file has libcb's"
rm -rf gmon.out gmon.out.*
LIBPROF_OBJECTS=1 run objcalls "$w/libcb.so" "$w/libfill.so" fork
[ -n "$k_child" ] && [ "$(gnu_calls gmon.out.$k_child libca.so a_leaf)" = 7 ] \
  && [ "$(gnu_calls gmon.out libca.so a_leaf)" = "$k_a_leaf" ]
say $? "fork: the child's gmon.out.PID.objects has its own 7 calls of a_leaf, the parent's its $k_a_leaf"
rm -rf gmon.out gmon.out.*
LIBPROF_OBJECTS=1 run objcalls "$w/libcb.so" "$w/libfill.so" die 2> /dev/null
[ $st = 143 ] && [ "$(gnu_calls gmon.out libcb.so b_leaf)" = "$k_b_leaf" ] \
  && [ "$(gnu_calls gmon.out libca.so a_leaf)" = "$k_a_leaf" ]
say $? "SIGTERM: status $st, every object's file written with its counts"

# ---- -s --objects: each object's files summed beside gmon.sum, its
# callers in other objects renumbered for the new manifest ----
rm -rf gmon.out gmon.out.* r1.out r1.out.objects gmon.sum gmon.sum.objects
LIBPROF_OBJECTS=1 run objcalls "$w/libcb.so" "$w/libfill.so"
mv gmon.out r1.out && mv gmon.out.objects r1.out.objects
s_a_leaf=$k_a_leaf s_b_leaf=$k_b_leaf s_from_b=$k_a_leaf_from_b s_a_work=$k_a_work
LIBPROF_OBJECTS=1 run objcalls "$w/libcb.so" "$w/libfill.so"
"$G" -s --objects objcalls r1.out gmon.out > /dev/null 2> sum.err
"$G" --objects -b objcalls r1.out gmon.out > two.txt 2>&1
"$G" --objects -b objcalls gmon.sum > one.txt 2>&1
# and gmon.sum summed again with the first run (reads gmon.sum.objects)
"$G" -s --objects objcalls gmon.sum r1.out > /dev/null 2>> sum.err
graph objcalls gmon.sum > sum.graph
ok=0
[ ! -s sum.err ] || ok=1
cmp -s two.txt one.txt || ok=1     # every object's samples and calls
[ "$(gnu_calls gmon.sum libca.so a_leaf)" = $((2 * s_a_leaf + k_a_leaf)) ] || ok=1
[ "$(gnu_calls gmon.sum libcb.so b_leaf)" = $((2 * s_b_leaf + k_b_leaf)) ] || ok=1
[ "$(files gmon.sum libca.so | wc -l)" = 1 ] || ok=1
[ "$(arc sum.graph worker_a 'a_work [libca.so]')" = $((2 * s_a_work + k_a_work)) ] || ok=1
[ "$(arc sum.graph 'b_work [libcb.so]' 'a_leaf [libca.so]')" = $((2 * s_from_b + k_a_leaf_from_b)) ] || ok=1
say $ok "-s --objects: gmon.sum.objects/ sums each object (the report of gmon.sum that of the two runs; a_leaf $((2 * s_a_leaf + k_a_leaf)) in GNU gprof, b_work [libcb.so] -> a_leaf [libca.so] $((2 * s_from_b + k_a_leaf_from_b)) in --objects) $(cat sum.err)"

# ---- with LIBPROF_STACKS too: the stacks name the manifest's objects and
# others (the C library: objects_add), the arcs and the text unchanged ----
cat > spin.c <<'EOF2'
void a_work(long n);
static volatile long sink;
__attribute__((noinline)) void mine(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(void) { a_work(200000000); mine(300000000); return 0; }
EOF2
cc -O1 -pg spin.c -o spin -L. -lca -L"$top/libprof" -lprof -Wl,-rpath,"$w"
rm -rf gmon.out gmon.out.*
LIBPROF_OBJECTS=1 LIBPROF_STACKS=64 ./spin
"$G" --objects -b spin gmon.out > plain.txt 2> plain.err
"$G" --objects -b --folded=spin.folded spin gmon.out > stk.txt 2> stk.err
"$G" --objects --json=- spin gmon.out | python3 "$here/arcs.py" --json > spin.graph
ok=0 why=""
cmp -s plain.txt stk.txt || { ok=1; why="$why; the report with the stacks read differs: $(diff plain.txt stk.txt | head -3 | tr '\n' ' ')"; }
# (stderr the same but for the stacks' own note of samples not recorded,
# when some were: a loaded machine)
grep -v ": note: [0-9]* of [0-9]* samples were not recorded" stk.err | cmp -s plain.err - \
  || { ok=1; why="$why; stderr differs: $(cat plain.err stk.err | head -4 | tr '\n' ' ')"; }
n_main=$(arc spin.graph main 'a_work [libca.so]') n_leaf=$(arc spin.graph 'a_work [libca.so]' 'a_leaf [libca.so]')
[ "$n_main" = 1 ] && [ "$n_leaf" = 200000000 ] || ok=1
grep -q ' \[libca.so\] [0-9]*$' spin.folded || { ok=1; why="$why; no stack ends in libca.so"; }
# (the C library: named by the stacks, and in the report only by samples
# of its own -- in two loaded CI runs it was named there, with no stack
# ending in it: a sample after the stacks were written, at exit, it seems)
grep -q ';__libc_start_call_main \[libc.so.6\];main;mine [0-9]*$' spin.folded || { ok=1; why="$why; no stack _start...;__libc_start_call_main [libc.so.6];main;mine"; }
libc=$(awk '/Call graph/ {exit} /\[libc.so.6\]/ {print}' plain.txt)
[ -z "$libc" ] || echo "$libc" | awk '!($3 > 0) {bad = 1} END {exit bad}' || { ok=1; why="$why; the report names libc.so.6 with no sample: $libc"; }
! awk '/Call graph/ {g = 1} g' plain.txt | grep -q 'libc.so.6' || [ -n "$libc" ] || { ok=1; why="$why; the call graph names libc.so.6, the flat profile not"; }
[ $ok = 0 ] || why="$why; the stacks: $(tr '\n' '|' < spin.folded | cut -c1-600)"
say $ok "stacks too: --folded names libca.so and libc.so.6, the report the C library only by its own samples (${libc:-none}) ($(awk '{s += $NF} END {print s + 0}' spin.folded) samples), main -> a_work [libca.so] $n_main (1), a_work -> a_leaf $n_leaf (200000000), the report the same with the stacks read$why"

# ---- under valgrind: a -pg library's start-up code calls __monstartup
# before the C library has set environ; the LIBPROF_* variables are
# still seen (read from /proc/self/environ) ----
if [ -n "$LIBPROF_SANITIZED" ]; then
  echo "skip: LIBPROF_* read under valgrind: AddressSanitizer's programs do not run under valgrind"
elif command -v valgrind > /dev/null; then
  echo 'void a_work(long n); int main(void) { a_work(1000); return 0; }' > vg.c
  cc -O1 -pg vg.c -o vg -L. -lca -L"$top/libprof" -lprof -Wl,-rpath,"$w"
  rm -rf gmon.out gmon.out.*
  msg=$(LIBPROF_OBJECTS=1 LIBPROF_HZ=x valgrind -q ./vg 2>&1)
  echo "$msg" | grep -q '^libprof: LIBPROF_HZ=x: not a whole number' && [ "$(gnu_calls gmon.out libca.so a_leaf)" = 1000 ]
  say $? "under valgrind LIBPROF_HZ and LIBPROF_OBJECTS are read: the rejection said, libca's file with a_leaf's 1000 calls"
else
  echo "skip: no valgrind (LIBPROF_* read under valgrind)"
fi
