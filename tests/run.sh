#!/bin/sh
# The test suite: GNU gprof 2.40's reports recorded once and compared byte
# for byte, live comparisons against /usr/bin/gprof when it is installed,
# libprof's programs, the exports read by their readers, unit tests,
# hostile input and the torture programs.
#
#   sh tests/run.sh [-j N] [-l] [-o DIR] [PATTERN...]
#
# The suite is a list of named jobs (-l lists them): golden:CASE and
# live:CASE (every option set of a case), libprof:SCRIPT, unit:NAME,
# hostile, mutate, exports, pprof, stacks, stack_times, torture, ...
# PATTERNs are shell globs over job names (`golden:cycles*`, `libprof:*`);
# none runs everything.  -j N runs N jobs at once (default 1; `make check
# J=2`).  Each job writes DIR/log/NAME.log (-o DIR, default tests/out:
# runs of the suite at once in one tree each want their own, as make
# check-sanitize's tests/out-asan; every job writes under it or in
# directories of its own from mktemp); a failure prints its
# check's name and what differs (a diff for the recorded reports), a
# skipped check says "skip" and why.  Ends with "N passed, M failed" and
# exits non-zero on any failure.
cwd=$(pwd)
cd "$(dirname "$0")"
top=$(cd .. && pwd)
GPROF=${GPROF:-$top/gprof}
out=${TESTS_OUT:-$top/tests/out}
BFDLIB=${BFDLIB:--lbfd}
export GPROF BFDLIB

# ---- one job: sh run.sh --job NAME (the driver below runs these) ----
# Lines a job prints: "ok WHAT", "FAIL WHAT", "skip WHAT (why)",
# "KNOWN-GAP WHAT", and detail lines starting with blanks after a FAIL.

# the name of an option set's recorded files: the options, blanks as ','
# and '/' as '%' ("-b -q" -> cases/C/expected/-b,-q.out)
optkey() { printf '%s' "$1" | sed 's/ /,/g; s|/|%|g'; }
optfile() { if [ -f cases/$1/optsets ]; then echo cases/$1/optsets; else echo optsets; fi; }
known() { grep -qxF "$1 $2" known-gaps; }
# FILE1 FILE2: the first lines of a unified diff, indented
showdiff() { diff -u "$1" "$2" | head -n "${DIFF_LINES:-20}" | sed 's/^/    /'; }

# LABEL CASE OPTS A B [MORE]: the run B.{out,err,rc} against A's (the
# recorded or GNU's): "ok", "FAIL" with what differs and its diffs, or
# "KNOWN-GAP" for a pair tests/known-gaps lists; MORE: differences found
# beyond the three files (" gmon.sum")
judge() {
  why=""
  cmp -s "$4.out" "$5.out" || why="$why stdout"
  cmp -s "$4.err" "$5.err" || why="$why stderr"
  cmp -s "$4.rc" "$5.rc" || why="$why exit"
  why="$why${6:-}"
  if known "$2" "$3"; then
    echo "KNOWN-GAP $1[$3]:${why:- now matches, remove it from known-gaps}"
  elif [ -z "$why" ]; then echo "ok [$3]"
  else
    echo "FAIL [$3]:$why"
    for s in out err rc; do cmp -s "$4.$s" "$5.$s" || showdiff "$4.$s" "$5.$s"; done
  fi
}

job_golden() { # recorded reports of case $1
  c=$1 d=cases/$1 j=$out/golden/$1
  rm -rf "$j"; mkdir -p "$j"
  # run in a copy of the case's directory made of links, at the same depth
  # under $out/run as the case under tests/ (-I ../../progs, -S ../CASE):
  # what gprof writes there (gmon.sum, FILE-ann) stays in this run's $out
  r=$out/run/cases/$c; rm -rf "$r"; mkdir -p "$r"
  # (-n: a link another job made is not entered)
  [ -e "$out/run/progs" ] || ln -sn "$top/tests/progs" "$out/run/progs" 2> /dev/null
  for x in $d/*; do
    case ${x##*/} in expected|gmon.sum) ;; *) ln -s "$top/tests/$x" "$r/${x##*/}";; esac
  done
  while IFS= read -r o; do
    e=$d/expected/$(optkey "$o")
    if [ ! -f "$e.rc" ]; then echo "FAIL [$o]: nothing recorded ($e.rc; tests/expect.sh $c)"; continue; fi
    k=$(optkey "$o")
    # a locale no machine has: the stale errno GNU prints for a cut
    # basic-block entry (what loading the locale left) is then ENOENT
    # everywhere, as when the expectations were recorded
    (cd "$r" && PATH="$out/bin:$PATH" LC_ALL=gprof_TEST.UTF-8 gprof $o bin $(cat files) > "$j/$k.out" 2> "$j/$k.err"; echo $? > "$j/$k.rc")
    judge "$c " "$c" "$o" "$e" "$j/$k"
  done < "$(optfile $c)"
}

job_live() { # case $1 against GNU itself, in the case's env (expect.sh's)
  c=$1 d=$top/tests/cases/$1
  [ -x /usr/bin/gprof ] || { echo "skip live $c (GNU gprof is not installed)"; return; }
  while IFS= read -r o; do
    w=$out/live/$c; rm -rf "$w"; mkdir -p "$w/ref" "$w/cand"
    for who in ref cand; do
      if [ $who = ref ]; then p=$out/refbin; else p=$out/bin; fi
      (cd "$w/$who" && env $(cat "$d/env" 2> /dev/null) PATH="$p:$PATH" gprof $o "$d/bin" $(for f in $(cat "$d/files"); do echo "$d/$f"; done) \
         > ../$who.out 2> ../$who.err; echo $? > ../$who.rc)
    done
    more=""
    [ -f "$w/ref/gmon.sum" ] && { cmp -s "$w/ref/gmon.sum" "$w/cand/gmon.sum" || more=" gmon.sum"; }
    judge "live $c " "$c" "$o" "$w/ref" "$w/cand" "$more"
  done < optsets.live
}

# a script that prints ok/FAIL/skip lines; DONE: the text of a line it prints
# last (literal; ^ anchors it at the line's start)
script_job() { # DONE command...
  done_re=$1; shift
  "$@" 2>&1
  echo "#exit $?"
  [ -z "$done_re" ] || echo "#done-pattern $done_re"
}

job() {
  n=$1
  case $n in
    golden:*) job_golden "${n#golden:}";;
    live:*) job_live "${n#live:}";;
    annfiles)
      # -y writes one FILE-ann per source file, as GNU does
      if [ ! -x /usr/bin/gprof ]; then echo "skip -y files (GNU gprof is not installed)"; return; fi
      w=$out/ann; rm -rf $w; mkdir -p $w/ref $w/cand
      for who in ref cand; do
        if [ $who = ref ]; then p=$out/refbin; else p=$out/bin; fi
        (cd $w/$who && PATH="$p:$PATH" gprof -b -A -y -I "$top/tests/progs/multi" "$top/tests/cases/multi/bin" \
           "$top/tests/cases/multi/gmon.out" > stdout 2> stderr)
      done
      if diff -r $w/ref $w/cand > /dev/null && [ -s $w/cand/alpha.c-ann ]; then echo "ok -y files as GNU's"
      else echo "FAIL -y files differ from GNU's"; diff -r $w/ref $w/cand | head -20 | sed 's/^/    /'; fi;;
    sum) script_job '' sh sumfiles.sh "$out/sum";;
    runner)
      # -o DIR: everything a run writes is under DIR (make check-sanitize
      # beside make check), gmon.sum of a golden case's -s too
      t=$(mktemp -d)
      before=$(ls -l --full-time cases/*/gmon.sum 2> /dev/null)
      sh "$top/tests/run.sh" -o "$t/o" fixtures golden:cli > "$t/stdout" 2>&1
      if [ -f "$t/o/log/fixtures.log" ] && [ -f "$t/o/log/golden_cli.log" ] && [ -f "$t/o/run/cases/cli/gmon.sum" ] \
           && [ "$(ls -l --full-time cases/*/gmon.sum 2> /dev/null)" = "$before" ] && [ "$(tail -1 "$t/stdout")" = "$(grep -c '^ok' "$t/o/log/golden_cli.log" | awk '{print $1 + 1}') passed, 0 failed" ]
      then echo "ok runner: -o DIR holds the run's logs and what gprof wrote"
      else echo "FAIL runner: -o DIR"; sed 's/^/    /' "$t/stdout" | tail -5; ls "$t/o" 2>&1 | sed 's/^/    /'; fi
      rm -rf "$t";;
    fixtures)
      # the recorded programs name no directory of the machine that built
      # them (gen.sh's -fdebug-prefix-map): -A and -C print the same, and
      # find the same sources, in every clone
      if ! command -v readelf > /dev/null; then echo "skip fixtures (no readelf)"; return; fi
      n=0 bad=""
      for b in cases/*/bin; do
        n=$((n + 1))
        for dir in $(readelf --debug-dump=info "$b" 2> /dev/null | sed -n 's/.*DW_AT_comp_dir.*: //p' | sort -u); do
          case $dir in /gprof-tests|/gprof-tests/*|/nonexistent/*) ;; *) bad="$bad $b:$dir";; esac
        done
      done
      if [ -z "$bad" ]; then echo "ok fixtures: $n programs name sources under /gprof-tests"
      else echo "FAIL fixtures: programs built in a directory of some machine"; printf '    %s\n' $bad | head -20; fi;;
    diffrand)
      if [ -x /usr/bin/gprof ] && command -v python3 > /dev/null && command -v cc > /dev/null; then
        script_job '^ok diffrand 20000' sh diffrand.sh "$GPROF" /usr/bin/gprof "$out/diffrand"
      else echo "skip diffrand (needs GNU gprof, python3 and cc)"; fi;;
    banners) script_job '' sh banners.sh;;
    libprof:*)
      s=${n#libprof:}
      if [ ! -f "$top/libprof/libprof.a" ] || ! command -v cc > /dev/null; then echo "skip libprof $s (no libprof.a or no cc)"; return; fi
      case $s in
        run) script_job '^ok 4 threads' sh libprof/run.sh;;
        cross-*) script_job '' sh libprof/cross.sh "${s#cross-}";;
        *) script_job '' sh libprof/$s.sh;;
      esac;;
    unit:*)
      u=unit/${n#unit:}.c; b=$out/unit/${n#unit:}; mkdir -p $out/unit
      if ${CC:-cc} -std=gnu11 -O1 -g -I"$top" -o "$b" $u $(sed -n 's/^\/\/ objs: //p' $u | sed "s|[^ ]*|${UNIT_OBJDIR:-$top}/&|g") \
           $(eval echo $(sed -n 's/^\/\/ libs: //p' $u)) -lm > "$b.cc.err" 2>&1 && "$b" > "$b.log" 2>&1; then
        echo "ok unit ${n#unit:}"
      else echo "FAIL unit ${n#unit:}"; cat "$b.cc.err" "$b.log" 2> /dev/null | tail -20 | sed 's/^/    /'; fi;;
    hostile) HOSTILE_GPROF="$out/bin/gprof" script_job '^ok /dev/zero' sh hostile.sh;;
    mutate)
      if command -v python3 > /dev/null; then
        script_job '^mutate: ' python3 tools/mutate.py --gprof "$out/bin/gprof" --keep "$out/mutate" --count ${MUTATE_COUNT:-300} --seed 1
      else echo "skip mutate (no python3)"; fi;;
    exports) OUT="$out/exports" script_job '^ok 20000 functions (dagprof)' sh exports.sh;;
    pprof) OUT="$out/pprof" script_job '^ok 20000 functions: decoded' sh pprof.sh;;
    stacks) OUT="$out/stacks" script_job '^stacks: done' sh stacks.sh;;
    stack_times) OUT="$out/stack_times" script_job '^stack_times: done' sh stack_times.sh;;
    # the stacks' views, before/after (--diff-base) and the interactive
    # flame graph in headless Chromium (screenshots in tests/out/browser/shots)
    browser-flame) OUT="$out/browser" script_job '^browser: done' sh browser/flame.sh;;
    # --html in headless Chromium: the DOM against the text report, sorting,
    # filtering, navigation, 20,000 functions in under 2 s; screenshots kept
    browser-html) OUT="$out/html" script_job '^html: done' sh browser/html.sh;;
    # -s keeps the stacks and the objects' profiles: two runs of a PIE
    # program summed, against the runs read together
    # the names of our exports (GCC's clones), pprof's mappings symbolized
    # by go tool pprof, stack file version 2
    names) OUT="$out/names" script_job '^names: done' sh names.sh;;
    sumstacks) OUT="$out/sumstacks" script_job '^sumstacks: done' sh sumstacks.sh;;
    torture) GPROF="$out/bin/gprof" script_job '^torture: ' sh torture/run.sh;;
    *) echo "FAIL no job named $n";;
  esac
}

if [ "$1" = --job ]; then
  mkdir -p "$out/log"
  f=$out/log/$(echo "$2" | tr '/:' '__').log
  GPROF="$out/bin/gprof" job "$2" > "$f" 2>&1
  echo "#end" >> "$f"
  exit 0
fi

# ---- the driver ----
jobs=1 list=0
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift 2;;
    -j*) jobs=${1#-j}; shift;;
    -l) list=1; shift;;
    -o) out=$2; shift 2;;
    --) shift; break;;
    -*) echo "usage: sh tests/run.sh [-j N] [-l] [-o DIR] [PATTERN...]" >&2; exit 2;;
    *) break;;
  esac
done
case $jobs in ''|*[!0-9]*|0) echo "run.sh: -j wants a number of jobs" >&2; exit 2;; esac
case $out in '') echo "run.sh: -o wants a directory" >&2; exit 2;; /*) ;; *) out=$cwd/$out;; esac
# it is emptied first: refuse a directory that is not the suite's
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -d "$out/log" ]; then
  echo "run.sh: $out is not empty and is not a test output directory (no log/)" >&2; exit 2
fi
# the jobs (sh run.sh --job NAME, from tests/) read it from here
TESTS_OUT=$out; export TESTS_OUT

# Every job, the long ones first so that they start first under -j.
all="torture libprof:run mutate stacks exports libprof:stksafe libprof:fire libprof:objstorm libprof:tables libprof:pace
  libprof:unwind libprof:reuse libprof:nested libprof:checks libprof:clock libprof:outside libprof:owned libprof:objcalls libprof:objperf libprof:stacks libprof:buildid pprof hostile stack_times diffrand browser-flame browser-html sumstacks names"
# the i386 and aarch64 archives (natively or under qemu-user) and the
# torture programs: not under the sanitizers, which build neither the
# i386 archive nor programs in the static modes
[ -n "$LIBPROF_SANITIZED" ] && all=$(echo "$all" | sed 's/torture//')
[ -z "$LIBPROF_SANITIZED" ] && all="$all libprof:cross-i386 libprof:cross-aarch64"
for d in cases/*/; do d=${d%/}; all="$all golden:${d#cases/}"; done
for d in cases/*/; do d=${d%/}; all="$all live:${d#cases/}"; done
all="$all sum annfiles banners fixtures runner"
for u in unit/*.c; do [ -f "$u" ] && all="$all unit:$(basename $u .c)"; done

sel=""
for n in $all; do
  if [ $# = 0 ]; then sel="$sel $n"; continue; fi
  for p in "$@"; do
    # shellcheck disable=SC2254
    case $n in $p) sel="$sel $n"; break;; esac
  done
done
if [ $list = 1 ]; then for n in $sel; do echo "$n"; done; exit 0; fi
[ -n "$sel" ] || { echo "run.sh: no job matches: $*" >&2; exit 2; }

rm -rf "$out"; mkdir -p "$out/bin" "$out/refbin" "$out/log"
# Both programs run as plain `gprof`, since messages start with argv[0].
ln -s "$GPROF" "$out/bin/gprof"
[ -x /usr/bin/gprof ] && ln -s /usr/bin/gprof "$out/refbin/gprof"
[ -x /usr/bin/gprof ] || echo "note: /usr/bin/gprof not installed; live comparisons skipped"

start=$(date +%s)
printf '%s\n' $sel | xargs -P "$jobs" -n 1 sh "$top/tests/run.sh" --job

# The tally, in the order of the list.
pass=0 fail=0 gaps=0 skips=0
for n in $sel; do
  f=$out/log/$(echo "$n" | tr '/:' '__').log
  r=$(awk -v job="$n" '
    /^ok/ { pass++; infail = 0; next }
    /^FAIL/ { fail++; print "FAIL " job ": " substr($0, 6); infail = 1; next }
    /^KNOWN-GAP/ { gaps++; print "KNOWN-GAP " job ": " substr($0, 11); infail = 0; next }
    /^skip/ { skips++; print job ": " $0; infail = 0; next }
    /^#exit / { code = $2; next }
    /^#done-pattern / { want = substr($0, 15); next }
    /^#end$/ { ended = 1; next }
    /^[ \t]/ { if (infail) print; next }
    END {
      if (!ended) { fail++; print "FAIL " job ": did not finish (see " FILENAME ")" }
      else if (want != "") {
        found = 0
        # literal text, at the start of a line when it begins with ^
        anchored = substr(want, 1, 1) == "^"; t = anchored ? substr(want, 2) : want
        while ((getline l < FILENAME) > 0) if (anchored ? index(l, t) == 1 : index(l, t) > 0) found = 1
        if (!found) { fail++; print "FAIL " job ": did not run to the end (see " FILENAME ")" }
      }
      print "#tally " pass + 0, fail + 0, gaps + 0, skips + 0
    }' "$f" 2> /dev/null || echo "#tally 0 1 0 0")
  echo "$r" | grep -v '^#tally'
  set -- $(echo "$r" | sed -n 's/^#tally //p')
  pass=$((pass + ${1:-0})); fail=$((fail + ${2:-1})); gaps=$((gaps + ${3:-0})); skips=$((skips + ${4:-0}))
done
[ $gaps -gt 0 ] && echo "$gaps known gaps (tests/known-gaps)"
[ $skips -gt 0 ] && echo "$skips skipped"
echo "($(( $(date +%s) - start )) s, $(echo $sel | wc -w) jobs, -j $jobs; logs in $out/log/)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
