#!/bin/sh
# Instructions per mcount call, libprof against glibc's runtime, counted by
# valgrind --tool=callgrind, and the share of calls that take libprof's
# slow path (C), on three programs: a call-heavy loop (one million calls
# of one function), the bytecode interpreter and the threaded compressor
# of tests/libprof.  Both runtimes are used as shared libraries (mcount
# reached through the PLT, as glibc's always is), so callgrind sees
# libprof's function names, which its static archive hides.
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
entry = [n for n in calls if n in ('mcount', '_mcount')]
c = sum(calls[n] for n in entry); i = sum(incl[n] for n in entry)
slow = calls.get('libprof$mcount_slow', 0)
print("%d %.1f %.4f" % (c, i / c if c else 0, slow / c if c else 0))
P
cd "$d"
for p in loop interp compress; do
  case $p in interp) args=30000;; compress) args=4;; *) args=;; esac
  cc -O2 -pg $p.c -o ${p}_glibc -lpthread
  cc -O2 -pg $p.c -o ${p}_libprof -L"$top/libprof/shared" -lprof -lpthread
  for rt in glibc libprof; do
    [ $rt = glibc ] && g=0
    rm -f cg.out
    # glibc's runtime now and then crashes a threaded program under
    # valgrind: one more try
    LD_LIBRARY_PATH="$top/libprof/shared" valgrind --tool=callgrind --callgrind-out-file=cg.out ./${p}_$rt $args > /dev/null 2>&1 \
      || LD_LIBRARY_PATH="$top/libprof/shared" valgrind --tool=callgrind --callgrind-out-file=cg.out ./${p}_$rt $args > /dev/null 2>&1 \
      || { echo "$p: callgrind failed on ${p}_$rt"; continue; }
    set -- $(python3 calls.py cg.out)
    if [ $rt = glibc ]; then g=$2; echo "$p: glibc $1 calls, $2 instructions per call"
    else echo "$p: libprof $1 calls, $2 instructions per call (glibc $g, ratio $(echo "$2 $g" | awk '{printf "%.2f", $2 ? $1 / $2 : 0}')), slow path $(echo "$3" | awk '{printf "%.2f%%", 100 * $1}') of calls"; fi
  done
done
