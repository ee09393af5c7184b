#!/usr/bin/env python3
"""Writes into DIR a tiny executable whose function names need escaping in
DOT, JSON and callgrind files -- quotes, a backslash, a tab, markup
characters, UTF-8, a byte that is not UTF-8, C++ names whose demangled form
has spaces and quotes -- and a gmon.out with time in each, a cycle and a
self-recursive function.  Prints the names, one per line, to DIR/names.
Usage: weirdnames.py DIR"""
import os, struct, subprocess, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
names = [b'we"ird', b'back\\slash', b'tab\tname', 'uni\u00fc\u2192x'.encode(), b'bad\xffbyte',
         b'<html>&amp;{x}|y', b'_Zli3_kmy', b'_ZN4geom3dotERKNS_3VecES2_', b'_ZN1A1fIcEEvPKc']
SIZE = 32
src = bytearray(b'.text\n')
for n in names:
    q = b'"' + n.replace(b'\\', b'\\\\').replace(b'"', b'\\"') + b'"'
    src += b'.globl ' + q + b'\n.type ' + q + b',@function\n' + q + b':\n'
    src += b'  nop\n' * (SIZE - 1) + b'  ret\n.size ' + q + b',.-' + q + b'\n'
src += b'.globl _start\n_start: ret\n'
open(os.path.join(out, 'bin.s'), 'wb').write(src)
subprocess.check_call(['cc', '-nostdlib', '-no-pie', '-Wl,-e,_start', '-o', os.path.join(out, 'bin'),
                       os.path.join(out, 'bin.s')], stderr=subprocess.DEVNULL)
os.unlink(os.path.join(out, 'bin.s'))
addr = {}
for line in subprocess.check_output(['nm', os.path.join(out, 'bin')]).split(b'\n'):
    p = line.split(b' ', 2)
    if len(p) == 3:
        addr[p[2]] = int(p[0], 16)
lo, hi = addr[names[0]], addr[b'_start'] + 2
nb = (hi - lo) // 2
bins = [0] * nb
for k, n in enumerate(names):
    bins[(addr[n] - lo) // 2 + 3] = 3 + 2 * k
rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
rec += b'\0' + struct.pack('<QQII', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
rec += struct.pack('<%dH' % nb, *bins)
arcs = [(0, 1, 10), (1, 3, 5), (3, 1, 3), (3, 3, 7), (0, 6, 2), (6, 5, 4), (0, 2, 1), (2, 4, 1),
        (0, 7, 6), (7, 8, 9), (8, 8, 2)]
for a, b, c in arcs:
    rec += b'\1' + struct.pack('<QQI', addr[names[a]] + 4, addr[names[b]] + 2, c)
open(os.path.join(out, 'gmon.out'), 'wb').write(rec)
open(os.path.join(out, 'names'), 'wb').write(b'\n'.join(names) + b'\n')
