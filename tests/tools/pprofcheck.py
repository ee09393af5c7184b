#!/usr/bin/env python3
"""Checks gprof --pprof's file (gzipped profile.proto) against the JSON of
the same run, decoding it here (gzip and a small protobuf reader), and
what `go tool pprof` prints of it.

  pprofcheck.py flat FILE.pb.gz FILE.json
      Decodes the file and checks its structure: the string table starts
      with "", every string index, id and reference resolves, ids are
      unique, every sample has one value per sample type.  Without
      stacks: each flat-profile row's self time is its location's cpu
      value (nanoseconds, within 1) and samples (within 1), the totals
      are the flat profile's (within rounding once); each arc of the call
      graph (every entry's parent lines) is one sample [callee, caller]
      with its calls.  Prints what it compared; exit 1 on a difference.
  pprofcheck.py stacks FILE.pb.gz FILE.json [--live] PROFILE.stacks...
      With stacks: the structure as above; per (thread, stack of PCs)
      the file's counts summed equal the samples' values; labels "tid"
      and "thread" as the file names threads; a mapping per object that
      frames lie in, with its build-id and range, each location in its
      object's; the arcs as above.  --live (libprof wrote the files): the
      stacks whose leaf lies in the program's text add up to the
      histogram's samples.
  pprofcheck.py top TOP.txt FILE.json [total]
      TOP.txt is `go tool pprof -top -unit=ns -nodecount=N` (cpu): its
      total is the flat profile's; without "total", each function's flat
      value is its rows' self time (within 1 ns a row).
  pprofcheck.py top-stacks TOP.txt PROFILE.stacks...
      With stacks: -top's total is the stacks' samples at their rate.
  pprofcheck.py traces-stacks TRACES.txt PROFILE.stacks...
      With stacks: `go tool pprof -traces` (cpu) labels every trace with
      its thread's tid and name, and shows every thread.
  pprofcheck.py raw RAW.txt FILE.json
      `go tool pprof -raw`: the sample types, period, and the cpu and
      calls columns' totals (the flat profile's; the call graph's).
  pprofcheck.py traces TRACES.txt FILE.json
      `go tool pprof -sample_index=calls -traces`: every two-frame trace
      is an arc, callee above caller, with the call graph's count (arcs
      summed by name)."""
import gzip, json, re, sys


class Bad(Exception):
    pass


def varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b):
            raise Bad('varint past the end')
        c = b[i]; i += 1
        v |= (c & 0x7f) << shift; shift += 7
        if not c & 0x80:
            return v, i
        if shift > 63:
            raise Bad('varint longer than 10 bytes')


def fields(b):
    """(field, wire, value) of a message: an int, or bytes for wire 2."""
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise Bad(f'field {f}: {n} bytes past the end')
            v = b[i:i + n]; i += n
        elif w == 1:
            v = int.from_bytes(b[i:i + 8], 'little'); i += 8
        elif w == 5:
            v = int.from_bytes(b[i:i + 4], 'little'); i += 4
        else:
            raise Bad(f'field {f}: wire type {w}')
        out.append((f, w, v))
    return out


def ints(w, v):
    """A repeated number: packed (wire 2) or one value."""
    if w != 2:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def msg(b, spec):
    """A message as a dict: SPEC maps field number to (name, kind), kind
    'int', 'ints' (repeated), 'msg' (repeated, raw bytes) or 'str'."""
    d = {name: [] if kind in ('ints', 'msgs', 'strs') else 0 for name, kind in spec.values()}
    for f, w, v in fields(b):
        if f not in spec:
            continue
        name, kind = spec[f]
        if kind == 'int':
            d[name] = v
        elif kind == 'ints':
            d[name] += ints(w, v)
        elif kind == 'msgs':
            d[name].append(v)
        elif kind == 'strs':
            d[name].append(v.decode('utf-8', 'surrogateescape'))
    return d


PROFILE = {1: ('sample_type', 'msgs'), 2: ('sample', 'msgs'), 3: ('mapping', 'msgs'),
           4: ('location', 'msgs'), 5: ('function', 'msgs'), 6: ('string_table', 'strs'),
           11: ('period_type', 'msgs'), 12: ('period', 'int'), 14: ('default_sample_type', 'int')}
VALUE_TYPE = {1: ('type', 'int'), 2: ('unit', 'int')}
SAMPLE = {1: ('location_id', 'ints'), 2: ('value', 'ints'), 3: ('label', 'msgs')}
LABEL = {1: ('key', 'int'), 2: ('str', 'int'), 3: ('num', 'int'), 4: ('num_unit', 'int')}
MAPPING = {1: ('id', 'int'), 2: ('memory_start', 'int'), 3: ('memory_limit', 'int'),
           4: ('file_offset', 'int'), 5: ('filename', 'int'), 6: ('build_id', 'int'),
           7: ('has_functions', 'int'), 8: ('has_filenames', 'int'), 9: ('has_line_numbers', 'int')}
LOCATION = {1: ('id', 'int'), 2: ('mapping_id', 'int'), 3: ('address', 'int'), 4: ('line', 'msgs')}
LINE = {1: ('function_id', 'int'), 2: ('line', 'int')}
FUNCTION = {1: ('id', 'int'), 2: ('name', 'int'), 3: ('system_name', 'int'),
            4: ('filename', 'int'), 5: ('start_line', 'int')}


def decode(path):
    """The profile, checked for structure, with strings and ids resolved."""
    raw = open(path, 'rb').read()
    if raw[:2] != b'\x1f\x8b':
        raise Bad('not gzip data')
    p = msg(gzip.decompress(raw), PROFILE)
    st = p['string_table']
    if not st or st[0] != '':
        raise Bad(f'string table index 0 is {st[:1]!r}, not ""')
    if len(set(st)) != len(st):
        raise Bad('a string twice in the string table')

    def s(i, what):
        if not 0 <= i < len(st):
            raise Bad(f'{what}: string index {i} of {len(st)}')
        return st[i]

    types = [msg(b, VALUE_TYPE) for b in p['sample_type']]
    p['types'] = [(s(t['type'], 'sample type'), s(t['unit'], 'sample unit')) for t in types]
    p['period_types'] = [(s(t['type'], 'period type'), s(t['unit'], 'period unit'))
                         for t in (msg(b, VALUE_TYPE) for b in p['period_type'])]
    p['default'] = s(p['default_sample_type'], 'default sample type')

    def table(blobs, spec, what):
        out = {}
        for b in blobs:
            d = msg(b, spec)
            if not d['id']:
                raise Bad(f'{what} with id 0')
            if d['id'] in out:
                raise Bad(f'{what} id {d["id"]} twice')
            out[d['id']] = d
        return out

    p['mappings'] = table(p['mapping'], MAPPING, 'mapping')
    for m in p['mappings'].values():
        m['file'] = s(m['filename'], 'mapping file')
        m['build'] = s(m['build_id'], 'mapping build-id')
    p['functions'] = table(p['function'], FUNCTION, 'function')
    for f in p['functions'].values():
        f['sname'] = s(f['name'], 'function name')
        f['ssys'] = s(f['system_name'], 'function system name')
        f['sfile'] = s(f['filename'], 'function file')
    p['locations'] = table(p['location'], LOCATION, 'location')
    for l in p['locations'].values():
        if l['mapping_id'] and l['mapping_id'] not in p['mappings']:
            raise Bad(f'location {l["id"]}: no mapping {l["mapping_id"]}')
        l['lines'] = [msg(b, LINE) for b in l['line']]
        for ln in l['lines']:
            if ln['function_id'] not in p['functions']:
                raise Bad(f'location {l["id"]}: no function {ln["function_id"]}')
    p['samples'] = []
    for b in p['sample']:
        d = msg(b, SAMPLE)
        if len(d['value']) != len(p['types']):
            raise Bad(f'a sample with {len(d["value"])} values for {len(p["types"])} types')
        for i in d['location_id']:
            if i not in p['locations']:
                raise Bad(f'a sample names no location {i}')
        d['labels'] = {}
        for lb in (msg(x, LABEL) for x in d['label']):
            k = s(lb['key'], 'label key')
            d['labels'][k] = s(lb['str'], 'label') if lb['str'] else lb['num']
        p['samples'].append(d)
    return p


def col(p, typ):
    return [t[0] for t in p['types']].index(typ) if typ in [t[0] for t in p['types']] else None


def fname(p, loc_id):
    """The function a location is in (its last line: the outermost)."""
    l = p['locations'][loc_id]
    return p['functions'][l['lines'][-1]['function_id']]['sname'] if l['lines'] else hex(l['address'])


def check_types(p, doc):
    hist = doc.get('histogram')
    want = []
    if hist and hist['rate']:
        want += [('samples', 'count'), ('cpu', 'nanoseconds')]
    if doc.get('call_graph') is not None:
        want += [('calls', 'count')]
    if p['types'] != want:
        raise Bad(f'sample types {p["types"]}, not {want}')
    if hist and hist['rate']:
        if p['period_types'] != [('cpu', 'nanoseconds')] or p['period'] != round(1e9 / hist['rate']) \
           or p['default'] != 'cpu':
            raise Bad(f'period {p["period_types"]} {p["period"]}, default {p["default"]!r}')


def check_arcs(p, doc, by_addr):
    """Every arc of the call graph once, [callee, caller], with its calls;
    returns how many."""
    cg = doc.get('call_graph')
    if cg is None:
        return 0
    c = col(p, 'calls')
    # where each index number is: the entries', and the flat profile's
    # (under -l many line symbols are named by the graph's lines only)
    idx_addr = {e['index']: e['address'] for e in cg['entries'] if e['kind'] == 'function'}
    idx_addr.update((r['index'], r['address']) for r in doc.get('flat_profile') or [] if r['index'])
    want = {}
    for e in cg['entries']:
        if e['kind'] != 'function':
            continue
        for ln in e['parents']:
            if ln['index'] in idx_addr and ln['calls']:
                want[(e['address'], idx_addr[ln['index']])] = ln['calls']
    got = {}
    printed = set(idx_addr.values())
    for smp in p['samples']:
        if not smp['value'][c]:
            continue
        if len(smp['location_id']) != 2 or any(smp['value'][:c]):
            raise Bad(f'a call sample with {len(smp["location_id"])} locations, values {smp["value"]}')
        key = tuple(by_addr(i) for i in smp['location_id'])
        if key in got:
            raise Bad(f'arc {key} twice')
        got[key] = smp['value'][c]
    got = {k: v for k, v in got.items() if k[0] in printed and k[1] in printed}
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:4]
        raise Bad(f'arcs differ from the call graph: {diff}')
    return len(want)


def check_flat(p, doc):
    check_types(p, doc)
    if p['mappings']:
        m = p['mappings'][min(p['mappings'])]
        if m['file'] != doc['program']:
            raise Bad(f'mapping 1 is {m["file"]!r}, not the program {doc["program"]!r}')
    addr = lambda i: p['locations'][i]['address']
    what = []
    hist = doc.get('histogram')
    if hist and hist['rate']:
        hz, cn, cs = hist['rate'], col(p, 'cpu'), col(p, 'samples')
        got, locs = {}, {}
        for smp in p['samples']:
            if smp['value'][cn] or smp['value'][cs]:
                if len(smp['location_id']) != 1:
                    raise Bad('a self-time sample of more than one location')
                a = addr(smp['location_id'][0])
                if a in got:
                    raise Bad(f'two self-time samples at {a:#x}')
                got[a] = smp['value']
                locs[a] = smp['location_id'][0]
        rows = [r for r in doc['flat_profile'] if r['self_seconds'] > 0]
        exact_ns = exact_n = 0.0
        for r in rows:
            v = got.pop(r['address'], None)
            ns, n = r['self_seconds'] * 1e9, r['self_seconds'] * hz
            exact_ns += ns; exact_n += n
            if v is None or abs(v[cn] - ns) > 1 + 1e-6 * ns or abs(v[cs] - n) > 1 + 1e-9:
                raise Bad(f'{r["display"]}: {v} for {r["self_seconds"]} s')
            # the names byte for byte: linkage and printed (the text may
            # add a file after it)
            if not doc['line_level']:
                lines = p['locations'][locs[r['address']]]['lines']
                f = p['functions'][lines[-1]['function_id']] if lines else None
                if not f or f['ssys'] != r['name'] or not r['display'].startswith(f['sname']):
                    raise Bad(f'{r["display"]!r} ({r["name"]!r}) named {f and (f["sname"], f["ssys"])}')
        if got:
            raise Bad(f'self time at addresses the flat profile does not list: {sorted(got)[:4]}')
        tot_ns = sum(s_['value'][cn] for s_ in p['samples'])
        tot_n = sum(s_['value'][cs] for s_ in p['samples'])
        if abs(tot_ns - exact_ns) > 0.5 + 1e-9 * exact_ns or abs(tot_n - exact_n) > 0.5 + 1e-9:
            raise Bad(f'totals {tot_n} samples, {tot_ns} ns; the flat profile {exact_n}, {exact_ns}')
        what.append(f'{len(rows)} functions, {tot_ns} ns')
    what.append(f'{check_arcs(p, doc, addr)} arcs')
    print(', '.join(what))


def parse_stacks(files):
    """(tid, pcs) -> count over the stack files, threads, objects."""
    stacks, threads, objs, hz = {}, {}, {}, None
    parse_stacks.dropped = 0
    for fn in files:
        first = 4                  # version 2 has the stack's map epoch first
        for line in open(fn, encoding='utf-8', errors='surrogateescape'):
            w = line.rstrip('\n').split(' ')
            if w[0] == 'libprof-stacks':
                first = 5 if w[1] == '2' else 4
            elif w[0] == 'stack':
                key = (int(w[1]), tuple(int(x, 16) for x in w[first:]))
                stacks[key] = stacks.get(key, 0) + int(w[2])
            elif w[0] == 'thread':
                threads[int(w[1])] = ' '.join(w[2:])
            elif w[0] == 'object':
                objs[int(w[1])] = {'base': int(w[2], 16), 'lo': int(w[3], 16), 'hi': int(w[4], 16),
                                   'id': '' if w[5] == '-' else w[5], 'path': ' '.join(w[6:])}
            elif w[0] == 'hz':
                hz = int(w[1])
            elif w[0] == 'dropped':
                parse_stacks.dropped += int(w[1])
    return stacks, threads, objs, hz


def check_stacks(p, doc, files, live):
    stacks, threads, objs, hz = parse_stacks(files)
    check_types(p, doc)
    cn, cs = col(p, 'cpu'), col(p, 'samples')
    got = {}
    dropped = 0
    for smp in p['samples']:
        if not smp['value'][cs]:
            continue
        locs = smp['location_id']
        ln = p['locations'][locs[0]]['lines'] if len(locs) == 1 else None
        if ln and p['functions'][ln[-1]['function_id']]['sname'] == '[dropped]' and 'tid' not in smp['labels']:
            dropped += smp['value'][cs]    # what libprof could not record
            continue
        tid = smp['labels'].get('tid')
        if tid is None:
            raise Bad('a stack sample without a tid label')
        if threads.get(tid) and smp['labels'].get('thread') != threads[tid]:
            raise Bad(f'thread {tid} labelled {smp["labels"].get("thread")!r}, not {threads[tid]!r}')
        key = (tid, tuple(p['locations'][i]['address'] for i in smp['location_id']))
        got[key] = got.get(key, 0) + smp['value'][cs]
    if got != stacks:
        diff = sorted(set(got.items()) ^ set(stacks.items()))[:3]
        raise Bad(f'{len(got)} stacks against the files\' {len(stacks)}: {diff}')
    if dropped != parse_stacks.dropped:
        raise Bad(f'{dropped} samples as [dropped], the files say {parse_stacks.dropped}')
    total = sum(stacks.values()) + dropped
    ns = sum(s_['value'][cn] for s_ in p['samples'])
    if ns != round(total * 1e9 / doc['histogram']['rate']):
        raise Bad(f'{ns} ns for {total} samples')
    # a mapping per object a frame lies in, as the file has it; the
    # program's first
    by_file = {m['file']: m for m in p['mappings'].values()}
    used = {k for k, o in objs.items()
            if any(o['lo'] <= pc < o['hi'] for _, pcs in stacks for pc in pcs)}
    # (the object's executable segment in whole pages, as the kernel's
    # maps show it, when its file can be read; else its text)
    for k in used | {0}:
        o, m = objs[k], by_file.get(objs[k]['path'])
        pcs = [pc for _, v in stacks for pc in v if o['lo'] <= pc < o['hi']]
        if not m or m['build'] != o['id'] or (
                (m['memory_start'], m['memory_limit']) != (o['lo'], o['hi'])
                and not (m['memory_start'] % 4096 == 0 and m['file_offset'] % 4096 == 0
                         and m['memory_start'] <= min(pcs, default=m['memory_start'])
                         and max(pcs, default=0) < m['memory_limit']
                         and o['lo'] & ~4095 <= m['memory_start'] and m['memory_limit'] <= o['hi'] + 4095)):
            raise Bad(f'object {k} {o} has mapping {m}')
    if by_file[objs[0]['path']]['id'] != min(p['mappings']):
        raise Bad('the program is not the first mapping')
    # each location in its object's mapping
    for l in p['locations'].values():
        for k in used:
            o = objs[k]
            if o['lo'] <= l['address'] < o['hi'] and l['mapping_id'] != by_file[o['path']]['id']:
                raise Bad(f'location {l["address"]:#x} in mapping {l["mapping_id"]}, not {o["path"]}\'s')
    prog = objs[0]
    inside = sum(c for (t, pcs), c in stacks.items() if prog['lo'] <= pcs[0] < prog['hi'])
    # libprof drops from the stacks what it drops from the histogram
    if live and inside != round(doc['histogram']['total_samples']):
        raise Bad(f'{inside} samples with their leaf in the program, the histogram has '
                  f'{doc["histogram"]["total_samples"]}')
    arcs = check_arcs(p, doc, lambda i: p['locations'][i]['address'] - prog['base'])
    print(f'{len(stacks)} stacks, {total} samples ({inside} in the program), '
          f'{len(threads)} threads, {len(objs)} objects, {arcs} arcs')


def flat_by_name(doc):
    want = {}
    for r in doc['flat_profile']:
        if r['self_seconds'] > 0:
            n, c = want.get(r['display'], (0.0, 0))
            want[r['display']] = (n + r['self_seconds'] * 1e9, c + 1)
    return want


def check_top(text, doc, total_only):
    m = re.search(r'Showing nodes accounting for (\d+)(?:ns)?, [\d.]+% of (\d+)(?:ns)? total', text)
    if not m:
        raise Bad('no total line')
    want = flat_by_name(doc)
    exact = sum(v for v, c in want.values())
    if abs(int(m.group(2)) - exact) > 0.5 + 1e-9 * exact:
        raise Bad(f'total {m.group(2)} ns, the flat profile {exact}')
    if total_only:
        print(f'total {m.group(2)} ns'); return
    got = {}
    for line in text.splitlines():
        r = re.match(r'\s*(\d+)ns\s+\S+%\s+\S+%\s+\d+ns\s+\S+%\s+(.*)$', line)
        if r:
            got[r.group(2)] = int(r.group(1))
    for name, (ns, c) in want.items():
        if name not in got or abs(got[name] - ns) > c + 1e-6 * ns:
            raise Bad(f'{name}: {got.get(name)} ns, the flat profile {ns}')
    print(f'total {m.group(2)} ns, {len(want)} functions')


def check_top_stacks(text, files):
    """-top's total is every stack's samples at the file's rate."""
    stacks, threads, objs, hz = parse_stacks(files)
    m = re.search(r'Showing nodes accounting for (\d+)(?:ns)?, [\d.]+% of (\d+)(?:ns)? total', text)
    want = round(sum(stacks.values()) * 1e9 / hz)
    if not m or int(m.group(2)) != want:
        raise Bad(f'total {m and m.group(2)} ns, the stacks {want}')
    print(f'total {want} ns')


def check_traces_stacks(text, files):
    """-traces (cpu): a trace per stack sample, each labelled with its
    thread's tid (and name, when it has one)."""
    stacks, threads, objs, hz = parse_stacks(files)
    blocks = [b for b in text.split('-----------+-------------------------------------------------------')[1:]
              if b.strip()]
    seen, n = set(), 0
    for b in blocks:
        first = next(ln for ln in b.splitlines() if ln.strip() and not re.match(r'\s+[\w ]+:\s', ln))
        if first.split()[0] == '0':
            continue            # an arc's sample: no time
        n += 1
        t = re.search(r'^\s+tid:\s+(\d+)$', b, re.M)
        if not t:
            raise Bad(f'a trace without its tid: {b.strip()[:200]}')
        tid = int(t.group(1))
        name = re.search(r'^\s+thread:\s+(.*)$', b, re.M)
        if threads.get(tid) and (not name or name.group(1) != threads[tid]):
            raise Bad(f'thread {tid} shown as {name and name.group(1)!r}, not {threads[tid]!r}')
        seen.add(tid)
    want = {t for t, _ in stacks}
    if seen != want:
        raise Bad(f'traces of threads {sorted(seen)}, the stacks have {sorted(want)}')
    print(f'{n} traces, threads {sorted(seen)}')


def check_raw(text, doc):
    lines = text.splitlines()
    i = lines.index('Samples:')
    head = lines[i + 1].split()
    hist, cg = doc.get('histogram'), doc.get('call_graph')
    want = (['samples/count', 'cpu/nanoseconds[dflt]'] if hist else []) + (['calls/count'] if cg else [])
    if head != want:
        raise Bad(f'sample types {head}')
    cols = [0] * len(head)
    for ln in lines[i + 2:]:
        if not re.match(r'\s+\d', ln):
            break
        vals, _ = ln.split(':', 1)
        for k, v in enumerate(vals.split()):
            cols[k] += int(v)
    out = []
    if hist:
        if f'Period: {round(1e9 / hist["rate"])}' not in lines:
            raise Bad('no period')
        exact = sum(r['self_seconds'] for r in doc['flat_profile']) * 1e9
        if abs(cols[1] - exact) > 0.5 + 1e-9 * exact:
            raise Bad(f'cpu total {cols[1]}, the flat profile {exact}')
        out.append(f'cpu {cols[1]} ns')
    if cg:
        calls = sum(ln['calls'] for e in cg['entries'] if e['kind'] == 'function' for ln in e['parents'])
        if cols[-1] != calls:
            raise Bad(f'{cols[-1]} calls, the call graph {calls}')
        out.append(f'{calls} calls')
    print(', '.join(out))


def check_traces(text, doc):
    got = {}
    for block in text.split('-----------+-------------------------------------------------------'):
        fr = [ln for ln in block.splitlines() if ln.strip()]
        if len(fr) != 2:
            continue
        m = re.match(r'\s*(\d+)\s+(.*)$', fr[0])
        if not m:
            continue
        key = (m.group(2), fr[1].strip())
        got[key] = got.get(key, 0) + int(m.group(1))
    cg = doc['call_graph']
    name = {e['index']: e['display'] for e in cg['entries'] if e['kind'] == 'function'}
    want = {}
    for e in cg['entries']:
        if e['kind'] != 'function':
            continue
        for ln in e['parents']:
            if not ln['calls']:
                continue
            key = (e['display'], name.get(ln['index'], ln['display']))
            want[key] = want.get(key, 0) + ln['calls']
    got = {k: v for k, v in got.items() if v}
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:4]
        raise Bad(f'traces differ from the call graph: {diff}')
    print(f'{len(want)} caller-callee pairs')


def main():
    mode = sys.argv[1]
    try:
        if mode in ('flat', 'stacks'):
            p = decode(sys.argv[2])
            doc = json.load(open(sys.argv[3], encoding='utf-8'))
            if mode == 'flat':
                check_flat(p, doc)
            else:
                live = '--live' in sys.argv[4:]
                check_stacks(p, doc, [a for a in sys.argv[4:] if a != '--live'], live)
        else:
            text = open(sys.argv[2], encoding='utf-8', errors='surrogateescape').read()
            if mode == 'top-stacks':
                check_top_stacks(text, sys.argv[3:])
                return
            if mode == 'traces-stacks':
                check_traces_stacks(text, sys.argv[3:])
                return
            doc = json.load(open(sys.argv[3], encoding='utf-8'))
            if mode == 'top':
                check_top(text, doc, len(sys.argv) > 4)
            elif mode == 'raw':
                check_raw(text, doc)
            elif mode == 'traces':
                check_traces(text, doc)
            else:
                raise Bad(f'unknown mode {mode}')
    except Bad as e:
        print(e)
        sys.exit(1)


if __name__ == '__main__':
    main()
