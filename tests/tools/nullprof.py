#!/usr/bin/env python3
"""Writes a GNU gmon.out for BIN (32- or 64-bit ELF) with an empty
histogram over its text symbols and the given arcs, named FROM>TO=COUNT
(the call site is FROM's address plus one, the callee TO's address plus
one).  For cases that test symbol choice and the static call graph.
Usage: nullprof.py BIN OUT [FROM>TO=COUNT ...]"""
import struct, subprocess, sys

binf, out = sys.argv[1], sys.argv[2]
wide = open(binf, 'rb').read(5)[4] == 2
addr = {}
for line in subprocess.check_output(['nm', binf]).decode().split('\n'):
    p = line.split()
    if len(p) == 3 and p[1] in 'tT':
        addr.setdefault(p[2], int(p[0], 16))
lo, hi = min(addr.values()), max(addr.values()) + 2
nb = (hi - lo) // 2
a = 'Q' if wide else 'I'
rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
rec += b'\0' + struct.pack('<' + a + a + 'II', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
rec += bytes(2 * nb)
for spec in sys.argv[3:]:
    f, rest = spec.split('>')
    t, c = rest.split('=')
    rec += b'\1' + struct.pack('<' + a + a + 'I', addr[f] + 1, addr[t] + 1, int(c))
open(out, 'wb').write(rec)
