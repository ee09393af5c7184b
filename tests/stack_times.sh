#!/bin/sh
# stack_times.sh -- --stack-times (issue 23): where gprof's estimate is
# known wrong (tests/libprof/stk_acc.c: cheap() hands work() 1000 small
# jobs, dear() one big one), the inclusive time the real stacks measured
# for each caller -> work call is within 5% of the truth the program
# measured with its own CPU clock, while the estimate is far off (the
# three printed in the log); the report before ours is GNU's bytes; the
# JSON carries the same figures and passes the schema; no stack file is
# one line and status 1.  Needs libprof built (make).
# Prints "ok WHAT" or "FAIL WHAT"; run.sh counts them.
cd "$(dirname "$0")"
here=$(pwd)
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/stack_times}"
rm -rf "$OUT"; mkdir -p "$OUT"
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
say() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
[ -f "$top/libprof/libprof.a" ] || { echo "skip: libprof is not built"; echo "stack_times: done"; exit 0; }
cd "$OUT"
cc -O1 -pg -g "$here/libprof/stk_acc.c" -o acc -L"$top/libprof" -lprof || bad "building stk_acc"
LIBPROF_HZ=1000 LIBPROF_STACKS=64 ./acc 10 > truth.txt || bad "running stk_acc"
"$GPROF" -b acc gmon.out > plain.txt 2> plain.err
"$GPROF" -b --stack-times acc gmon.out > st.txt 2> st.err
[ ! -s st.err ]; say $? "--stack-times: no message ($(head -1 st.err))"
n=$(wc -c < plain.txt)
head -c "$n" st.txt | cmp -s - plain.txt && [ "$(tail -c +$((n + 1)) st.txt | head -c 1 | od -An -c | tr -d ' ')" = '\f' ]
say $? "--stack-times: GNU's report unchanged, ours after a form feed"
# caller -> work: measured and estimated seconds, unrounded (the JSON's;
# its agreement with the text is checked below)
"$GPROF" --json=st.json --stack-times acc gmon.out > /dev/null 2> json.err
line() { python3 -c "import json,sys; a=[a for a in json.load(open('st.json'))['stack_times']['arcs'] if a['caller']==sys.argv[1] and a['callee']=='work']; print(a[0]['measured_seconds'], a[0]['estimated_seconds']) if a else None" "$1"; }
# and the text's line for it: measured estimated calls caller [i] -> work [j]
tline() { awk -v c="$1" '$4 == c && $6 == "->" && $7 == "work" {print $1, $2}' st.txt; }
echo "caller -> work      truth     estimate (error)       measured (error)"
for c in cheap dear; do
  t=$(awk -v c=$c '{for (i = 1; i < NF; i++) if ($i == c) print $(i + 2)}' truth.txt)
  set -- $(line $c)
  m=$1 e=$2
  awk -v c=$c -v t="$t" -v e="$e" -v m="$m" 'BEGIN {printf "%-14s %8.3f s  %8.2f s (%+7.1f%%)  %8.2f s (%+5.1f%%)\n", c, t, e, (e - t) / t * 100, m, (m - t) / t * 100}'
  awk -v t="$t" -v m="$m" 'BEGIN {exit !(m != "" && (m - t) / t < 0.05 && (t - m) / t < 0.05)}'
  say $? "--stack-times: $c -> work measured $m s, truth $t s (within 5%)"
  awk -v t="$t" -v e="$e" 'BEGIN {exit !(e != "" && ((e - t) / t > 0.5 || (t - e) / t > 0.5))}'
  say $? "--stack-times: $c -> work estimated $e s, truth $t s (the estimate is wrong here)"
  [ "$(tline $c)" = "$(awk -v m="$m" -v e="$e" 'BEGIN {printf "%.2f %.2f", m, e}')" ]
  say $? "--stack-times: the text's $c -> work line says what the JSON does ($(tline $c))"
done
# JSON: the schema, and the arcs against the call graph
python3 - "$top/doc/gprof.schema.json" st.json st.txt <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1].rsplit('/doc/', 1)[0] + '/tests/tools')
import schemacheck
schema = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
err = schemacheck.validate(schema, doc)
print(('FAIL' if err else 'ok') + ' --stack-times --json: the schema holds' + (': ' + err if err else ''))
st = doc['stack_times']
arcs = {(a['caller'], a['callee']): a for a in st['arcs']}
a = arcs.get(('cheap', 'work')); b = arcs.get(('dear', 'work'))
good = a and b and a['calls'] == 10000 and b['calls'] == 10 and abs(a['measured_seconds'] + b['measured_seconds'] - [f for f in st['functions'] if f['name'] == 'work'][0]['measured_seconds']) < 1e-9
print(('ok' if good else 'FAIL') + ' --stack-times --json: arcs into work add up to work, calls as the call graph\'s')
PY
"$GPROF" --json=plain.json acc gmon.out > /dev/null
python3 -c "import json,sys; sys.exit(json.load(open('plain.json'))['stack_times'] is not None)"
say $? "--json without --stack-times: stack_times null"
# no stack file
mv gmon.out.stacks keep.stacks
"$GPROF" -b --stack-times acc gmon.out > none.txt 2> none.err; st=$?
[ $st = 1 ] && [ "$(wc -l < none.err)" = 1 ] && grep -q 'LIBPROF_STACKS' none.err
say $? "--stack-times without a stack file: one line, status 1 ($(cat none.err))"
mv keep.stacks gmon.out.stacks
echo "stack_times: done"
