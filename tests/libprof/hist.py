#!/usr/bin/env python3
"""hist.py [-m32] GMON [CPU] [LOW HIGH]: the histogram of a GNU gmon.out
(every histogram record; 64-bit layout, or 32-bit with -m32): prints its rate, the seconds sampled,
their share of CPU seconds when CPU is given, and the samples falling in
[LOW, HIGH) (hexadecimal addresses) when given."""
import struct, sys
m32 = len(sys.argv) > 1 and sys.argv[1] == "-m32"
if m32:
    del sys.argv[1]
d = open(sys.argv[1], 'rb').read()
cpu = float(sys.argv[2]) if len(sys.argv) > 2 else 0
lo_r, hi_r = (int(sys.argv[3], 16), int(sys.argv[4], 16)) if len(sys.argv) > 4 else (0, 0)
off, tot, inr, rate = 20, 0, 0, 0
while off < len(d):
    tag = d[off]; off += 1
    if tag == 0:
        fmt = '<IIII' if m32 else '<QQII'
        k = struct.calcsize(fmt)
        lo, hi, n, rate = struct.unpack(fmt, d[off:off + k]); off += k + 16
        bins = struct.unpack('<%dH' % n, d[off:off + 2 * n]); off += 2 * n
        tot += sum(bins)
        step = (hi - lo) / n
        inr += sum(b for i, b in enumerate(bins) if b and lo_r <= lo + i * step < hi_r)
    elif tag == 1:
        off += 12 if m32 else 20
    else:
        break
share = tot / rate / cpu if cpu else 0
print("rate %d sampled %.4f share %.3f in-range %d" % (rate, tot / rate, share, inr))
