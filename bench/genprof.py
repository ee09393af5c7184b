#!/usr/bin/env python3
"""Inputs for `make bench` (bench/bench.py); needs cc and nm.

  genprof.py big N M SEED DIR
      DIR/prog: N assembled functions of 48 bytes (every fifth static);
      DIR/gmon.out: a skewed histogram over them and about M random calls,
      drawn so that most functions end up in a few giant cycles.
  genprof.py merge P K SEED DIR
      DIR/prog: a C program of P functions compiled with -g (so gmon.sum
      names arcs by source line); DIR/gmon.0 .. gmon.K-1: K profiles of it,
      each a histogram and a few thousand calls drawn from one pool of
      call sites, as many runs of one program would give.
  genprof.py static DIR
      DIR/prog: the merge program (400 functions) linked statically with
      -pg, and DIR/gmon.out from running it (for -c).
  genprof.py lines P DIR
      DIR/prog: the merge program compiled with -g -pg and run: DIR/gmon.out
      (for -l).
  genprof.py onecu N DIR
      DIR/prog: one C file (DIR/prog.c) of N functions of about 66 lines
      each and comments making 250,000 lines in all -- static inline
      helpers, static functions inlined into their callers, switches,
      loops, rare paths split off by -O2, and in every 40th function an
      error path that -O2 moves to .text.unlikely (N = 1200: 0.93 MB of
      text) -- compiled with -O2 -g -pg as one unit, as an amalgamation
      such as SQLite's is, and run about 2 s: DIR/gmon.out (for -l at
      scale)."""
import os, random, struct, subprocess, sys

FS = 48                                         # bytes per assembled function


def nm(path):
    addr, size = {}, {}
    for line in subprocess.check_output(['nm', '-S', path]).decode().split('\n'):
        p = line.split()
        if len(p) == 4:
            addr[p[3]] = int(p[0], 16)
            size[p[3]] = int(p[1], 16)
        elif len(p) == 3:
            addr[p[2]] = int(p[0], 16)
    return addr, size


def gmon_header():
    return bytearray(b'gmon' + struct.pack('<I', 1) + bytes(12))


def hist_rec(lo, hi, bins, rate=100):
    return (b'\0' + struct.pack('<QQII', lo, hi, len(bins), rate) + b'seconds'.ljust(15, b'\0') + b's'
            + struct.pack('<%dH' % len(bins), *bins))


def arc_rec(frm, to, count):
    return b'\1' + struct.pack('<QQI', frm, to, count)


def big(n, m, seed, out):
    rnd = random.Random(seed)
    src = os.path.join(out, 'prog.s')
    with open(src, 'w') as f:
        f.write('.text\n')
        for i in range(n):
            f.write(('.local' if i % 5 == 0 else '.globl') + f' fn_{i}\n.type fn_{i},@function\nfn_{i}:\n')
            f.write(f'  push %rbp\n  mov %rsp,%rbp\n  .fill {FS - 6},1,0x90\n  pop %rbp\n  ret\n')
            f.write(f'.size fn_{i},.-fn_{i}\n')
        f.write('.globl _start\n_start: ret\n')
    subprocess.check_call(['cc', '-nostdlib', '-no-pie', '-Wl,-e,_start', '-o', os.path.join(out, 'prog'), src])
    os.unlink(src)
    addr, _ = nm(os.path.join(out, 'prog'))
    lo, hi = addr['fn_0'], addr['_start'] + 2
    bins = [0] * ((hi - lo) // 2)
    for _ in range(10 * n):
        i = min(int(rnd.paretovariate(1.2)) - 1, n - 1)
        i = (i * 7919) % n                      # hot functions spread over the text
        b = (addr[f'fn_{i}'] - lo) // 2 + rnd.randrange(FS // 2)
        bins[b] = min(bins[b] + rnd.choice((1, 1, 2, 3)), 65535)
    rec = gmon_header() + hist_rec(lo, hi, bins)
    arcs = {}
    for _ in range(m):
        a = rnd.randrange(n)
        b = (a * 13 + int(rnd.paretovariate(1.1) * 7)) % n if rnd.random() < 0.9 else rnd.randrange(n)
        arcs[a, b] = arcs.get((a, b), 0) + rnd.choice((1, 2, 3, 10, rnd.randrange(1, 1000)))
    parts = [rec]
    for (a, b), c in arcs.items():
        parts.append(arc_rec(addr[f'fn_{a}'] + 4 + rnd.randrange(FS - 8), addr[f'fn_{b}'] + 4, c))
    with open(os.path.join(out, 'gmon.out'), 'wb') as g:
        g.write(b''.join(parts))
    return len(arcs)


def c_program(p, seed, path):
    """P functions calling a few others each; main calls the first ones."""
    rnd = random.Random(seed)
    with open(path, 'w') as f:
        f.write('volatile unsigned sink;\n')
        for i in range(p):
            f.write(f'{"static " if i % 7 == 3 else ""}unsigned f{i}(unsigned x);\n')
        for i in range(p):
            callees = sorted(set(min(p - 1, i + int(rnd.paretovariate(1.0))) for _ in range(3)) - {i})
            f.write(f'{"static " if i % 7 == 3 else ""}unsigned f{i}(unsigned x)\n{{\n  unsigned y = x * {rnd.randrange(3, 99)}u + {i}u;\n')
            for k, c in enumerate(callees):
                f.write(f'  if ((x >> {k}) & 1)\n    y += f{c}(x >> 2);\n')
            f.write('  for (unsigned k = 0; k < (x & 7); k++)\n    y ^= y << 3;\n  sink = y;\n  return y;\n}\n')
        f.write('int main(int argc, char **argv)\n{\n  (void)argv;\n  unsigned t = 0;\n')
        f.write(f'  for (unsigned r = 0; r < 100u * (unsigned)argc; r++)\n    for (unsigned i = 0; i < {min(p, 50)}u; i++)\n      t += f0(r * 2654435761u + i);\n')
        f.write('  return (int)(t & 1);\n}\n')


def merge(p, k, seed, out):
    rnd = random.Random(seed)
    src = os.path.join(out, 'prog.c')
    c_program(p, seed, src)
    subprocess.check_call(['cc', '-g', '-O1', '-fno-inline', '-o', os.path.join(out, 'prog'), src])
    addr, size = nm(os.path.join(out, 'prog'))
    fns = [f'f{i}' for i in range(p) if f'f{i}' in addr]
    text = sorted(addr[f] for f in fns)
    lo, hi = text[0], max(addr[f] + size.get(f, 16) for f in fns)
    lo -= lo % 2
    hi += hi % 2
    nb = (hi - lo) // 2
    # the pool of call sites: (caller pc, callee entry)
    pool = []
    for _ in range(6 * p):
        a, b = rnd.choice(fns), rnd.choice(fns)
        pool.append((addr[a] + rnd.randrange(max(1, size.get(a, 16))), addr[b]))
    for j in range(k):
        bins = [0] * nb
        for _ in range(400):
            b = rnd.randrange(nb)
            bins[b] = min(bins[b] + 1, 65535)
        parts = [gmon_header(), hist_rec(lo, hi, bins)]
        for _ in range(3000):
            frm, to = pool[min(int(rnd.paretovariate(0.8)) - 1, len(pool) - 1)] if rnd.random() < 0.5 else rnd.choice(pool)
            parts.append(arc_rec(frm, to, rnd.randrange(1, 200)))
        with open(os.path.join(out, f'gmon.{j}'), 'wb') as g:
            g.write(b''.join(parts))


def onecu(n, out, cold=40):
    r = random.Random(25)
    src = ['#include <stdio.h>', '#include <stdlib.h>',
           'volatile unsigned long sink;', 'static unsigned long tab[256];',
           # an error path: gcc moves the blocks calling it to .text.unlikely
           '__attribute__((cold, noinline, noreturn))\nstatic void fail(const char *where, unsigned long x)\n{\n'
           '  fprintf(stderr, "%s: impossible %lu\\n", where, x);\n  abort();\n}']
    for h in range(8):
        src.append(f'static inline unsigned long mix{h}(unsigned long x, unsigned long y)\n{{\n'
                   f'  x ^= x << {h + 3};\n  x ^= x >> {h + 5};\n  x += y * {2 * h + 1}ul;\n'
                   f'  return x ^ tab[x & 255];\n}}')
    src += [f'unsigned long f{i}(unsigned long x, int d);' for i in range(n)]
    for i in range(n):
        a, b, c = r.randrange(n), r.randrange(n), r.randrange(n)
        h1, h2 = r.randrange(8), r.randrange(8)
        cases = '\n'.join(f'    case {k}:\n      /* {r.randrange(1000)} */\n'
                          f'      t += s >> {k + 1};\n      break;' for k in range(r.randrange(3, 9)))
        # a static helper called once: inlined into f{i}
        src.append(f'static unsigned long g{i}(unsigned long s, unsigned long t)\n{{\n'
                   f'  unsigned long u = s + t;\n  for (int j = 0; j < (int)(t & {r.choice([3, 7])}); j++) {{\n'
                   f'    u = (u << 3) ^ (u >> {h2 + 2});\n    if ((u & 7) == {r.randrange(8)})\n      u += t;\n  }}\n'
                   f'  return u;\n}}')
        # the comments an amalgamation has between its functions (SQLite:
        # 250,000 lines, 0.9 MB of code), as many as make the unit's
        # 250,000 lines (a function's code is 66 lines)
        src.append('/*\n' + ''.join(f'** f{i}, note {k}: {r.randrange(1 << 30):x} {r.randrange(1 << 30):x}\n'
                                     for k in range(max(10, 250000 // n - 68))) + '*/')
        # every COLD-th function has a checked error path, split off by
        # -O2 into f{i}.cold at the start of .text: its ranges then span
        # from there to its body, as SQLite's do (what makes BFD slow)
        check = (f'  if (x == 0xdeadbeefcafeul)\n    fail("f{i}", x);\n' if i % cold == cold - 1 else
                 f'  if (__builtin_expect(x == 0xdeadbeefcafeul, 0)) {{\n'
                 f'    fprintf(stderr, "f{i}: impossible %lu\\n", x);\n    abort();\n  }}\n')
        src.append(f'unsigned long f{i}(unsigned long x, int d)\n{{\n'
                   f'  unsigned long s = x, t = {r.randrange(1 << 20)}ul;\n' + check +
                   f'  for (int j = 0; j < (int)(x & {r.choice([3, 7, 15])}); j++) {{\n    s = mix{h1}(s, j);\n'
                   f'    if (s & 1)\n      t ^= s;\n    else\n      t += j;\n  }}\n'
                   f'  switch ((s >> 3) % 9) {{\n{cases}\n    default:\n      t -= s;\n      break;\n  }}\n'
                   f'  s = g{i}(s, t);\n'
                   f'  if (d > 0 && (s & 3) == 0)\n    s += f{a}(s, d - 1);\n'
                   f'  if (d > 1 && (s & 5) == 1)\n    s += f{b}(s, d - 2);\n'
                   f'  if (d > 2 && (s & 9) == 8)\n    s += f{c}(t, d - 3);\n'
                   f'  while (t > 1000000) {{\n    t >>= 1;\n    s += t & 15;\n  }}\n'
                   f'  return s + t;\n}}')
    # every function called, round after round, from call sites of its
    # own (one site calling thousands of functions through a table would
    # have glibc's mcount search a chain of thousands at every call)
    for g in range(0, n, 50):
        src.append(f'static void __attribute__((noinline)) run{g}(unsigned long i)\n{{\n' +
                   ''.join(f'  sink += f{k}(i * 7919ul + {k}, 3);\n' for k in range(g, min(g + 50, n))) + '}')
    src.append(f'int main(int argc, char **argv)\n{{\n  int n = argc > 1 ? atoi(argv[1]) : {10000000 // n};\n'
               f'  for (int i = 0; i < 256; i++)\n    tab[i] = i * 2654435761ul;\n'
               f'  for (int i = 0; i < n; i++) {{\n' +
               ''.join(f'    run{g}(i);\n' for g in range(0, n, 50)) + '  }\n  return 0;\n}')
    path = os.path.join(out, 'prog.c')
    open(path, 'w').write('\n'.join(src) + '\n')
    subprocess.check_call(['cc', '-O2', '-g', '-pg', '-o', os.path.join(out, 'prog'), path])
    subprocess.check_call([os.path.join(out, 'prog')], cwd=out)


def run_prog(out, flags, p):
    src = os.path.join(out, 'prog.c')
    c_program(p, 1, src)
    subprocess.check_call(['cc'] + flags + ['-o', os.path.join(out, 'prog'), src])
    subprocess.check_call([os.path.join(out, 'prog'), 'x', 'y', 'z', 'w'], cwd=out)


if __name__ == '__main__':
    what = sys.argv[1]
    if what == 'big':
        n, m, seed, out = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
        os.makedirs(out, exist_ok=True)
        print(big(n, m, seed, out))
    elif what == 'merge':
        p, k, seed, out = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
        os.makedirs(out, exist_ok=True)
        merge(p, k, seed, out)
    elif what == 'static':
        os.makedirs(sys.argv[2], exist_ok=True)
        run_prog(sys.argv[2], ['-O1', '-fno-inline', '-pg', '-static'], 400)
    elif what == 'lines':
        os.makedirs(sys.argv[3], exist_ok=True)
        run_prog(sys.argv[3], ['-g', '-O1', '-fno-inline', '-pg'], int(sys.argv[2]))
    elif what == 'onecu':
        os.makedirs(sys.argv[3], exist_ok=True)
        onecu(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(__doc__)
