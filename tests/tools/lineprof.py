#!/usr/bin/env python3
"""Writes a 64-bit little-endian GNU gmon.out for BIN with a seeded random
histogram and random arcs over .text and a little past its end (where
only etext and .fini are), for the line-level cases.
Usage: lineprof.py BIN OUT SEED"""
import random, struct, subprocess, sys

binf, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = random.Random(seed)
for l in subprocess.check_output(['objdump', '-h', binf]).decode().split('\n'):
    p = l.split()
    if len(p) > 3 and p[1] == '.text':
        lo, size = int(p[3], 16), int(p[2], 16)
hi = lo + size + 64
hi += (hi - lo) % 2
n = (hi - lo) // 2
bins = [0] * n
for _ in range(r.randint(1, 30)):
    bins[(r.randrange(lo, hi) - lo) // 2] += r.randint(1, 9)
d = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
d += b'\0' + struct.pack('<QQII', lo, hi, n, 100) + b'seconds'.ljust(15, b'\0') + b's'
d += b''.join(struct.pack('<H', b) for b in bins)
for _ in range(r.randint(1, 40)):
    d += b'\1' + struct.pack('<QQI', r.randrange(lo - 16, hi), r.randrange(lo - 16, hi), r.randint(1, 50))
open(out, 'wb').write(bytes(d))
