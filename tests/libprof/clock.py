#!/usr/bin/env python3
"""clock.py GMON LOW HIGH: the histogram bins of a GNU gmon.out (64-bit
layout) in [LOW, HIGH) (hexadecimal addresses): prints the samples there,
the bins with samples, and how many of those hold a multiple of 4 (what
a clock carrying four periods per signal leaves: the kernel's tick at
1000 Hz)."""
import struct, sys
d = open(sys.argv[1], 'rb').read()
lo_r, hi_r = int(sys.argv[2], 16), int(sys.argv[3], 16)
off, counts = 20, {}
while off < len(d):
    tag = d[off]; off += 1
    if tag == 0:
        lo, hi, n, rate = struct.unpack('<QQII', d[off:off + 24]); off += 24 + 16
        bins = struct.unpack('<%dH' % n, d[off:off + 2 * n]); off += 2 * n
        step = (hi - lo) // n
        for i, b in enumerate(bins):
            a = lo + i * step
            if b and lo_r <= a < hi_r:
                counts[a] = counts.get(a, 0) + b
    elif tag == 1:
        off += 20
    else:
        break
tot = sum(counts.values())
m4 = sum(1 for c in counts.values() if c % 4 == 0)
print("samples %d bins %d mult4 %d" % (tot, len(counts), m4))
