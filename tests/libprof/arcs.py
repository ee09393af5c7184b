#!/usr/bin/env python3
"""arcs.py [-m32] GMON: the arc records of a GNU gmon.out (64-bit layout,
or 32-bit with -m32), one "FROM SELF COUNT" line each (addresses in
hexadecimal), records of one pair summed, sorted.

arcs.py --json: from a gprof --json report on standard input, one
"CALLER|CALLEE|CALLS" line per arc of the call graph, sorted."""
import json, struct, sys
if sys.argv[1] == '--json':
    out = set()
    # (a caller with no time and no calls has no entry of its own: its
    # arcs are read from its callees' parents)
    for e in json.load(sys.stdin)['call_graph']['entries']:
        for c in e.get('children', []):
            out.add('%s|%s|%d' % (e['name'], c['name'], c['calls']))
        for p in e.get('parents', []):
            out.add('%s|%s|%d' % (p['name'], e['name'], p['calls']))
    print('\n'.join(sorted(out)))
    sys.exit(0)
m32 = sys.argv[1] == '-m32'
a = 4 if m32 else 8
d = open(sys.argv[2 if m32 else 1], 'rb').read()
off, arcs = 20, {}
while off < len(d):
    tag = d[off]; off += 1
    if tag == 0:
        lo, hi, n, rate = struct.unpack('<IIII' if m32 else '<QQII', d[off:off + 2 * a + 8]); off += 2 * a + 8 + 16 + 2 * n
    elif tag == 1:
        f, s, c = struct.unpack('<III' if m32 else '<QQI', d[off:off + 2 * a + 4]); off += 2 * a + 4
        arcs[(f, s)] = arcs.get((f, s), 0) + c
    else:
        break
for (f, s), c in sorted(arcs.items()):
    print('%x %x %d' % (f, s, c))
