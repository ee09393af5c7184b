#!/bin/sh
# Instructions per mcount call, libprof against glibc's runtime, on the
# three architectures libprof has stubs for, and on x86-64 for calls in
# a -pg shared library (LIBPROF_OBJECTS=1).
#
# x86-64: counted by valgrind --tool=callgrind, with the share of calls
# that take libprof's slow path (C), on three programs: a call-heavy loop
# (one million calls of one function), the bytecode interpreter and the
# threaded compressor of tests/libprof.  Both runtimes are used as shared
# libraries (mcount reached through the PLT, as glibc's always is); the
# loop is measured with the static archive too (libprof/libprof.a, whose
# mcount callgrind still names: a weak object).
#
# i386 (gcc -m32, when libprof/32/libprof.a is built): the same programs,
# callgrind again, libprof's static archive against glibc's -m32 runtime.
#
# aarch64 (when libprof/aarch64/libprof.a is built and qemu-aarch64 is
# there): qemu-aarch64 -singlestep -d exec,nochain logs one line per
# instruction executed inside the -dfilter ranges; the loop runs N and 2N
# calls and the difference over N is the cost of one call: in _mcount
# alone (the stub, the hit path), in all of libprof's code (the stub and
# C), and in glibc's _mcount and __mcount_internal for a program linked
# without libprof (the loop is built as tests/libprof/cross.sh builds it,
# with x0 = frompc at each call).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "needs valgrind"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/loop.c" <<'C'
static volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }
int main(void) { for (unsigned long i = 0; i < 1000000; i++) leaf(i); return 0; }
C
cp "$top/tests/libprof/interp.c" "$top/tests/libprof/compress.c" "$d/"
# calls into each function and their inclusive instruction count, summed
# over every call site, from a callgrind output file
cat > "$d/calls.py" <<'P'
import re, sys
names, calls, incl = {}, {}, {}
cfn, pending = None, 0
def resolve(s):
    m = re.match(r'\((\d+)\)(?: (.*))?', s.strip())
    if not m: return s.strip()
    if m.group(2): names[m.group(1)] = m.group(2)
    return names.get(m.group(1), '?')
for line in open(sys.argv[1]):
    if line.startswith(('fn=', 'cfn=')):
        n = resolve(line.split('=', 1)[1])
        if line.startswith('cfn='): cfn = n
    elif line.startswith('calls='):
        pending = int(line[6:].split()[0])
    elif pending:
        f = line.split()
        calls[cfn] = calls.get(cfn, 0) + pending
        incl[cfn] = incl.get(cfn, 0) + int(f[1])
        pending = 0
want = sys.argv[2:] or ['mcount', '_mcount']
entry = [n for n in calls if n in want]
c = sum(calls[n] for n in entry); i = sum(incl[n] for n in entry)
slow = calls.get('libprof$mcount_slow', 0)
print("%d %.1f %.4f" % (c, i / c if c else 0, slow / c if c else 0))
P
cd "$d"
# callgrind's counts of a run of "$@", in cg.out.  glibc's runtime puts
# SIGPROF's default action back at exit with its ITIMER_PROF still armed,
# so a program run as slowly as under valgrind now and then dies of SIGPROF
# on its way out (status 155, "Profiling timer expired": 2 runs in 2 of
# interp_glibc here); callgrind has written its counts by then, and they
# stand.  Anything else, or no counts, is a failure.
cg() {
  rm -f cg.out
  valgrind --tool=callgrind --callgrind-out-file=cg.out "$@" > /dev/null 2>&1; s=$?
  [ $s = 0 ] || { [ $s = 155 ] && [ -s cg.out ]; }
}
echo "== x86-64"
for p in loop interp compress; do
  case $p in interp) args=30000;; compress) args=4;; *) args=;; esac
  cc -O2 -pg $p.c -o ${p}_glibc -lpthread
  cc -O2 -pg $p.c -o ${p}_libprof -L"$top/libprof/shared" -lprof -lpthread
  for rt in glibc libprof; do
    [ $rt = glibc ] && g=0
    LD_LIBRARY_PATH="$top/libprof/shared" cg ./${p}_$rt $args \
      || LD_LIBRARY_PATH="$top/libprof/shared" cg ./${p}_$rt $args \
      || { echo "$p: callgrind failed on ${p}_$rt"; continue; }
    set -- $(python3 calls.py cg.out)
    if [ $rt = glibc ]; then g=$2; echo "$p: glibc $1 calls, $2 instructions per call"
    else echo "$p: libprof $1 calls, $2 instructions per call (glibc $g, ratio $(echo "$2 $g" | awk '{printf "%.2f", $2 ? $1 / $2 : 0}')), slow path $(echo "$3" | awk '{printf "%.2f%%", 100 * $1}') of calls"; fi
  done
done
cc -O2 -pg loop.c -o loop_static -L"$top/libprof" -lprof
cg ./loop_static \
  && set -- $(python3 calls.py cg.out) \
  && echo "loop: libprof.a (static) $1 calls, $2 instructions per call"

# calls in a -pg shared library (LIBPROF_OBJECTS=1, libprof.a), which
# reach its trampoline (arch/x86_64/mcount.S), named by callgrind by its
# address: inside the library, and from the program into it.  The
# program is linked without -pg: under valgrind the start-up file's
# __monstartup runs before the environment is there, and would not see
# LIBPROF_OBJECTS; profiling then starts at the first call.
cat > lib.c <<'C'
static volatile unsigned long sink;
__attribute__((noinline)) void lleaf(unsigned long i) { sink += i; }
void lloop(void) { for (unsigned long i = 0; i < 1000000; i++) lleaf(i); }
C
cat > lib2.c <<'C'
void lleaf(unsigned long);
void qloop(void) { for (unsigned long i = 0; i < 1000000; i++) lleaf(i); }
C
cat > libmain.c <<'C'
void lloop(void); void qloop(void); void lleaf(unsigned long);
int main(int argc, char **argv)
{
  if (argc == 1) lloop();
  else if (argv[1][0] == 'p') for (unsigned long i = 0; i < 1000000; i++) lleaf(i);
  else qloop();
  return 0;
}
C
# libcases CC-FLAGS ARCHIVE-DIR LABEL: the three cases, built and counted
libcases() {
  cc $1 -O2 -pg -fPIC -shared lib.c -o liblp.so
  cc $1 -O2 -pg -fPIC -shared lib2.c -o liblq.so -L. -llp
  cc $1 -O2 -pg -c libmain.c -o libmain.o && cc $1 libmain.o -o libmain -L. -llp -llq -L"$2" -lprof -Wl,-rpath,"$d"
  tr=0x$(nm libmain | awk '$3 == "libprof$tramp_mc" {print $1}')
  for where in "inside the library" "from the program into it" "from another library into it"; do
    rm -f cg.out
    case $where in inside*) set --;; *program*) set -- p;; *) set -- q;; esac
    LIBPROF_OBJECTS=1 valgrind --tool=callgrind --callgrind-out-file=cg.out ./libmain "$@" > /dev/null 2>&1 \
      && set -- $(python3 calls.py cg.out "$tr") \
      && echo "library$3: libprof.a, LIBPROF_OBJECTS=1, calls $where: $1 calls, $2 instructions per call"
  done
}
libcases "" "$top/libprof" ""

if [ -f "$top/libprof/32/libprof.a" ] && cc -m32 loop.c -o loop32 2> /dev/null && ./loop32; then
  echo "== i386"
  for p in loop interp compress; do
    case $p in interp) args=30000;; compress) args=4;; *) args=;; esac
    cc -m32 -O2 -pg $p.c -o ${p}32_glibc -lpthread
    cc -m32 -O2 -pg $p.c -o ${p}32_libprof -L"$top/libprof/32" -lprof -lpthread
    for rt in glibc libprof; do
      [ $rt = glibc ] && g=0
      cg ./${p}32_$rt $args || cg ./${p}32_$rt $args \
        || { echo "$p: callgrind failed on ${p}32_$rt"; continue; }
      set -- $(python3 calls.py cg.out)
      if [ $rt = glibc ]; then g=$2; echo "$p: glibc $1 calls, $2 instructions per call"
      else echo "$p: libprof $1 calls, $2 instructions per call (glibc $g, ratio $(echo "$2 $g" | awk '{printf "%.2f", $2 ? $1 / $2 : 0}'))"; fi
    done
  done
fi

if [ -f "$top/libprof/32/libprof.a" ] && [ -x loop32 ]; then
  # the same three library cases on i386 (its trampolines and library
  # path, arch/i386/mcount.S; from another library, C)
  libcases -m32 "$top/libprof/32" " (i386)"
fi

A64CC=${A64CC:-$(sed -n 's/^A64CC = //p' "$top/Makefile" 2>/dev/null)}
if [ -f "$top/libprof/aarch64/libprof.a" ] && [ -n "$A64CC" ] && command -v qemu-aarch64 > /dev/null; then
  echo "== aarch64 (qemu-aarch64 -singlestep)"
  cat > loopn.c <<'C'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i; }
int main(int argc, char **argv) { unsigned long n = strtoul(argv[1], 0, 10); for (unsigned long i = 0; i < n; i++) leaf(i); return 0; }
C
  if $A64CC -O2 -pg -S loopn.c -o - | grep -B1 'bl[[:space:]]*_mcount' | grep -q 'mov[[:space:]]*x0, *x30'; then
    $A64CC -O2 -pg -S loopn.c -o loopn.s
  else
    $A64CC -O2 -pg -S loopn.c -o - | sed 's/^\([[:space:]]*\)bl[[:space:]]*_mcount$/\1mov\tx0, x30\n\1bl\t_mcount/' > loopn.s
  fi
  $A64CC -pg -static loopn.s -o loopn_libprof -L"$top/libprof/aarch64" -lprof
  $A64CC -pg -static loopn.s -o loopn_glibc
  nmr() { # binary symbol... -> qemu -dfilter ranges start+size
    aarch64-linux-gnu-nm -S "$@" 2>/dev/null || llvm-nm -S "$@"; }
  range() { f=$1; shift; for s in "$@"; do nmr "$f" | awk -v s="$s" '$NF == s && NF == 4 {printf "0x%s+0x%s,", $1, $2}'; done | sed 's/,$//'; }
  percall() { # binary ranges -> instructions per call in the ranges
    n=20000
    qemu-aarch64 -singlestep -d exec,nochain -dfilter "$2" -D q1.log "./$1" $n
    qemu-aarch64 -singlestep -d exec,nochain -dfilter "$2" -D q2.log "./$1" $((2 * n))
    echo "$(wc -l < q1.log) $(wc -l < q2.log) $n" | awk '{printf "%.1f", ($2 - $1) / $3}'
  }
  stub=$(range loopn_libprof _mcount)
  all=$(nmr loopn_libprof | awk '$NF == "libprof$text_begin" {b = $1} $NF == "libprof$text_end" {e = $1} END {printf "0x%s..0x%s", b, e}')
  glibc=$(range loopn_glibc _mcount __mcount_internal)
  echo "loop: libprof $(percall loopn_libprof "$stub") instructions per call in the stub, $(percall loopn_libprof "$all") in all of libprof; glibc $(percall loopn_glibc "$glibc")"
  # calls in -pg shared libraries (LIBPROF_OBJECTS=1): the instructions
  # in libprof's assembly (the stub, the library path, the trampolines;
  # all of libprof would count the poller's scans too, whose number grows
  # with the run's time), the program linked -no-pie so that its ranges
  # are the link's
  a64() { $A64CC -O2 -pg "$@" | sed 's/^\([[:space:]]*\)bl[[:space:]]*_mcount$/\1mov\tx0, x30\n\1bl\t_mcount/'; }
  sed 's/1000000/n/; s/lloop(void)/lloop(unsigned long n)/' lib.c > libn.c
  sed 's/1000000/n/; s/qloop(void)/qloop(unsigned long n)/' lib2.c > lib2n.c
  cat > mainn.c <<'C'
#include <stdlib.h>
void lloop(unsigned long); void qloop(unsigned long); void lleaf(unsigned long);
int main(int argc, char **argv)
{
  unsigned long n = strtoul(argv[2], 0, 10);
  if (argv[1][0] == 'l') lloop(n);
  else if (argv[1][0] == 'p') for (unsigned long i = 0; i < n; i++) lleaf(i);
  else qloop(n);
  return 0;
}
C
  a64 -fPIC -S libn.c -o - > libn.s && $A64CC -shared libn.s -o liblp64.so
  a64 -fPIC -S lib2n.c -o - > lib2n.s && $A64CC -shared lib2n.s -o liblq64.so -L. -llp64
  a64 -S mainn.c -o - > mainn.s && $A64CC -pg -no-pie mainn.s -o mainn -L. -llp64 -llq64 -L"$top/libprof/aarch64" -lprof -Wl,-rpath,"$d"
  b=$(nmr mainn | awk '$NF == "libprof$text_begin" {print $1}'); t=$(nmr mainn | awk '$NF == "libprof$tramp_mc" {print $1}')
  asm=$(printf '0x%s..0x%x' "$b" $((0x$t + 8 * 128)))
  for m in l p q; do
    n=20000
    LIBPROF_OBJECTS=1 qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d exec,nochain -dfilter "$asm" -D q1.log ./mainn $m $n
    LIBPROF_OBJECTS=1 qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d exec,nochain -dfilter "$asm" -D q2.log ./mainn $m $((2 * n))
    case $m in l) where="inside the library";; p) where="from the program into it";; q) where="from another library into it (then C)";; esac
    echo "library (aarch64): LIBPROF_OBJECTS=1, calls $where: $(echo "$(wc -l < q1.log) $(wc -l < q2.log) $n" | awk '{printf "%.1f", ($2 - $1) / $3}') instructions per call in libprof's assembly"
  done
fi
