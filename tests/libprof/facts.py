#!/usr/bin/env python3
# facts.py -- libprof's facts records in a gmon.out (gmon_out.h), for the
# tests: `facts.py dump FILE` prints "KEY VALUE" lines (the clock as a
# string; "lost N" for records without the mark); `facts.py strip IN OUT [32]`
# writes IN without them ([32]: a file of 4-byte addresses) (GNU's output on both must be the same).
# Little-endian files only (those libprof writes here).
import struct, sys

NAMES = {1: 'version', 2: 'hz', 3: 'text', 4: 'libc', 5: 'loader', 6: 'vdso', 7: 'other',
         8: 'libprof', 9: 'off', 10: 'cpu_us', 11: 'not_taken', 12: 'objects', 13: 'runs',
         14: 'clock', 15: 'threads', 16: 'lost_calls', 17: 'kernel'}


def width():
    """8, or 4 for a file of 4-byte addresses (the last argument 32)."""
    return 4 if sys.argv[-1] == '32' and len(sys.argv) > (4 if sys.argv[1] == 'strip' else 3) else 8


def base(as_):
    return 0xfffffffffffff000 if as_ == 8 else 0xfffff000


def records(data):
    """(kind, start, end, fields) for each record after the header."""
    as_ = width()
    fa = '<Q' if as_ == 8 else '<I'
    i = 20
    while i < len(data):
        tag = data[i]
        if tag == 0:
            lo = struct.unpack(fa, data[i + 1:i + 1 + as_])[0]
            hi = struct.unpack(fa, data[i + 1 + as_:i + 1 + 2 * as_])[0]
            n, rate = struct.unpack('<II', data[i + 1 + 2 * as_:i + 9 + 2 * as_])
            dim = data[i + 9 + 2 * as_:i + 24 + 2 * as_]
            end = i + 25 + 2 * as_ + 2 * n
            fact = base(as_) <= lo < base(as_) + 4096 and n == 1 and hi == lo + 4
            yield ('fact' if fact else 'hist'), i, end, (lo, hi, n, rate, dim)
            i = end
        elif tag == 1:
            yield 'arc', i, i + 1 + 2 * as_ + 4, None
            i += 1 + 2 * as_ + 4
        else:
            raise SystemExit('facts.py: tag %d at %d' % (tag, i))


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    data = open(path, 'rb').read()
    if cmd == 'strip':
        out = bytearray(data[:20])
        for kind, a, b, _ in records(data):
            if kind != 'fact':
                out += data[a:b]
        open(sys.argv[3], 'wb').write(out)
        return
    clock = {}
    lost = 0
    as_ = width()
    for kind, a, b, f in records(data):
        if kind != 'fact':
            continue
        lo, hi, n, rate, dim = f
        if dim[8] != ord('L'):
            lost += 1
            continue
        key, chunk = (lo - base(as_)) // 4 // 8, (lo - base(as_)) // 4 % 8
        v = int.from_bytes(dim[9:15], 'little')
        if NAMES.get(key) == 'clock':
            clock[chunk] = v.to_bytes(6, 'little')
        else:
            print(NAMES.get(key, 'key%d' % key), v)
    if clock:
        print('clock', b''.join(clock[c] for c in sorted(clock)).rstrip(b'\0').decode())
    if lost:
        print('lost', lost)


main()
