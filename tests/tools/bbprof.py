#!/usr/bin/env python3
"""Appends basic-block count records (tag 2) to a 64-bit little-endian GNU
gmon.out, at addresses named NAME+OFFSET (OFFSET in bytes, decimal or 0x..)
of BIN's text symbols; one record per argument group separated by "--".
Usage: bbprof.py BIN SRC DST NAME+OFF=COUNT ... [-- NAME+OFF=COUNT ...]"""
import struct, subprocess, sys

binf, src, dst = sys.argv[1:4]
addr = {}
for line in subprocess.check_output(['nm', binf]).decode().split('\n'):
    p = line.split()
    if len(p) == 3 and p[1] in 'tTW':
        addr.setdefault(p[2], int(p[0], 16))
groups, cur = [], []
for a in sys.argv[4:]:
    if a == '--':
        groups.append(cur); cur = []
    else:
        cur.append(a)
groups.append(cur)
out = bytearray(open(src, 'rb').read())
for g in groups:
    blocks = []
    for a in g:
        where, count = a.split('=')
        name, off = where.split('+') if '+' in where else (where, '0')
        blocks.append((addr[name] + int(off, 0), int(count)))
    out += b'\2' + struct.pack('<I', len(blocks))
    out += b''.join(struct.pack('<QQ', x, c) for x, c in blocks)
open(dst, 'wb').write(bytes(out))
