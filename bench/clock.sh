#!/bin/sh
# The sampling clocks' cost (issue 34): CPU time (user + system) of an
# interpreter (tests/libprof/interp.c) and a threaded compressor
# (tests/libprof/compress.c) built with -pg against libprof, over the
# plain build's, at LIBPROF_HZ=100 and 1000 for each LIBPROF_CLOCK
# (perf, timer, itimer) side by side; with OLD_LIBPROF=DIR (a tree whose
# libprof/libprof.a is an older libprof, e.g. main's), that one too.
# Medians over the rounds (runs interleaved); also the signals per CPU
# second and the samples each carried (LIBPROF_OVERHEAD=report).
# Then bench/clockprobe.c: the interval between signals of each kernel
# clock at 1 kHz, as a histogram (what "1000 Hz" is with each).
#
# Usage: bench/clock.sh [rounds [interp-N [compress-blocks]]]   (default 5 300000 24)
# The machine's load moves every figure: say how loaded it was.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}; n_interp=${2:-300000}; n_comp=${3:-24}
[ -f "$top/libprof/libprof.a" ] || { echo "clock.sh: build the tree first (./configure && make)" >&2; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
for p in interp compress; do
  cc -O2 "$top/tests/libprof/$p.c" -o ${p}_plain -lpthread
  cc -O2 -pg "$top/tests/libprof/$p.c" -o ${p}_libprof -L"$top/libprof" -lprof -lpthread
  [ -n "$OLD_LIBPROF" ] && cc -O2 -pg "$top/tests/libprof/$p.c" -o ${p}_old -L"$OLD_LIBPROF/libprof" -lprof -lpthread
done
cc -O2 "$top/bench/clockprobe.c" -o clockprobe
python3 - "$rounds" "$n_interp" "$n_comp" "${OLD_LIBPROF:+old}" <<'PY'
import os, re, resource, subprocess, sys, statistics
rounds, ni, nc, old = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] == 'old'
progs = [('interp', ni), ('compress', nc)]
confs = [('plain', None, None)]
for hz in (100, 1000):
    if old: confs.append(('old', 'main', hz))
    for c in ('perf', 'timer', 'itimer'): confs.append(('libprof', c, hz))
res = {}
def run(prog, arg, kind, clock, hz):
    env = dict(os.environ)
    env.pop('LIBPROF_CLOCK', None)
    if clock and clock != 'main': env['LIBPROF_CLOCK'] = clock
    if hz: env['LIBPROF_HZ'] = str(hz); env['LIBPROF_OVERHEAD'] = 'report'
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(['./%s_%s' % (prog, kind), arg], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    m = re.search(r'clock [^:]*: (\d+) signals carried (\d+) samples', p.stderr)
    return cpu, (int(m.group(1)), int(m.group(2))) if m else None
for r in range(rounds):
    for prog, arg in progs:
        order = confs[r % len(confs):] + confs[:r % len(confs)]
        for conf in order:
            res.setdefault((prog,) + conf, []).append(run(prog, arg, *conf))
for prog, arg in progs:
    base = statistics.median(c for c, _ in res[(prog, 'plain', None, None)])
    print('%s %s: plain build %.3f s CPU (median of %d)' % (prog, arg, base, rounds))
    print('  %-7s %-7s %5s  %8s  %9s  %8s  %s' % ('clock', 'hz', '', 'CPU s', 'over', 'sig/s', 'samples/signal'))
    for conf in confs[1:]:
        v = res[(prog,) + conf]
        cpu = statistics.median(c for c, _ in v)
        sig = [s for _, s in v if s]
        rate = statistics.median(s[0] / c for c, s in v if s) if sig else float('nan')
        per = statistics.median(s[1] / max(s[0], 1) for s in sig) if sig else float('nan')
        name = 'today' if conf[0] == 'old' else conf[1]
        print('  %-7s %-7s %5s  %8.3f  %8.1f%%  %8.0f  %.2f' % (name, conf[2], '', cpu, 100 * (cpu / base - 1), rate, per))
PY
echo
for c in itimer posix perf; do ./clockprobe $c 1000 1; done
