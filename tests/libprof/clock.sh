#!/bin/sh
# The sampling clock (issue 34): at LIBPROF_HZ=1000 a CPU second is about
# 1,000 distinct samples, not 250 signals of four periods each (the
# kernel's tick); threads made by any means -- pthreads running code
# built without -pg, a raw clone() -- are sampled in proportion to their
# own CPU time; a forked child gets its own clock; the clock is chosen
# (LIBPROF_CLOCK), recorded in the stack file, and every clock's samples
# add up to the CPU time.  Statistical: wide margins, CPU time measured
# by the program itself, so a loaded machine passes.
. "$(dirname "$0")/common.sh"
phase_clock=${LIBPROF_CLOCK:-}      # (the phase check honours it: see there)
lp="-L$top/libprof -lprof -lpthread"
{ i=0; while [ $i -lt 1500 ]; do echo "x = x * 3 + $i;"; i=$((i + 1)); done; } > spread.h
cc -O1 -pg -I. -I"$here" -c "$here/clock.c" -o clock.o
cc -O1 -I. -c "$here/clock_work.c" -o clock_work.o        # no -pg: a library's code
cc -pg clock.o clock_work.o -o clk $lp
lo=$(nm -S clk | awk '$4 == "spread" {print $1}'); size=$(nm -S clk | awk '$4 == "spread" {print $2}')
hi=$(printf '%x' $((0x$lo + 0x$size)))
wlo=$(nm -S clk | awk '$4 == "work_spread_body" {print $1}'); wsize=$(nm -S clk | awk '$4 == "work_spread_body" {print $2}')
whi=$(printf '%x' $((0x$wlo + 0x$wsize)))

# perf events for a process's own threads: perf_event_paranoid <= 2 (or root)
par=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo 9)
perf=0; { [ "$par" -le 2 ] || [ "$(id -u)" = 0 ]; } && perf=1

# GMON CPU: ok when the spin's samples are its CPU time at 1000 Hz (within
# 15%), spread over many bins (at least half as many bins as samples) and
# not in fours (at most 15% of the bins a multiple of 4); the figures in $facts
distinct() {
  set -- "$1" "$2" $(python3 "$here/clock.py" "$1" "$lo" "$hi")
  facts="cpu $2 s, samples $4, bins $6, multiples of 4 $8"
  awk -v c="$2" -v s="$4" -v b="$6" -v m="$8" \
    'BEGIN { exit !(s >= 850 * c && s <= 1150 * c && b >= s / 2 && m <= 0.15 * b) }'
}

if [ $perf = 1 ]; then
  rm -f gmon.out; cpu=$(LIBPROF_HZ=1000 ./clk spread 1)
  distinct gmon.out "$cpu"; say $? "1 kHz by default: a CPU second is ~1,000 distinct samples ($facts)"
  rm -f gmon.out; cpu=$(LIBPROF_HZ=1000 LIBPROF_CLOCK=perf ./clk spread 1)
  distinct gmon.out "$cpu"; say $? "LIBPROF_CLOCK=perf: ~1,000 distinct samples ($facts)"
  # an unprivileged user (perf_event_paranoid 2: user time only, weighed)
  if [ "$(id -u)" = 0 ] && [ "$par" = 2 ] && command -v setpriv > /dev/null; then
    mkdir -p nobody && chmod 777 nobody && cp clk nobody/
    cpu=$(cd nobody && LIBPROF_HZ=1000 setpriv --reuid=65534 --regid=65534 --clear-groups ./clk spread 1)
    distinct nobody/gmon.out "$cpu"; say $? "1 kHz as an unprivileged user: ~1,000 distinct samples ($facts)"
  fi
  # time in the kernel (reads of /dev/urandom between spins): under a
  # clock of user time only (an unprivileged user) it was credited to
  # the code the thread ran next -- `spread` got 2-5 times its CPU time
  # -- and now counts apart, as the kernel's, said by gprof
  run_as=; [ "$(id -u)" = 0 ] && [ "$par" = 2 ] && command -v setpriv > /dev/null \
    && run_as="setpriv --reuid=65534 --regid=65534 --clear-groups"
  # (up to three runs, as the other timing checks)
  mkdir -p kern && chmod 777 kern && cp clk kern/
  user_only=0; { [ -n "$run_as" ] || { [ "$(id -u)" != 0 ] && [ "$par" = 2 ]; }; } && user_only=1
  kern_ok() {
    awk -v c="$cpu" -v s="$2" 'BEGIN { exit !(c > 0 && s >= 850 * c && s <= 1150 * c) }' \
      && { [ $user_only = 0 ] || echo "$note" | grep -q "the kernel"; }
  }
  for try in 1 2 3; do
    rm -f kern/gmon.out
    cpu=$(cd kern && LIBPROF_HZ=1000 $run_as ./clk kernel 0.5)
    set -- $(python3 "$here/clock.py" kern/gmon.out "$lo" "$hi")
    note=$("$G" -p -b kern/clk kern/gmon.out 2>&1 >/dev/null | grep -o "outside the program's code.*)")
    kern_ok "$@" && break
  done
  kern_ok "$@"
  say $? "time in the kernel is not credited to the code after it: spread $2 samples for $cpu s of its own at 1 kHz (${note:-no note}; runs: $try)"
  # the same at a thread's end: the time since its last sample, credited
  # there, was all given to that sample's function (a Lua script reading
  # /dev/urandom: 0.01-0.26 s for 0.02-0.05 s of user time), or lost as
  # not taken when that sample was outside the program, though all of
  # it but a period was the kernel's: `spread` 0.2 s, then 0.4 s in the
  # kernel (at least 300 of its 400 samples the kernel's)
  if [ $user_only = 1 ]; then
    tail_ok() {
      kern_ok "$@" && [ "${kernel:-0}" -ge 300 ]
    }
    for try in 1 2 3; do
      rm -f kern/gmon.out
      cpu=$(cd kern && LIBPROF_HZ=1000 $run_as ./clk tail 0.2)
      set -- $(python3 "$here/clock.py" kern/gmon.out "$lo" "$hi")
      kernel=$(python3 "$here/facts.py" dump kern/gmon.out | awk '$1 == "kernel" {print $2}')
      note=$("$G" -p -b kern/clk kern/gmon.out 2>&1 >/dev/null | grep -o "outside the program's code.*)")
      tail_ok "$@" && break
    done
    tail_ok "$@"
    say $? "the kernel's time before a thread's end is the kernel's: spread $2 samples for $cpu s of its own, the kernel ${kernel:-no} samples for 0.4 s at 1 kHz (${note:-no note}; runs: $try)"
  else
    echo "skip clock: the kernel's time at a thread's end (perf counts kernel time here)"
  fi
  # with every object's profile (--objects shows them all, but the
  # kernel's time is in none): its share said all the same
  if [ $user_only = 1 ]; then
    rm -rf kern/gmon.out*
    (cd kern && LIBPROF_HZ=1000 LIBPROF_OBJECTS=1 $run_as ./clk kernel 0.2 > /dev/null)
    note=$("$G" -p -b --objects kern/clk kern/gmon.out 2>&1 >/dev/null)
    echo "$note" | grep -q "was in the kernel, at no PC the clock could see"
    say $? "gprof --objects says the kernel's share ($note)"
  fi
  # the perf clock holds no descriptor: its event lives by a mapped page
  set -- $(LIBPROF_HZ=1000 ./clk fds 0.1)
  [ "$2" -ge 1 ] && [ "$4" = 0 ]; say $? "the perf clock keeps no descriptor ($2 events mapped, $4 descriptors)"
  # no POSIX timer to be had (RLIMIT_SIGPENDING 0: each timer holds a
  # queued signal's room): the perf clock at once
  if command -v prlimit > /dev/null; then
    rm -f gmon.out; cpu=$(LIBPROF_HZ=1000 prlimit --sigpending=0 ./clk spread 0.5 2> err.txt)
    distinct gmon.out "$cpu" && [ ! -s err.txt ]; say $? "no POSIX timer allowed (RLIMIT_SIGPENDING 0): the perf clock at once ($facts)"
  fi
  # threads the scan found (a pthread, then a raw clone, both in code
  # without -pg) move to the perf clock too, as root (the events count
  # kernel time): before, POSIX timers on the tick, four periods a signal
  if [ "$(id -u)" = 0 ] || [ "$par" -le 1 ]; then
    rm -f gmon.out; cpu=$(LIBPROF_HZ=1000 ./clk foreign 0.5)
    lo=$wlo hi=$whi distinct gmon.out "$cpu"; say $? "threads found by the scan (a pthread, a raw clone) at 1 kHz: distinct samples ($facts)"
    # once a found thread has a perf clock, the handler told every perf
    # signal of every thread from a found thread's by a gettid system call
    # (500 for main's half second at 1 kHz); now by the signal's si_fd
    # (the scan's own gettid, 50 a CPU second, remains)
    # (counted by perf's tracepoint where it can: strace stops the
    # tracee at each signal, whose cost -- charged to the thread, taken
    # as libprof's -- left 20% of main's time out of its samples in a VM)
    rm -f gmon.out st.txt
    n=
    if command -v perf > /dev/null && LIBPROF_HZ=1000 perf stat -x, -e syscalls:sys_enter_gettid -o st.txt ./clk found 0.5 > /dev/null 2> st.err; then
      n=$(awk -F, '$3 == "syscalls:sys_enter_gettid" {print $1}' st.txt)
    fi
    if [ -z "$n" ] && ! command -v strace > /dev/null; then
      echo "skip clock: a found thread's perf clock and gettid (neither perf's tracepoints nor strace)"
    elif [ -z "$n" ] && { rm -f gmon.out; ! LIBPROF_HZ=1000 strace -f -c -e trace=gettid -o st.txt ./clk found 0.5 > /dev/null 2> st.err || [ ! -s st.txt ]; }; then
      echo "skip clock: a found thread's perf clock and gettid (strace could not trace: $(head -1 st.err))"
    else
      # (the scan's own gettid, one a 20 ms tick, stays: about 50)
      [ -n "$n" ] || n=$(awk '$NF == "gettid" {print $4}' st.txt)
      distinct gmon.out 0.5 && [ -n "$n" ] && [ "$n" -lt 150 ]
      say $? "a found thread's perf clock costs the other threads' signals no gettid (${n:-no} calls in 1 s at 1 kHz; main's $facts)"
    fi
  fi
  # a forked child: a clock of its own
  rm -f gmon.out gmon.out.*; pid=$(LIBPROF_HZ=1000 ./clk fork 0.5)
  distinct "gmon.out.$pid" 0.5; say $? "a forked child gets its own 1 kHz clock ($facts)"
else
  echo "skip 1 kHz distinct samples (perf_event_paranoid $par: no perf events for a user)"
fi

# every clock: its name in the stack file, samples that add up to the CPU time
# (up to three runs, the assertion unchanged: once in a loaded run of the
# suite, load 8-13, ITIMER_PROF's spin got 315 samples for 0.502 s): at
# least 85% of the spin's own 0.5 s, at most 115% of the process's CPU
# (under the sanitizers their start-up and the exit's writing, unsampled,
# are 0.05-0.07 s of it: 481 samples for 0.576 s failed there)
for c in perf:perf-event timer:posix-timer itimer:itimer; do
  [ $perf = 0 ] && [ "${c%%:*}" = perf ] && continue
  for try in 1 2 3; do
    rm -f gmon.out gmon.out.stacks
    cpu=$(LIBPROF_HZ=1000 LIBPROF_CLOCK=${c%%:*} LIBPROF_STACKS=4 ./clk spread 0.5 2> err.txt)
    set -- $(python3 "$here/clock.py" gmon.out "$lo" "$hi")
    grep -qx "clock ${c#*:}" gmon.out.stacks && [ ! -s err.txt ] \
      && awk -v c="$cpu" -v s="$2" 'BEGIN { exit !(s >= 850 * 0.5 && s <= 1150 * c) }' && break
  done
  grep -qx "clock ${c#*:}" gmon.out.stacks && [ ! -s err.txt ] \
    && awk -v c="$cpu" -v s="$2" 'BEGIN { exit !(s >= 850 * 0.5 && s <= 1150 * c) }'
  say $? "LIBPROF_CLOCK=${c%%:*}: 'clock ${c#*:}' in the stack file, $2 samples for a 0.5 s spin, $cpu s of CPU in all, at 1 kHz (425-$(awk -v c="$cpu" 'BEGIN { printf "%d", 1150 * c }'); runs: $try)"
done
# a forked child that execs a program: no clock of libprof's outlives the
# exec (ITIMER_PROF does: re-armed in the child, its SIGPROF, at its
# default in the program exec'd, killed it -- gawk's `cmd | getline`
# under LIBPROF_CLOCK=itimer lost the command's output)
res=""; ok=0
for c in perf timer itimer; do
  [ $perf = 0 ] && [ $c = perf ] && continue
  out=$(LIBPROF_HZ=1000 LIBPROF_CLOCK=$c ./clk exec 0.02)
  res="$res $c:$out"
  [ "$out" = "exit 0" ] || ok=1
done
say $ok "a forked child's exec'd program is not killed by a clock of libprof's (clock:how it ended$res)"
# the program itself execs, after its first 10 ms of CPU: a signal of
# libprof's pending across the exec -- the perf clock's, counting the
# exec's own kernel work, or ITIMER_PROF's, which outlives it -- stays
# pending in the program exec'd, at its default: "Profiling timer
# expired" (perf and itimer at 1 kHz: 10 runs of 10; glibc's runtime
# every time).  libprof's exec functions stop its clocks and take its
# signals first.
res=""; ok=0
for c in perf timer itimer; do
  [ $perf = 0 ] && [ $c = perf ] && continue
  bad=0
  for i in 1 2 3 4 5 6 7 8 9 10; do
    out=$(LIBPROF_HZ=1000 LIBPROF_CLOCK=$c ./clk execself 0.02 2>&1); r=$?
    [ $r = 0 ] && [ "$out" = done ] || { bad=$((bad + 1)); last="status $r"; }
  done
  res="$res $c:$bad"
  [ $bad = 0 ] || ok=1
done
say $ok "a program's own exec: the program exec'd is not killed (clock:runs of 10 that failed$res${last:+; last $last})"
# exec calls that return, and a vfork child's (which shares the parent's
# memory, and clocks: it must not stop them): the search and the script
# as the C library's; the program's clock samples as before
res=""; ok=0
for c in perf timer itimer; do
  [ $perf = 0 ] && [ $c = perf ] && continue
  rm -f gmon.out
  set -- $(PATH=/usr/bin:/bin LIBPROF_HZ=1000 LIBPROF_CLOCK=$c ./clk execfail 0.3 2> err.txt)
  n=$(python3 "$here/clock.py" gmon.out "$lo" "$hi" 2> /dev/null | awk '{print $2}')
  res="$res $c:$*:${n:-none}"
  [ "$1 $2 $3 $4 $5 $6" = "vfork 0 enoent 1 script 7" ] && [ ! -s err.txt ] \
    && awk -v c="$7" -v s="${n:-0}" 'BEGIN { exit !(s >= 850 * c && s <= 1150 * c) }' || ok=1
done
say $ok "exec calls that return, a vfork child's exec: results as the C library's, the clock goes on (clock:results:samples of spread$res)"
# the PATH search of execvp, execlp and execvpe (libprof's own, clocks
# stopped) against the C library's, from a thread on the smallest stack:
# a non-executable file, a directory, empty and too long entries, a name
# too long, a file without #!, the default path, the environment given
cc -O1 "$here/execpath.c" -o ep_plain -lpthread
cc -O1 -pg "$here/execpath.c" -o ep_pg $lp
cc -O1 -pg "$here/execpath.c" -o ep_so -L"$top/libprof/shared" -lprof -lpthread -Wl,-rpath,"$top/libprof/shared"
res=""; ok=0
for b in ep_plain ep_pg ep_so; do
  rm -rf ep.d; mkdir ep.d
  (cd ep.d && LIBPROF_HZ=1000 ../$b > ../$b.out 2> ../$b.err); rc=$?
  res="$res $b:$rc:$(grep -c '^case' $b.out)"
  [ $rc = 0 ] && [ ! -s $b.err ] || ok=1
done
cmp -s ep_plain.out ep_pg.out && cmp -s ep_plain.out ep_so.out || ok=1
say $ok "execvp, execlp, execvpe: 45 PATH searches as the C library's, in a -pg program (static and shared libprof) on a 16 kB thread stack (build:status:cases$res$(diff ep_plain.out ep_pg.out | head -4 | tr '\n' ' ' | sed 's/^./; diff: &/'))"
# no POSIX timer allowed: LIBPROF_CLOCK=timer says so and uses ITIMER_PROF
if command -v prlimit > /dev/null; then
  for try in 1 2 3; do
    rm -f gmon.out; cpu=$(LIBPROF_HZ=1000 LIBPROF_CLOCK=timer prlimit --sigpending=0 ./clk spread 0.5 2> err.txt)
    set -- $(python3 "$here/clock.py" gmon.out "$lo" "$hi")
    grep -qx "libprof: LIBPROF_CLOCK=timer: not available here; using itimer" err.txt \
      && awk -v c="$cpu" -v s="$2" 'BEGIN { exit !(s >= 850 * c && s <= 1150 * c) }' && break
  done
  grep -qx "libprof: LIBPROF_CLOCK=timer: not available here; using itimer" err.txt \
    && awk -v c="$cpu" -v s="$2" 'BEGIN { exit !(s >= 850 * c && s <= 1150 * c) }'
  say $? "LIBPROF_CLOCK=timer with no POSIX timer allowed (RLIMIT_SIGPENDING 0): ITIMER_PROF, said, $2 samples for $cpu s (runs: $try)"
fi
# gprof -i names the clock and the rate from the facts records, for one
# file and for a gmon.sum of two (GNU's -i bytes for files without facts:
# the golden tests)
for c in perf:perf-event timer:posix-timer itimer:itimer; do
  [ $perf = 0 ] && [ "${c%%:*}" = perf ] && continue
  rm -f gmon.out; LIBPROF_HZ=1000 LIBPROF_CLOCK=${c%%:*} ./clk spread 0.05 > /dev/null
  "$G" -i clk gmon.out > info.txt
  grep -qx "	sampled by libprof: clock ${c#*:}, 1000 samples a CPU second" info.txt
  say $? "gprof -i: '$(sed -n 5p info.txt | sed 's/^	//')' (LIBPROF_CLOCK=${c%%:*})"
done
rm -f gmon.out; LIBPROF_HZ=250 ./clk spread 0.05 > /dev/null; mv gmon.out one.out
LIBPROF_HZ=250 ./clk spread 0.05 > /dev/null; "$G" -s clk one.out gmon.out
"$G" -i clk gmon.sum > info.txt
grep -q "^	sampled by libprof: clock [a-z-]*, 250 samples a CPU second, 2 runs$" info.txt
say $? "gprof -i on a gmon.sum of two runs: '$(sed -n 5p info.txt | sed 's/^	//')'"

LIBPROF_CLOCK=fast ./clk spread 0.01 > /dev/null 2> err.txt
grep -q "^libprof: LIBPROF_CLOCK=fast: not perf, timer or itimer" err.txt; say $? "LIBPROF_CLOCK=fast refused with a message"

# threads by any means, 3:1:2 of CPU, main asleep: samples 3:1:2
for c in default timer itimer; do
  [ $c = default ] && unset LIBPROF_CLOCK || export LIBPROF_CLOCK=$c
  rm -f gmon.out; cpu=$(LIBPROF_HZ=1000 ./clk threads 0.5)
  "$G" -b -p clk gmon.out > flat.txt
  a=$(awk '$NF == "work_a" {print $3}' flat.txt); b=$(awk '$NF == "work_b" {print $3}' flat.txt)
  k=$(awk '$NF == "work_c" {print $3}' flat.txt)
  # (ITIMER_PROF is one timer for the process, on the tick, weighed by the
  # process's CPU: every thread sampled, the shares only roughly theirs,
  # measured c/b 1.8-2.7; so for it every thread's samples and the total)
  awk -v a="${a:-0}" -v b="${b:-0}" -v k="${k:-0}" -v c="$cpu" -v it="$([ $c = itimer ] && echo 1 || echo 0)" \
    'BEGIN { exit !(b > 0 && a > 0 && k > 0 && a + b + k >= 0.85 * c && (it ||
                    (a / b >= 2.2 && a / b <= 4.2 && k / b >= 1.4 && k / b <= 2.8))) }'
  say $? "clock $c: pthreads in code without -pg and a raw clone() at 3:1:2 of CPU get ${a:-0} : ${b:-0} : ${k:-0} s (of $cpu s)"
done
unset LIBPROF_CLOCK

# 10,000 live threads started at once: the scan for threads made by other
# means waits for the starts to settle (it read every task under the lock
# the starting threads spin on, and their spinning ticked its timer again:
# 3x the CPU of LIBPROF_HZ=0, and no end under AddressSanitizer)
cc -O1 -pg "$here/many_live.c" -o live $lp 2> /dev/null
cpu_of() { /usr/bin/time -f '%U %S' "$@" 2>&1 > /dev/null | tail -1 | awk '{print $1 + $2}'; }
if [ -x /usr/bin/time ] && [ -x live ]; then
  # a timing on a shared machine: a pair over the bound is measured again,
  # up to three pairs (the fault it guards against was 3x in every run)
  tries=0; tried=""
  while [ $tries -lt 3 ]; do
    tries=$((tries + 1))
    base=$(LIBPROF_HZ=0 cpu_of ./live 10000); withc=$(LIBPROF_HZ=1000 cpu_of timeout 120 ./live 10000)
    tried="$tried ${withc}/${base}"
    awk -v b="$base" -v w="$withc" 'BEGIN { exit !(w != "" && b != "" && w <= 2 * b + 0.5) }' && break
  done
  awk -v b="$base" -v w="$withc" 'BEGIN { exit !(w != "" && b != "" && w <= 2 * b + 0.5) }'
  say $? "10,000 live threads at 1 kHz: ${withc}s of CPU against ${base}s without sampling (at most 2x + 0.5 s; pairs tried:$tried)"
else
  echo "skip 10,000 live threads (no /usr/bin/time)"
fi

# a rate this machine cannot afford: a perf clock's signal costs CPU
# time of its own (50-90 us in a VM here), and at 50 kHz (20 us) the
# program never ran again -- `clk fixed 60` (0.25 s of work) did not end
# in 20 s.  Now the rate asked over 1 kHz is measured against that cost
# at start-up (signals 10% of the CPU at most), said on stderr and used
# as the profile's rate; the work's samples are its CPU time.  With the
# limit off (LIBPROF_HZ_LIMIT=0), a thread whose signals cost their
# period gets a longer one (perf_pace) and ends; LIBPROF_HZ_LIMIT=N is
# a limit of one's own.  (Up to three runs: timing.)
if [ $perf = 1 ]; then
  base=$(LIBPROF_HZ=1000 ./clk fixed 60)
  for try in 1 2 3; do
    rm -f gmon.out; c=$(LIBPROF_HZ=50000 ./clk fixed 60 2> hz.err)
    set -- $(python3 "$here/hist.py" gmon.out "$c")
    said=$(sed -n 's/.*; sampling at \([0-9]*\) Hz .*/\1/p' hz.err)
    { { [ -n "$said" ] && [ "$2" = "$said" ]; } || { [ ! -s hz.err ] && [ "$2" = 50000 ]; }; } \
      && awk -v b="$base" -v c="$c" -v s="$6" 'BEGIN { exit !(c <= 1.5 * b + 0.05 && s >= 0.85 && s <= 1.15) }' && break
  done
  say $? "LIBPROF_HZ=50000: rate $2 (said: ${said:-nothing}), CPU $c s for $base s at 1 kHz (<= 1.5x), sampled share $6 (0.85-1.15): $(cat hz.err)"
  rm -f gmon.out; c=$(LIBPROF_HZ=50000 LIBPROF_HZ_LIMIT=0 timeout 120 ./clk fixed 60 2> hz.err); r=$?
  set -- $(python3 "$here/hist.py" gmon.out "$c" 2> /dev/null)
  { [ ! -s hz.err ] || grep -q "^libprof: a sampling signal cost more than its period here: 1 threads sampled at a lower rate" hz.err; } \
    && [ $r = 0 ] && [ "$2" = 50000 ] && awk -v b="$base" -v c="$c" 'BEGIN { exit !(c <= 20 * b) }'
  say $? "LIBPROF_HZ=50000 LIBPROF_HZ_LIMIT=0: status $r, rate ${2:-none}, CPU ${c:-none} s for $base s (<= 20x): $(cat hz.err)"
  # a thread whose system calls outlast the period (32 MB reads from the
  # page cache, 2-4 ms each) is not taken for one whose signals do: at
  # 1 kHz it was paced down to 250 Hz for good, the 0.3 s spin after the
  # reads included (250-271 signals in all); now 485-490
  head -c 67108864 /dev/zero > big.bin
  cat big.bin > /dev/null
  for try in 1 2 3; do
    rm -f gmon.out; c=$(LIBPROF_HZ=1000 LIBPROF_OVERHEAD=report ./clk bigread 0.3 big.bin 2> hz.err)
    sig=$(sed -n 's/^libprof: clock perf-event: \([0-9]*\) signals.*/\1/p' hz.err)
    ! grep -q "lower rate" hz.err && [ "${sig:-0}" -ge 360 ] && break
  done
  ! grep -q "lower rate" hz.err && [ "${sig:-0}" -ge 360 ]
  say $? "1 kHz, 32 MB reads then a 0.3 s spin: not paced, ${sig:-no} signals for $c s of CPU (>= 360; runs: $try)$(grep "lower rate" hz.err)"
  rm -f big.bin
  rm -f gmon.out; LIBPROF_HZ=5000 LIBPROF_HZ_LIMIT=2000 ./clk fixed 10 > /dev/null 2> hz.err
  set -- $(python3 "$here/hist.py" gmon.out)
  [ "$2" = 2000 ] && [ "$(cat hz.err)" = "libprof: LIBPROF_HZ=5000: over LIBPROF_HZ_LIMIT; sampling at 2000 Hz" ]
  say $? "LIBPROF_HZ_LIMIT=2000 at 5 kHz: rate $2: $(cat hz.err)"
else
  echo "skip the perf clock's highest rate (perf_event_paranoid $par: no perf events for a user)"
fi

# A program that times its own phases (four, of 8.7 : 17.4 : 30.4 : 43.5
# of its CPU time, each in a function of its own, rounds of ~10 ms) with
# the thread's CPU clock: one run's shares at 1 kHz within 2 points of its
# own.  Measured: the default (perf) clock 0.2-0.4 points off at most;
# LIBPROF_CLOCK=itimer 3.4 (and timer 3.0-8.6): four periods a signal, on
# the kernel's 250 Hz tick.  LIBPROF_CLOCK set in the environment runs it
# with that clock (run as 'LIBPROF_CLOCK=itimer sh clock.sh' it fails).
if [ $perf = 1 ] || [ -n "$phase_clock" ]; then
  cc -O1 -pg "$here/phases.c" -o phases $lp
  rm -f gmon.out
  if [ -n "$phase_clock" ]; then LIBPROF_CLOCK=$phase_clock LIBPROF_HZ=1000 ./phases > own.txt
  else LIBPROF_HZ=1000 ./phases > own.txt; fi
  "$G" --json=- phases gmon.out > flat.json
  r=$(python3 - <<'PY'
import json
own = {l.split()[0]: float(l.split()[1]) for l in open("own.txt")}
g = {e["display"]: e.get("self_seconds", 0) for e in json.load(open("flat.json"))["flat_profile"] if e["display"] in own}
so, sg = sum(own.values()), sum(g.values()) or 1
d = max(abs(100 * own[k] / so - 100 * g.get(k, 0) / sg) for k in own)
print("%d %.1f %s" % (d <= 2, d, ", ".join("%s %.1f/%.1f" % (k[6:], 100 * own[k] / so, 100 * g.get(k, 0) / sg) for k in own)))
PY
)
  [ "${r%% *}" = 1 ]; say $? "phases timed by the program itself: one run at 1 kHz (clock ${phase_clock:-default}) within 2 points of its own shares (off by $(echo "$r" | cut -d' ' -f2); own/gprof %: $(echo "$r" | cut -d' ' -f3-))"
else
  echo "skip phases timed by the program itself (perf_event_paranoid $par: no perf events for a user)"
fi
