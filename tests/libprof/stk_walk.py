#!/usr/bin/env python3
"""stk_walk.py FILE.stacks [CHAIN...]: names every frame of a libprof
stack file (version 1 or 2) from the symbols of the objects it lists (nm,
then nm -D), each PC in the object whose range holds it -- in version 2
the load generation whose span holds the stack's epoch -- a return
address (every PC but the leaf) looked up at PC - 1.  Prints
  samples N complete C rooted R recursion X
(rooted: complete and with _start and main among the frames; recursion:
samples of stacks where one function of object 0, the program, appears
twice -- the test programs have no recursion), then for each CHAIN (names
joined by ';', outermost first) `chain CHAIN N`: samples whose stack holds
those frames in a row, and with CHAIN `@K:FUNC` forms `leafgen K FUNC N`:
samples whose leaf is FUNC of object K."""
import bisect, subprocess, sys

lines = open(sys.argv[1]).read().split('\n')
version = int(lines[0].split(' ')[1])
objs, spans, stacks = {}, {}, []
for l in lines[1:]:
    f = l.split(' ')
    if f[0] == 'object':
        objs[int(f[1])] = (int(f[2], 16), int(f[3], 16), int(f[4], 16), ' '.join(f[6:]))
    elif f[0] == 'span':
        spans[int(f[1])] = (int(f[2]), None if f[3] == '-' else int(f[3]))
    elif f[0] == 'stack':
        if version >= 2:
            stacks.append((int(f[2]), f[3], int(f[4]), [int(x, 16) for x in f[5:]]))
        else:
            stacks.append((int(f[2]), f[3], 0, [int(x, 16) for x in f[4:]]))
syms = {}
def symbols(k):
    if k not in syms:
        s = []
        for flag in ([], ['-D']):
            out = subprocess.run(['nm', '-n'] + flag + [objs[k][3]], capture_output=True, text=True).stdout
            for l in out.split('\n'):
                f = l.split()
                if len(f) == 3 and f[1] in 'tTwWiI' and int(f[0], 16):
                    s.append((int(f[0], 16), f[2].split('@')[0]))
            if s: break
        s.sort()
        syms[k] = ([a for a, _ in s], [n for _, n in s])
    return syms[k]
def live(k, epoch):
    if k not in spans: return True
    a, b = spans[k]
    return a <= epoch and (b is None or epoch < b)
def name(pc, epoch):
    for k in sorted(objs):
        b, lo, hi, _ = objs[k]
        if lo <= pc < hi and live(k, epoch):
            a, n = symbols(k)
            i = bisect.bisect_right(a, pc - b) - 1
            return k, n[i] if i >= 0 else '?'
    return -1, '?'
tot = comp = rooted = rec = 0
named = []
for count, end, epoch, pcs in stacks:
    fr = [name(pc - (1 if i else 0), epoch) for i, pc in enumerate(pcs)]
    fr.reverse()                 # outermost first
    names = [n for _, n in fr]
    named.append((count, fr, names))
    tot += count
    if end == 'c':
        comp += count
        if '_start' in names and 'main' in names: rooted += count
    prog = [n for k, n in fr if k == 0 and n != '?']
    if len(prog) != len(set(prog)): rec += count
print('samples %d complete %d rooted %d recursion %d' % (tot, comp, rooted, rec))
for c in sys.argv[2:]:
    if c.startswith('@'):
        k, fn = c[1:].split(':')
        n = sum(cnt for cnt, fr, _ in named if fr and fr[-1] == (int(k), fn))
        print('leafgen %s %s %d' % (k, fn, n))
        continue
    ch = c.split(';')
    n = sum(cnt for cnt, _, names in named
            if any(names[i:i + len(ch)] == ch for i in range(len(names) - len(ch) + 1)))
    print('chain %s %d' % (c, n))
