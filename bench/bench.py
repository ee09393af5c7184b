#!/usr/bin/env python3
"""`make bench`: ./gprof against GNU gprof 2.40 in the same run, on inputs
from bench/genprof.py (cached in $BENCH_DIR, default /tmp/gprof-bench).

Each measurement alternates the two programs (BENCH_REPS runs of ours,
BENCH_GNU_REPS of GNU's), reports medians of wall and CPU time and the
peak RSS, checks the outputs are byte-identical and prints the ratios and
whether each target of issue 15 is met.  BENCH_QUICK=1 skips the slow GNU
runs of the 100,000/200,000-arc identity sets and the 10,000-file merge.
Usage: bench/bench.py [SECTION...]   (sections: same speed growth sum c l lscale)"""
import hashlib, os, statistics, subprocess, sys, time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.environ.get('GPROF', os.path.join(TOP, 'gprof'))
GNU = os.environ.get('GNU_GPROF', '/usr/bin/gprof')
DIR = os.environ.get('BENCH_DIR', '/tmp/gprof-bench')
REPS = int(os.environ.get('BENCH_REPS', '5'))
GREPS = int(os.environ.get('BENCH_GNU_REPS', '3'))
QUICK = os.environ.get('BENCH_QUICK') == '1'
GEN = os.path.join(TOP, 'bench', 'genprof.py')
ONECU = int(os.environ.get('BENCH_ONECU', '1200'))
have_gnu = os.access(GNU, os.X_OK)
results = []                        # (target, met, text)


def say(*a):
    print(*a, flush=True)


def target(name, met, text):
    results.append((name, met, text))
    say(f'  -> {name}: {"MET" if met else "NOT MET"} ({text})')


def gen(kind, *args):
    # named after the generator's text too: a changed generator is rerun
    tag = hashlib.sha1(open(GEN, 'rb').read()).hexdigest()[:8]
    d = os.path.join(DIR, '_'.join([kind] + [str(a) for a in args] + [tag]))
    if not os.path.exists(os.path.join(d, '.done')):
        os.makedirs(d, exist_ok=True)
        subprocess.check_call([sys.executable, GEN, kind] + [str(a) for a in args] + [d],
                              stdout=subprocess.DEVNULL)
        open(os.path.join(d, '.done'), 'w').close()
    return d


def run(cmd, cwd, out):
    """Runs CMD in CWD with stdout to OUT; (wall s, cpu s, peak RSS KiB, exit).
    Peak memory and exit status from /usr/bin/time when present (a child
    forked from Python would report Python's own memory as part of its
    peak); CPU time from the kernel's own accounting of the finished
    process tree (wait4): /usr/bin/time prints it to 10 ms only, too coarse
    for runs of a fifth of a second."""
    tf = os.path.join(DIR, '.time')
    timed = os.access('/usr/bin/time', os.X_OK)
    if timed:
        cmd = ['/usr/bin/time', '-q', '-f', '%e %U %S %M %x', '-o', tf] + cmd
    with open(out, 'wb') as f:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=f, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
    cpu = ru.ru_utime + ru.ru_stime
    if timed:
        w, u, s, m, x = open(tf).read().split()[-5:]
        return wall, cpu, int(m), int(x)
    return wall, cpu, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def med(xs):
    return statistics.median(xs) if xs else float('nan')


def compare(args, cwd, tag, reps=REPS, greps=GREPS, files=(), verbose=False):
    """Alternating runs; returns dict with medians and whether outputs (and
    FILES such as gmon.sum) are identical."""
    o, g = [], []
    same = True
    ours_out, gnu_out = os.path.join(cwd, f'{tag}.ours'), os.path.join(cwd, f'{tag}.gnu')
    for r in range(max(reps, greps if have_gnu else 0)):
        if r < reps:
            o.append(run([OURS] + args, cwd, ours_out))
            saved = {f: open(os.path.join(cwd, f), 'rb').read() for f in files if os.path.exists(os.path.join(cwd, f))}
        if have_gnu and r < greps:
            g.append(run([GNU] + args, cwd, gnu_out))
            for f in files:
                if saved.get(f) != open(os.path.join(cwd, f), 'rb').read():
                    same = False
            a, b = open(ours_out, 'rb').read(), open(gnu_out, 'rb').read()
            if verbose:         # explanations are our own words: tables only
                a, b = tables(a.decode(errors='replace')), tables(b.decode(errors='replace'))
            if a != b:
                same = False
    res = {'wall': med([x[0] for x in o]), 'cpu': med([x[1] for x in o]), 'rss': max(x[2] for x in o),
           'bytes': os.path.getsize(ours_out), 'same': same if have_gnu else None, 'out': ours_out}
    if have_gnu and g:
        res.update(gwall=med([x[0] for x in g]), gcpu=med([x[1] for x in g]), grss=max(x[2] for x in g))
    line = f'  {tag}: ours {res["wall"]:.3f}s wall {res["cpu"]:.3f}s cpu {res["rss"] // 1024} MiB'
    if have_gnu and g:
        line += (f' | GNU {res["gwall"]:.3f}s wall {res["gcpu"]:.3f}s cpu {res["grss"] // 1024} MiB'
                 f' | x{res["gcpu"] / max(res["cpu"], 0.01):.1f} cpu, memory {res["rss"] / res["grss"]:.2f}'
                 f' | {"identical" if same else "DIFFERENT"}')
    say(line)
    return res


def tables(text):
    """The tables of a verbose report: the explanations (ours are our own
    words, GNU's its own) cut out -- the flat profile up to its first blank
    line after the column heads, the call graph up to its last separator."""
    out = []
    for sec in text.split('\f'):
        lines = sec.split('\n')
        if any(l.startswith('Flat profile:') for l in lines):
            k = next(i for i, l in enumerate(lines) if l.startswith(' time '))
            while k < len(lines) and lines[k] != '':
                k += 1
            out.append('\n'.join(lines[:k]))
        elif any('Call graph' in l for l in lines[:3]):
            k = max(i for i, l in enumerate(lines) if l.startswith('-----'))
            out.append('\n'.join(lines[:k + 1]))
        elif any(l.startswith('Index by function name') for l in lines[:3]):
            out.append(sec)
    return '\f'.join(out)


def same_bytes():
    say('\n== same bytes as GNU on big random profiles')
    if not have_gnu:
        say('  GNU gprof not installed: skipped')
        return
    sets = [('-b',), (), ('-b', '-p'), ('-b', '-q'), ('-b', '-z'), ('-b', '-T')]
    sizes = [(20000, 50000, (1, 2)), (20000, 100000, (1, 2)), (20000, 200000, (1,))]
    if QUICK:
        sizes = [(20000, 50000, (1,))]
    bad = total = 0
    for n, m, seeds in sizes:
        for seed in seeds:
            d = gen('big', n, m, seed)
            for o in sets:
                run([OURS] + list(o) + ['prog', 'gmon.out'], d, os.path.join(d, 'x.ours'))
                w = run([GNU] + list(o) + ['prog', 'gmon.out'], d, os.path.join(d, 'x.gnu'))[0]
                a, b = (open(os.path.join(d, f), errors='replace').read() for f in ('x.ours', 'x.gnu'))
                if not o:
                    a, b = tables(a), tables(b)
                ok = a == b
                total += 1
                bad += not ok
                say(f'  {n}/{m} seed {seed} [{" ".join(o) or "verbose tables"}]: '
                    f'{"identical" if ok else "DIFFERENT"} (GNU {w:.1f}s)')
    target('same bytes at 20,000 functions x 50k-200k arcs', bad == 0, f'{total - bad}/{total} identical')


def floor(d, inputs, report):
    """(wall, cpu) medians of bench/floor.c on the same inputs and bytes."""
    exe = os.path.join(DIR, 'floor')
    if not os.path.exists(exe):
        subprocess.check_call(['cc', '-O2', '-o', exe, os.path.join(TOP, 'bench', 'floor.c')])
    rs = [run([exe] + inputs + [report], d, os.path.join(d, 'floor.out')) for _ in range(REPS)]
    return med([x[0] for x in rs]), med([x[1] for x in rs])


def speed():
    say('\n== default report, 20,000 functions / 200,000 arcs')
    d = gen('big', 20000, 200000, 1)
    r = compare(['prog', 'gmon.out'], d, 'default', verbose=True)
    f, fc = floor(d, ['prog', 'gmon.out'], r['out'])
    say(f'  floor (read inputs, write {r["bytes"]} bytes): {f:.3f}s wall {fc:.3f}s cpu; '
        f'ours/floor {r["wall"] / f:.1f} wall, {r["cpu"] / max(fc, 0.005):.1f} cpu')
    if have_gnu:
        target('default report >= 100x faster than GNU (cpu)', r['gcpu'] / r['cpu'] >= 100,
               f'x{r["gcpu"] / r["cpu"]:.0f}')
        target('peak memory <= GNU', r['rss'] <= r['grss'], f'{r["rss"]} vs {r["grss"]} KiB')
        target('default report tables identical', tables(open(r['out']).read()) ==
               tables(open(r['out'][:-5] + '.gnu').read()), 'verbose tables compared')
    # judged on wall time, the floor's CPU being mostly the kernel's copy
    target('within 5x of the read-and-write floor', r['wall'] <= 5 * f,
           f'{r["wall"] / f:.1f}x wall, {r["cpu"] / max(fc, 0.005):.1f}x cpu')


def growth():
    say('\n== growth (ours only), -b')
    sizes = (20000, 40000, 80000, 160000)
    dirs = {n: gen('big', n, 10 * n, 1) for n in sizes}
    # the sizes in turn, REPS rounds: this VM's speed drifts from minute
    # to minute, and a drift must not fall on one size only
    rs = {n: [] for n in sizes}
    for _ in range(REPS):
        for n in sizes:
            rs[n].append(run([OURS, '-b', 'prog', 'gmon.out'], dirs[n], os.path.join(dirs[n], 'b.ours')))
    per = []
    last = None
    for n in sizes:
        wall, cpu = med([x[0] for x in rs[n]]), med([x[1] for x in rs[n]])
        size = os.path.getsize(os.path.join(dirs[n], 'b.ours'))
        per.append(cpu / size * 1e9)
        last = wall
        say(f'  {n}/{10 * n}: {wall:.3f}s wall {cpu:.3f}s cpu, {size} bytes, {cpu / size * 1e9:.1f} ns cpu/byte, '
            f'{max(x[2] for x in rs[n]) // 1024} MiB')
    target('160,000 / 1.6M arcs under 3 s', last < 3, f'{last:.2f}s')
    target('time per output byte flat (max/min <= 1.5)', max(per) / min(per) <= 1.5, f'{max(per) / min(per):.2f}')


def sums():
    say('\n== -s merges: 2,000-function program (with -g)')
    d = gen('merge', 2000, 1000, 1)
    names = [f'gmon.{i}' for i in range(1000)]
    sub = os.path.join(d, 'run')
    os.makedirs(sub, exist_ok=True)
    files = [os.path.join('..', x) for x in names]
    r = compare(['-s', '../prog'] + files, sub, 'sum1000', reps=3, greps=1, files=('gmon.sum',))
    if have_gnu:
        target('-s 1,000 files >= 10x faster than GNU (cpu)', r['gcpu'] / r['cpu'] >= 10, f'ours {r["cpu"]:.2f}s, GNU {r["gcpu"]:.2f}s cpu')
        target('-s gmon.sum identical to GNU', bool(r['same']), 'gmon.sum and stdout compared')
        target('-s peak memory <= GNU', r['rss'] <= r['grss'], f'{r["rss"]} vs {r["grss"]} KiB')
    r100 = compare(['-s', '../prog'] + files[:100], sub, 'sum100', reps=3, greps=0)
    target('-s memory independent of file count', r['rss'] <= 1.1 * r100['rss'],
           f'{r100["rss"]} KiB at 100 files, {r["rss"]} KiB at 1,000')
    if not QUICK:
        w = run([OURS, '-s', '../prog'] + files * 10, sub, os.path.join(sub, 'sum10000.ours'))
        target('-s over 10,000 profiles completes', w[3] == 0, f'{w[0]:.1f}s, {w[2] // 1024} MiB, exit {w[3]}')


def static_c():
    say('\n== -c on a static binary')
    d = gen('static')
    r = compare(['-b', '-c', 'prog', 'gmon.out'], d, 'static_c', reps=3, greps=3)
    if have_gnu:
        target('-c on a static binary no slower than GNU', r['cpu'] <= r['gcpu'], f'ours {r["cpu"]:.2f}s, GNU {r["gcpu"]:.2f}s cpu')


def lines():
    say('\n== -l on a -g program')
    d = gen('lines', 3000)
    r = compare(['-b', '-l', 'prog', 'gmon.out'], d, 'lines', reps=3, greps=3)
    if have_gnu:
        target('-l no slower than GNU', r['cpu'] <= r['gcpu'], f'ours {r["cpu"]:.2f}s, GNU {r["gcpu"]:.2f}s cpu')
        target('-l output identical', bool(r['same']), '')


def lines_scale():
    say('\n== -l at scale: one -O2 -g unit of thousands of functions (issue 25)')
    d = gen('onecu', ONECU)
    src = os.path.join(d, 'prog.c')
    say(f'  prog.c: {sum(1 for _ in open(src))} lines, .text {text_size(os.path.join(d, "prog"))} bytes')
    r = compare(['-b', '-l', 'prog', 'gmon.out'], d, 'lscale', reps=3, greps=1)
    target('-l at scale under 1 s', r['cpu'] < 1.0, f'ours {r["cpu"]:.2f}s cpu')
    if have_gnu:
        target('-l at scale >= 50x faster than GNU', r['gcpu'] >= 50 * r['cpu'],
               f'ours {r["cpu"]:.2f}s, GNU {r["gcpu"]:.2f}s cpu, x{r["gcpu"] / max(r["cpu"], 0.01):.0f}')
        target('-l at scale output identical', bool(r['same']), '')
        for opts in (['-l', '-A'],):
            r2 = compare(['-b'] + opts + ['prog', 'gmon.out'], d, 'lscale' + ''.join(opts), reps=1, greps=1)
            target(f'-b {" ".join(opts)} at scale identical', bool(r2['same']), '')


def text_size(path):
    for line in subprocess.check_output(['size', '-A', path]).decode().split('\n'):
        p = line.split()
        if p and p[0] == '.text':
            return int(p[1])
    return 0


SECTIONS = {'same': same_bytes, 'speed': speed, 'growth': growth, 'sum': sums, 'c': static_c, 'l': lines,
            'lscale': lines_scale}

if __name__ == '__main__':
    os.makedirs(DIR, exist_ok=True)
    say(f'ours: {OURS}; GNU: {GNU if have_gnu else "not installed"}; inputs in {DIR}; '
        f'{REPS} runs of ours, {GREPS} of GNU, alternating')
    for s in sys.argv[1:] or ['speed', 'growth', 'sum', 'c', 'l', 'lscale', 'same']:
        SECTIONS[s]()
    say('\n== summary')
    for name, met, text in results:
        say(f'  {"MET    " if met else "NOT MET"}  {name}: {text}')
