#!/bin/sh
# The exports (--dot, --callgrind, --json), checked with the programs that
# read them: prints "ok WHAT" or "FAIL WHAT: why" per check; run.sh counts
# them.  Needs python3, graphviz's dot and valgrind's callgrind_annotate.
# GPROF is the gprof to test; OUT a scratch directory.
cd "$(dirname "$0")"
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/exports}"
rm -rf "$OUT"; mkdir -p "$OUT/bin"
# run as plain `gprof`, since messages start with argv[0]
ln -s "$GPROF" "$OUT/bin/gprof"; GPROF=gprof; PATH="$OUT/bin:$PATH"
py=python3
schema=$top/doc/gprof.schema.json
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
for tool in dot callgrind_annotate $py; do
  command -v $tool > /dev/null || bad "exports: $tool is not installed (graphviz, valgrind, python3)"
done

# 1. Every case and option set of the suite: the text with --json is the
#    text without it, the exit status too, and the JSON agrees with the
#    text of the same table (--all-functions: the exports name GCC's
#    clones, which GNU's text leaves in their neighbours); a run that
#    fails leaves no JSON.
pairs=$OUT/pairs; : > $pairs
k=0
sums=$(ls -l --full-time cases/*/gmon.sum 2> /dev/null)
for d in cases/*/; do
  d=${d%/}; c=${d#cases/}
  opts=optsets; [ -f $d/optsets ] && opts=$d/optsets
  # gprof runs in links to the case's files at the case's depth (as
  # run.sh's golden jobs): -s writes gmon.sum there, not in tests/cases
  r=$OUT/run/cases/$c; rm -rf $r; mkdir -p $r
  [ -e $OUT/run/progs ] || ln -sn "$top/tests/progs" $OUT/run/progs
  for x in $d/*; do case ${x##*/} in expected|gmon.sum) ;; *) ln -s "$top/tests/$x" $r/;; esac; done
  while IFS= read -r o; do
    case " $o " in *" -T "*|*" -i "*|*-bT*|*" -y"*) continue;; esac
    k=$((k + 1)); j=$OUT/$k.json
    (cd $r && "$GPROF" $o bin $(cat files) > $OUT/$k.txt 2> $OUT/$k.err; echo $? > $OUT/$k.rc)
    (cd $r && "$GPROF" $o --json=$j bin $(cat files) > $OUT/$k.jtxt 2> $OUT/$k.jerr; echo $? > $OUT/$k.jrc)
    (cd $r && "$GPROF" $o --all-functions bin $(cat files) > $OUT/$k.atxt 2> /dev/null)
    if ! cmp -s $OUT/$k.txt $OUT/$k.jtxt || ! cmp -s $OUT/$k.rc $OUT/$k.jrc || ! cmp -s $OUT/$k.err $OUT/$k.jerr; then
      bad "json $c [$o]: the text report changed with --json"
    elif [ "$(cat $OUT/$k.rc)" != 0 ]; then
      if [ -e $j ] || ls $OUT | grep -q "^$k.json."; then bad "json $c [$o]: a failed run left a JSON file"; else ok "json $c [$o]: failed run, no file"; fi
    else
      echo "$c [$o]|$j|$OUT/$k.atxt" >> $pairs
    fi
  done < $opts
done
[ "$(ls -l --full-time cases/*/gmon.sum 2> /dev/null)" = "$sums" ] && ok "json: -s wrote no gmon.sum in tests/cases" \
  || bad "json: -s wrote gmon.sum in tests/cases (a run beside this one shares it)"
$py - "$schema" "$pairs" <<'PYEOF'
import contextlib, io, json, sys
sys.path.insert(0, 'tools')
import schemacheck, exportcheck
schema = json.load(open(sys.argv[1]))
compared = 0
for line in open(sys.argv[2]):
    what, j, t = line.rstrip('\n').split('|')
    try:
        doc = json.load(open(j, encoding='utf-8'))
    except Exception as e:
        print(f'FAIL json {what}: not JSON: {e}'); continue
    err = schemacheck.validate(schema, doc)
    if err:
        print(f'FAIL json {what}: schema: {err}'); continue
    buf, rc = io.StringIO(), 0
    with contextlib.redirect_stdout(buf):
        try:
            exportcheck.check_json(doc, open(t, encoding='utf-8', errors='surrogateescape').read())
        except SystemExit as e:
            rc = e.code
    msg = ' '.join(buf.getvalue().split())
    if rc == 0:
        print(f'ok json {what}: {msg}'); compared += 1
    elif rc == 2:
        print(f'ok json {what}: valid (no table in the text)')
    else:
        print(f'FAIL json {what}: {msg}')
if compared < 100:
    print(f'FAIL json: only {compared} runs compared with their text')
PYEOF

# 2. callgrind_annotate reads each callgrind file; its total and each
#    function's self cost agree with the flat profile.  3. dot renders each
#    DOT file, with the nodes the thresholds keep.
for d in cases/*/; do
  d=${d%/}; c=${d#cases/}
  w=$OUT/cl_$c
  (cd $d && "$GPROF" -b --json=$w.json --callgrind=$w.cg --dot=$w.dot bin $(cat files) > /dev/null 2>&1) || continue
  if grep -q '"flat_profile":\[' $w.json; then
    if callgrind_annotate --threshold=100 $w.cg > $w.ann 2> $w.annerr && r=$($py tools/exportcheck.py callgrind $w.json $w.ann); then
      ok "callgrind $c: $r"
    else
      bad "callgrind $c: $(cat $w.annerr) $r"
    fi
  fi
  # inclusive costs: never below self, every call balanced
  if callgrind_annotate --threshold=100 --inclusive=yes $w.cg > $w.incl 2>> $w.annerr && [ ! -s $w.annerr ] \
     && callgrind_annotate --threshold=100 $w.cg > $w.self && r=$($py tools/exportcheck.py inclusive $w.self $w.incl $w.cg $w.json); then
    ok "callgrind inclusive $c: $r"
  else
    bad "callgrind inclusive $c: $(head -3 $w.annerr) $r"
  fi
  if dot -Tsvg $w.dot -o $w.svg 2> $w.doterr && [ ! -s $w.doterr ] && r=$($py tools/exportcheck.py dot $w.json $w.dot); then
    ok "dot $c: $r"
  else
    bad "dot $c: $(head -3 $w.doterr) $r"
  fi
  # names within 40 characters a line, edge labels apart where dot put them
  if dot -Txdot $w.dot -o $w.xdot 2> $w.doterr && r=$($py tools/exportcheck.py labels $w.dot $w.xdot 40); then
    ok "dot labels $c: $r"
  else
    bad "dot labels $c: $(head -3 $w.doterr) $r"
  fi
done

# 2b. --callgrind by line: tests/progs/hotlines.c (case hotlines, -O0 -g,
#     a two-function cycle and self recursion) with and without -l: the
#     hot and warm lines of generate_text and the loops of the cycle's
#     members and of depth carry samples (hot above warm), in
#     callgrind_annotate's per-line annotation, automatic and of the file
#     named; inclusive never below self; the same file twice; the event
#     named.  Its sources are named /gprof-tests/progs/... (gen.sh).
for l in "" "-l"; do
  w=$OUT/hot$l; m=cases/hotlines
  (cd $m && "$GPROF" -b $l --callgrind=$w.cg --json=$w.json bin gmon.out > /dev/null \
     && "$GPROF" -b $l --callgrind=$w.again.cg bin gmon.out > /dev/null)
  sed "s|/gprof-tests/progs/|$top/tests/progs/|" $w.cg > $w.local.cg
  callgrind_annotate --auto=yes --threshold=100 $w.local.cg > $w.ann 2> $w.err
  # callgrind_annotate names files below the current directory relatively
  (cd $top/tests/progs && callgrind_annotate --auto=no $w.local.cg hotlines.c) > $w.user 2>> $w.err
  cost() { v=$(grep -F -- "$2" $1 | grep -v '=>' | head -1 | awk '{print $1}' | tr -d ,); [ "$v" = . ] && v=0; echo ${v:-0}; }
  hot=$(cost $w.ann '/* hot */'); warm=$(cost $w.ann '/* warm */')
  e=$(cost $w.ann 'k < 2000'); o=$(cost $w.ann 'k < 6000'); d=$(cost $w.ann 'k < 3000')
  uhot=$(cost $w.user '/* hot */')
  if [ ! -s $w.err ] && [ "$hot" -gt "$warm" ] && [ "$warm" -gt 0 ] && [ "$e" -gt 0 ] && [ "$o" -gt 0 ] \
     && [ "$d" -gt 0 ] && [ "$uhot" = "$hot" ] && grep -q 'User-annotated source: .*hotlines.c' $w.user; then
    ok "callgrind by line [$l]: hot $hot, warm $warm, even $e, odd $o, depth $d us"
  else
    bad "callgrind by line [$l]: hot $hot, warm $warm, even $e, odd $o, depth $d, named file $uhot: $(head -2 $w.err)"
  fi
  callgrind_annotate --threshold=100 $w.cg > $w.self 2>&1; callgrind_annotate --threshold=100 --inclusive=yes $w.cg > $w.incl 2>&1
  r=$($py tools/exportcheck.py inclusive $w.self $w.incl $w.cg $w.json) && ok "callgrind inclusive hotlines [$l]: $r" \
    || bad "callgrind inclusive hotlines [$l]: $r"
  r=$($py tools/exportcheck.py callgrind $w.json $w.self) && ok "callgrind total hotlines [$l]: $r" || bad "callgrind total hotlines [$l]: $r"
  if cmp -s $w.cg $w.again.cg && grep -q '^events: Time$' $w.cg && grep -q '^event: Time : .*sampled' $w.cg; then
    ok "callgrind [$l]: deterministic, event named"; else bad "callgrind [$l]: not deterministic or no event name"; fi
done
# -l on the cycles case too: the same balance (gprof's own -l graph is one
# of line symbols; the costs are the functions')
w=$OUT/cyc_l; m=cases/cycles
(cd $m && "$GPROF" -b -l --callgrind=$w.cg --json=$w.json bin gmon.out > /dev/null)
callgrind_annotate --threshold=100 $w.cg > $w.self 2>&1; callgrind_annotate --threshold=100 --inclusive=yes $w.cg > $w.incl 2>&1
r=$($py tools/exportcheck.py inclusive $w.self $w.incl $w.cg $w.json) && grep -q 'cycles.c:pong' $w.incl \
  && ! grep -E '^ +0 +.*:pong ' $w.incl > /dev/null && ok "callgrind inclusive cycles [-l]: $r" || bad "callgrind inclusive cycles [-l]: $r"

# 4. Names that need escaping, C++ names with spaces and quotes, a cycle
#    and a self-recursive function, through all three and their readers.
w=$OUT/weird; $py tools/weirdnames.py $w
if (cd $w && "$GPROF" -b --json=w.json --dot=w.dot --callgrind=w.cg bin gmon.out > w.txt); then
  r=$($py tools/exportcheck.py json $w/w.json $w/w.txt) && $py tools/schemacheck.py $schema $w/w.json \
    && ok "weird names: json: $r" || bad "weird names: json: $r"
  callgrind_annotate --threshold=100 $w/w.cg > $w/w.ann 2>&1 && r=$($py tools/exportcheck.py callgrind $w/w.json $w/w.ann) \
    && ok "weird names: callgrind: $r" || bad "weird names: callgrind: $r"
  dot -Tsvg $w/w.dot -o $w/w.svg 2> $w/doterr && [ ! -s $w/doterr ] && r=$($py tools/exportcheck.py svg $w/w.json $w/w.svg) \
    && ok "weird names: dot: $r" || bad "weird names: dot: $(cat $w/doterr) $r"
  (cd $w && "$GPROF" -b --dot-full-names --dot=wf.dot bin gmon.out > /dev/null) && dot -Tsvg $w/wf.dot -o $w/wf.svg 2> $w/doterr \
    && [ ! -s $w/doterr ] && r=$($py tools/exportcheck.py svgfull $w/w.json $w/wf.svg) \
    && ok "weird names: dot --dot-full-names: $r" || bad "weird names: dot --dot-full-names: $(cat $w/doterr) $r"
else
  bad "weird names: gprof failed"
fi

# 4b. A C++ program (tests/progs/cxxgraph.cc: the standard library,
#    templates, lambdas, virtual calls, a cycle): dot draws it with short
#    names of at most 40 characters a line, every name as JSON's
#    short_name; --dot-full-names draws the text's names, each on one line.
w=$OUT/cxx; mkdir -p $w; m=cases/cxxgraph
if (cd $m && "$GPROF" -b --dot=$w/s.dot --json=$w/s.json bin gmon.out > /dev/null \
    && "$GPROF" -b --dot-full-names --dot=$w/f.dot bin gmon.out > /dev/null); then
  dot -Tsvg $w/s.dot -o $w/s.svg 2> $w/err && [ ! -s $w/err ] && dot -Txdot $w/s.dot -o $w/s.xdot \
    && r=$($py tools/exportcheck.py svg $w/s.json $w/s.svg) && r="$r; $($py tools/exportcheck.py labels $w/s.dot $w/s.xdot 40)" \
    && ok "c++ names: $r" || bad "c++ names: $(cat $w/err) $r"
  dot -Tsvg $w/f.dot -o $w/f.svg 2> $w/err && [ ! -s $w/err ] && r=$($py tools/exportcheck.py svgfull $w/s.json $w/f.svg) \
    && long=$(grep -o 'label="[^"]*' $w/f.dot | awk '{ if (length > n) n = length } END { print n - 7 }') && [ "$long" -gt 200 ] \
    && ok "c++ --dot-full-names: $r, the longest $long bytes" || bad "c++ --dot-full-names: $(cat $w/err) $r"
else
  bad "c++ names: gprof failed"
fi

# 5. Files: an unwritable FILE is an error naming it, and nothing is left;
#    a later export that cannot be written keeps the earlier ones out too;
#    "-" is standard output, alone; default names.
m=cases/cycles; f=$OUT/files; mkdir -p $f; : > $f/plain
(cd $m && "$GPROF" -b --json=$f/plain/x.json bin gmon.out > $f/out 2> $f/err); rc=$?
if [ $rc = 1 ] && grep -qx "gprof: $f/plain/x.json: Not a directory" $f/err && [ ! -s $f/out ]; then ok "unwritable json"; else bad "unwritable json: rc $rc: $(cat $f/err)"; fi
mkdir -p $f/adir
(cd $m && "$GPROF" -b --dot=$f/good.dot --callgrind=$f/adir bin gmon.out > $f/out 2> $f/err); rc=$?
if [ $rc = 1 ] && grep -q "^gprof: $f/adir: " $f/err && [ ! -e $f/good.dot ] && [ "$(ls -A $f/adir)" = "" ] \
   && [ "$(ls $f | tr '\n' ' ')" = "adir err out plain " ]; then ok "unwritable callgrind: nothing written"; else bad "unwritable callgrind: rc $rc, $(cat $f/err), left: $(ls $f)"; fi
(cd $m && "$GPROF" -b --dot=- bin gmon.out > $f/stdout.dot 2> $f/err); rc=$?
if [ $rc = 0 ] && head -1 $f/stdout.dot | grep -q '^digraph' && ! grep -q 'Flat profile' $f/stdout.dot; then ok "--dot=-"; else bad "--dot=-"; fi
(cd $m && "$GPROF" -b --dot=- --json=- bin gmon.out > $f/out 2> $f/err); rc=$?
if [ $rc = 1 ] && [ -s $f/err ] && [ ! -s $f/out ]; then ok "two exports to stdout refused"; else bad "two exports to stdout"; fi
mkdir -p $f/cwd; (cd $f/cwd && "$GPROF" -b --dot --json --callgrind "$top/tests/$m/bin" "$top/tests/$m/gmon.out" > out)
if [ -s $f/cwd/gprof.dot ] && [ -s $f/cwd/gprof.json ] && [ -s $f/cwd/callgrind.out.gprof ] \
   && cmp -s $f/cwd/out $OUT/$(grep -n "^cycles \[-b\]|" $pairs | head -1 | sed 's/.*|\(.*\)|.*/\1/' | xargs basename | sed 's/json$/txt/'); then
  ok "default file names, text unchanged"; else bad "default file names"; fi
(cd $m && "$GPROF" -b --node-threshold=x --dot=$f/t.dot bin gmon.out > /dev/null 2> $f/err); rc=$?
if [ $rc = 1 ] && grep -q threshold $f/err && [ ! -e $f/t.dot ]; then ok "bad threshold"; else bad "bad threshold"; fi
(cd $m && "$GPROF" -b --node-threshold=0 --edge-threshold=0 --dot=$f/all.dot --json=$f/all.json bin gmon.out > /dev/null) \
  && dot -Tsvg $f/all.dot -o $f/all.svg && r=$($py tools/exportcheck.py dot $f/all.json $f/all.dot 0 0) \
  && ok "thresholds 0: $r" || bad "thresholds 0: $r"
(cd $m && "$GPROF" -b -z --node-threshold=0 --edge-threshold=0 --dot=$f/z.dot --json=$f/z.json bin gmon.out > /dev/null) \
  && dot -Tsvg $f/z.dot -o $f/z.svg && r=$($py tools/exportcheck.py dot $f/z.json $f/z.dot 0 0) \
  && ok "-z, thresholds 0: $r" || bad "-z, thresholds 0: $r"

# A cycle over the threshold with no member over it (cycle 1: 15%, ping
# and pong 7-8%) is a node, and the arcs to and from its members are
# edges to and from it, one per other end.
(cd $m && "$GPROF" -b --node-threshold=10 --dot=$f/c.dot --json=$f/c.json bin gmon.out > /dev/null) \
  && dot -Tsvg $f/c.dot -o $f/c.svg && r=$($py tools/exportcheck.py dot $f/c.json $f/c.dot 10 0.1) \
  && grep -q '^  n2 -> c1 ' $f/c.dot && grep -q '^  c1 -> n1 .*26964 calls' $f/c.dot \
  && ok "a cycle drawn as a node: $r" || bad "a cycle drawn as a node: $r"

# Symspecs, -e/-E/-f/-F, -k shape the picture as they shape the graph
# (exportcheck derives the expected nodes and edges from the JSON, which
# the loop above checked against the text for these options).
for o in "-e spin" "-E spin" "-f work" "-F tri_a" "-k work/fact" "-qfact" "-Qspin"; do
  (cd $m && "$GPROF" -b $o --node-threshold=0 --edge-threshold=0 --dot=$f/s.dot --json=$f/s.json bin gmon.out > $f/s.txt) \
    && r=$($py tools/exportcheck.py json $f/s.json $f/s.txt) \
    && dot -Tsvg $f/s.dot -o $f/s.svg && r=$($py tools/exportcheck.py dot $f/s.json $f/s.dot 0 0) \
    && ok "dot [$o]: $r" || bad "dot [$o]: $r"
done
if callgrind_annotate --inclusive=yes --tree=caller $OUT/cl_cycles.cg > $f/incl.ann 2>&1 \
   && grep -q 'work' $f/incl.ann && grep -q 'PROGRAM TOTALS' $f/incl.ann; then
  ok "callgrind_annotate --inclusive=yes --tree=caller"; else bad "callgrind_annotate --inclusive=yes: $(head -3 $f/incl.ann)"; fi

# --max-nodes: the heaviest nodes, and at most three times as many edges.
s=cases/synth_700_27
(cd $s && "$GPROF" -b --node-threshold=0 --edge-threshold=0 --max-nodes=25 --dot=$f/cap.dot --json=$f/cap.json bin gmon.out > /dev/null) \
  && dot -Tsvg $f/cap.dot -o $f/cap.svg && r=$($py tools/exportcheck.py dot $f/cap.json $f/cap.dot 0 0 25) \
  && grep -q 'heaviest of' $f/cap.dot && ok "--max-nodes=25: $r" || bad "--max-nodes=25: $r"

# 6. 20,000 functions and 200,000 arcs: dot renders the default picture
#    in well under a minute -- for a graph whose functions fall into one
#    large cycle (synth.py), and for one without cycles where thousands of
#    functions pass the node threshold (dagprof.py: the node limit holds).
for gen in synth dagprof; do
  b=$OUT/big_$gen; $py tools/$gen.py 20000 200000 5 $b > /dev/null
  (cd $b && "$GPROF" --dot=big.dot bin gmon.out > /dev/null)
  t0=$(date +%s%N)
  if timeout 60 dot -Tsvg $b/big.dot -o $b/big.svg; then
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    ok "20000 functions ($gen): dot renders in $ms ms, $(grep -cE '^ +[nc][0-9]+ \[' $b/big.dot) nodes, $(grep -- '->' $b/big.dot | grep -vc invis) edges"
  else
    bad "20000 functions ($gen): dot did not render within 60 s"
  fi
done
