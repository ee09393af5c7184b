#!/bin/sh
# stacks.sh -- libprof's real stacks (LIBPROF_STACKS): off by default;
# the file checked strictly (stk.py); its stacks whose leaf is in the
# program add up to the histogram exactly; measured time per caller
# within 5% of the program's own clock where gprof's estimate is wrong;
# hostile frames, coroutines, libc without frame pointers and 10 kHz
# sampling survived; threads named; a full table counted; bad settings
# rejected; fork and the shared library too.
. "$(dirname "$0")/common.sh"
say_prefix="stacks: "
lp="-L$top/libprof -lprof"
hist_total() { python3 "$here/hist.py" "$1" | awk '{printf "%d\n", $2 * $4 + 0.5}'; }
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p"; }   # stk.py's facts

cc -O1 -pg -g "$here/stk_acc.c" -o acc $lp
./acc 1 > /dev/null
[ -f gmon.out ] && [ ! -e gmon.out.stacks ]; say $? "off by default: no stack file"
rm -f gmon.out; LIBPROF_STACKS=0 ./acc 1 > /dev/null
[ -f gmon.out ] && [ ! -e gmon.out.stacks ]; say $? "LIBPROF_STACKS=0: no stack file"

# accuracy: truth (the program's clock), gprof's estimate, the stacks
rm -f gmon.out*
LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./acc 10 > truth.txt
python3 "$here/stk.py" gmon.out.stacks acc work > facts.txt; say $? "the stack file is well formed"
cat facts.txt
leaf=$(head -1 facts.txt | field leaf-in-program); h=$(hist_total gmon.out)
[ "$leaf" = "$h" ]; say $? "stacks with their leaf in the program = the histogram's samples ($leaf, $h)"
[ "$(head -1 facts.txt | field broken)" = 0 ] && [ "$(head -1 facts.txt | field truncated)" = 0 ]
say $? "every stack of a -pg program complete"
"$G" -b -q acc gmon.out > cg.txt
# gprof's estimate: the parents' lines of work's entry (self + children)
est() { awk -v p="$1" 'NF < 2 {next} /^\[/ && $(NF-1) == "work" {exit} $(NF-1) == p && NF == 5 {print $1 + $2}' cg.txt | tail -1; }
tc=$(awk '{print $4}' truth.txt); td=$(awk '{print $7}' truth.txt)
mc=$(sed -n 2p facts.txt | awk '{print $2 / 1000}'); md=$(sed -n 2p facts.txt | awk '{print $4 / 1000}')
ec=$(est cheap); ed=$(est dear)
echo "caller->work     truth    gprof-estimate (error)    stacks (error)"
for k in cheap dear; do
  if [ $k = cheap ]; then t=$tc e=$ec m=$mc; else t=$td e=$ed m=$md; fi
  awk -v k=$k -v t=$t -v e=$e -v m=$m 'BEGIN {printf "%-14s %8.3f s %8.3f s (%+7.1f%%)   %8.3f s (%+5.1f%%)\n", k, t, e, (e - t) / t * 100, m, (m - t) / t * 100}'
  awk -v t=$t -v m=$m 'BEGIN {exit !((m - t) / t < 0.05 && (t - m) / t < 0.05)}'
  say $? "$k -> work measured within 5% of the truth ($m s, $t s)"
done

# hostile frames, 10 kHz, depth 256, static and shared
cc -O1 -pg -g "$here/stk_hostile.c" -o hostile $lp -lpthread
cc -O1 -pg -g "$here/stk_hostile.c" -o hostile_so -L"$top/libprof/shared" -lprof -lpthread
for b in hostile hostile_so; do
  rm -f gmon.out*
  # (stderr apart: AddressSanitizer warns about swapcontext)
  out=$(LD_LIBRARY_PATH="$top/libprof/shared" LIBPROF_HZ=10000 LIBPROF_STACKS=256 timeout 120 ./$b 2> err.txt)
  [ "$out" = done ]; say $? "$b: junk in the frame register, qsort, a coroutine at 10 kHz: no fault ($out$(grep -m1 ERROR err.txt))"
  python3 "$here/stk.py" gmon.out.stacks > facts.txt; say $? "$b: the stack file is well formed"
  cat facts.txt
  leaf=$(field leaf-in-program < facts.txt); h=$(hist_total gmon.out)
  [ "$leaf" = "$h" ]; say $? "$b: leaves in the program = the histogram ($leaf, $h)"
  grep -q 'worker-0,worker-1,worker-2' facts.txt; say $? "$b: threads labelled with their names"
  [ "$(field threads < facts.txt)" -ge 4 ]; say $? "$b: every thread's stacks"
done

# a table too small: the rest counted as dropped, the sums still agree
cat > deep.c <<'C'
volatile unsigned long s;
__attribute__((noinline)) void rec(int n) { if (n) rec(n - 1); else for (int i = 0; i < 20000; i++) s += i; }
/* depths in a random order, and 0.5 s or so: the timer expires on the
   kernel's tick (250 Hz here), each signal carrying ~40 samples of one
   stack, so a 0.1 s run made 24-46 distinct stacks, not more than 64;
   at least 0.6 s of CPU time, however fast the machine (a 0.1 s run,
   1,048 samples, dropped none) */
#include <time.h>
int main(void) { unsigned r = 1; for (int k = 0; k < 120000 || clock() < CLOCKS_PER_SEC * 6 / 10; k++) { r = r * 1103515245u + 12345u; rec((r >> 16) % 200); } return 0; }
C
cc -O1 -pg deep.c -o deep $lp
rm -f gmon.out*
LIBPROF_HZ=10000 LIBPROF_STACKS=256 LIBPROF_STACKS_MAX=64 ./deep
python3 "$here/stk.py" gmon.out.stacks > facts.txt && [ "$(field dropped < facts.txt)" -gt 0 ] \
  && [ "$(field truncated < facts.txt)" = 0 ]
say $? "LIBPROF_STACKS_MAX=64: stacks beyond the table counted as dropped ($(cat facts.txt))"
rm -f gmon.out*
LIBPROF_HZ=10000 LIBPROF_STACKS=50 ./deep
python3 "$here/stk.py" gmon.out.stacks > facts.txt && [ "$(field truncated < facts.txt)" -gt 0 ] \
  && [ "$(field dropped < facts.txt)" = 0 ] && [ "$(field leaf-in-program < facts.txt)" = "$(hist_total gmon.out)" ]
say $? "LIBPROF_STACKS=50: deeper stacks truncated at 50 frames ($(cat facts.txt))"

# fork: the child's stacks beside the child's profile
cat > forker.c <<'C'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
volatile unsigned long s;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) s += i; }
int main(void) { pid_t p = fork(); spin(300000000); if (p) { waitpid(p, 0, 0); printf("%d\n", (int)p); } return 0; }
C
cc -O1 -pg forker.c -o forker $lp
rm -f gmon.out*; child=$(LIBPROF_STACKS=16 ./forker)
python3 "$here/stk.py" gmon.out.$child.stacks > c.txt && python3 "$here/stk.py" gmon.out.stacks > p.txt \
  && [ "$(field leaf-in-program < c.txt)" = "$(hist_total gmon.out.$child)" ] \
  && [ "$(field leaf-in-program < p.txt)" = "$(hist_total gmon.out)" ]
say $? "fork: parent and child each write their own stacks ($(cat p.txt | cut -c1-40); $(cat c.txt | cut -c1-40))"

# settings
for v in "LIBPROF_STACKS=abc" "LIBPROF_STACKS=257" "LIBPROF_STACKS=-1" "LIBPROF_STACKS=" "LIBPROF_STACKS_MAX=10"; do
  rm -f gmon.out*
  msg=$(env "$v" ./acc 1 2>&1 >/dev/null)
  [ "$(echo "$msg" | grep -c "^libprof: ${v%%=*}=")" = 1 ]; say $? "$v rejected in one line: $msg"
done

# a leaf without a frame: the signal sent from inside libc's syscall
# wrapper; the program's own caller is found on the stack
cc -O1 -pg "$here/stk_chain.c" -o chain $lp
rm -f gmon.out*
LIBPROF_HZ=0 LIBPROF_STACKS=32 ./chain raise
facts=$(python3 "$here/stk.py" gmon.out.stacks chain spin) && n=$(echo "$facts" | sed -n 's/^samples \([0-9]*\).*/\1/p') \
  && [ "$n" -ge 150 ] && [ "$(echo "$facts" | sed -n 2p)" = "b $n" ] \
  && [ "$(python3 "$here/stk.py" gmon.out.stacks chain a | sed -n 2p)" = "main $n" ]
say $? "from libc's syscall wrapper, main -> a -> b -> spin in every stack: $(echo $facts)"

# a leaf deep in a library without frame pointers: 12 KB of its frames
# (a sanitizer's malloc under printf holds 4.3 KB) between the leaf and
# the program's caller, the frame register zero; every stack still
# reaches main through the caller.  (Only the stacks whose leaf is the
# library's count: a sample in the exit handlers after main returned --
# 4 runs in 100 under the sanitizers, whose destructors take longer -- is
# complete without main, and once failed this check.)
# leaf_path PROG LEAF PATH: the samples whose leaf is LEAF, and how many
# of them are _start;...;PATH;LEAF (--folded, PROG's gmon.out)
leaf_path() {
  "$G" --folded=leaf.folded "$1" gmon.out > /dev/null 2>&1 || { echo "0 0"; return; }
  awk -v leaf="$2" -v tail=";$3;$2" '{ n = $NF; st = substr($0, 1, length($0) - length(n) - 1)
    k = split(st, f, ";"); if (f[k] != leaf) next; all += n
    if (index(st, "_start;") == 1 && substr(st, length(st) - length(tail) + 1) == tail) ok += n }
    END { print all + 0, ok + 0 }' leaf.folded
}
cat > wide.c <<'C'
volatile unsigned long s;
void wide(long n)
{
  volatile char buf[12288];
  for (unsigned i = 0; i < sizeof buf; i += 64) buf[i] = (char)i;
#if defined(__x86_64__)
  __asm__ volatile("push %%rbp\n\txor %%ebp, %%ebp\n\t1: dec %0\n\tjnz 1b\n\tpop %%rbp" : "+c"(n) : : "memory", "cc");
#else
  for (long i = 0; i < n; i++) s += i;
#endif
  s += buf[64];
}
C
cat > widemain.c <<'C'
void wide(long n);
__attribute__((noinline)) void caller(void) { wide(400000000); }
int main(void) { caller(); return 0; }
C
cc -O2 -fomit-frame-pointer -fPIC -shared wide.c -o libwide.so
cc -O1 -pg widemain.c -o widemain -L. -lwide $lp
rm -f gmon.out*
LD_LIBRARY_PATH=. LIBPROF_HZ=1000 LIBPROF_STACKS=32 ./widemain
facts=$(python3 "$here/stk.py" gmon.out.stacks) && set -- $(leaf_path widemain "wide [libwide.so]" "main;caller")
# (every stack whose leaf is the library's function, complete from
# _start; stacks elsewhere are not this check's: once in about five runs
# two with their leaf in the program end broken -- cause not found yet,
# DESIGN.md section 11 -- their count stays in the line)
[ "$1" -ge 50 ] && [ "$2" = "$1" ]
say $? "12 KB of a library's frames without frame pointers under the leaf: every stack reaches main: $2 of $1; $(echo $facts)"

# a perf clock's signal queues once a period, and a handler dearer than
# a period (stacks through 12 KB of frames at 50 kHz) left more behind
# than it took: the queue filled (RLIMIT_SIGPENDING, 4,096 here to come
# within a second) and the kernel sent SIGIO instead, killing the program (status
# 157); a program doing O_ASYNC I/O got spurious SIGIOs.  The handler
# takes the periods left behind: none pending for long, whatever the rate.
# (At the rate asked, LIBPROF_HZ_LIMIT=0: by default a rate whose signals
# cost more than 10% of the CPU is lowered -- in a VM here 50 kHz was
# 1.5 kHz -- and the queue no longer fills; and where signals cost more
# than the period, the thread's is lengthened, else the program starved.)
# (The limit counts the user's signals, all processes': as root, a user
# of its own, allowed kernel time (CAP_PERFMON) as root is; a 10,000-thread
# test's timers running meanwhile as root spent it; a user of this run's
# own: two suites at once, each at 4,096 as one user, shared the budget
# and both failed.)
u=$((50000 + $$ % 10000))
q="prlimit --sigpending=4096:4096 --"
command -v prlimit > /dev/null || q=   # (then the user's own limit)
mkdir -p sigq && cp widemain libwide.so sigq/
if [ "$(id -u)" = 0 ] && [ -n "$q" ] && chmod 777 sigq \
   && setpriv --reuid=$u --regid=$u --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon true 2> /dev/null; then
  q="setpriv --reuid=$u --regid=$u --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon $q"
fi
# (up to three runs, the assertion unchanged: on a loaded machine -- a
# VM, load 6 and more -- a handler now and then runs 1-30 ms of the
# thread's CPU and the queue fills (DESIGN.md section 11): one run in
# the CI of the loaded ten; before the drain every run failed, at once)
for try in 1 2 3; do
  rm -f sigq/gmon.out*
  (cd sigq && LD_LIBRARY_PATH=. LIBPROF_HZ_LIMIT=0 LIBPROF_HZ=50000 LIBPROF_STACKS=32 $q ./widemain 2> hi.err)
  r=$?
  n=$(python3 "$here/stk.py" sigq/gmon.out.stacks 2>/dev/null | awk '{print $2}')
  [ $r = 0 ] && [ "${n:-0}" -ge 1000 ] && break
done
[ $r = 0 ] && [ "${n:-0}" -ge 1000 ]
say $? "50 kHz with stacks, 4096 queued signals at most: status $r (0), ${n:-no} samples (runs: $try)"
cc -O1 -pg "$here/sigio.c" -o sigq/sigio -L. -lwide $lp
for try in 1 2 3; do
  rm -f sigq/gmon.out*
  # (stderr apart: libprof may say it lengthened the period)
  out=$(cd sigq && LD_LIBRARY_PATH=. LIBPROF_HZ_LIMIT=0 LIBPROF_HZ=50000 LIBPROF_STACKS=32 $q ./sigio 200000000 2> sig.err)
  r=$?
  [ $r = 0 ] && [ "$out" = "sigio 0" ] && [ -s sigq/gmon.out.stacks ] && break
done
[ $r = 0 ] && [ "$out" = "sigio 0" ] && [ -s sigq/gmon.out.stacks ]
say $? "a program's own O_ASYNC SIGIO handler sees no SIGIO of libprof's at 50 kHz: status $r, $(echo $out) (runs: $try) $(cat sigq/sig.err 2>/dev/null)"
# the queue all but gone: 16 pending signals at most.  The perf clock's
# real-time signal, queued at every overflow, filled it at once and the
# kernel sent SIGIO ("sigio 1" every run); on SIGPROF, never queued twice,
# nothing is left to overflow
if [ -n "$q" ]; then
  rm -f sigq/gmon.out*
  out=$(cd sigq && LD_LIBRARY_PATH=. LIBPROF_HZ_LIMIT=0 LIBPROF_HZ=50000 LIBPROF_STACKS=32 ${q%4096:4096 --}16:16 -- ./sigio 100000000 2> sig.err)
  r=$?
  [ $r = 0 ] && [ "$out" = "sigio 0" ] && [ -s sigq/gmon.out.stacks ]
  say $? "50 kHz with stacks, 16 queued signals at most: no SIGIO reaches the program: status $r, $(echo $out) $(cat sigq/sig.err 2>/dev/null)"
fi

# the same window provoked in every sample: a library function whose
# unwind rows lie (an inline push without CFI) with a dead return address
# into _start in the word the lying rows take for its return address (the
# flake above: 1 of 218 stacks went from the leaf to _start, complete);
# such a walk is no complete stack: every stack still reaches main
if [ "$(uname -m)" = x86_64 ] && cc -dM -E -x c /dev/null | grep -q __x86_64__; then
  cat > lie.c <<'C'
__asm__(".text\n.globl lie\n.type lie, @function\nlie:\n.cfi_startproc\n"
        "sub $24, %rsp\n.cfi_def_cfa_offset 32\n"
        "mov %rsi, 16(%rsp)\n"          /* the dead word under the return address */
        "push %rbp\nxor %ebp, %ebp\n"   /* no CFI: the rows lie from here */
        "1: dec %rdi\njnz 1b\n"
        "pop %rbp\nmovq $0, 16(%rsp)\nadd $24, %rsp\n.cfi_def_cfa_offset 8\nret\n"
        ".cfi_endproc\n.size lie, .-lie\n");
C
  cat > liemain.c <<'C'
void lie(long n, unsigned long dead);
extern char _start[];
__attribute__((noinline)) void caller(void) { lie(600000000, (unsigned long)_start + 5); }
int main(void) { caller(); return 0; }
C
  cc -fPIC -shared lie.c -o liblie.so && cc -O1 -pg liemain.c -o liemain -L. -llie $lp
  rm -f gmon.out*
  LD_LIBRARY_PATH=. LIBPROF_HZ=1000 LIBPROF_STACKS=32 ./liemain
  facts=$(python3 "$here/stk.py" gmon.out.stacks) && set -- $(leaf_path liemain "lie [liblie.so]" "main;caller")
  [ "$1" -ge 50 ] && [ "$2" = "$1" ]
  r=$?
  # (broken stacks with their leaf in the program: once in ~1,300 loaded
  # runs, not reproduced; their frames named, for the next look)
  say $r "rows that lie over a dead return address into _start: every stack reaches main: $2 of $1; $(echo $facts)"
  if [ $r != 0 ] && "$G" --folded=lie.folded liemain gmon.out > /dev/null 2>&1; then
    grep -v "lie \[liblie.so\] " lie.folded | head -5 | sed 's/^/    /'
  fi
  # a leaf of the program without unwind rows that has not touched the
  # stack, called by code that holds no frame pointer: crtstuff's
  # __do_global_dtors_aux run by the loader at exit (a broken stack of
  # the leaf alone, seen at 50 kHz); its return address is at sp
  cat > rowless.c <<'C'
__asm__(".text\n.globl drive\n.type drive, @function\ndrive:\n.cfi_startproc\n"
        "push %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset rbp, -16\n"
        "mov $1, %ebp\n"                  /* junk in the frame register */
        "mov %rdi, %rax\nmov %rsi, %rdi\ncall *%rax\n"
        "pop %rbp\n.cfi_def_cfa_offset 8\nret\n.cfi_endproc\n.size drive, .-drive\n");
C
  cat > rowlessmain.c <<'C'
void drive(void (*f)(long), long n);
void spin(long n);
__asm__(".text\n.type spin, @function\nspin:\n1: dec %rdi\njnz 1b\nret\n.size spin, .-spin\n");
__attribute__((noinline)) void caller(void) { drive(spin, 600000000); }
int main(void) { caller(); return 0; }
C
  cc -fPIC -shared rowless.c -o librowless.so && cc -O1 -pg rowlessmain.c -o rowlessmain -L. -lrowless $lp
  rm -f gmon.out*
  LD_LIBRARY_PATH=. LIBPROF_HZ=1000 LIBPROF_STACKS=32 ./rowlessmain
  facts=$(python3 "$here/stk.py" gmon.out.stacks) && set -- $(leaf_path rowlessmain spin "main;caller;drive [librowless.so]")
  [ "$1" -ge 50 ] && [ "$2" = "$1" ]
  say $? "a leaf without unwind rows called from code without a frame pointer: every stack reaches main: $2 of $1; $(echo $facts)"
else
  echo "skip stacks: rows that lie over a dead return address (x86-64 only)"
fi

# every call the stacks show between two functions of the program is an
# arc of the call graph (-O2: tail calls, epilogues scheduled early, an
# opcode table, qsort calling back): at most 2% of the time in calls the
# program never made (45% before frames already popped were looked for)
cc -O2 -g -pg "$here/interp.c" -o interp $lp
rm -f gmon.out*
LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./interp 300000 > /dev/null
"$G" -b --stack-times interp gmon.out > st.txt
n=$(python3 "$here/stk.py" gmon.out.stacks | field stacks)
bogus=$(sed -n '/caller -> callee/,$p' st.txt | awk '$3 == "-" && $0 !~ /\[libc|_start|_init/ {s += $1} END {print s * 1000}')
awk -v b="$bogus" -v n="$n" 'BEGIN {exit !(n > 100 && b <= 0.02 * n)}'
say $? "interp.c -O2: $bogus of $n samples in calls the call graph does not have"
