#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/TARGET/)
from the suite's own files: profiles in every layout (GNU 64/32-bit, both
byte orders, BSD, 4.4BSD), the -R maps and -S tables, code of the callscan
program, and sources.  Deterministic; run it again after adding cases."""
import os, struct, glob
here = os.path.dirname(os.path.abspath(__file__))
tests = os.path.dirname(here)
out = os.path.join(here, 'corpus')

def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), 'wb').write(data)

def gnu_records(d, w):
    """(tag, fields...) of a GNU file with W-byte addresses, little-endian."""
    p, recs = 20, []
    a = 'Q' if w == 8 else 'I'
    while p < len(d):
        t = d[p]
        if t == 0:
            lo, hi, n, r = struct.unpack_from('<' + a + a + 'II', d, p + 1)
            q = p + 1 + 2 * w + 8
            dim = d[q:q + 16]
            bins = struct.unpack_from('<%dH' % n, d, q + 16)
            recs.append(('h', lo, hi, n, r, dim, bins)); p = q + 16 + 2 * n
        elif t == 1:
            f, s, c = struct.unpack_from('<' + a + a + 'I', d, p + 1)
            recs.append(('a', f, s, c)); p += 1 + 2 * w + 4
        elif t == 2:
            n = struct.unpack_from('<I', d, p + 1)[0]
            ents = [struct.unpack_from('<' + a + a, d, p + 5 + 2 * w * i) for i in range(n)]
            recs.append(('b', ents)); p += 5 + 2 * w * n
        else:
            break
    return recs

def gnu_write(recs, w, be):
    e = '>' if be else '<'
    a = 'Q' if w == 8 else 'I'
    o = bytearray(b'gmon' + struct.pack(e + 'I', 1) + bytes(12))
    for r in recs:
        if r[0] == 'h':
            _, lo, hi, n, rate, dim, bins = r
            o += b'\0' + struct.pack(e + a + a + 'II', lo, hi, n, rate) + dim
            o += struct.pack(e + '%dH' % n, *bins)
        elif r[0] == 'a':
            o += b'\1' + struct.pack(e + a + a + 'I', *r[1:])
        else:
            o += b'\2' + struct.pack(e + 'I', len(r[1]))
            for ent in r[1]: o += struct.pack(e + a + a, *ent)
    return bytes(o)

def small(recs, nbins=64, narcs=12):
    o = []
    for r in recs:
        if r[0] == 'h':
            _, lo, hi, n, rate, dim, bins = r
            k = min(n, nbins)
            o.append(('h', lo, lo + (hi - lo) * k // max(n, 1), k, rate, dim, bins[:k]))
        elif r[0] == 'a' and narcs:
            narcs -= 1; o.append(r)
        elif r[0] == 'b':
            o.append(('b', r[1][:8]))
    return o

# profiles: selector byte (bit 0: 32-bit, bit 1: big-endian, bits 2-3: format)
for case, w in (('multi', 8), ('cycles', 8), ('cycles_m32', 4), ('synth_8_1', 8), ('callscan', 4), ('dotted', 8)):
    d = open(os.path.join(tests, 'cases', case, 'gmon.out'), 'rb').read()
    recs = small(gnu_records(d, w))
    for be in (0, 1):
        for fmt in (0, 3):
            sel = (w == 4) | be << 1 | fmt << 2
            put('profile', '%s_%s_%d' % (case, 'be' if be else 'le', fmt), bytes([sel]) + gnu_write(recs, w, be))
    # BSD and 4.4BSD
    h = [r for r in recs if r[0] == 'h'][0]
    arcs = [r for r in recs if r[0] == 'a']
    a = 'Q' if w == 8 else 'I'
    for be in (0, 1):
        e = '>' if be else '<'
        bins = struct.pack(e + '%dH' % h[3], *h[6])
        arc = b''.join(struct.pack(e + a + a + a, f, s, c) for _, f, s, c in arcs)
        old = struct.pack(e + a + a + 'I', h[1], h[2], 2 * w + 4 + len(bins)) + bins + arc
        new = struct.pack(e + a + a + 'III', h[1], h[2], 2 * w + 20 + len(bins), 0x51879, 100) + bytes(12) + bins + arc
        put('profile', '%s_bsd_%d' % (case, be), bytes([(w == 4) | be << 1 | 1 << 2]) + old)
        put('profile', '%s_44bsd_%d' % (case, be), bytes([(w == 4) | be << 1 | 2 << 2]) + new)
        put('profile', '%s_bsdauto_%d' % (case, be), bytes([(w == 4) | be << 1]) + new)
for f in ('bad_eof/gmon.bad', 'bad_bins/gmon.bad', 'headeronly/gmon.e', 'bad_short/gmon.bad'):
    put('profile', f.replace('/', '_'), b'\0' + open(os.path.join(tests, 'cases', f), 'rb').read()[:4096])

# -R maps and -S tables (one reader each, same bytes through both)
for f in glob.glob(os.path.join(tests, 'progs', 'maps', '*.map')) + glob.glob(os.path.join(tests, 'cases', 'extsyms', '*.syms')):
    put('map', os.path.basename(f), open(f, 'rb').read()[:8192])
put('map', 'quirks', b' a.o:0 T main\n\n\tb.o:beta\nc.o:0 T \nc.o:x y z\n')

# symspecs: table byte + spec per line; 'k' lines are -k pairs
put('symspec', 'basic', b'\x04main\n\x05alpha.c\n\x00alpha.c:step\n\x0112\n\x02:helper\nkmain/beta\n\x06file.c:34\n\x08_Z3fooi\n')

# -c: header (nsyms, scale, lowpc, vma, highpc) then code with calls
code = bytearray()
for i in range(16):
    code += b'\x55\x89\xe5\xe8' + struct.pack('<i', 0x20 + 3 * i) + b'\x90' * 6 + b'\xc3'
put('calls', 'forward', bytes([8, 2, 0x10, 0, 0, 0, 0, 0]) + struct.pack('<I', 0x400) + bytes(code))
cs = os.path.join(tests, 'progs', 'callscan.s')
put('calls', 'backward', bytes([5, 0, 0x10, 3, 0, 0, 0, 0]) + struct.pack('<I', 0x1000) + b'\xe8\xfb\xff\xff\xff\xe8\x00\x00\x00\x00' * 8)

# sources: (-t/-z byte, n, line/count pairs) then the file
for f in (os.path.join(tests, 'progs', 'multi', 'alpha.c'), os.path.join(tests, 'progs', 'cycles.c')):
    put('annotate', os.path.basename(f), bytes([0x83, 3, 1, 5, 2, 0, 3, 201]) + open(f, 'rb').read()[:4096])
put('annotate', 'nul_nonl', bytes([2, 2, 1, 9, 1, 250]) + b'int f(void) { return \0; }\nabc\0def\n\0\nlast')

# stack files (fuzz_stacks: its table has 16 functions from 0x1000, 0x40
# apart): the program, a library that cannot be read, the vdso, unknown
# PCs, every end, repeated stacks, a later kind of record
hdr = b'libprof-stacks 1\nhz 100\ndepth 8\nsamples 40\ndropped 2\n'
objs = (b'object 0 0x0 0x1000 0x1400 - /fuzz/prog\n'
        b'object 1 0x7f0000000000 0x7f0000001000 0x7f0000002000 0011223344556677 /nonexistent/libx.so\n'
        b'object 2 0x7ffd00000000 0x7ffd00000000 0x7ffd00001000 - [vdso]\n')
stk = (b'thread 7 main\nthread 8 \nstack 7 5 c 0x1010 0x1050 0x1001\n'
       b'stack 7 5 c 0x1010 0x1050 0x1001\nstack 8 3 t 0x7f0000001234 0x1099 0x1001\n'
       b'stack 8 2 b 0x7ffd00000010 0x13c1\nstack 7 1 c 0x5\nlater 1 2\n'
       b'stack 7 9 c 0x1100 0x1100 0x1100 0x1100 0x1100 0x1100 0x1100 0x1100\n')
put('stacks', 'basic', hdr + objs + stk)
put('stacks', 'pie', hdr.replace(b'depth 8', b'depth 64') + b'object 0 0x555555554000 0x555555555000 0x555555555400 - p\n'
    + b'stack 1 2 c 0x555555555010 0x555555555101\n')
put('stacks', 'cut', hdr + objs + b'stack 7 5 c 0x1010 0x10')
# version 2: load generations (two objects at one place, by epoch), a
# start and a duration, a clock line
put('stacks', 'v2', b'libprof-stacks 2\nhz 100\nclock itimer\ndepth 8\nsamples 9\ndropped 3\nstart 1700000000000000000\n'
    b'duration 2500000000\n' + objs + b'object 3 0x7f0000000000 0x7f0000001000 0x7f0000002000 - /nonexistent/liby.so\n'
    b'span 1 1 3\nspan 3 3 -\nthread 7 main\nstack 7 5 c 2 0x7f0000001234 0x1050\n'
    b'stack 7 3 c 4 0x7f0000001234 0x1050\nstack 7 1 t 0 0x7f0000001234\n')
# blind marks: a stack in no live load, named after the next one or not
put('stacks', 'blind', b'libprof-stacks 2\nhz 100\ndepth 8\n' + objs + b'span 1 4 6\nblind 2\nblind 3\nblind 7 -\n'
    b'stack 7 5 c 1 0x7f0000001234 0x1050\nstack 7 2 c 3 0x7f0000001234 0x1050\nstack 7 1 c 6 0x7f0000001234\n')

# fuzz_objects: a flags byte, the manifest (@D: the scratch directory, the
# profile being @D/p; @T: tests/), then "\n@@NAME\n" and each file's bytes
# ("|NAME": a FIFO, "NAME>TARGET": a symbolic link, "p.stacks": the stack
# file).  The object is cases/multi/bin (its own gmon.out as its file), by
# several spellings; or a small ELF made here, in the folder itself.
def tiny_elf(nfunc=4):
    """An ELF64 shared object of section headers only: .text, .symtab
    (NFUNC functions, a local, an IFUNC, an undefined one, a zero-sized
    one), .strtab, .shstrtab."""
    text = b'\xc3' * 0x40
    names = b'\0' + b'\0'.join(b'f%d' % i for i in range(nfunc)) + b'\0loc\0ifn\0und\0nosize\0'
    def sym(name, info, shndx, value, size):
        return struct.pack('<IBBHQQ', name, info, 0, shndx, value, size)
    syms = sym(0, 0, 0, 0, 0)
    off = 1
    for i in range(nfunc):
        syms += sym(off, 0x12, 1, 0x1000 + 0x10 * i, 0x10); off += len(b'f%d' % i) + 1
    syms += sym(off, 0x02, 1, 0x1030, 8); off += 4       # local
    syms += sym(off, 0x1a, 1, 0x1038, 8); off += 4       # GNU IFUNC
    syms += sym(off, 0x12, 0, 0, 0); off += 4            # undefined
    syms += sym(off, 0x12, 1, 0x1008, 0)                 # no size
    shstr = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
    body = text + syms + names + shstr
    o_text, o_sym = 64, 64 + len(text)
    o_str, o_shs = o_sym + len(syms), o_sym + len(syms) + len(names)
    shoff = 64 + len(body)
    shoff += (-shoff) % 8
    hdr = (b'\x7fELF\x02\x01\x01' + bytes(9) + struct.pack('<HHIQQQIHHHHHH', 3, 62, 1, 0, 0, shoff,
           0, 64, 0, 0, 64, 5, 4))
    def sh(name, typ, flags, addr, off, size, link, info, align, ent):
        return struct.pack('<IIQQQQIIQQ', name, typ, flags, addr, off, size, link, info, align, ent)
    shdrs = (bytes(64) + sh(1, 1, 6, 0x1000, o_text, len(text), 0, 0, 16, 0)
             + sh(7, 2, 0, 0, o_sym, len(syms), 3, 2, 8, 24) + sh(15, 3, 0, 0, o_str, len(names), 0, 0, 1, 0)
             + sh(23, 3, 0, 0, o_shs, len(shstr), 0, 0, 1, 0))
    return hdr + body + bytes(shoff - 64 - len(body)) + shdrs

mb = os.path.join(tests, 'cases', 'multi')
mgmon = open(os.path.join(mb, 'gmon.out'), 'rb').read()
mid = b'8ffd4ec1b7519d3ef79d9c515edbd7a036ab0e34'
def man(*lines):
    return b'libprof-objects 1\n# file build-id load-base text-start text-end path\n' + b''.join(l + b'\n' for l in lines)
def line(f, path, bid=mid, lo=0x1090, hi=0x1449):
    return b'%s %s 0x7f0000000000 0x%x 0x%x %s' % (f, bid, lo, hi, path)
def files(*fs):
    return b''.join(b'\n@@' + n + b'\n' + d for n, d in fs)
put('objects', 'multi', b'\0' + man(line(b'1-bin', b'@T/cases/multi/bin')) + files((b'1-bin', mgmon)))
put('objects', 'spellings', b'\1' + man(line(b'1-bin', b'@T/cases/multi/bin'), line(b'2-bin', b'@T/cases/./multi//bin'),
                                       line(b'3-bin', b'@T/cases/multi/../multi/bin'), line(b'4-bin', b'@D/p.objects/ln'))
    + files((b'1-bin', mgmon), (b'2-bin', mgmon), (b'3-bin>1-bin', b''), (b'ln>@T/cases/multi/bin', b'')))
put('objects', 'badlines', b'\2' + man(b'.. - 0 0 100 /x', line(b'1-bin', b'@T/cases/multi/bin'), b'junk',
                                      line(b'2-bin', b'@T/cases/multi/bin'), line(b'3-gone', b'/nonexistent/lib.so'),
                                      line(b'4-bin', b'[vdso]', b'-'), line(b'5-bin', b'@T/cases//multi/bin', b'00112233'))
    + files((b'1-bin', mgmon), (b'|2-bin', b''), (b'4-bin', mgmon[:40]), (b'5-bin', mgmon)))
put('objects', 'stacks', b'\x08' + man(line(b'1-bin', b'@T/cases/multi/bin')) + files((b'1-bin', mgmon),
    (b'p.stacks', b'libprof-stacks 1\nhz 100\ndepth 4\nobject 0 0x0 0x1000 0x1400 - prog\n'
     b'object 1 0x7f0000000000 0x7f0000001090 0x7f0000001449 ' + mid + b' @T/cases/./multi/bin\n'
     b'object 2 0x7e0000000000 0x7e0000001090 0x7e0000001449 - @T/cases/multi//bin\n'
     b'thread 1 main\nstack 1 3 c 0x7f00000010a0 0x7e0000001101 0x1001\nstack 1 1 c 0x5\n')))
elf = tiny_elf()
put('objects', 'elf', b'\0' + man(line(b'1-lib', b'@D/p.objects/lib.so', b'-', 0x1000, 0x1040),
                                  line(b'2-lib', b'@D/p.objects/./lib.so', b'-', 0x1000, 0x1040))
    + files((b'lib.so', elf), (b'1-lib', gnu_write([('h', 0x1000, 0x1040, 16, 100, b'seconds'.ljust(15, b'\0') + b's',
                                                    tuple(range(16))), ('a', 0x1001, 0x1010, 7)], 8, False)),
            (b'2-lib', mgmon[:20])))
# stack files: none of the frames in a function (--stack-times' empty
# table), no stack at all, one object by several spellings
put('stacks', 'nofunc', hdr + objs + b'thread 7 main\nstack 7 1 c 0x5\nstack 7 2 c 0x7f0000001234\n')
put('stacks', 'nostack', hdr + objs)
put('stacks', 'spellings', hdr + b'object 0 0x0 0x1000 0x1400 - /fuzz/prog\n'
    + b''.join(b'object %d 0x%x 0x%x 0x%x - %s\n' % (k + 1, (k + 1) << 36, ((k + 1) << 36) + 0x1090, ((k + 1) << 36) + 0x1449, p)
               for k, p in enumerate([b'../cases/multi/bin', b'../cases/./multi/bin', b'..//cases/multi/bin', b'../cases/multi/../multi/bin']))
    + b''.join(b'stack 7 1 c 0x%x 0x1001\n' % (((k + 1) << 36) + 0x10a0) for k in range(4)))
