#!/usr/bin/env python3
"""Rewrites GNU gmon.out files (64-bit little-endian) for test fixtures.
  gmonedit.py keep SRC DST KINDS      keep only record kinds in KINDS (h, a, b)
  gmonedit.py bsd SRC DST bsd|4.4bsd  the old BSD layouts
  gmonedit.py trunc SRC DST N         the first N bytes
  gmonedit.py tag SRC DST T           append a record with tag T
  gmonedit.py version SRC DST V       set the header's version
  gmonedit.py rescale SRC DST         halve the histogram's bin count"""
import struct, sys

def records(d):
    p = 20
    while p < len(d):
        t = d[p]
        if t == 0:
            n = struct.unpack_from('<I', d, p + 17)[0]; L = 1 + 40 + 2 * n
        elif t == 1:
            L = 21
        else:
            n = struct.unpack_from('<I', d, p + 1)[0]; L = 5 + 16 * n
        yield t, d[p:p + L]
        p += L

cmd, src, dst = sys.argv[1:4]
d = open(src, 'rb').read()
out = bytearray()
if cmd == 'keep':
    kinds = sys.argv[4]
    out += d[:20]
    for t, r in records(d):
        if 'hab'[t] in kinds:
            out += r
elif cmd == 'bsd':
    hist, arcs = None, []
    for t, r in records(d):
        if t == 0:
            lo, hi, n, rate = struct.unpack_from('<QQII', r, 1)
            hist = (lo, hi, n, rate, r[41:])
        elif t == 1:
            arcs.append(struct.unpack_from('<QQI', r, 1))
    lo, hi, n, rate, bins = hist
    if sys.argv[4] == 'bsd':
        hdr = bytearray(struct.pack('<QQI', lo, hi, 0))
    else:
        hdr = bytearray(struct.pack('<QQIII', lo, hi, 0, 0x00051879, rate) + bytes(12))
    struct.pack_into('<I', hdr, 16, len(hdr) + 2 * n)
    out += hdr + bins
    for a, b, c in arcs:
        out += struct.pack('<QQQ', a, b, c)
elif cmd == 'trunc':
    out += d[:int(sys.argv[4])]
elif cmd == 'tag':
    out += d + bytes([int(sys.argv[4])])
elif cmd == 'version':
    out += d[:4] + struct.pack('<I', int(sys.argv[4])) + d[8:]
elif cmd == 'rescale':
    out += d[:20]
    for t, r in records(d):
        if t == 0:
            lo, hi, n, rate = struct.unpack_from('<QQII', r, 1)
            m = n // 2
            r = r[:1] + struct.pack('<QQII', lo, hi, m, rate) + r[25:41] + r[41:41 + 2 * m]
        out += r
open(dst, 'wb').write(out)
