#!/usr/bin/env python3
"""stackgen.py -- a hand-made PROFILE.stacks (libprof-stacks 1) for
tests/stacks.sh, and the folded stacks gprof --folded must make of it,
worked out here from the symbols nm lists, independently of gprof.

  stackgen.py PROG BASE LIB LIBBASE SEED OUT.stacks OUT.expected [wrong-id]

PROG (the program, at load bias BASE) and LIB (a shared library, at
LIBBASE) must define the functions named below.  Random stacks, root
first: main or not, program functions, then perhaps the library's chain,
a gap in the library (padding: in no function), the vdso, an object that
does not exist, or a PC in no object; ends c, t and b; two threads;
some stacks repeated with the same PCs (as libprof writes one stack
twice when two threads insert it at once) and some with other PCs in
the same functions.  A leaf PC lies in its function; a return address
one past a byte of it (gprof looks up PC - 1)."""
import random, re, subprocess, sys
from collections import Counter

PROG_FUNCS = ['main', 'leaf', 'mid_a', 'mid_b', 'rec', 'spin']
LIB_FUNCS = ['lib_call', 'lib_inner', 'lib_work']
VDSO = 0x7ffd11110000
GONE = 0x7e0000000000


def text_range(path):
    out = subprocess.run(['readelf', '-SW', path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.search(r'\]\s+\.text\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', line)
        if m:
            lo = int(m.group(1), 16)
            return lo, lo + int(m.group(2), 16)
    sys.exit(f'{path}: no .text')


def build_id(path):
    out = subprocess.run(['readelf', '-n', path], capture_output=True, text=True, check=True).stdout
    m = re.search(r'Build ID: ([0-9a-f]+)', out)
    return m.group(1) if m else '-'


def functions(path):
    """name -> (address, size) of the defined text symbols with a size."""
    out = subprocess.run(['nm', '-S', '--defined-only', path], capture_output=True, text=True, check=True).stdout
    f = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in 'Tt':
            f[p[3]] = (int(p[0], 16), int(p[1], 16))
    return f


def main():
    prog, base, lib, libbase, seed, out, expected = sys.argv[1:8]
    wrong_id = len(sys.argv) > 8
    base, libbase = int(base, 0), int(libbase, 0)
    rnd = random.Random(int(seed))
    pf, lf = functions(prog), functions(lib)
    for n in PROG_FUNCS:
        assert n in pf, f'{prog}: no {n}'
    for n in LIB_FUNCS:
        assert n in lf, f'{lib}: no {n}'
    plo, phi = text_range(prog)
    llo, lhi = text_range(lib)
    # the library's padding: from a function's end to the next symbol
    starts = sorted(a for a, s in lf.values() if llo <= a < lhi)
    gaps = []
    for n in LIB_FUNCS:
        a, s = lf[n]
        nxt = min([x for x in starts if x > a] + [lhi])
        if a + s < nxt:
            gaps.append((a + s, nxt))
    assert gaps, 'the library has no padding'
    libname = lib.rsplit('/', 1)[-1]

    def frame(kind, ret):
        """(PC, name) of a frame of KIND; RET: a return address."""
        lo_off = 1 if ret else 0
        if kind in PROG_FUNCS:
            a, s = pf[kind]
            return base + a + rnd.randint(lo_off, s - 1 + lo_off), kind
        if kind in LIB_FUNCS:
            a, s = lf[kind]
            return libbase + a + rnd.randint(lo_off, s - 1 + lo_off), f'{kind} [{libname}]'
        if kind == 'gap':
            g = rnd.choice(gaps)
            return libbase + g[0] + rnd.randint(lo_off, g[1] - g[0] - 1 + lo_off), f'[{libname}]'
        if kind == 'vdso':
            return VDSO + rnd.randint(0x10, 0xff0), '[vdso]'
        if kind == 'gone':
            return GONE + rnd.randint(0x10, 0xff0), '[libgone.so]'
        pc = rnd.randint(0x100, 0xfff)       # in no object
        return pc, f'0x{pc:x}'

    stacks = []                 # (tid, count, end, [(pc, name)] leaf first)
    folded = Counter()
    for i in range(300):
        if stacks and rnd.random() < 0.1:
            tid, _, end, fr = rnd.choice(stacks)        # the same PCs again
        else:
            kinds = (['main'] if rnd.random() < 0.8 else [])
            kinds += [rnd.choice(PROG_FUNCS) for _ in range(rnd.randint(0 if kinds else 1, 5))]
            r = rnd.random()
            if r < 0.25:
                kinds += LIB_FUNCS[:rnd.randint(1, 3)]
            elif r < 0.32:
                kinds += ['lib_call', 'gap']
            elif r < 0.37:
                kinds += ['vdso']
            elif r < 0.40:
                kinds += ['gone']
            elif r < 0.45:
                kinds += ['nowhere']
            kinds = kinds[:64]
            n = len(kinds)
            # leaf first: the leaf is the last kind, root-first order reversed
            fr = [frame(k, j > 0) for j, k in enumerate(reversed(kinds))]
            end = rnd.choice('cccccctb')
            tid = rnd.choice([4242, 4243])
            del n
        count = rnd.randint(1, 40)
        stacks.append((tid, count, end, fr))
        names = [nm for _, nm in reversed(fr)]
        if end != 'c':
            names = ['[truncated]'] + names
        folded[';'.join(names)] += count

    pid = '0123456789abcdef0123456789abcdef01234567' if wrong_id else build_id(prog)
    objs = [
        f'object 0 0x{base:x} 0x{base + plo:x} 0x{base + phi:x} {pid} {prog}',
        f'object 1 0x{libbase:x} 0x{libbase + llo:x} 0x{libbase + lhi:x} {build_id(lib)} {lib}',
        f'object 2 0x{VDSO:x} 0x{VDSO:x} 0x{VDSO + 0x1000:x} - [vdso]',
        f'object 3 0x{GONE:x} 0x{GONE:x} 0x{GONE + 0x1000:x} - /nonexistent/libgone.so',
        # never reached by a frame: never opened, nothing said
        f'object 4 0x{GONE + 0x10000:x} 0x{GONE + 0x10000:x} 0x{GONE + 0x11000:x} - /nonexistent/libunused.so',
    ]
    rnd.shuffle(objs)           # any order: K says which is which
    with open(out, 'w') as f:
        f.write('libprof-stacks 1\nhz 100\ndepth 64\n')
        f.write(f'samples {sum(s[1] for s in stacks)}\ndropped 0\n')
        f.write('\n'.join(objs) + '\n')
        f.write('thread 4242 main\nthread 4243 worker 1\n')
        f.write('a-later-kind 1 2 3\n')
        for tid, count, end, fr in stacks:
            f.write(f'stack {tid} {count} {end} ' + ' '.join(f'0x{pc:x}' for pc, _ in fr) + '\n')
    with open(expected, 'w') as f:
        for k in sorted(folded):
            f.write(f'{k} {folded[k]}\n')


main()
