#!/usr/bin/env python3
"""Writes a synthetic profiling case into DIR: `bin`, an executable of N
small assembled functions (every fifth static), and `gmon.out` with a random
histogram and about M random arcs (self arcs, cycles and ties included).
Usage: synth.py N M SEED DIR"""
import os, random, struct, sys
import fakebin

n, m, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(seed)
os.makedirs(out, exist_ok=True)
size = fakebin.SIZE
addr = fakebin.build(out, n, statics=set(range(0, n, 5)))
lo = addr['s0']
nb = fakebin.nbins(addr)
bins = [0] * nb
for _ in range(rnd.randrange(0, 4 * n)):
    i = min(int(rnd.paretovariate(1.3)) - 1, n - 1)
    b = (addr[f's{i}'] - lo) // 2 + rnd.randrange(size // 2)
    bins[b] = min(bins[b] + rnd.choice((1, 1, 2, 5)), 65535)
rec = fakebin.hist_record(addr, bins)
for _ in range(m):
    a = rnd.randrange(n)
    b = a if rnd.random() < 0.05 else (a + int(rnd.paretovariate(1.0) * 3)) % n if rnd.random() < 0.7 else rnd.randrange(n)
    c = rnd.choice((1, 1, 2, 3, 10, 100, rnd.randrange(1, 100000)))
    rec += b'\1' + struct.pack('<QQI', addr[f's{a}'] + 4 + rnd.randrange(8), addr[f's{b}'] + 2, c)
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
open(os.path.join(out, 'files'), 'w').write('gmon.out\n')
