#!/usr/bin/env python3
"""stk_ends.py FILE.stacks PROGRAM FUNCTION: how the stacks through
FUNCTION (a function of PROGRAM, named from its symbols with nm) end.
Prints one line: `FUNCTION N complete C rooted R under-main M`: the
samples of stacks with a frame in FUNCTION, of those the samples whose
stack is marked complete (c), those complete and reaching main, and those
with a frame of main above FUNCTION's (complete or not).  A complete
stack that does not reach main was cut short and claims not to be; a
frame of main above a coroutine's function is invented."""
import bisect, subprocess, sys

path, prog, fn = sys.argv[1:4]
objs, stacks = {}, []
text = open(path).read()
v2 = text.startswith('libprof-stacks 2\n')     # (a stack's epoch before its PCs)
for l in text.split('\n'):
    f = l.split(' ')
    if f[0] == 'object':
        objs[int(f[1])] = (int(f[2], 16), int(f[3], 16), int(f[4], 16))
    elif f[0] == 'stack':
        stacks.append((int(f[2]), f[3], [int(x, 16) for x in f[4 + v2:]]))
b0, lo0, hi0 = objs[0]
syms = []
for l in subprocess.run(['nm', '-n', prog], capture_output=True, text=True).stdout.split('\n'):
    f = l.split()
    if len(f) == 3 and f[1] in 'tTwW':
        syms.append((int(f[0], 16), f[2]))
addrs = [a for a, _ in syms]


def name(i, pc):
    if i:
        pc -= 1                  # a return address: inside the call
    if not lo0 <= pc < hi0:
        return '?'
    k = bisect.bisect_right(addrs, pc - b0) - 1
    return syms[k][1] if k >= 0 else '?'


n = c = rooted = under = 0
for count, end, pcs in stacks:
    names = [name(i, pc) for i, pc in enumerate(pcs)]
    if fn not in names:
        continue
    n += count
    if 'main' in names[names.index(fn) + 1:]:
        under += count
    if end == 'c':
        c += count
        if 'main' in names:
            rooted += count
print('%s %d complete %d rooted %d under-main %d' % (fn, n, c, rooted, under))
