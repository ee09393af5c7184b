#!/usr/bin/env python3
"""Writes a -r test case into DIR: `bin`, 2K+U small assembled functions
s0.., and `gmon.out` holding a ladder of arcs s(2k)->s(2k+1) counted
10000+k and s(2k+1)->s(2k+2) counted once (2K-1 called functions), then
the extra arcs given as A>B=COUNT (indices; U extra functions follow the
ladder).  Used to pin GNU's choice of "special" functions for -r.
Usage: ladder.py K U DIR [A>B=COUNT ...]"""
import os, struct, sys
import fakebin

k, extra_fns, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
n = 2 * k + extra_fns
os.makedirs(out, exist_ok=True)
addr = fakebin.build(out, n)
arcs = []
for i in range(k):
    arcs.append((2 * i, 2 * i + 1, 10000 + i))
    if i + 1 < k:
        arcs.append((2 * i + 1, 2 * i + 2, 1))
for spec in sys.argv[4:]:
    a, rest = spec.split('>')
    b, c = rest.split('=')
    arcs.append((int(a), int(b), int(c)))
rec = fakebin.hist_record(addr, None)
for a, b, c in arcs:
    rec += b'\1' + struct.pack('<QQI', addr[f's{a}'] + 4, addr[f's{b}'] + 2, c)
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
open(os.path.join(out, 'files'), 'w').write('gmon.out\n')
