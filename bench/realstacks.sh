#!/bin/sh
# Stacks on real programs (issue 31's closing figures): jq 1.6 against
# Debian's libonig (no frame pointers) and xz against a -pg liblzma, each
# built from Debian's source twice -- with -pg and libprof, and without
# -pg (same flags otherwise) for perf --call-graph=dwarf.  Prints, per
# program: the share of samples rooted at _start, the inclusive time of
# the top ten functions by libprof's stacks (three runs) beside perf's,
# the overhead of stacks (64 frames against none, 100 Hz and 1 kHz,
# interleaved, medians) and writes a --flame SVG of each.
#
# perf also runs on the -pg builds (realstacks.py leaves out its samples
# in mcount there): the walks compared on the same code.
# Usage: bench/realstacks.sh [WORKDIR [ROUNDS]]   (default a temporary
# directory, kept; 5 overhead rounds).  STEPS="1 2 3 4" (default) picks
# libprof's runs, perf's, the figures, the overhead.  Needs: dpkg-dev and a deb-src
# line (apt-get source jq xz-utils), libonig-dev, autoconf, automake,
# libtool, bison, flex, perf able to record (perf_event_paranoid <= 2)
# and python3.  Not part of make check: it downloads and builds sources.
# BUILD=0 skips the builds (a build whose binary exists is kept anyway).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
w=${1:-$(mktemp -d)}; rounds=${2:-5}
mkdir -p "$w"; cd "$w"
[ -f "$top/libprof/libprof.a" ] || { echo "realstacks.sh: build the tree first (./configure && make)" >&2; exit 1; }
lp="-L$top/libprof -lprof"
gprof="$top/gprof"
log() { echo "realstacks: $*" >&2; }

if [ "${BUILD:-1}" = 1 ]; then
  [ -d src/jq-1.6 ] || { mkdir -p src; (cd src && apt-get source jq > /dev/null); }
  [ -d src/xz-utils-5.4.1 ] || (cd src && apt-get source xz-utils > /dev/null)
  jqsrc=$(ls -d "$w"/src/jq-1.6); xzsrc=$(ls -d "$w"/src/xz-utils-*/)
  # jq: -pg with libprof, and plain; both against the system's libonig
  for v in pg plain; do
    [ -x jq-$v/jq ] && continue
    rm -rf jq-$v; cp -r "$jqsrc" jq-$v
    if [ $v = pg ]; then cf="-O2 -g -pg"; libs="$lp"; else cf="-O2 -g"; libs=""; fi
    log "building jq ($v)"
    (cd jq-$v && rm -rf modules/oniguruma && autoreconf -fi > /dev/null 2>&1 \
      && ./configure --disable-docs --disable-maintainer-mode --with-oniguruma=yes --disable-shared \
           CFLAGS="$cf" LIBS="$libs" > ../jq-$v.log 2>&1 \
      && make -j2 >> ../jq-$v.log 2>&1) || { log "jq ($v) failed: see $w/jq-$v.log"; exit 1; }
  done
  # xz: liblzma shared with -pg (its mcount calls resolved in the
  # program), xz linked to it and to libprof; and both plain
  for v in pg plain; do
    [ -x xz-$v/src/xz/.libs/xz ] && continue
    rm -rf xz-$v; cp -r "$xzsrc" xz-$v
    if [ $v = pg ]; then cf="-O2 -g -pg"; libs="$lp -pthread"; else cf="-O2 -g"; libs="-pthread"; fi
    log "building xz ($v)"
    (cd xz-$v && ./configure --disable-static --enable-shared --disable-doc --disable-nls \
           --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-scripts --disable-lzma-links \
           CFLAGS="$cf" > ../xz-$v.log 2>&1 \
      && make -j2 -C src/liblzma >> ../xz-$v.log 2>&1 && make -j2 -C src/xz LIBS="$libs" >> ../xz-$v.log 2>&1) \
      || { log "xz ($v) failed: see $w/xz-$v.log"; exit 1; }
  done
fi
JQPG=$w/jq-pg/jq; JQ=$w/jq-plain/jq
XZPG=$w/xz-pg/src/xz/.libs/xz; XZ=$w/xz-plain/src/xz/.libs/xz
XZPGLIB=$w/xz-pg/src/liblzma/.libs; XZLIB=$w/xz-plain/src/liblzma/.libs

# Inputs: a JSON file for a regex-heavy jq filter; 40 MB of mixed text
# for xz (compressible, not trivially)
[ -f input.json ] || python3 - <<'PY'
import json, random
random.seed(31)
words = ["alpha", "beta", "gamma", "delta", "error", "warning", "info", "debug", "user", "admin"]
with open("input.json", "w") as f:
    for i in range(240000):
        f.write(json.dumps({"id": i, "msg": " ".join(random.choice(words) + str(random.randint(0, 999)) for _ in range(12)),
            "host": "node-%d.example-%d.org" % (random.randint(0, 99), random.randint(0, 9)),
            "date": "2026-%02d-%02dT%02d:%02d:%02d" % (random.randint(1, 12), random.randint(1, 28), random.randint(0, 23), random.randint(0, 59), random.randint(0, 59))}) + "\n")
PY
[ -f input.bin ] || python3 - <<'PY'
import random
random.seed(31)
words = [bytes(random.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(random.randint(2, 9))) for _ in range(5000)]
out = bytearray()
while len(out) < 40 << 20:
    if random.random() < 0.1:
        out += random.randbytes(32)
    out += b" ".join(random.choice(words) for _ in range(16)) + b"\n"
open("input.bin", "wb").write(out)
PY
cat > filter.jq <<'JQ'
select(.msg | test("(error|warning)[0-9]+ .*admin[0-9]*"))
| .host | capture("node-(?<n>[0-9]+)\\.example-(?<d>[0-9])") | .n + .d
JQ
# one command line per program, run as: sh -c "$cmd" (libprof writes gmon.out in the cwd)
jq_cmd() { echo "$1 -c -f filter.jq input.json > /dev/null"; }
xz_cmd() { echo "$1 -1 -T1 -c input.bin > /dev/null"; }
LD_LIBRARY_PATH=$XZPGLIB; export LD_LIBRARY_PATH

# 1. libprof: three runs each at 1 kHz with 64-frame stacks (STEPS: which
# of 1 2 3 4 to run, default all)
steps=${STEPS:-1 2 3 4}
for p in $(case " $steps " in *" 1 "*) echo jq xz;; esac); do
  if [ $p = jq ]; then cmd=$(jq_cmd "$JQPG"); exe=$JQPG; else cmd=$(xz_cmd "$XZPG"); exe=$XZPG; fi
  for r in 1 2 3; do
    rm -rf run-$p-$r; mkdir run-$p-$r
    rm -rf gmon.out gmon.out.*; LIBPROF_STACKS=64 LIBPROF_OBJECTS=1 LIBPROF_HZ=1000 sh -c "$cmd"
    mv gmon.out gmon.out.* run-$p-$r/
    "$gprof" -b --objects --stack-times "$exe" run-$p-$r/gmon.out > run-$p-$r/stack-times.txt 2> run-$p-$r/err.txt
    "$gprof" --objects --folded=run-$p-$r/folded.txt "$exe" run-$p-$r/gmon.out > /dev/null 2>> run-$p-$r/err.txt
  done
  "$gprof" --objects --flame=flame-$p.svg "$exe" run-$p-1/gmon.out > /dev/null 2>/dev/null
done

# 2. perf on the builds without -pg, same input (DWARF unwinding, 16 KB
# of stack a sample); and on the -pg builds (realstacks.py leaves out
# the samples in mcount there, as libprof leaves out its own)
for p in $(case " $steps " in *" 2 "*) echo jq xz;; esac); do
  for v in plain pg; do
    if [ $p = jq ]; then
      cmd=$(jq_cmd "$([ $v = pg ] && echo "$JQPG" || echo "$JQ")")
    else
      cmd=$(xz_cmd "$([ $v = pg ] && echo "$XZPG" || echo "$XZ")")
      export LD_LIBRARY_PATH=$([ $v = pg ] && echo "$XZPGLIB" || echo "$XZLIB")
    fi
    if [ $v = pg ]; then o=perf-$p-pg; else o=perf-$p; fi
    perf record -q -F 1000 -e cpu-clock --call-graph=dwarf,16384 -o $o.data -- sh -c "$cmd" 2> $o.err
    perf script --no-inline -i $o.data -F comm,ip,sym,dso 2> /dev/null > $o.script
    rm -f gmon.out; rm -rf gmon.out.*
  done
done
export LD_LIBRARY_PATH=$XZPGLIB

# 3. the figures: rooted share and top-ten inclusive, from folded stacks
case " $steps " in *" 3 "*) python3 "$top/bench/realstacks.py" "$w";; esac

# 4. overhead: stacks at 64 against none, 100 Hz and 1 kHz, interleaved
case " $steps " in *" 4 "*) ;; *) exit 0;; esac
python3 - "$rounds" "$(jq_cmd "$JQPG")" "$(xz_cmd "$XZPG")" <<'PY'
import os, resource, shutil, statistics, subprocess, sys
rounds = int(sys.argv[1]); progs = [("jq", sys.argv[2]), ("xz", sys.argv[3])]
def run(cmd, env):
    for f in os.listdir('.'):
        if f.startswith('gmon.out'): shutil.rmtree(f) if os.path.isdir(f) else os.remove(f)
    pid = os.fork()
    if pid == 0:
        os.execve('/bin/sh', ['sh', '-c', cmd], dict(os.environ, **env))
    _, status, ru = os.wait4(pid, 0)
    assert status == 0, (cmd, status)
    return ru.ru_utime + ru.ru_stime
print("\noverhead (CPU s, user+system, %d interleaved rounds; medians, [min-max])" % rounds)
print("%-4s %5s %-7s %9s %17s %8s" % ("prog", "rate", "stacks", "CPU med", "range", "extra"))
for name, cmd in progs:
    for hz in (100, 1000):
        kinds = [("none", {"LIBPROF_HZ": str(hz), "LIBPROF_OBJECTS": "1"}),
                 ("64", {"LIBPROF_HZ": str(hz), "LIBPROF_OBJECTS": "1", "LIBPROF_STACKS": "64"})]
        res = {k: [] for k, _ in kinds}
        for r in range(rounds):
            for k, env in (kinds if r % 2 == 0 else kinds[::-1]):
                res[k].append(run(cmd, env))
        med = {k: statistics.median(v) for k, v in res.items()}
        for k, v in res.items():
            extra = "" if k == "none" else "%+.2f%%" % ((med[k] / med["none"] - 1) * 100)
            print("%-4s %5d %-7s %9.3f %8.3f-%-8.3f %8s" % (name, hz, k, med[k], min(v), max(v), extra))
PY
log "work directory: $w (flame-jq.svg, flame-xz.svg)"
