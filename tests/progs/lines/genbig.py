#!/usr/bin/env python3
"""genbig.py NFILES NFUNCS DIR: writes a C program of NFUNCS functions over NFILES files
(about 12 lines each, loops, an inline helper from a header, calls between them) for the
line-level tests: big_main.c, big_N.c, big.h."""
import os, random, sys
nf, nfn, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
r = random.Random(7)
open(os.path.join(d, "big.h"), "w").write(
    "static inline unsigned long step(unsigned long x)\n{\n  x ^= x << 7;\n  x ^= x >> 9;\n  return x;\n}\n"
    "extern volatile unsigned long big_sink;\n" +
    "".join(f"unsigned long f{i}(unsigned long x, int d);\n" for i in range(nfn)))
per = (nfn + nf - 1) // nf
for k in range(nf):
    out = ['#include "big.h"']
    for i in range(k * per, min(nfn, (k + 1) * per)):
        a, b = r.randrange(nfn), r.randrange(nfn)
        out.append(f"unsigned long f{i}(unsigned long x, int d)\n{{\n  unsigned long s = x;\n"
                   f"  for (int j = 0; j < {r.randrange(1, 40)}; j++) {{\n    s += step(s + j);\n"
                   f"    if (s & 1)\n      s ^= j;\n  }}\n  if (d > 0 && (s & 3) == 0)\n"
                   f"    s += f{a}(s, d - 1);\n  if (d > 1 && (s & 5) == 1)\n    s += f{b}(s, d - 2);\n  return s;\n}}")
    open(os.path.join(d, f"big_{k}.c"), "w").write("\n".join(out) + "\n")
open(os.path.join(d, "big_main.c"), "w").write(
    '#include <stdlib.h>\n#include "big.h"\nvolatile unsigned long big_sink;\n'
    'int main(int argc, char **argv)\n{\n  int n = argc > 1 ? atoi(argv[1]) : 2000;\n'
    f'  for (int i = 0; i < n; i++)\n    big_sink += f{0}(i, 6) + f{nfn // 2}(i, 6) + f{nfn - 1}(i, 5);\n  return 0;\n}}\n')
