#!/usr/bin/env python3
"""Checks an export against the text report of the same run.

  exportcheck.py json FILE.json REPORT.txt
      Renders the flat profile rows, the call graph entries and the -C
      lines from the JSON with the text's formats and compares them with
      the report, line for line (so every figure, name, index and order
      agrees); the index's entries are compared as a set.  Prints what it
      compared; exit 1 on a difference or when nothing was compared.
  exportcheck.py callgrind FILE.json ANNOTATE.txt
      ANNOTATE.txt is `callgrind_annotate --threshold=100` on the callgrind
      file: its total and each function's self cost (microseconds) must
      agree with the JSON's flat profile (the same run's).
  exportcheck.py inclusive SELF.ann INCL.ann FILE.cg [FILE.json]
      callgrind_annotate's tables without and with --inclusive=yes: no
      function's inclusive cost below its self cost.  In the callgrind
      file every called function's calls in cost its self cost plus its
      calls out, exactly; with the JSON (no -l), each function outside a
      cycle costs its self + children seconds, within rounding.
  exportcheck.py dot FILE.json FILE.dot [NODE% EDGE% [MAX-NODES]]
      The DOT file has exactly the nodes the thresholds (0.5 and 0.1 by
      default) and the node limit (200) keep of the JSON's call graph, and
      the heaviest of the edges between them (at most 3 per node).
  exportcheck.py svg FILE.json FILE.svg
      Every call-graph function's name shows in the picture dot drew."""
import json, math, re, sys

PREFIX = {'K': 1e-3, '': 1, 'm': 1e3, 'u': 1e6, 'n': 1e9, 'p': 1e12, 'f': 1e15, 'a': 1e18, 'T': 1e-12}


def num(v):
    return float('nan') if v is None else v


def fix_nan(line):
    return line.replace('-nan', ' nan')


def name_of(x, cycle=None, printed=True):
    s = x['display']
    if cycle: s += ' <cycle %d>' % cycle
    if x['index'] is None: return s
    return s + (' [%d]' % x['index'] if printed else ' (%d)' % x['index'])


ROW = re.compile(r'^\s*(-?nan|[\d.]+)\s+(-?nan|[\d.]+)\s+(-?nan|[\d.]+)')


def render_flat(doc, unit_scale, text_order=False):
    """The rows; TEXT_ORDER: the per-call figures by the text's operations
    (samples * unit / rate / calls, the samples taken back from the seconds),
    which round a .xx5 tie as the text does where seconds-per-call times
    the unit may not."""
    out = []
    rate = (doc.get('histogram') or {}).get('rate')
    for r in doc['flat_profile']:
        s = '%6.2f %9.2f %8.2f' % (r['percent'], num(r['cumulative_seconds']), num(r['self_seconds']))
        if r['calls']:
            sp, tp = num(r['self_seconds_per_call']) * unit_scale, num(r['total_seconds_per_call']) * unit_scale
            if text_order and rate and r['self_seconds_per_call'] is not None and r['total_seconds_per_call'] is not None:
                sp = (r['self_seconds_per_call'] * r['calls'] * rate) * unit_scale / rate / r['calls']
                tp = (r['total_seconds_per_call'] * r['calls'] * rate) * unit_scale / rate / r['calls']
            s += ' %8d %8.2f %8.2f  ' % (r['calls'], sp, tp)
        else:
            s += ' %8s %8s %8s  ' % ('', '', '')
        out.append(s + r['display'])
    return out


def render_line(ln):
    nm = name_of(ln, ln['cycle'], ln['printed'])
    if ln['within']:
        return '%6s %5s %7s %7s %7d %7s     ' % ('', '', '', '', ln['calls'], '') + nm
    return '%6s %5s %7.2f %7.2f %7d/%-7d     ' % ('', '', num(ln['self_seconds']), num(ln['children_seconds']),
                                                  ln['calls'], ln['total_calls']) + nm


def render_graph(doc):
    out = []
    for e in doc['call_graph']['entries']:
        if e['kind'] == 'function':
            if e['spontaneous']:
                out.append('%6s %5s %7s %7s %7s %7s     <spontaneous>' % ('', '', '', '', '', ''))
            out += [render_line(l) for l in e['parents']]
        s = '%-6.6s %5.1f %7.2f %7.2f' % ('[%d]' % e['index'], e['percent'], num(e['self_seconds']),
                                          num(e['children_seconds']))
        if e['calls'] + e['self_calls'] == 0 and e['kind'] != 'cycle': s += ' %7s %7s ' % ('', '')  # a cycle shows its 0
        elif e['self_calls']: s += ' %7d+%-7d ' % (e['calls'], e['self_calls'])
        else: s += ' %7d %7s ' % (e['calls'], '')
        if e['kind'] == 'cycle':
            s += '<cycle %d as a whole> [%d]' % (e['cycle'], e['index'])
        else:
            s += name_of(e, e['cycle'])
        out.append(s)
        if e['kind'] == 'cycle':
            for m in e['members']:
                s = '%6s %5s %7.2f %7.2f %7d' % ('', '', num(m['self_seconds']), num(m['children_seconds']), m['calls'])
                s += ('+%-7d     ' % m['self_calls']) if m['self_calls'] else (' %7s     ' % '')
                out.append(s + name_of(m, e['cycle'], m['printed']))
        else:
            out += [render_line(l) for l in e['children']]
        out.append('-' * 47)
    return out


def block(lines, start, stop):
    """The lines after the first matching START up to one matching STOP."""
    for i, l in enumerate(lines):
        if start(l):
            j = i + 1
            while j < len(lines) and not stop(lines[j]):
                j += 1
            return lines[i + 1:j]
    return None


def fail(msg, want, got):
    print('exportcheck: ' + msg)
    for k, (w, g) in enumerate(zip(want + [''] * len(got), got + [''] * len(want))):
        if w != g:
            print('  line %d\n  json: %r\n  text: %r' % (k + 1, w, g))
            break
    sys.exit(1)


def check_json(doc, text):
    lines = [fix_nan(l) for l in text.split('\n')]
    done = []
    flat = block(lines, lambda l: l.startswith(' time   seconds   seconds'), lambda l: l == '' or l.startswith('\f'))
    if flat is not None:
        if doc['flat_profile'] is None: fail('flat profile missing from the JSON', [], flat)
        hdr = [l for l in lines if l.startswith(' time   seconds   seconds')][0]
        unit = re.search(r'(\S*)s/call', hdr).group(1)
        want = [fix_nan(l) for l in render_flat(doc, PREFIX[unit])]
        alt = [fix_nan(l) for l in render_flat(doc, PREFIX[unit], True)]
        # -r and -R lists follow the rows with no blank line between
        if len(flat) > len(want) and not any(ROW.match(l) for l in flat[len(want):]):
            flat = flat[:len(want)]
        # a row agrees in either order of the per-call operations
        want = [a if a == t else w for w, a, t in zip(want, alt, flat)] + want[len(flat):]
        if want != flat: fail('flat profile rows differ', want, flat)
        done.append('%d flat rows' % len(flat))
    graph = block(lines, lambda l: l.startswith('index % time'), lambda l: l == '' or l.startswith('\f'))
    if graph is not None:
        want = [fix_nan(l) for l in render_graph(doc)]
        if want != graph: fail('call graph differs', want, graph)
        done.append('%d graph lines' % len(graph))
        idx = block(lines, lambda l: l == 'Index by function name', lambda l: l.startswith('\f'))
        if idx is not None:
            got = sorted(re.findall(r'[\[(]\d+[\])]', '\n'.join(idx)))
            want = sorted(('[%d]' if x['printed'] else '(%d)') % x['index'] for x in doc['call_graph']['index'])
            if want != got: fail('index entries differ', want, got)
            done.append('%d index entries' % len(got))
    execs = [l for l in lines if re.match(r'^.*:\d+: \(.*:0x[0-9a-f]+\) \d+ executions$', l)]
    if execs:
        want = ['%s:%d: (%s:0x%x) %d executions' % (x['file'] or '<unknown>', x['line'] or 0, x['name'],
                                                     x['block_address'] if x['block'] else x['address'],
                                                     x['executions']) for x in doc['exec_counts']]
        if sorted(want) != sorted(execs): fail('execution counts differ', sorted(want), sorted(execs))
        done.append('%d exec lines' % len(execs))
    if not done:
        print('exportcheck: nothing to compare')
        sys.exit(2)
    print('json agrees: ' + ', '.join(done))


# a row of callgrind_annotate's functions table: "cost (pct)  file:function
# [object]"; a function's code inlined from another file (fi=) is a row
# "file:function" of its own, without the object
ANN_ROW = re.compile(r'^\s*([\d,]+) (?:\(\s*[\d.]+%\)|\s+)\s+(.*?):(.*?)(?: \[(?!0x)([^\]]*)\])?$')


def check_callgrind(doc, ann):
    m = re.search(r'^\s*([\d,]+|\.)\s.*PROGRAM TOTALS', ann, re.M)
    if not m:
        print('exportcheck: no PROGRAM TOTALS in callgrind_annotate output'); sys.exit(1)
    total = 0 if m.group(1) == '.' else int(m.group(1).replace(',', ''))
    rows = doc['flat_profile'] or []
    cum = rows[-1]['cumulative_seconds'] if rows else 0.0
    if abs(total / 1e6 - (cum or 0.0)) > 1e-6 * (1 + len(rows)):
        print('exportcheck: callgrind total %d us, flat profile %r s' % (total, cum)); sys.exit(1)
    # the functions table: "cost (pct)  file:function [object]"
    got = {}
    for l in ann.split('\n'):
        mm = ANN_ROW.match(l)
        if mm: got.setdefault(mm.group(3), []).append(int(mm.group(1).replace(',', '')))
    n = 0
    if doc['line_level']:
        # -l: a function's block sums the lines it holds, and a line of
        # inlined code is named after the inlined function: only the total
        # compares
        rows = []
    for r in rows:
        if not r['self_seconds']: continue
        us = r['self_seconds'] * 1e6
        name = ''.join('?' if ord(ch) < 32 or ord(ch) == 127 else ch for ch in r['display'])
        cands = got.get(name, [])
        # code inlined from another file is that file's "file:function"
        # (fi= lines): the function's cost is then their sum
        if not any(abs(c - us) <= 1.0 + 1e-9 * us for c in cands + [sum(cands)]):
            print('exportcheck: %r: %.1f us in the flat profile, callgrind_annotate shows %r' % (name, us, cands))
            sys.exit(1)
        n += 1
    print('callgrind agrees: total %d us, %d functions' % (total, n))


def ann_table(text):
    got = {}
    for l in text.split('\n'):
        m = ANN_ROW.match(l)
        if m: got[(m.group(2), m.group(3))] = int(m.group(1).replace(',', ''))
    return got


def check_inclusive(self_ann, incl_ann, cg, doc):
    selfs, incls = ann_table(self_ann), ann_table(incl_ann)
    for k, v in incls.items():
        if v < selfs.get(k, 0):
            print('exportcheck: %s:%s inclusive %d below self %d' % (k[0], k[1], v, selfs[k])); sys.exit(1)
    # the callgrind file: per function id, self, calls out, calls in
    names, own, out, into = {}, {}, {}, {}
    fn = cfn = None
    pending = False
    for l in cg.split('\n'):
        m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?$', l)
        if m:
            i = int(m.group(2))
            if m.group(3) is not None: names[i] = m.group(3)
            if m.group(1) == 'fn': fn = i
            else: cfn = i
            continue
        if l.startswith('calls='):
            pending = True
            continue
        m = re.match(r'^(0x[0-9a-f]+|\d+) (-?\d+) (\d+)$', l)
        if not m: continue
        c = int(m.group(3))
        if pending:
            out[fn] = out.get(fn, 0) + c
            into[cfn] = into.get(cfn, 0) + c
            pending = False
        else:
            own[fn] = own.get(fn, 0) + c
    for i in into:
        want = own.get(i, 0) + out.get(i, 0)
        if into[i] != want:
            print('exportcheck: %s: calls in cost %d, self + calls out %d' % (names.get(i), into[i], want)); sys.exit(1)
    n = 0
    if doc and doc['call_graph'] and not doc['line_level']:
        seen = {}
        for e in doc['call_graph']['entries']:
            if e['kind'] == 'function': seen.setdefault(e['display'], []).append(e)
        for i, name in names.items():
            es = seen.get(name, [])
            if len(es) != 1 or es[0]['cycle'] or name == '<spontaneous>': continue
            e = es[0]
            want = (num(e['self_seconds']) + num(e['children_seconds'])) * 1e6
            if not math.isfinite(want): continue
            got = own.get(i, 0) + out.get(i, 0)
            if not abs(got - want) <= 2 + 1e-3 * want:
                print('exportcheck: %s: inclusive %d us, the call graph %.1f us' % (name, got, want)); sys.exit(1)
            n += 1
    print('inclusive >= self for %d functions, calls balanced for %d, %d as the call graph' % (len(incls), len(into), n))


def drawn_sets(doc, node_thr, edge_thr, max_nodes):
    """The nodes and candidate edges --dot keeps: entries over the node
    threshold, the MAX_NODES heaviest; a cycle is a node only when none of
    its members is (else the box around them), and then the arcs to and
    from its members go to it, one edge per other end; arcs between drawn
    nodes over the edge threshold (or within one function or cycle), each
    with its weight."""
    cg = doc['call_graph']
    if cg is None or not cg['propagated_seconds']:
        return None, None
    cand = [e for e in cg['entries'] if e['percent'] >= node_thr]
    if max_nodes and len(cand) > max_nodes:
        cand = sorted(cand, key=lambda e: (-e['percent'], e['index']))[:max_nodes]
    funcs = {e['index'] for e in cand if e['kind'] == 'function'}
    boxed = {e['cycle'] for e in cand if e['kind'] == 'function' and e['cycle']}
    cnodes = {e['cycle'] for e in cand if e['kind'] == 'cycle' and e['cycle'] not in boxed}
    def end(index, cycle):
        if index in funcs: return 'n%d' % index
        if cycle in cnodes: return 'c%d' % cycle
        return None
    acc = {}
    for e in cg['entries']:
        fr = e['kind'] == 'function' and end(e['index'], e['cycle'])
        if not fr: continue
        for c in e['children']:
            to = c['index'] is not None and end(c['index'], c['cycle'])
            if not to or (c['within'] and 'c' in (fr[0], to[0])): continue
            a = acc.setdefault((fr, to), [c['within'], 0, 0.0])
            a[1] += c['calls']
            if not c['within']: a[2] += c['self_seconds'] + c['children_seconds']
    edges = {}
    for k, (within, calls, secs) in acc.items():
        w = None if within else 100.0 * secs / cg['propagated_seconds']
        if w is not None and not w >= edge_thr: continue
        edges[k] = (0, calls) if within else (1, w)
    return {'n%d' % i for i in funcs} | {'c%d' % c for c in cnodes}, edges


def check_dot(doc, dot, node_thr, edge_thr, max_nodes):
    nodes = set(re.findall(r'^\s*([nc]\d+) \[', dot, re.M))
    edges = set(re.findall(r'^\s*([nc]\d+) -> ([nc]\d+) \[', dot, re.M))
    want_n, cand = drawn_sets(doc, node_thr, edge_thr, max_nodes)
    if want_n is None:
        print('dot: %d nodes, %d edges (no time: weighed by calls)' % (len(nodes), len(edges))); return
    if nodes != want_n:
        print('exportcheck: DOT nodes differ: only in DOT %s, only in JSON %s' % (sorted(nodes - want_n)[:5], sorted(want_n - nodes)[:5]))
        sys.exit(1)
    cap = 3 * max_nodes if max_nodes else len(cand)
    dropped = set(cand) - edges
    if not edges <= set(cand) or len(edges) != min(cap, len(cand)) or \
       (dropped and edges and min(cand[x] for x in edges) < max(cand[x] for x in dropped)):
        print('exportcheck: DOT edges differ: %d drawn, %d candidates, only in DOT %s' % (len(edges), len(cand), sorted(edges - set(cand))[:5]))
        sys.exit(1)
    print('%d nodes, %d edges as the thresholds keep%s' % (len(nodes), len(edges),
          ' (capped from %d edges)' % len(cand) if len(cand) > len(edges) else ''))


def dot_name(s):
    """What a name becomes in a DOT label: controls as '?', stray bytes as
    their Latin-1 characters."""
    out = ''
    for ch in s:
        o = ord(ch)
        out += '?' if o < 32 or o == 127 else chr(o - 0xdc00) if 0xdc80 <= o <= 0xdcff else ch
    return out


def check_svg(doc, svgfile, full):
    """Every function over 0.5% is drawn with its name: the whole name
    (--dot-full-names) on a line, or the short name, whose lines follow
    one another."""
    import xml.etree.ElementTree as ET
    texts = [el.text or '' for el in ET.parse(svgfile).iter() if el.tag.endswith('}text')]
    joined = ''.join(texts)
    n = 0
    for e in doc['call_graph']['entries']:
        if e['kind'] != 'function' or e['percent'] < 0.5: continue
        want = dot_name(e['display' if full else 'short_name'])
        if not (any(t.startswith(want) for t in texts) if full else want in joined):
            print('exportcheck: %r not in the SVG' % want); sys.exit(1)
        n += 1
    print('%d names drawn as they are%s' % (n, '' if full else ' (short)'))


def check_labels(dotfile, xdotfile, width):
    """--dot's labels read: every line of a node's name within WIDTH
    characters; every line of an edge's label padded with a space on
    either side; and, where dot placed them (its xdot output: each text's
    centre and width), no two edges' labels run together on a line."""
    dot = open(dotfile, encoding='utf-8', errors='surrogateescape').read()
    longest = 0
    for m in re.finditer(r'^\s*[ns]\d+ \[label="((?:[^"\\]|\\.)*)"', dot, re.M):
        for line in m.group(1).split('\\n'):
            if re.fullmatch(r'-?[\d.]+% (total|self)', line): break
            text = re.sub(r'\\(.)', r'\1', line).replace('&amp;', '&')
            longest = max(longest, len(text))
            if len(text) > width:
                print('exportcheck: a name line of %d characters: %r' % (len(text), text)); sys.exit(1)
    nedge = 0
    for m in re.finditer(r'^\s*[nc]\d+ -> [nc]\d+ \[.*label="((?:[^"\\]|\\.)*)"', dot, re.M):
        nedge += 1
        for line in m.group(1).split('\\n'):
            if not (line.startswith(' ') and line.endswith(' ')):
                print('exportcheck: an edge label line without spaces around it: %r' % line); sys.exit(1)
    xdot = open(xdotfile, encoding='utf-8', errors='surrogateescape').read().replace('\\\n', '')
    boxes = []
    for m in re.finditer(r'^\s*(\S+) -> (\S+)\s*\[(.*?)\];$', xdot, re.M | re.S):
        ld = re.search(r'_ldraw_="(.*?)"[,\]]', m.group(3), re.S)
        if not ld: continue
        ops = ld.group(1)
        for t in re.finditer(r'T ([-\d.]+) ([-\d.]+) (-?\d+) ([\d.]+) (\d+) -', ops):
            x, y, w = float(t.group(1)), float(t.group(2)), float(t.group(4))
            text = ops[t.end():t.end() + int(t.group(5))]
            # the printed characters' part of the width (the spaces' share
            # estimated as their share of the characters)
            vis = w * len(text.strip()) / max(len(text), 1)
            boxes.append((y, x - vis / 2, x + vis / 2, m.start(), text))
    boxes.sort()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if b[0] - a[0] >= 9: break
            # on one line, a font size (9 points) apart at least: dot's
            # own gap between two labels of one pair of nodes was about 5
            # points, which drew them as one word
            if a[3] != b[3] and max(a[1], b[1]) - min(a[2], b[2]) < 9:
                print('exportcheck: edge labels run together: %r and %r' % (a[4], b[4])); sys.exit(1)
    print('name lines up to %d characters, %d edge labels padded, %d label lines apart' % (longest, nedge, len(boxes)))


if __name__ == '__main__':
    mode, jf, tf = sys.argv[1:4]
    if mode == 'inclusive':
        rd = lambda f: open(f, encoding='utf-8', errors='surrogateescape').read()
        doc = json.load(open(sys.argv[5], encoding='utf-8')) if len(sys.argv) > 5 else None
        check_inclusive(rd(jf), rd(tf), rd(sys.argv[4]), doc)
        sys.exit(0)
    if mode == 'labels':
        check_labels(jf, tf, int(sys.argv[4]))
        sys.exit(0)
    if mode in ('dot', 'svg', 'svgfull'):
        doc = json.load(open(jf, encoding='utf-8'))
        if mode != 'dot': check_svg(doc, tf, mode == 'svgfull')
        else:
            thr = [float(x) for x in sys.argv[4:6]] or [0.5, 0.1]
            maxn = int(sys.argv[6]) if len(sys.argv) > 6 else 200
            check_dot(doc, open(tf, encoding='utf-8', errors='surrogateescape').read(), thr[0], thr[1], maxn)
        sys.exit(0)
    doc = json.load(open(jf, encoding='utf-8'))
    text = open(tf, encoding='utf-8', errors='surrogateescape').read()
    if mode == 'json': check_json(doc, text)
    else: check_callgrind(doc, text)
