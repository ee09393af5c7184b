#!/usr/bin/env python3
"""Writes into DIR a profile of N functions and about M arcs with no
cycle (every arc goes to a higher-numbered function, mostly a near one)
and the samples mostly in the last functions: time propagates up through
many callers, so thousands of functions pass a 0.5% share with their
descendants -- the worst case for a picture.  Usage: dagprof.py N M SEED DIR"""
import os, random, struct, sys
import fakebin

n, m, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(seed)
os.makedirs(out, exist_ok=True)
addr = fakebin.build(out, n)
lo = addr['s0']
bins = [0] * fakebin.nbins(addr)
for _ in range(10 * n):
    i = n - min(int(rnd.paretovariate(1.2)), n)
    b = (addr[f's{i}'] - lo) // 2 + rnd.randrange(fakebin.SIZE // 2)
    bins[b] = min(bins[b] + 1, 65535)
rec = fakebin.hist_record(addr, bins)
for _ in range(m):
    a = rnd.randrange(n - 1)
    b = rnd.randrange(a + 1, min(n, a + 1 + int(rnd.paretovariate(1.0) * 50)))
    rec += b'\1' + struct.pack('<QQI', addr[f's{a}'] + 4, addr[f's{b}'] + 2, rnd.randrange(1, 1000))
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
