#!/usr/bin/env python3
"""Writes a synthetic profiling case into DIR: `bin`, an executable of N
small assembled functions (every fifth static), and `gmon.out` with a random
histogram and about M random arcs (self arcs, cycles and ties included).
Usage: synth.py N M SEED DIR"""
import os, random, struct, subprocess, sys

n, m, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(seed)
os.makedirs(out, exist_ok=True)
size = 32
src = os.path.join(out, 'bin.s')
with open(src, 'w') as f:
    f.write('.text\n')
    for i in range(n):
        f.write(('.local' if i % 5 == 0 else '.globl') + f' s{i}\n.type s{i},@function\ns{i}:\n')
        f.write('  nop\n' * (size - 1) + '  ret\n' + f'.size s{i},.-s{i}\n')
    f.write('.globl _start\n_start: ret\n')
subprocess.check_call(['cc', '-nostdlib', '-no-pie', '-Wl,-e,_start', '-o', os.path.join(out, 'bin'), src])
os.unlink(src)
addr = {}
for line in subprocess.check_output(['nm', os.path.join(out, 'bin')]).decode().split('\n'):
    p = line.split()
    if len(p) == 3:
        addr[p[2]] = int(p[0], 16)
lo, hi = addr['s0'], addr['_start'] + 2
nb = (hi - lo) // 2
bins = [0] * nb
for _ in range(rnd.randrange(0, 4 * n)):
    i = min(int(rnd.paretovariate(1.3)) - 1, n - 1)
    b = (addr[f's{i}'] - lo) // 2 + rnd.randrange(size // 2)
    bins[b] = min(bins[b] + rnd.choice((1, 1, 2, 5)), 65535)
rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
rec += b'\0' + struct.pack('<QQII', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
rec += struct.pack('<%dH' % nb, *bins)
for _ in range(m):
    a = rnd.randrange(n)
    b = a if rnd.random() < 0.05 else (a + int(rnd.paretovariate(1.0) * 3)) % n if rnd.random() < 0.7 else rnd.randrange(n)
    c = rnd.choice((1, 1, 2, 3, 10, 100, rnd.randrange(1, 100000)))
    rec += b'\1' + struct.pack('<QQI', addr[f's{a}'] + 4 + rnd.randrange(8), addr[f's{b}'] + 2, c)
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
open(os.path.join(out, 'files'), 'w').write('gmon.out\n')
