#!/usr/bin/env python3
"""house.py -- the analyzer's files and their includes as a Graphviz graph.

    python3 doc/house.py [--folders] [ROOT] | dot -Tpng -o house.png

One box per source (a .c with its .h), its lines in the label; folders are
boxed clusters; an arrow A -> B is "A includes B" (drawn downwards, so the
layers read from the driver at the top to util/ at the bottom).  Reads the
#include "..." lines only: libprof/, tests/, bench/ and doc/ are left out.
With --folders each folder is one box (its lines and files counted).
"""
import os, re, sys

args = sys.argv[1:]
collapse = '--folders' in args
args = [a for a in args if a != '--folders']
root = args[0] if args else '.'
skip = {'libprof', 'tests', 'bench', 'doc', 'asan', '.git', 'autom4te.cache'}
files = []
for d, dirs, names in os.walk(root):
    dirs[:] = sorted(x for x in dirs if x not in skip)
    for n in sorted(names):
        if n.endswith(('.c', '.h')):
            files.append(os.path.relpath(os.path.join(d, n), root))

def unit(f):                      # a .c and its .h are one box
    if collapse and os.path.dirname(f):
        return os.path.dirname(f) + '/'
    return f[:-2]

def lines(f):
    with open(os.path.join(root, f), encoding='latin-1') as h:
        return h.read().count('\n')

size, edges, count = {}, set(), {}
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
for f in files:
    size[unit(f)] = size.get(unit(f), 0) + lines(f)
    if f.endswith('.c'):
        count[unit(f)] = count.get(unit(f), 0) + 1
for f in files:
    with open(os.path.join(root, f), encoding='latin-1') as h:
        text = h.read()
    for name in inc.findall(text):
        for cand in (os.path.normpath(os.path.join(os.path.dirname(f), name)), os.path.normpath(name)):
            if cand in files:
                if unit(cand) != unit(f):
                    edges.add((unit(f), unit(cand)))
                break

folders = {}
for u in size:
    folders.setdefault('' if u.endswith('/') else os.path.dirname(u), []).append(u)

print('digraph house {')
print('  graph [rankdir=TB, nodesep=0.15, ranksep=0.35, fontname="Helvetica", fontsize=12];')
print('  node [shape=box, style="rounded,filled", fillcolor="#f4f1ea", fontname="Helvetica", fontsize=10];')
print('  edge [color="#00000040", arrowsize=0.5];')
for d, us in sorted(folders.items()):
    if d:
        print('  subgraph "cluster_%s" { label="%s/"; style="rounded,filled"; fillcolor="#dde8f0";' % (d, d))
    for u in us:
        if u.endswith('/'):
            print('    "%s" [label="%s\\n%d lines, %d files", fillcolor="#dde8f0"];' % (u, u, size[u], count.get(u, 0)))
            continue
        print('    "%s" [label="%s\\n%d"%s];' % (u, os.path.basename(u), size[u],
              '' if d else ', fillcolor="#f0e2c8"'))
    if d:
        print('  }')
for a, b in sorted(edges):
    print('  "%s" -> "%s";' % (a, b))
print('}')
