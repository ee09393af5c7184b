#!/usr/bin/env python3
"""Random profile for the differential test (tests/diffrand.sh): writes DIR/bin
(N functions s0.., every fifth static, via fakebin) unless present, and
DIR/gmon.out with about M arcs.  Values are drawn to provoke rounding
differences: rates 100/1000/60/7, sample counts landing on .xx5 seconds,
histograms of 1, 1.5 or 3 units per bin (fractional credits), call counts
that make thirds and sevenths, self calls, giant and small cycles.
Usage: randprof.py N M SEED DIR"""
import os, random, struct, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakebin

n, m, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(seed * 7919 + n)
os.makedirs(out, exist_ok=True)
binp = os.path.join(out, 'bin')
if not os.path.exists(binp):
    fakebin.build(out, n, statics=set(range(0, n, 5)))
addr = {}
import subprocess
for line in subprocess.check_output(['nm', binp]).decode().split('\n'):
    p = line.split()
    if len(p) == 3:
        addr[p[2]] = int(p[0], 16)
hz = rnd.choice((100, 1000, 1000, 60, 7))
per_bin = rnd.choice((1, 1, 1.5, 3))
lo, hi = addr['s0'], addr['_start'] + 2
units = (hi - lo) // 2
nb = max(1, int(units / per_bin))
bins = [0] * nb
hot = rnd.random() < 0.9
for i in range(n):
    if rnd.random() < 0.4 or not hot:
        continue
    c = rnd.choice((5, 15, 45, 125, 375, 625, 1125, rnd.randrange(1, 3000) * 5, rnd.randrange(1, 100)))
    b = int(((addr[f's{i}'] - lo) // 2 + rnd.randrange(fakebin.SIZE // 2)) / per_bin)
    bins[min(b, nb - 1)] = min(bins[min(b, nb - 1)] + c, 65535)
rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
rec += b'\0' + struct.pack('<QQII', lo, hi, nb, hz) + b'seconds'.ljust(15, b'\0') + b's'
rec += struct.pack('<%dH' % nb, *bins)
back = rnd.choice((0.02, 0.1, 0.3))          # share of arcs going backwards: cycles
for _ in range(m):
    a = rnd.randrange(n)
    r = rnd.random()
    if r < 0.03:
        b = a
    elif r < 0.03 + back:
        b = max(0, a - 1 - int(rnd.paretovariate(1.0) * 2))
    elif r < 0.8:
        b = min(n - 1, a + int(rnd.paretovariate(1.0) * 3))
    else:
        b = rnd.randrange(n)
    c = rnd.choice((1, 1, 2, 3, 3, 6, 7, 9, 21, rnd.randrange(1, 100), rnd.randrange(1, 100000)))
    rec += b'\1' + struct.pack('<QQI', addr[f's{a}'] + 4 + rnd.randrange(8), addr[f's{b}'] + 2, c)
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
