#!/usr/bin/env python3
"""Probe lengths of libprof's arc-table hashes on adversarial sets of arcs.

Each set of (frompc, selfpc) pairs is put in a table of the size libprof
would have grown it to (load under 1/2, linear probing, arcs in their
first-call order) and the probes a lookup of each arc takes are counted:
the mean and the largest.  Hashes (home slot of a table of n slots):
  raw-old  x86-64's program path at first: ((f << 5) ^ s) >> 5
  raw      x86-64's program path now: bits 5.. of s * f
  raw-m    x86-64's program path before: bits 5.. of s * M * f (the
           constant factor's imul kept __fentry__'s path out of a line)
  raw-v    a multiply-only hash tried: v = s * M1 + f, bits 5.. of v * M2
           (as good, but 4 bytes longer in the stub)
  key      the key part (i386, aarch64, other objects' arcs): key =
           (f - lo) << 32 | (s - lo), bits 32.. of key * 0x61C88647
A set whose insertions pass LIMIT probes in all is cut short ("> mean").
Usage: bench/hashsim.py [hash ...]   (default: all)
"""
import random, sys
M64 = (1 << 64) - 1
M1, M2, K = 0x3C6EF372, 0x5BD1E995, 0x61C88647
LO = 0x400000
HASH = {
    'raw-old': lambda f, s, n: ((((f << 5) ^ s) & M64) >> 5) & (n - 1),
    'raw': lambda f, s, n: (((s * f) & M64) >> 5) & (n - 1),
    'raw-m': lambda f, s, n: ((((s * M2) & M64) * f & M64) >> 5) & (n - 1),
    'raw-v': lambda f, s, n: ((((s * M1 + f) & M64) * M2 & M64) >> 5) & (n - 1),
    'key': lambda f, s, n: ((((f - LO) << 32 | (s - LO)) * K & M64) >> 32) & (n - 1),
}
LIMIT = 30_000_000

def probes(arcs, h):
    n = 32
    while (len(arcs) + 1) * 2 > n: n *= 2
    t = bytearray(n); tot = mx = 0
    for k, (f, s) in enumerate(arcs):
        i = h(f, s, n); p = 1
        while t[i]: i = (i + 1) & (n - 1); p += 1
        t[i] = 1; tot += p; mx = max(mx, p)
        if tot > LIMIT: return '> %.0f/%d' % (tot / (k + 1), mx)
    return '%.2f/%d' % (tot / len(arcs), mx)

random.seed(1)
B = 0x401000
SETS = [
    ('400 sites stride 2 x 300 targets stride 32 (issue 35)', [(B + 2*i + 7, B + 0x10000 + 32*j + 9) for i in range(400) for j in range(300)]),
    ('400 sites stride 5 x 300 targets stride 48', [(B + 5*i + 7, B + 0x10000 + 48*j + 9) for i in range(400) for j in range(300)]),
    ('100k sites stride 5 x 1 target', [(B + 5*i, 0x900009) for i in range(100000)]),
    ('1 site x 60k targets stride 16', [(B + 5, B + 0x100000 + 16*j + 9) for j in range(60000)]),
    ('chain of 60k functions stride 32', [(B + 32*i + 20, B + 32*(i+1) + 9) for i in range(60000)]),
    ('chain of 60k functions stride 64', [(B + 64*i + 20, B + 64*(i+1) + 9) for i in range(60000)]),
    ('random 100k in 4 MB', [(B + random.randrange(1 << 22), B + 16*random.randrange(1 << 18) + 9) for i in range(100000)]),
] + [(f'60k callers stride {a} x 1 target', [(B + a*i + 13, 0x900009) for i in range(60000)]) for a in (16, 64, 256, 4096)] \
  + [(f'4k callers stride {a} x 16 targets stride {a}', [(B + a*i + 13, 0x900009 + a*j) for i in range(4096) for j in range(16)]) for a in (16, 64, 256, 4096)]

names = sys.argv[1:] or list(HASH)
print('%-52s %7s  %s' % ('set', 'arcs', '  '.join('%-14s' % n for n in names)))
for name, arcs in SETS:
    arcs = list(dict.fromkeys(arcs))
    print('%-52s %7d  %s' % (name, len(arcs), '  '.join('%-14s' % probes(arcs, HASH[n]) for n in names)), flush=True)
