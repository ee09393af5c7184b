#!/usr/bin/env python3
"""Writes a -r test case into DIR: `bin`, 2K+U small assembled functions
s0.., and `gmon.out` holding a ladder of arcs s(2k)->s(2k+1) counted
10000+k and s(2k+1)->s(2k+2) counted once (2K-1 called functions), then
the extra arcs given as A>B=COUNT (indices; U extra functions follow the
ladder).  Used to pin GNU's choice of "special" functions for -r.
Usage: ladder.py K U DIR [A>B=COUNT ...]"""
import os, struct, subprocess, sys

k, extra_fns, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
n = 2 * k + extra_fns
os.makedirs(out, exist_ok=True)
src = os.path.join(out, 'bin.s')
with open(src, 'w') as f:
    f.write('.text\n')
    for i in range(n):
        f.write(f'.globl s{i}\n.type s{i},@function\ns{i}:\n' + '  nop\n' * 31 + f'  ret\n.size s{i},.-s{i}\n')
    f.write('.globl _start\n_start: ret\n')
subprocess.check_call(['cc', '-nostdlib', '-no-pie', '-Wl,-e,_start', '-o', os.path.join(out, 'bin'), src])
os.unlink(src)
addr = {}
for line in subprocess.check_output(['nm', os.path.join(out, 'bin')]).decode().split('\n'):
    p = line.split()
    if len(p) == 3:
        addr[p[2]] = int(p[0], 16)
arcs = []
for i in range(k):
    arcs.append((2 * i, 2 * i + 1, 10000 + i))
    if i + 1 < k:
        arcs.append((2 * i + 1, 2 * i + 2, 1))
for spec in sys.argv[4:]:
    a, rest = spec.split('>')
    b, c = rest.split('=')
    arcs.append((int(a), int(b), int(c)))
lo, hi = addr['s0'], addr['_start'] + 2
nb = (hi - lo) // 2
rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
rec += b'\0' + struct.pack('<QQII', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
rec += bytes(2 * nb)
for a, b, c in arcs:
    rec += b'\1' + struct.pack('<QQI', addr[f's{a}'] + 4, addr[f's{b}'] + 2, c)
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
open(os.path.join(out, 'files'), 'w').write('gmon.out\n')
