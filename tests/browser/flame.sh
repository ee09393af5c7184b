#!/bin/sh
# flame.sh -- the stacks' views, the difference of two profiles and the
# interactive flame graph (issue 32), on a real program: tests/browser/
# demo.cc linked with libprof, run with LIBPROF_STACKS before (demo 1)
# and after (demo 2) a change.
#   - views on --folded against the whole folded stacks filtered here:
#     --stacks-thread=TID|NAME|all, --focus, --hide; on --pprof read back
#     by go tool pprof; --icicle=NAME's boxes against the callers worked
#     out here; unknown names refused;
#   - [dropped] and [truncated] drawn as such;
#   - --diff-base: the folded lines "path before after" against the two
#     profiles' own; --diff-flat's rows against the two flat profiles;
#     go tool pprof -diff_base over the two --pprof files;
#   - tests/browser/flame.py in headless Chromium: search, zoom, reset,
#     the differential colours, a screenshot per view in $OUT.
# Prints "ok ..." / "FAIL ..." / "skip ... (why)"; ends "browser: done".
cd "$(dirname "$0")"
here=$(pwd)
top=$(cd ../.. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/browser}"
rm -rf "$OUT"; mkdir -p "$OUT/bin"
ln -s "$GPROF" "$OUT/bin/gprof"; PATH="$OUT/bin:$PATH"
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
say() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
done_() { echo "browser: done"; exit 0; }
for tool in c++ python3; do
  command -v $tool > /dev/null || { echo "skip browser: $tool is not installed"; done_; }
done
[ -f "$top/libprof/libprof.a" ] || { echo "skip browser: libprof is not built"; done_; }
w=$OUT
cd $w
c++ -pg -O1 -g -fno-omit-frame-pointer "$here/demo.cc" -o demo -L"$top/libprof" -lprof -lpthread \
  || { bad "building tests/browser/demo.cc"; done_; }
LIBPROF_STACKS=64 LIBPROF_HZ=1000 ./demo 1 > /dev/null && mv gmon.out old.gmon && mv gmon.out.stacks old.gmon.stacks \
  && LIBPROF_STACKS=64 LIBPROF_HZ=1000 ./demo 2 > /dev/null && [ -s gmon.out.stacks ] \
  || { bad "running demo with LIBPROF_STACKS"; done_; }

# 1. Views on --folded: each the whole folded stacks filtered here
gprof --folded=whole.folded demo gmon.out > /dev/null 2> err; say $? "--folded $(cat err)"
gprof --folded=threads.folded --stacks-thread=all demo gmon.out > /dev/null 2> err; say $? "--stacks-thread=all $(cat err)"
tids=$(awk '$1 == "thread" {print $2}' gmon.out.stacks)
wtid=$(awk '$1 == "thread" && $3 == "worker" {print $2}' gmon.out.stacks)
for t in $tids worker; do
  gprof --folded=t.$t --stacks-thread=$t demo gmon.out > /dev/null 2> err; echo $? > rc.$t
done
gprof --folded=focus.folded --focus=parse::tree demo gmon.out > /dev/null 2> err; echo $? > rc.focus
gprof --folded=focus2.folded --focus='parse::tree(int)' demo gmon.out > /dev/null 2> err; echo $? > rc.focus2
gprof --folded=hide.folded --hide=spin demo gmon.out > /dev/null 2> err; echo $? > rc.hide
gprof --folded=mix.folded --stacks-thread=$wtid --focus=render::draw --hide=render::Canvas::fill demo gmon.out > /dev/null 2> err
echo $? > rc.mix
python3 - "$tids" "$wtid" <<'EOF'
import sys
from collections import Counter
tids, wtid = sys.argv[1].split(), sys.argv[2]
def read(p):
    c = Counter()
    for l in open(p):
        path, n = l.rstrip('\n').rsplit(' ', 1)
        c[path] += int(n)
    return c
def rc(k): return open('rc.' + k).read().strip()
def say(good, what): print(('ok ' if good else 'FAIL ') + what)
whole, thr = read('whole.folded'), read('threads.folded')
roots = Counter(p.split(';', 1)[0] for p in thr.elements())
merged = Counter()
for p, n in thr.items(): merged[p.split(';', 1)[1]] += n
say(merged == whole and all(r.startswith('[thread ') for r in roots) and len(roots) == len(tids),
    f'--stacks-thread=all: a root per thread {sorted(roots)}, the same stacks under them')
for t in tids + ['worker']:
    tid = wtid if t == 'worker' else t
    want = Counter()
    for p, n in thr.items():
        r, rest = p.split(';', 1)
        if r.split()[1] == tid: want[rest] += n
    say(rc(t) == '0' and read('t.' + t) == want and sum(want.values()) > 0,
        f'--stacks-thread={t}: that thread\'s {sum(want.values())} samples alone')
for k, pat in (('focus', 'parse::tree'), ('focus2', 'parse::tree(int)')):
    want = Counter({p: n for p, n in whole.items() if 'parse::tree(int)' in p.split(';')})
    say(rc(k) == '0' and read(k + '.folded') == want and 0 < sum(want.values()) < sum(whole.values()),
        f'--focus={pat}: the {sum(want.values())} samples through parse::tree(int) alone')
want = Counter()
for p, n in whole.items():
    fr = [f for f in p.split(';') if f != 'spin(unsigned long)']
    want[';'.join(fr)] += n
say(rc('hide') == '0' and read('hide.folded') == want and 'spin' not in open('hide.folded').read(),
    f'--hide=spin: its frames folded into their callers, {sum(want.values())} samples kept')
want = Counter()
for p, n in thr.items():
    r, rest = p.split(';', 1)
    fr = rest.split(';')
    if r.split()[1] != wtid or not any(f.startswith('void render::draw<') for f in fr): continue
    want[';'.join(f for f in fr if not f.startswith('render::Canvas<int>::fill'))] += n
say(rc('mix') == '0' and read('mix.folded') == want and sum(want.values()) > 0,
    f'--stacks-thread=TID --focus --hide together: {sum(want.values())} samples')
EOF
# unused, the views change nothing: the same folded stacks and report
gprof -b demo gmon.out > plain.txt 2>&1
gprof -b --folded=views0.folded demo gmon.out > views0.txt 2>&1
cmp -s whole.folded views0.folded && cmp -s plain.txt views0.txt
say $? "without views the folded stacks and the report are as before"
# names no stack has: refused, nothing written
for o in --focus=nosuch --hide=nosuch --icicle=nosuch --stacks-thread=424242 --stacks-thread=nosuch; do
  rm -f x.folded x.svg
  case $o in --icicle*) tgt=--flame=x.svg;; *) tgt=--folded=x.folded;; esac
  gprof $tgt $o demo gmon.out > out 2> err; rc=$?
  case $o in
    --hide=*) [ $rc = 0 ] && cmp -s x.folded whole.folded;;   # hiding what is not there hides nothing
    *) [ $rc = 1 ] && [ ! -e x.folded ] && [ ! -e x.svg ] && grep -q "no stack goes through \`nosuch'\|no thread \`\(nosuch\|424242\)'" err;;
  esac
  say $? "$o: $(if [ $rc = 0 ]; then echo 'nothing hidden'; else head -1 err; fi)"
done

# 2. --icicle=NAME: the callers of spin, spin on top
gprof --flame=callers.svg --icicle=spin demo gmon.out > /dev/null 2> err; say $? "--icicle=spin $(cat err)"
gprof --flame=icicle.svg --icicle demo gmon.out > /dev/null 2> err; say $? "--icicle $(cat err)"
gprof --flame=flame.svg demo gmon.out > /dev/null 2> err; say $? "--flame $(cat err)"
gprof --flame=threads.svg --stacks-thread=all demo gmon.out > /dev/null 2> err; say $? "--flame --stacks-thread=all $(cat err)"
python3 - <<'EOF'
import re, xml.etree.ElementTree as ET
from collections import Counter
NS = '{http://www.w3.org/2000/svg}'
def say(good, what): print(('ok ' if good else 'FAIL ') + what)
def boxes(p):
    got = Counter()
    root = ET.parse(p).getroot()
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f': continue
        t = g.find(NS + 'title').text
        m = re.match(r'(.*) \((\d+) samples?, ', t, re.S)
        got[(int(g.get('data-d')), m.group(1), int(m.group(2)), float(g.find(NS + 'rect').get('y')))] += 1
    return got
# the callers' tree from the whole folded stacks: for each stack through
# spin, from its innermost spin outwards
whole = Counter()
for l in open('whole.folded'):
    p, n = l.rstrip('\n').rsplit(' ', 1); whole[p] += int(n)
node = Counter()
for p, n in whole.items():
    fr = p.split(';')
    idx = [i for i, f in enumerate(fr) if f == 'spin(unsigned long)']
    if not idx: continue
    chain = list(reversed(fr[:idx[-1] + 1]))
    for k in range(1, len(chain) + 1): node[tuple(chain[:k])] += n
tot = sum(n for k, n in node.items() if len(k) == 1)
want = Counter((len(k), k[-1], n) for k, n in node.items())
want[(0, 'all', tot)] += 1
got = boxes('callers.svg')
g2 = Counter((d, nm, n) for (d, nm, n, y), c in got.items() for _ in range(c))
ys = {d: y for (d, nm, n, y) in got}
say(g2 == want and all(ys[d] < ys[d + 1] for d in range(max(ys))),
    f'--icicle=spin: {sum(want.values())} boxes, spin on top and its callers below, as the stacks say'
    + ('' if g2 == want else f' missing {list((want - g2).items())[:2]} extra {list((g2 - want).items())[:2]}'))
a, b = boxes('flame.svg'), boxes('icicle.svg')
fa = Counter((d, nm, n) for (d, nm, n, y) in a.elements())
fb = Counter((d, nm, n) for (d, nm, n, y) in b.elements())
ya = {d: y for (d, nm, n, y) in a}; yb = {d: y for (d, nm, n, y) in b}
say(fa == fb and all(ya[d] > ya[d + 1] and yb[d] < yb[d + 1] for d in range(max(ya))),
    '--icicle: the flame graph\'s boxes, the root on top')
EOF

# 3. What is missing drawn as such: a stack cut at the depth and samples
#    not recorded ([truncated], [dropped]), hatched; the total is the
#    program's
m=$w/missing; mkdir -p $m; cp demo $m/
cp gmon.out $m/gmon.out
awk 'BEGIN {d = 0} $1 == "dropped" {$2 = 17} $1 == "stack" && !d {$4 = "t"; d = 1} {print}' gmon.out.stacks > $m/gmon.out.stacks
(cd $m && gprof --folded=m.folded --flame=m.svg demo gmon.out > /dev/null 2> err); say $? "a cut stack and dropped samples $(cat $m/err)"
python3 - $m <<'EOF'
import re, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
NS = '{http://www.w3.org/2000/svg}'
def say(good, what): print(('ok ' if good else 'FAIL ') + what)
lines = open(d + '/m.folded').read().splitlines()
total = sum(int(l.rsplit(' ', 1)[1]) for l in lines)
stk = sum(int(l.split()[2]) for l in open(d + '/gmon.out.stacks') if l.startswith('stack '))
say('[dropped] 17' in lines and any(l.startswith('[truncated];') for l in lines) and total == stk + 17,
    f'--folded: "[dropped] 17" and a [truncated] root; {total} samples = {stk} in stacks + 17 dropped')
fills = {}
for g in ET.parse(d + '/m.svg').getroot().iter(NS + 'g'):
    if g.get('class') != 'f': continue
    name = re.sub(r' \(\d+ samples?, .*', '', g.find(NS + 'title').text, flags=re.S)
    fills.setdefault(name, set()).add(g.find(NS + 'rect').get('fill'))
say(fills.get('[dropped]') == {'url(#hatch)'} and fills.get('[truncated]') == {'url(#hatch)'}
    and all('url(#hatch)' not in v for k, v in fills.items() if not k.startswith('[')),
    '--flame: [dropped] and [truncated] hatched, no other box')
EOF

# 4. Before and after: --diff-base
gprof --folded=old.folded demo old.gmon > /dev/null 2> /dev/null
gprof --folded=diff.folded --diff-base=old.gmon demo gmon.out > /dev/null 2> err; say $? "--diff-base --folded $(cat err)"
gprof --flame=diff.svg --diff-base=old.gmon demo gmon.out > /dev/null 2> err; say $? "--diff-base --flame $(cat err)"
gprof --folded=old.threads --stacks-thread=all demo old.gmon > /dev/null 2> /dev/null
gprof --folded=diff.threads --stacks-thread=all --diff-base=old.gmon demo gmon.out > /dev/null 2> err
say $? "--diff-base --stacks-thread=all $(cat err)"
gprof -b -p demo gmon.out > new.flat 2> /dev/null; gprof -b -p demo old.gmon > old.flat 2> /dev/null
gprof --diff-base=old.gmon --diff-flat demo gmon.out > diffflat.txt 2> err; say $? "--diff-flat $(cat err)"
python3 - <<'EOF'
import re
from collections import Counter
def say(good, what): print(('ok ' if good else 'FAIL ') + what)
def read(p):
    c = Counter()
    for l in open(p):
        path, n = l.rstrip('\n').rsplit(' ', 1); c[path] += int(n)
    return c
old, new = read('old.folded'), read('whole.folded')
got, bad = {}, []
for l in open('diff.folded'):
    path, a, b = l.rstrip('\n').rsplit(' ', 2)
    if path in got: bad.append('twice: ' + path)
    got[path] = (int(a), int(b))
want = {p: (old[p], new[p]) for p in set(old) | set(new)}
say(got == want and not bad, f'--diff-base --folded: {len(got)} lines "path before after", each the two profiles\' counts')
# threads as roots: the two runs' threads match by name (their ids differ)
def byname(c):
    out = Counter()
    for p, n in c.items():
        r, rest = p.split(';', 1)
        out['[thread ' + r[:-1].split(' ', 2)[2] + '];' + rest] += n
    return out
old, new = byname(read('old.threads')), byname(read('threads.folded'))
got = {}
for l in open('diff.threads'):
    path, a, b = l.rstrip('\n').rsplit(' ', 2)
    got[path] = (int(a), int(b))
want = {p: (old[p], new[p]) for p in set(old) | set(new)}
say(got == want and {p.split(';')[0] for p in got} == {'[thread demo]', '[thread worker]'},
    f'--diff-base --stacks-thread=all: threads matched by name, {len(got)} lines')
def flat(p):
    rows = {}
    for l in open(p):
        m = re.match(r'\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*)$', l)
        if m: rows[m.group(7).strip()] = rows.get(m.group(7).strip(), 0.0) + float(m.group(3))
    return rows
o, n = flat('old.flat'), flat('new.flat')
rows, errs = {}, []
for l in open('diffflat.txt'):
    m = re.match(r'\s*([\d.]+)\s+([\d.]+)\s+([-+][\d.]+)\s+(\S+)?\s*(\d+)\s+(\d+)\s+(\S.*)$', l)
    if m: rows[m.group(7)] = (float(m.group(1)), float(m.group(2)), float(m.group(3)))
for name in set(o) | set(n):
    b, a = o.get(name, 0.0), n.get(name, 0.0)
    r = rows.get(name)
    if not r or abs(r[0] - b) > 0.006 or abs(r[1] - a) > 0.006 or abs(r[2] - (a - b)) > 0.011:
        errs.append(f'{name}: {r} for {b} -> {a}')
order = [abs(r[2]) for r in rows.values()]
say(not errs and len(rows) >= 3 and 'total' in open('diffflat.txt').read(),
    f'--diff-flat: {len(rows)} rows, before and after as the two flat profiles say ' + '; '.join(errs[:3]))
EOF
# another build before (-O2, run in its own directory): --diff-base-program
mkdir -p o2 && c++ -pg -O2 -g -fno-omit-frame-pointer "$here/demo.cc" -o o2/demo2 -L"$top/libprof" -lprof -lpthread \
  && (cd o2 && LIBPROF_STACKS=64 LIBPROF_HZ=1000 ./demo2 1 > /dev/null)
gprof --folded=o2.folded o2/demo2 o2/gmon.out > /dev/null 2> /dev/null
gprof --folded=o2diff.folded --diff-base=o2/gmon.out --diff-base-program=o2/demo2 demo gmon.out > /dev/null 2> err
rc=$?
python3 - $rc "$(cat err)" <<'PYEOF'
import sys
from collections import Counter
def read(p, k=1):
    c = Counter()
    for l in open(p):
        f = l.rstrip('\n').rsplit(' ', k)
        c[f[0]] += int(f[1])
    return c
old, new = read('o2.folded'), read('whole.folded')
got = {}
for l in open('o2diff.folded'):
    p, a, b = l.rstrip('\n').rsplit(' ', 2); got[p] = (int(a), int(b))
want = {p: (old[p], new[p]) for p in set(old) | set(new)}
both = sum(1 for a, b in got.values() if a and b)
print(('ok ' if sys.argv[1] == '0' and not sys.argv[2] and got == want and both else 'FAIL ')
      + f'--diff-base-program: another build before, {both} of {len(got)} paths matched by name')
PYEOF
a=$here/../cases/arcsonly         # calls, no histogram
gprof --diff-base=$a/gmon.a --diff-flat $a/bin $a/gmon.a > out 2> err; rc=$?
[ $rc = 1 ] && [ ! -s out ] && grep -q "no histogram" err; say $? "--diff-flat without a histogram: $(head -1 err)"
gprof --diff-flat demo gmon.out > out 2> err; rc=$?
[ $rc = 1 ] && grep -q "diff-base" err; say $? "--diff-flat without --diff-base: $(head -1 err)"
# pprof's own -diff_base over the two --pprof files: one row per
# function, its value the after's less the before's
gprof --pprof=new.pb.gz demo gmon.out > /dev/null 2> /dev/null; gprof --pprof=old.pb.gz demo old.gmon > /dev/null 2> /dev/null
gprof --pprof=hide.pb.gz --hide=spin demo gmon.out > /dev/null 2> /dev/null
if command -v go > /dev/null && go tool pprof -h > /dev/null 2>&1; then
  go tool pprof -top -nodecount=100 -unit=ms new.pb.gz > p.new 2> /dev/null
  go tool pprof -top -nodecount=100 -unit=ms old.pb.gz > p.old 2> /dev/null
  go tool pprof -top -nodecount=100 -unit=ms -diff_base=old.pb.gz new.pb.gz > p.diff 2> p.err
  go tool pprof -top -nodecount=100 -unit=ms hide.pb.gz > p.hide 2> /dev/null
  python3 - <<'EOF'
import re
def say(good, what): print(('ok ' if good else 'FAIL ') + what)
def top(p):
    rows, dup = {}, []
    for l in open(p):
        m = re.match(r'\s*(-?[\d.]+)ms\s+[-\d.]+%\s+[-\d.]+%\s+(-?[\d.]+)ms\s+[-\d.]+%\s+(.*)$', l)
        if not m: m0 = re.match(r'\s*0\s+0%\s+[-\d.]+%\s+(-?[\d.]+)ms\s+[-\d.]+%\s+(.*)$', l)
        if m: name, flat, cum = m.group(3), float(m.group(1)), float(m.group(2))
        elif m0: name, flat, cum = m0.group(2), 0.0, float(m0.group(1))
        else: continue
        if name in rows: dup.append(name)
        rows[name] = (flat, cum)
    return rows, dup
n, _ = top('p.new'); o, _ = top('p.old'); d, dup = top('p.diff'); h, _ = top('p.hide')
errs = [f'{k}: {d.get(k)} for {o.get(k)} -> {n.get(k)}' for k in set(n) | set(o)
        if abs(d.get(k, (0, 0))[1] - (n.get(k, (0, 0))[1] - o.get(k, (0, 0))[1])) > 0.5]
say(d and not dup and not errs and 'parse::tokens(int)' in d,
    f'go tool pprof -diff_base: {len(d)} functions once each, after less before ' + '; '.join(errs[:3] + dup[:2]))
say(h and 'spin(unsigned long)' not in h and abs(sum(v[0] for v in h.values()) - sum(v[0] for v in n.values())) < 0.5,
    f'--pprof --hide=spin: no spin in go tool pprof, the same total')
EOF
else
  echo "skip go tool pprof -diff_base: go is not installed (golang-go)"
fi

# 4b. The same views on --html and --pprof: the page's flame graph is the
#     SVG --flame draws with the same options (and not the one without);
#     go tool pprof reads the view's samples alone
set -- "--stacks-thread=worker" "--stacks-thread=all" "--focus=parse::tree" "--hide=spin" \
  "--diff-base=old.gmon" "--icicle=spin" "--stacks-thread=worker --focus=render::draw --hide=render::Canvas::fill"
gprof --html=v0.html demo gmon.out > /dev/null 2>&1
k=0
for o in "$@"; do
  k=$((k + 1))
  gprof --flame=v$k.svg $o demo gmon.out > /dev/null 2>&1
  gprof --html=v$k.html $o demo gmon.out > /dev/null 2> err
  python3 - v$k.html v$k.svg v0.html "$o" "$(cat err)" <<'EOF'
import json, re, sys
page, svg, plain, o, err = sys.argv[1:6]
def flame(p):
    m = re.search(r'<script type="application/json" id="gprof-data">(.*?)</script>', open(p).read(), re.S)
    return json.loads(m.group(1))['flame']
f, want, f0 = flame(page), open(svg).read(), flame(plain)
print(('ok ' if f == want and f != f0 and not err else 'FAIL ')
      + f'--html {o}: the page\'s flame graph is --flame {o}\'s ({len(want)} bytes) {err}')
EOF
done
if command -v go > /dev/null && go tool pprof -h > /dev/null 2>&1; then
  gprof --pprof=thr.pb.gz --stacks-thread=worker demo gmon.out > /dev/null 2> /dev/null
  gprof --pprof=foc.pb.gz --focus=parse::tree demo gmon.out > /dev/null 2> /dev/null
  gprof --pprof=mix.pb.gz --stacks-thread=$wtid --focus=render::draw --hide=render::Canvas::fill demo gmon.out > /dev/null 2> /dev/null
  for v in thr foc mix; do
    go tool pprof -top -nodecount=100 -unit=ms $v.pb.gz > p.$v 2> /dev/null
    go tool pprof -tags $v.pb.gz > tags.$v 2> /dev/null
  done
  python3 - <<'EOF'
import re
from collections import Counter
def say(good, what): print(('ok ' if good else 'FAIL ') + what)
def total(p):
    m = re.search(r'Total samples = (\d+)ms', open(p).read())
    return int(m.group(1)) if m else -1
def cum(p, name):
    for l in open(p):
        if l.rstrip().endswith('  ' + name):
            return float(re.findall(r'([\d.]+)ms', l)[-1])
    return -1
def folded(p):
    return sum(int(l.rsplit(' ', 1)[1]) for l in open(p))
def threads(p):
    t = open(p).read()
    return re.findall(r'^\s+[\d.]+ms \(\s*[\d.]+%\): (\S+)', t.split(' tid:')[0], re.M)
n = folded('t.worker')
say(total('p.thr') == n and threads('tags.thr') == ['worker'],
    f'--pprof --stacks-thread=worker: go tool pprof reads {total("p.thr")} ms of {n} samples, one thread {threads("tags.thr")}')
n = folded('focus.folded')
say(total('p.foc') == n and cum('p.foc', 'parse::tree(int)') == n,
    f'--pprof --focus=parse::tree: {total("p.foc")} ms of {n} samples, all through parse::tree(int)')
mix = Counter()
for l in open('mix.folded'):
    p, c = l.rstrip('\n').rsplit(' ', 1); mix[p] += int(c)
say(total('p.mix') == sum(mix.values()) and cum('p.mix', 'render::Canvas<int>::fill(unsigned long)') == -1
    and threads('tags.mix') == ['worker'],
    f'--pprof --stacks-thread --focus --hide together: {total("p.mix")} ms, the folded view\'s {sum(mix.values())}')
EOF
else
  echo "skip --pprof views: go is not installed (golang-go)"
fi

# 5. The browser: search, zoom, reset, the differences' colours
py=python3
python3 -c 'import selenium' 2> /dev/null || { [ -x /usr/bin/python3 ] && py=/usr/bin/python3; }
mkdir -p $w/shots
$py "$here/flame.py" $w/shots flame.svg 'parse::' 'parse::tree(int)' diff.svg icicle.svg threads.svg
done_
