#!/usr/bin/env python3
"""Writes a -R map for a synthetic case (synth.py): a random subset of its
functions spread over a few objects, in random order, with a few names the
program lacks.  No two adjacent lines name the same object (GNU gprof reads
uninitialised memory for such runs; see doc/DESIGN.md) unless --adjacent
is given.
Usage: synthmap.py BIN SEED OUT [--adjacent]"""
import random, subprocess, sys

binf, seed, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rnd = random.Random(seed)
names = []
for line in subprocess.check_output(['nm', binf]).decode().split('\n'):
    p = line.split()
    if len(p) == 3 and p[2].startswith('s') and p[2][1:].isdigit():
        names.append((p[2], int(p[0], 16)))
names.sort()
pick = rnd.sample(names, len(names) * 2 // 3) + [('gone%d' % i, 0) for i in range(3)]
rnd.shuffle(pick)
nobj = max(2, len(pick) // 4)
lines, last = [], None
for name, addr in pick:
    obj = 'o%d.o' % rnd.randrange(nobj)
    if obj == last and '--adjacent' not in sys.argv[4:]:
        continue
    lines.append('%s:%016x %s %s' % (obj, addr, rnd.choice('TTTtW'), name))
    last = obj
open(out, 'w').write('\n'.join(lines) + '\n')
