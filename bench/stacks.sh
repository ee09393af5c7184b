#!/bin/sh
# The cost of real stacks (issue 23): each program built with -pg against
# libprof, run in turn without stacks and with LIBPROF_STACKS=64, at
# 100 Hz and at 1 kHz, ROUNDS times (the order rotated from round to
# round).  Printed per program and rate: CPU seconds (user + system) of
# each, medians and least, the extra CPU of stacks (ratio of medians), the
# stack file's size, distinct stacks, and the peak resident memory of
# each (ru_maxrss, medians).
# Programs: tests/libprof/interp.c (a bytecode interpreter: deep dispatch,
# many small functions, qsort calling back), tests/libprof/compress.c
# (four threads of LZ77), tests/libprof/unwind_z.c (libz and libbz2,
# when their headers are installed), and Lua 5.4 built -pg from $TVD_LUA_SRC when set
# (a source tree of Debian's lua5.4) running bench/tvd.lua.  (Rates above
# the kernel's tick, 250 Hz here, arrive as fewer signals each standing
# for several samples: at 1 kHz a stack is walked about 250 times a
# second per thread.)
# Usage: bench/stacks.sh [rounds [interp-N [compress-blocks]]]  (default 7 600000 96)
# About 6 minutes at the defaults on 2 cores (with Lua).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-7}; n_interp=${2:-600000}; n_comp=${3:-96}
[ -f "$top/libprof/libprof.a" ] || { echo "stacks.sh: build the tree first (./configure && make)" >&2; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
lp="-L$top/libprof -lprof"
cc -O2 -g -pg "$top/tests/libprof/interp.c" -o interp $lp
cc -O2 -g -pg "$top/tests/libprof/compress.c" -o compress $lp -lpthread
progs="interp:$n_interp compress:$n_comp"
# (and a program whose work runs in Debian's libz and libbz2, no frame
# pointers: the walk by unwind tables, tests/libprof/unwind_z.c)
cc -O2 -g -pg "$top/tests/libprof/unwind_z.c" -o unwind_z $lp -lz -lbz2 2> /dev/null && progs="$progs unwind_z:4"
if [ -n "$TVD_LUA_SRC" ] && [ -d "$TVD_LUA_SRC/src" ]; then
  # Debian's patched luaconf.h includes a generated header
  echo "#define DEB_HOST_MULTIARCH \"$(gcc -print-multiarch)\"" > lua5.4-deb-multiarch.h
  cc -O2 -g -pg -I. -DLUA_USE_LINUX $(ls "$TVD_LUA_SRC"/src/*.c | grep -v '/luac\.c$') -o lua $lp -lm -ldl \
    && cp "$top/bench/tvd.lua" . && progs="$progs lua:tvd.lua"
fi
python3 - "$rounds" $progs <<'PY'
import os, resource, statistics, subprocess, sys, time
rounds = int(sys.argv[1])
progs = [p.split(':', 1) for p in sys.argv[2:]]
def run(prog, arg, env):
    for f in os.listdir('.'):
        if f.startswith('gmon.out'): os.remove(f)
    e = dict(os.environ, **env)
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY); os.dup2(fd, 1)
        os.execve('./' + prog, ['./' + prog, arg], e)
    _, status, ru = os.wait4(pid, 0)
    assert status == 0, (prog, status)
    size = os.path.getsize('gmon.out.stacks') if os.path.exists('gmon.out.stacks') else 0
    n = sum(1 for l in open('gmon.out.stacks') if l.startswith('stack ')) if size else 0
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss, size, n
print("%-9s %5s %-7s %9s %9s %10s %11s %8s" % ("program", "rate", "stacks", "CPU med", "CPU min", "extra", "file bytes", "RSS KB"))
for prog, arg in progs:
    for hz in (100, 1000):
        kinds = [("off", {"LIBPROF_HZ": str(hz)}), ("64", {"LIBPROF_HZ": str(hz), "LIBPROF_STACKS": "64"})]
        res = {k: [] for k, _ in kinds}
        for r in range(rounds):
            order = kinds if r % 2 == 0 else kinds[::-1]
            for k, env in order:
                res[k].append(run(prog, arg, env))
        med = {k: statistics.median(x[0] for x in v) for k, v in res.items()}
        for k, v in res.items():
            extra = "" if k == "off" else "%+.2f%%" % ((med[k] / med["off"] - 1) * 100)
            print("%-9s %5d %-7s %9.3f %9.3f %10s %11d %8d   %s" % (prog, hz, k, med[k], min(x[0] for x in v), extra,
                  int(statistics.median(x[2] for x in v)), int(statistics.median(x[1] for x in v)),
                  "" if k == "off" else "%d distinct stacks" % int(statistics.median(x[3] for x in v))))
PY
