#!/bin/sh
# What belongs to the program stays the program's (issue 35): signals it
# needs (libprof's snapshot signal never one the program's faults raise;
# the sampling signal given up when the program takes it), descriptors
# (libprof holds none the program could close and reuse), and its
# allocator (libprof's own allocations through a -pg malloc are the
# program's calls, not lost ones); settings parsed one way; an error
# about a file beside the profile said once, not at every snapshot.
# Prints "ok ..." / "FAIL ..." lines like run.sh.
. "$(dirname "$0")/common.sh"
lp="-L$top/libprof -lprof -lpthread"
cc -O1 -pg "$here/known.c" -o known $lp

# ---- LIBPROF_DUMP_SIGNAL: by number as by name, never a fault's ----
# (a handler that returns from SIGSEGV runs the faulting instruction
# again: LIBPROF_DUMP_SIGNAL=11 took the number and hung the crashing
# program for ever)
bad=""
for v in 11 SIGSEGV 4 ILL 7 SIGBUS 8 FPE 5 TRAP 31 SIGSYS 6 ABRT 13 PIPE 25 9 SIGKILL 19 STOP 27 PROF \
         32 33 " 10" "10 " +10 0 65 junk; do
  rm -f gmon.out
  env "LIBPROF_DUMP_SIGNAL=$v" ./known > /dev/null 2> env.err
  n=$(wc -l < env.err)
  case $(head -1 env.err) in "libprof: LIBPROF_DUMP_SIGNAL=$v: "*"; no snapshots on a signal") ;; *) n=x;; esac
  [ "$n" = 1 ] && [ -s gmon.out ] || bad="$bad [$v: $(head -1 env.err)]"
done
[ -z "$bad" ]
say $? "LIBPROF_DUMP_SIGNAL refuses faults' signals, abort's, KILL, STOP, PROF, the C library's 32 and 33, by number as by name, with one line each$bad"
good=""
for v in USR1 SIGUSR2 10 HUP RTMIN+2 RTMAX 34 SIGRTMAX-1 WINCH; do
  rm -f gmon.out
  env "LIBPROF_DUMP_SIGNAL=$v" ./known > /dev/null 2> env.err
  [ -s env.err ] || [ ! -s gmon.out ] && good="$good [$v: $(head -1 env.err)]"
done
[ -z "$good" ]
say $? "LIBPROF_DUMP_SIGNAL takes other signals in silence$good"
cc -O1 -pg "$here/die.c" -o die $lp && cc -O1 "$here/die.c" -o die_plain
res=""; ok=0
for f in "11 SEGV" "4 ILL" "7 BUS" "8 FPE"; do
  set -- $f
  rm -f gmon.out
  (ulimit -c 0; LIBPROF_DUMP_SIGNAL=$1 timeout -s KILL 10 ./die $2 1234 > /dev/null 2>&1; exit $?) 2> /dev/null; got=$?
  (ulimit -c 0; ./die_plain $2 1234 > /dev/null 2>&1; exit $?) 2> /dev/null; want=$?
  res="$res $1:$got/$want"
  [ "$got" = "$want" ] && [ "$(calls die gmon.out work)" = 1234 ] || ok=1
done
say $ok "LIBPROF_DUMP_SIGNAL=11, 4, 7, 8 and a program that faults: it ends as without profiling, profile written (signal:status/plain's$res)"

# ---- numbers: decimal, nothing around them, in every variable ----
bad=""
for v in " 1" "1 " 0x10 +1 -1 1e . 1.5.2 inf nan "1,5"; do
  rm -f gmon.out
  env "LIBPROF_INTERVAL=$v" ./known > /dev/null 2> env.err
  case $(head -1 env.err) in "libprof: LIBPROF_INTERVAL=$v: "*) [ "$(wc -l < env.err)" = 1 ];; *) false;; esac || bad="$bad [$v]"
done
for v in 1 0.5 .5 5. 2e-3 30 0; do
  rm -f gmon.out
  env "LIBPROF_INTERVAL=$v" ./known > /dev/null 2> env.err
  [ -s env.err ] && bad="$bad [$v: $(head -1 env.err)]"
done
[ -z "$bad" ]
say $? "LIBPROF_INTERVAL: decimal seconds taken, blanks before or after, signs, hex, inf refused alike$bad"

# ---- descriptors: a daemon closes all and opens its own ----
cc -O1 -pg "$here/daemon.c" -o daemon $lp
seq 1 1000 > in.txt; size=$(wc -c < in.txt)
res=""; ok=0
for e in LIBPROF_INTERVAL=1 LIBPROF_DUMP_SIGNAL=USR1 LIBPROF_INTERVAL=0.05; do
  for r in 1 2 3 4 5; do
    rm -rf gmon.out out.txt
    env $e timeout -s KILL 20 ./daemon in.txt out.txt 0.3; rc=$?
    set -- $(head -1 out.txt)
    nul=$(tr -d '\000' < out.txt | cmp -s - out.txt && echo 0 || echo 1)
    case $e in
      *=1) want="$4 -le 1";;                           # 0.3 s: no periodic snapshot, at most one
      *USR1) want="$4 -ge 1 -a $4 -le 5";;
      *) want="$4 -ge 2 -a $4 -le 7";;
    esac
    if [ $rc = 0 ] && [ "$2" = "$size" ] && [ "$nul" = 0 ] && [ "$(tail -1 out.txt)" = done ] && [ $want ] && [ -s gmon.out ]; then :
    else ok=1; res="$res [$e run $r: status $rc, read ${2:-?} of $size, NUL $nul, snapshots ${4:-?}]"; fi
  done
done
say $ok "a daemon closing every descriptor and opening its own, 5 runs each of LIBPROF_INTERVAL=1, LIBPROF_DUMP_SIGNAL=USR1 (5 signals), LIBPROF_INTERVAL=0.05: its input and output untouched, snapshots as asked$res"
# a program that sandboxes itself (libprof keeps a copy of stderr then)
# and closes everything: libprof's message at exit (gmon.out cannot be
# written) goes nowhere rather than into the program's file that took
# the copy's number
rm -rf gmon.out out.txt; mkdir gmon.out
./daemon in.txt out.txt 0.05 sandbox; rc=$?
rmdir gmon.out
[ $rc = 0 ] && ! grep -q libprof out.txt && ! grep -q _mcleanup out.txt
say $? "a sandboxing daemon that closes its stderr: libprof's message at exit does not land in its files (status $rc$(grep -a -m1 -e libprof -e _mcleanup out.txt | sed 's/^/: /'))"

# ---- the program's own real-time signals ----
res=""; ok=0
cc -O1 -pg "$here/claim.c" -o claim $lp
cc -O1 -pg "$here/claim.c" -o claim_so -L"$top/libprof/shared" -lprof -lpthread -Wl,-rpath,"$top/libprof/shared"
st=""; [ "$(uname -m)" = x86_64 ] && cc -O1 -static -pg "$here/claim.c" -o claim_st $lp && st=claim_st
for b in claim claim_so $st; do
  for m in sigaction signal block other late; do
    rm -f gmon.out
    out=$(LIBPROF_OVERHEAD=report ./$b $m 2> claim.err); rc=$?
    cpu=$(sed -n 's/^main //p' claim.err)
    share=$(python3 "$here/hist.py" gmon.out "${cpu:-1}" | awk '{print $6}')
    res="$res $b/$m:$rc:${out#stray }:$share"
    [ $rc = 0 ] && [ "$out" = "stray 0" ] && echo "$share" | awk '{exit !($1 >= 0.9)}' \
      && grep -q "^libprof: the program took signal [0-9]* for itself; sampling moved to signal [0-9]*" claim.err || ok=1
  done
done
say $ok "a program taking SIGRTMAX (libprof's signal at start-up) with sigaction, signal, or a mask for sigtimedwait, or SIGRTMAX-1 too (blocked, at its default), or while a thread has every signal blocked (one of libprof's queued for it), while 2 threads run: none of libprof's signals reach it, its own all do, sampling moves on, share >= 0.9 (binary/how:status:stray:share$res)"
rm -f gmon.out
out=$(./claim all 2> claim.err); rc=$?
line=$(grep '^libprof:' claim.err)
[ $rc = 0 ] && [ "$out" = "stray 0" ] && [ -s gmon.out ] && [ "$(echo "$line" | wc -l)" = 1 ] \
  && echo "$line" | grep -q "^libprof: the program took signal [0-9]* for itself and no other real-time signal was free: [0-9]* samples ([0-9]* ms of CPU time) not taken$"
say $? "a program taking every real-time signal: sampling stops, the samples not taken said ($rc, $out, $line)"
# (then forking: the child said the parent's CPU time at the stop less
# its own, wrapped round -- bash with LIBPROF_CLOCK=itimer taking
# SIGPROF, a command substitution: "18446743610 samples")
rm -f gmon.out
out=$(./claim fork 2> claim.err); rc=$?
lines=$(grep '^libprof:' claim.err | sed 's/.*: \([0-9]*\) samples (\([0-9]*\) ms of CPU time) not taken$/\1 \2/')
cpu=$(grep -v -e "^libprof:" -e "^main " claim.err | tail -n 1)   # the parent's; the child's is less
[ $rc = 0 ] && [ "$out" = "stray 0" ] && [ "$(echo "$lines" | wc -l)" = 2 ] \
  && echo "$lines" | awk -v c="$cpu" 'NF != 2 || $2 > c * 1000 + 10 { bad = 1 } END { exit bad }'
say $? "a program taking every real-time signal, then forking: each process says the samples it did not take, none more than its CPU time ($rc, $out, samples and ms: $(echo $lines); CPU $cpu s)"

# ---- an error about a file beside the profile: said once ----
rm -rf gmon.out gmon.out.stacks gmon.out.objects; mkdir gmon.out.stacks; : > gmon.out.objects
cat > long.c <<'C'
volatile unsigned long s;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) s += i; }
int main(void) { for (int i = 0; i < 30; i++) spin(3000000); return 0; }
C
cc -O1 -pg long.c -o long $lp
LIBPROF_STACKS=4 LIBPROF_OBJECTS=1 LIBPROF_INTERVAL=0.01 ./long 2> beside.err
ns=$(grep -c '^libprof: gmon.out.stacks: ' beside.err); no=$(grep -c '^libprof: gmon.out.objects: ' beside.err)
[ "$ns" = 1 ] && [ "$no" = 1 ] && [ -s gmon.out ]
say $? "snapshots every 10 ms with gmon.out.stacks a directory and gmon.out.objects a file: each error said once ($ns and $no times)"
rm -rf gmon.out.stacks gmon.out.objects

# ---- libprof's own allocations through the program's -pg malloc ----
cat > mymalloc.c <<'C'
#include <stddef.h>
#include <string.h>
#include <stdio.h>
static _Alignas(16) char heap[1 << 24];
static size_t used;
void *malloc(size_t n)
{
  n = (n + 15) & ~(size_t)15;
  if (used + n > sizeof heap) return NULL;
  void *p = heap + used;
  used += n;
  return p;
}
void free(void *p) { (void)p; }
void *calloc(size_t a, size_t b) { void *p = malloc(a * b); if (p) memset(p, 0, a * b); return p; }
void *realloc(void *p, size_t n) { void *q = malloc(n); if (q && p) memcpy(q, p, n); return q; }
void *aligned_alloc(size_t a, size_t n) { (void)a; return malloc(n); }
volatile unsigned long s;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) s += i; }
int main(void) { spin(10000000); printf("ok\n"); return 0; }
C
if [ -n "$LIBPROF_SANITIZED" ]; then
  echo "skip a -pg malloc of the program's own under the sanitizers (theirs replaces it)"
else
  cc -O1 -pg mymalloc.c -o mymalloc $lp
  res=""; ok=0
  for e in LIBPROF_INTERVAL=1 LIBPROF_DUMP_SIGNAL=USR1 LIBPROF_STACKS=8 LIBPROF_OBJECTS=1; do
    rm -rf gmon.out*
    out=$(env $e ./mymalloc 2> mm.err); rc=$?
    [ $rc = 0 ] && [ "$out" = ok ] && [ ! -s mm.err ] && [ -s gmon.out ] || { ok=1; res="$res [$e: $rc $(head -1 mm.err)]"; }
  done
  say $ok "a program with its own -pg malloc: libprof's threads and stacks allocate through it, no call reported lost$res"
fi
