#!/usr/bin/env python3
"""Writes a GNU gmon.out for BIN (32- or 64-bit ELF, either byte order) with an empty
histogram over its text symbols and the given arcs, named FROM>TO=COUNT
(the call site is FROM's address plus one, the callee TO's address plus
one).  For cases that test symbol choice and the static call graph.
--hi=NAME ends the histogram at symbol NAME (exclusive; --hi=.text at the
end of .text, as a real profile) instead of just past the last text symbol.  NAME[+OFF]@COUNT adds COUNT samples to the
bin of NAME's address (plus OFF bytes), so the histogram is not empty.
Usage: nullprof.py BIN OUT [--hi=NAME] [FROM>TO=COUNT | NAME[+OFF]@COUNT ...]"""
import struct, subprocess, sys

binf, out = sys.argv[1], sys.argv[2]
ident = open(binf, 'rb').read(6)
wide = ident[4] == 2
e = '>' if ident[5] == 2 else '<'   # the target's byte order
addr = {}
for line in subprocess.check_output(['nm', binf]).decode().split('\n'):
    p = line.split()
    if len(p) == 3 and p[1] in 'tT':
        addr.setdefault(p[2], int(p[0], 16))
args = sys.argv[3:]
lo, hi = min(addr.values()), max(addr.values()) + 2
if args and args[0].startswith('--hi='):
    h = args.pop(0)[5:]
    if h == '.text':
        for line in subprocess.check_output(['objdump', '-h', binf]).decode().split('\n'):
            p = line.split()
            if len(p) > 3 and p[1] == '.text':
                hi = int(p[3], 16) + int(p[2], 16)
    else:
        hi = addr[h]
nb = (hi - lo) // 2
a = 'Q' if wide else 'I'
rec = bytearray(b'gmon' + struct.pack(e + 'I', 1) + bytes(12))
rec += b'\0' + struct.pack(e + a + a + 'II', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
bins = [0] * nb
for spec in [s for s in args if '@' in s]:
    at, c = spec.split('@')
    f, _, off = at.partition('+')
    bins[(addr[f] + int(off or '0', 0) - lo) // 2] += int(c)
rec += struct.pack(e + '%dH' % nb, *bins)
for spec in [s for s in args if '@' not in s]:
    f, rest = spec.split('>')
    t, c = rest.split('=')
    rec += b'\1' + struct.pack(e + a + a + 'I', addr[f] + 1, addr[t] + 1, int(c))
open(out, 'wb').write(rec)
