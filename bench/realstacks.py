#!/usr/bin/env python3
"""realstacks.py WORKDIR: the figures of bench/realstacks.sh from its
files: for jq and xz, libprof's runs (run-P-R/folded.txt, gprof --folded)
and perf's (perf-P.script, perf script -F comm,ip,sym,dso with DWARF
call chains).  Prints per program: the share of samples rooted at the
thread's first frame (_start, or a thread's start: clone/clone3) for each
libprof run and for perf, then the inclusive share (samples whose stack
holds the function, once per stack) of the top ten functions by perf,
beside each libprof run's, the spread and the difference of the median
to perf, then libprof's own top ten.  Names: a library's function as
"name [object]" in gprof's output and "name (object)" in perf's are
compared by the bare name."""
import collections, os, re, statistics, sys

ROOTS = ('_start', 'clone', 'clone3', '__clone', '__clone3')

def bare(name):
    name = re.sub(r' \[[^\]]*\]$', '', name)
    name = re.sub(r'@@?[A-Z_0-9.]+$', '', name)
    name = {'__libc_start_main_impl': '__libc_start_main'}.get(name, name)
    return re.sub(r'\+0x[0-9a-f]+$', '', name)

def func_ranges(exe):
    """the [lo, hi) of every sized function of EXE (nm), sorted"""
    import subprocess
    out = subprocess.run(['nm', '-S', '--defined-only', exe], capture_output=True, text=True).stdout
    r = []
    for l in out.split('\n'):
        f = l.split()
        if len(f) == 4 and f[2] in 'tTwW':
            r.append((int(f[0], 16), int(f[0], 16) + int(f[1], 16)))
    return sorted(r)

def in_ranges(r, a):
    import bisect
    i = bisect.bisect_right(r, (a, float('inf'))) - 1
    return i >= 0 and r[i][0] <= a < r[i][1]

def read_folded(path):
    """[(frames root first, count)] from gprof --folded"""
    out = []
    for l in open(path):
        l = l.rstrip('\n')
        if not l: continue
        st, _, n = l.rpartition(' ')
        out.append(([bare(f) for f in st.split(';')], int(n)))
    return out

def read_perf(path, exe=None):
    """[(frames root first, 1)] from perf script: a header line, then one
    line per frame (leaf first), a blank line.  Inlined frames (perf's
    "(inlined)") are left out: the stacks of libprof hold real frames.
    With EXE (a -pg build), samples whose leaf lies in EXE outside every
    sized function -- libprof's mcount, whose local names are stripped
    -- are left out, as libprof leaves out its own samples."""
    ranges = func_ranges(exe) if exe else None
    out, cur, skip = [], None, False
    def flush():
        if cur is not None and not skip: out.append((cur[::-1], 1))
    for l in open(path, errors='replace'):
        l = l.rstrip('\n')
        if not l.strip():
            flush(); cur = None
            continue
        if not l.startswith(('\t', ' ')):
            flush(); cur, skip = [], False
            continue
        f = l.split(None, 1)
        if cur is None or len(f) < 2: continue
        m = re.match(r'(.*) \(([^)]*)\)$', f[1])
        sym, dso = (m.group(1).strip(), m.group(2)) if m else (f[1].strip(), '')
        if ranges is not None and not cur and (sym in ('mcount', '_mcount', '__fentry__') or (
                os.path.realpath(dso) == os.path.realpath(exe) and not in_ranges(ranges, int(f[0], 16)))):
            skip = True
        if dso == 'inlined': continue
        cur.append(bare(sym) if sym != '[unknown]' else '[unknown]')
    flush()
    return out

def facts(stacks):
    total = sum(n for _, n in stacks)
    rooted = sum(n for s, n in stacks if s and s[0] in ROOTS)
    global through_main
    through_main = sum(n for s, n in stacks if 'main' in s)
    incl = collections.Counter()
    for s, n in stacks:
        for f in set(s):
            if f.startswith('['): continue
            incl[f] += n
    return total, rooted, {f: 100.0 * c / total for f, c in incl.items()} if total else {}, through_main

w = sys.argv[1]
for p in ('jq', 'xz'):
    runs = []
    for r in (1, 2, 3):
        path = os.path.join(w, 'run-%s-%d' % (p, r), 'folded.txt')
        if os.path.exists(path): runs.append(facts(read_folded(path)))
    pf = os.path.join(w, 'perf-%s.script' % p)
    perf = facts(read_perf(pf)) if os.path.exists(pf) else None
    pfg = os.path.join(w, 'perf-%s-pg.script' % p)
    exe = os.path.join(w, 'jq-pg/jq') if p == 'jq' else os.path.join(w, 'xz-pg/src/xz/.libs/xz')
    perfpg = facts(read_perf(pfg, exe)) if os.path.exists(pfg) else None
    print('\n== %s ==' % p)
    print('rooted at _start or a thread start:')
    line = lambda what, x: print('  %-40s %6.2f%% (%d of %d samples; through main %.2f%%)' % (what, 100.0 * x[1] / x[0], x[1], x[0], 100.0 * x[3] / x[0]))
    for i, x in enumerate(runs):
        line('libprof run %d:' % (i + 1), x)
    if perf: line('perf --call-graph=dwarf:', perf)
    if perfpg: line('perf, -pg build, mcount left out:', perfpg)
    if not perf or not runs: continue
    print('inclusive time, the top ten by perf (%):')
    print('  %-30s %6s %6s %6s %6s %6s %6s %8s %6s %8s' % ('function', 'run 1', 'run 2', 'run 3', 'median', 'spread', 'perf', '(diff)', 'perfpg', '(diff)'))
    top = sorted(perf[2].items(), key=lambda x: -x[1])
    shown = [f for f, _ in top if f not in ROOTS][:10]
    for f in shown:
        v = [r[2].get(f, 0.0) for r in runs]
        m = statistics.median(v)
        pg = perfpg[2].get(f, 0.0) if perfpg else float('nan')
        print('  %-30s %s %6.2f %6.2f %6.2f %8s %6.2f %8s' % (f[:30], ' '.join('%6.2f' % x for x in v + [0.0] * (3 - len(v))),
              m, max(v) - min(v), perf[2][f], '(%+.2f)' % (m - perf[2][f]), pg, '(%+.2f)' % (m - pg)))
    print("libprof's own top ten (run 1), perf and perf on the -pg build beside:")
    for f, x in sorted(runs[0][2].items(), key=lambda x: -x[1])[:12]:
        if f in ROOTS: continue
        print('  %-30s %6.2f %6.2f %6.2f' % (f[:30], x, perf[2].get(f, 0.0), perfpg[2].get(f, 0.0) if perfpg else float('nan')))
