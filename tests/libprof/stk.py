#!/usr/bin/env python3
"""stk.py FILE.stacks [PROGRAM [CALLEE [CALLER...]]]: checks a libprof stack file
(the format of doc/DESIGN.md, "Stacks") strictly and prints one line of
facts: samples, dropped, the stacks' sum, how many samples have their
leaf in the program's text, the ends, the threads and their names.  With
PROGRAM and CALLEE, also the samples each caller's calls of CALLEE took
(stacks where the caller's frame is just above CALLEE's, each stack
counted once per caller), from PROGRAM's symbols (nm), then the samples
whose leaf is CALLEE, and how many of them have the CALLERs (innermost
first) just above it.  Exit 1 on any
malformed line."""
import bisect, subprocess, sys

def bad(why):
    print("malformed:", why); sys.exit(1)

lines = open(sys.argv[1]).read().split('\n')
if lines[0] not in ('libprof-stacks 1', 'libprof-stacks 2'): bad('header %r' % lines[0])
v2 = lines[0] == 'libprof-stacks 2'
if lines[-1] != '': bad('no final newline')
hdr, objs, threads, stacks = {}, {}, {}, []
for l in lines[1:-1]:
    f = l.split(' ')
    if f[0] in ('hz', 'depth', 'samples', 'dropped') or (v2 and f[0] in ('start', 'duration')):
        if len(f) != 2 or not f[1].isdigit(): bad(l)
        hdr[f[0]] = int(f[1])
    elif f[0] == 'clock':           # the sampling clock (CONTRACT: stack file version 2)
        if len(f) != 2 or f[1] not in ('itimer', 'posix-timer', 'perf-event'): bad(l)
    elif f[0] == 'object':
        if len(f) < 7: bad(l)
        objs[int(f[1])] = (int(f[2], 16), int(f[3], 16), int(f[4], 16), ' '.join(f[6:]))
    elif v2 and f[0] == 'span':
        if len(f) != 4 or not f[2].isdigit() or not (f[3] == '-' or f[3].isdigit()) or int(f[1]) not in objs: bad(l)
    elif v2 and f[0] == 'clock':
        if len(f) != 2: bad(l)
    elif f[0] == 'thread':
        threads[int(f[1])] = ' '.join(f[2:])
    elif f[0] == 'stack':
        if len(f) < 5 + v2 or f[3] not in ('c', 't', 'b') or (v2 and not f[4].isdigit()): bad(l)
        pcs = [int(x, 16) for x in f[4 + v2:]]
        if len(pcs) > hdr['depth']: bad('deeper than depth: ' + l)
        stacks.append((int(f[1]), int(f[2]), f[3], pcs))
    else:
        bad(l)
if 0 not in objs: bad('no object 0')
if v2 and not all(k in hdr for k in ('start', 'duration')): bad('no start or duration')
b0, lo0, hi0, _ = objs[0]
tot = sum(s[1] for s in stacks)
leaf = sum(s[1] for s in stacks if lo0 <= s[3][0] < hi0)
ends = {e: sum(s[1] for s in stacks if s[2] == e) for e in 'ctb'}
if tot + hdr['dropped'] != hdr['samples']: bad('samples %d != stacks %d + dropped %d' % (hdr['samples'], tot, hdr['dropped']))
names = sorted(set(threads.values()))
print('samples %d dropped %d stacks %d leaf-in-program %d complete %d truncated %d broken %d threads %d names %s'
      % (hdr['samples'], hdr['dropped'], tot, leaf, ends['c'], ends['t'], ends['b'], len(set(s[0] for s in stacks)), ','.join(names)))
if len(sys.argv) > 3:
    syms = []
    for l in subprocess.run(['nm', '-n', sys.argv[2]], capture_output=True, text=True).stdout.split('\n'):
        f = l.split()
        if len(f) == 3 and f[1] in 'tTwW': syms.append((int(f[0], 16), f[2]))
    addrs = [a for a, _ in syms]
    def name(i, pc):
        if not lo0 <= pc < hi0: return '?'
        k = bisect.bisect_right(addrs, pc - b0 - (1 if i else 0)) - 1
        return syms[k][1] if k >= 0 else '?'
    by = {}
    for _, c, _, pcs in stacks:
        n = [name(i, pc) for i, pc in enumerate(pcs)]
        callers = set(n[i + 1] for i in range(len(n) - 1) if n[i] == sys.argv[3])
        for k in callers: by[k] = by.get(k, 0) + c
    print(' '.join('%s %d' % kv for kv in sorted(by.items())))
    # third line: the samples whose leaf is CALLEE itself; with CALLERS
    # (innermost first), how many of them have exactly those frames above
    leaf = [(c, [name(i, pc) for i, pc in enumerate(pcs)]) for _, c, _, pcs in stacks
            if pcs and name(0, pcs[0]) == sys.argv[3]]
    chain = sys.argv[4:]
    print('leaf %s %d' % (sys.argv[3], sum(c for c, _ in leaf)))
    if chain:
        print('chain %s %d' % (' '.join(chain), sum(c for c, n in leaf if n[1:1 + len(chain)] == chain)))
