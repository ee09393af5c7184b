#!/usr/bin/env python3
"""Writes a GNU gmon.out with an empty histogram over the text of BIN, for
cases that test symbol choice (`-z` lists every function).
Usage: nullprof.py BIN OUT"""
import struct, subprocess, sys

binf, out = sys.argv[1], sys.argv[2]
addrs = []
for line in subprocess.check_output(['nm', binf]).decode().split('\n'):
    p = line.split()
    if len(p) == 3 and p[1] in 'tT':
        addrs.append(int(p[0], 16))
lo, hi = min(addrs), max(addrs) + 2
nb = (hi - lo) // 2
rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
rec += b'\0' + struct.pack('<QQII', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
rec += bytes(2 * nb)
open(out, 'wb').write(rec)
