"""Shared by synth.py and ladder.py: a tiny executable of N functions s0..
(32 bytes each, the ones in STATICS local) and the header of a GNU
gmon.out histogram for it."""
import os, struct, subprocess

SIZE = 32


def build(out, n, statics=()):
    """Assembles DIR/bin; returns {symbol: address}."""
    src = os.path.join(out, 'bin.s')
    with open(src, 'w') as f:
        f.write('.text\n')
        for i in range(n):
            f.write(('.local' if i in statics else '.globl') + f' s{i}\n.type s{i},@function\ns{i}:\n')
            f.write('  nop\n' * (SIZE - 1) + '  ret\n' + f'.size s{i},.-s{i}\n')
        f.write('.globl _start\n_start: ret\n')
    subprocess.check_call(['cc', '-nostdlib', '-no-pie', '-Wl,-e,_start', '-o', os.path.join(out, 'bin'), src])
    os.unlink(src)
    addr = {}
    for line in subprocess.check_output(['nm', os.path.join(out, 'bin')]).decode().split('\n'):
        p = line.split()
        if len(p) == 3:
            addr[p[2]] = int(p[0], 16)
    return addr


def hist_record(addr, bins):
    """The file header and one histogram record over s0.._start (BINS: a
    list of counts per 2 bytes, or None for an empty histogram)."""
    lo, hi = addr['s0'], addr['_start'] + 2
    nb = (hi - lo) // 2
    bins = bins or [0] * nb
    rec = bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))
    rec += b'\0' + struct.pack('<QQII', lo, hi, nb, 100) + b'seconds'.ljust(15, b'\0') + b's'
    rec += struct.pack('<%dH' % nb, *bins)
    return rec


def nbins(addr):
    return (addr['_start'] + 2 - addr['s0']) // 2
