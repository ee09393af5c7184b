#!/usr/bin/env python3
"""names.py -- tests/names.sh's checks of the names gprof's exports give.

  names.py folded STACKFILE GOT
      The folded stacks gprof should write for STACKFILE (a libprof
      stack file, version 1 or 2), against GOT (gprof's --folded): each
      frame of the program is the function of the program's ELF symbol
      table (readelf -sW, FUNC symbols with their sizes) that holds its
      address (a return address minus 1), GCC's clones included; frames
      of other objects, and of no function, are compared as '*' (GOT's
      frames that are no function of the program likewise).  A stack
      that does not end in 'c' starts at [truncated]; dropped samples
      are a [dropped] line.  Prints what it compared; exit 1 on a
      difference.
  names.py pprof NONE FORCE
      `go tool pprof -raw` of one profile without symbolization (the
      names gprof wrote) and with -symbolize=force (what pprof finds
      through the mappings): every location pprof names must have
      gprof's name (less its " [object]"), and each mapping named in
      MAPS (the further arguments: file base names) must have one.
"""
import collections
import re
import subprocess
import sys


def funcs(path):
    out = subprocess.run(['readelf', '-sW', path], capture_output=True, text=True).stdout
    v = []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] in ('FUNC', 'IFUNC') and f[6] != 'UND':
            try:
                a, n = int(f[1], 16), int(f[2], 0)
            except ValueError:
                continue
            if a and n:
                v.append((a, a + n, f[7].split('@')[0]))
    return sorted(set(v))


def read_stacks(path):
    objs, spans, stacks, dropped, version = {}, {}, [], 0, 1
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == 'libprof-stacks':
            version = int(f[1])
        elif f[0] == 'object':
            objs[int(f[1])] = (int(f[2], 16), int(f[3], 16), int(f[4], 16), ' '.join(f[6:]))
        elif f[0] == 'span':
            spans[int(f[1])] = (int(f[2]), (1 << 64) if f[3] == '-' else int(f[3]))
        elif f[0] == 'dropped':
            dropped = int(f[1])
        elif f[0] == 'stack':
            epoch = int(f[4]) if version >= 2 else 0
            pcs = [int(x, 16) for x in f[(5 if version >= 2 else 4):]]
            stacks.append((int(f[2]), f[3], epoch, pcs))
    return objs, spans, stacks, dropped


def folded(stackfile, got):
    objs, spans, stacks, dropped = read_stacks(stackfile)
    base, lo, hi, prog = objs[0]
    fv = funcs(prog)
    names = {n for _, _, n in fv}
    starts = [a for a, _, _ in fv]

    def name(pc, leaf):
        at = pc if leaf else pc - 1
        # the object live then: the program's frames only are named
        owner = None
        for k, (b, l, h, p) in objs.items():
            fr, to = spans.get(k, (0, 1 << 64))
            if l <= at < h and fr <= epoch < to:
                owner = k
        if owner != 0:
            return '*'
        a = at - base
        best = '*'
        for s, e, n in fv:
            if s <= a < e:
                best = n
                break
        return best

    want = collections.Counter()
    for count, end, epoch, pcs in stacks:
        fr = [name(pc, i == 0) for i, pc in enumerate(pcs)][::-1]
        if end != 'c':
            fr = ['[truncated]'] + fr
        want[';'.join(fr)] += count
    if dropped:
        want['[dropped]'] += dropped
    have = collections.Counter()
    for line in open(got):
        path, _, n = line.rstrip('\n').rpartition(' ')
        fr = path.split(';')
        fr = [x if x in names or (i == 0 and x in ('[truncated]', '[dropped]')) else '*'
              for i, x in enumerate(fr)]
        have[';'.join(fr)] += int(n)
    if want != have:
        d = sorted(set(want.items()) ^ set(have.items()))[:6]
        print(f'folded differs: {d}')
        return 1
    used = sorted({x for k in want for x in k.split(';') if x in names})
    print(f'{len(want)} stacks, {sum(want.values())} samples, {len(used)} functions of the program: '
          f'{" ".join(used)}')
    return 0


LOC = re.compile(r'^\s*(\d+): (0x[0-9a-f]+) M=(\d+) (.*?) (\S*):(\d+) s=\d+$')


def raw(path):
    locs, maps, part = {}, {}, None
    for line in open(path):
        line = line.rstrip('\n')
        if line in ('Locations', 'Mappings'):
            part = line
            continue
        if part == 'Locations':
            m = LOC.match(line)
            if m:
                locs[int(m.group(1))] = (int(m.group(3)), m.group(4).strip(), line.split(' M=', 1)[1])
        elif part == 'Mappings':
            m = re.match(r'^(\d+): \S+ (\S+)', line)
            if m:
                maps[int(m.group(1))] = m.group(2).rsplit('/', 1)[-1]
    return locs, maps


def pprof(none, force, want_maps):
    a, maps = raw(none)
    b, _ = raw(force)
    named = collections.Counter()
    bad = []
    for i, (m, n, whole) in b.items():
        if not n or n.startswith('[') or whole == a.get(i, (0, '', ''))[2]:
            continue           # pprof found nothing there, or kept ours
        ours = re.sub(r' \[[^]]*\]$', '', a.get(i, (0, '', ''))[1])
        # (a sanitizer's runtime defines its interceptors under two names
        # at one address: malloc and __interceptor_malloc; either is right)
        if ours != n and re.match(r'lib(a|ub|t)san', maps.get(m) or ''):
            continue
        if ours != n:
            bad.append((maps.get(m), ours, n))
        named[maps.get(m)] += 1
    if bad:
        print(f'pprof names otherwise: {bad[:5]}')
        return 1
    miss = [w for w in want_maps if not named[w]]
    if miss:
        print(f'no location of {" ".join(miss)} symbolized by pprof ({dict(named)})')
        return 1
    print(f'{sum(named.values())} locations named alike: ' +
          ', '.join(f'{k} {v}' for k, v in sorted(named.items())))
    return 0


if __name__ == '__main__':
    if sys.argv[1] == 'folded':
        sys.exit(folded(sys.argv[2], sys.argv[3]))
    if sys.argv[1] == 'pprof':
        sys.exit(pprof(sys.argv[2], sys.argv[3], sys.argv[4:]))
    sys.exit(2)
