#!/bin/sh
# The torture suite (tests/torture/README): every program here built in
# every mode libprof supports, run under each variant of libprof's
# settings, each run held to the plain build's behaviour.
#
#   sh tests/torture/run.sh [PATTERN...]
#
# A PATTERN (a shell glob) picks programs by name, or PROG/MODE, or
# PROG/MODE/VARIANT (e.g. `ifunc`, 'dlopen/pie/objects', '*/m32').
# TORTURE_RUNS (default 1) runs of each; TORTURE_JOBS parallel jobs
# (default: the processors); TORTURE_TIMEOUT seconds per run (30);
# TORTURE_KEEP=1 keeps the scratch directory (named on FAIL).
# Prints one ok / FAIL / skip line per program x mode x variant (a skip
# once per program x mode), then "torture: ..." with the counts.
#
# A run passes when: it ends within the timeout; its exit status and
# stdout (and torture.out, for programs that close their stdout) are the
# plain build's (the same source and mode without -pg and libprof); it
# wrote gmon.out and ./gprof reads it (exit 0, nothing on stderr); each
# `count NAME N` line it printed (stdout, stderr or torture.out) is NAME's
# call count in gprof -b -p.
#
# A program's source may say, in lines of its own:
#   // torture-lib: FILE.c      a -pg shared library built from FILE.c in
#                                each mode, its path given as argv[1]
#   // torture-linklib: FILE.c   a -pg shared library built from FILE.c in
#                                each mode, linked with the program
#   // torture-libs: -lX ...     libraries to link
#   // torture-static: WHY       not built in the static modes (skip: WHY)
#   // torture-skip: MODE WHY    not built in MODE (skip: WHY)
#   // torture-skip: MODE/VARIANT WHY   VARIANT not run in MODE (skip: WHY)
#   // torture-libcc: CC        the torture-lib(s) built by CC in every mode
#                                (a program skipped where there is no CC)
#   // torture-variant: NAME VAR=VALUE...   one more variant's settings

case $1 in --build|--run) task=$1; shift;; *) task="";; esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
G=${GPROF:-$top/gprof}
TIMEOUT=${TORTURE_TIMEOUT:-30}

# mode -> cc, flags, -pg flags, libprof directory
mode_set() {
  cc=cc; mf=""; pg="-pg"; lib=$top/libprof; rp=""
  case $1 in
    pie) ;;
    nopie) mf="-no-pie";;
    static) mf="-static";;
    static-pie) mf="-static-pie";;
    fentry) pg="-pg -mfentry";;
    m32) mf="-m32"; lib=$top/libprof/32;;
    clang) cc=clang;;
    shared) lib=$top/libprof/shared; rp="-Wl,-rpath,$lib";;
  esac
}
meta() { sed -n "s|^// torture-$2: *||p" "$here/$1.c"; }
# why PROG's VARIANT is not run in MODE, or nothing
vskip() { meta $1 skip | sed -n "s|^$2/$3 ||p" | head -1; }

# --build PROG MODE: the -pg and plain builds, and the plain build's run
if [ "$task" = --build ]; then
  p=$1 m=$2; mode_set $m
  d=$TW/b/$m; mkdir -p "$d/pg" "$d/plain" "$d/plainrun.$p"
  libs=$(meta $p libs); lsrc=$(meta $p lib)$(meta $p linklib)
  pl=""; ql=""
  [ -n "$(meta $p linklib)" ] && pl="$d/pg/lib$p.so -Wl,-rpath,$d/pg" && ql="$d/plain/lib$p.so -Wl,-rpath,$d/plain"
  {
    if [ -n "$lsrc" ]; then
      lcc=$(meta $p libcc); lcc=${lcc:-$cc}
      $lcc $mf -O1 -fPIC -shared $pg "$here/$lsrc" -o "$d/pg/lib$p.so" \
        && $lcc $mf -O1 -fPIC -shared "$here/$lsrc" -o "$d/plain/lib$p.so"
    fi \
      && $cc $mf -O1 $pg "$here/$p.c" -o "$d/pg/$p" $pl -L"$lib" -lprof $rp $libs \
      && $cc $mf -O1 "$here/$p.c" -o "$d/plain/$p" $ql $libs
  } > "$d/$p.cc" 2>&1 || { echo "the build failed: $(grep -m1 -i error "$d/$p.cc")" > "$d/$p.bad"; exit 0; }
  arg=""; [ -n "$lsrc" ] && arg=$d/plain/lib$p.so
  (cd "$d/plainrun.$p" && timeout "$TIMEOUT" "$d/plain/$p" $arg > out 2> err; echo $? > rc
   [ -f torture.out ] && cat torture.out >> out)
  exit 0
fi

# --run PROG MODE VARIANT K: one run, its verdict in a file
if [ "$task" = --run ]; then
  p=$1 m=$2 v=$3 k=$4
  d=$TW/b/$m; r=$TW/r/$p.$m.$v.$k; mkdir -p "$r"; cd "$r" || exit 0
  case $v in
    default) envs="";;
    objects) envs="LIBPROF_OBJECTS=1";;
    stacks) envs="LIBPROF_STACKS=16";;
    *) envs=$(meta $p variant | sed -n "s|^$v ||p");;
  esac
  arg=""; [ -n "$(meta $p lib)" ] && arg=$d/pg/lib$p.so
  verdict() { echo "$*" > "$r.res"; exit 0; }
  timeout "$TIMEOUT" env $envs "$d/pg/$p" $arg > out 2> err; rc=$?
  [ -f torture.out ] && cat torture.out >> out
  prc=$(cat "$d/plainrun.$p/rc")
  [ $rc = 124 ] && verdict "hang (no end in $TIMEOUT s)"
  [ $rc = "$prc" ] || verdict "exit $rc vs $prc $(head -c 200 err | tr '\n' ' ')"
  cmp -s out "$d/plainrun.$p/out" || verdict "stdout differs: $(diff "$d/plainrun.$p/out" out | grep '^[<>]' | head -4 | tr '\n' ' ')(stderr: $(head -c 200 err | tr '\n' ' '))"
  [ -s gmon.out ] || verdict "no gmon.out"
  "$G" -b -p "$d/pg/$p" gmon.out > flat 2> gerr; grc=$?
  # (gprof's notes on time outside the program's code -- dlopen's in the
  # loader, rtsig's in the vDSO -- and on samples not taken are news of
  # the run, not of the file: libprof/outside.sh checks them)
  grep -v -e "outside the program's code, which the profile leaves out" -e ': libprof could not take ' -e ': libprof could not count ' gerr > gerr.other
  [ $grc = 0 ] && [ ! -s gerr.other ] || verdict "gprof cannot read gmon.out (exit $grc): $(head -2 gerr | tr '\n' ' ')"
  # calls libprof could not count are reported at exit (a profiled
  # signal handler interrupting libprof itself: libprof(3), SAFETY); a
  # count short by no more than those is not a silent loss
  lost=$(sed -n 's/^libprof: \([0-9]*\) calls not counted.*/\1/p' err | head -1)
  why=""; short=0
  for c in $(cat out err | sed -n 's/^count \([A-Za-z_][A-Za-z0-9_]*\) \([0-9][0-9]*\)$/\1=\2/p'); do
    n=${c%=*}; want=${c#*=}
    got=$(awk -v f="$n" '$NF == f && NF >= 7 {print $4; exit}' flat)
    got=${got:-0}
    [ "$got" = "$want" ] && continue
    if [ -n "$lost" ] && [ "$got" -lt "$want" ] && [ $((want - got)) -le "$lost" ]; then short=1; continue; fi
    why="$why $n $got calls, the program says $want${lost:+ ($lost reported lost)};"
  done
  [ -z "$why" ] || verdict "counts:$why"
  [ $short = 0 ] || verdict "ok lost"
  verdict ok
fi

# ---- the driver ----
RUNS=${TORTURE_RUNS:-1}
JOBS=${TORTURE_JOBS:-$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 2)}
TW=$(mktemp -d "${TMPDIR:-/tmp}/torture.XXXXXX"); export TW TIMEOUT
[ -x "$G" ] || { echo "FAIL torture: no gprof at $G"; echo "torture: not run"; exit 1; }
cleanup() { if [ -n "$TORTURE_KEEP" ]; then echo "# kept $TW"; else rm -rf "$TW"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM

progs=$(cd "$here" && for f in *.c; do grep -q '^int main' "$f" && echo "${f%.c}"; done)
modes="pie nopie static static-pie fentry m32 clang shared"
variants_of() { echo default objects stacks; meta $1 variant | awk '{print $1}'; }
picked() { # PROG [MODE [VARIANT]]: chosen by the patterns
  [ $# -eq 0 ] || [ -z "$pats" ] && return 0
  for pt in $pats; do
    # shellcheck disable=SC2254
    case $1 in $pt) return 0;; esac
    [ -n "$2" ] && case $1/$2 in $pt) return 0;; esac
    [ -n "$3" ] && case $1/$2/$3 in $pt) return 0;; esac
  done
  return 1
}
pats="$*"
# a pattern naming a mode or variant picks the program for building
picked_any() { for pm_ in $modes; do for pv_ in $(variants_of $1); do picked $1 $pm_ $pv_ && return 0; done; done; return 1; }

# modes this machine cannot do: one reason each
mode_skip() {
  case $1 in
    m32) [ -f "$top/libprof/32/libprof.a" ] || { echo "no libprof/32/libprof.a (gcc -m32 links nothing here)"; return; }
         printf 'int main(void){return 0;}\n' > "$TW/m32.c"
         cc -m32 "$TW/m32.c" -o "$TW/m32" 2> /dev/null || { echo "cc -m32 does not link"; return; }
         "$TW/m32" 2> /dev/null || echo "this kernel runs no i386 program";;
    clang) command -v clang > /dev/null || echo "no clang";;
    shared) [ -f "$top/libprof/shared/libprof.so" ] || echo "no libprof/shared/libprof.so";;
  esac
}
for m in $modes; do eval "skip_$(echo $m | tr - _)=\$(mode_skip $m)"; done
skipof() { eval "echo \"\$skip_$(echo $1 | tr - _)\""; }

# builds (and the plain runs), in parallel
: > "$TW/builds"
for p in $progs; do
  picked_any $p || continue
  for m in $modes; do
    [ -z "$(skipof $m)" ] || continue
    case $m in static|static-pie) [ -z "$(meta $p static)" ] || continue;; esac
    [ -z "$(meta $p skip | sed -n "s/^$m //p")" ] || continue
    lcc=$(meta $p libcc); [ -z "$lcc" ] || command -v "$lcc" > /dev/null || continue
    picked_any $p || continue
    echo "$p $m" >> "$TW/builds"
  done
done
xargs -P "$JOBS" -L 1 sh "$0" --build < "$TW/builds"

# runs, in parallel
: > "$TW/runs"
while read -r p m; do
  [ -f "$TW/b/$m/$p.bad" ] && continue
  for v in $(variants_of $p); do
    picked $p $m $v || continue
    [ -z "$(vskip $p $m $v)" ] || continue
    k=1; while [ $k -le "$RUNS" ]; do echo "$p $m $v $k" >> "$TW/runs"; k=$((k + 1)); done
  done
done < "$TW/builds"
xargs -P "$JOBS" -L 1 sh "$0" --run < "$TW/runs"

# the verdicts, one line per program x mode x variant
nok=0; nfail=0; nskip=0; nprog=0; nruns=0
for p in $progs; do
  picked_any $p || continue
  nprog=$((nprog + 1))
  for m in $modes; do
    s=$(skipof $m)
    case $m in static|static-pie) [ -n "$s" ] || s=$(meta $p static);; esac
    [ -n "$s" ] || s=$(meta $p skip | sed -n "s/^$m //p")
    lcc=$(meta $p libcc)
    [ -n "$s" ] || [ -z "$lcc" ] || command -v "$lcc" > /dev/null || s="no $lcc"
    if [ -n "$s" ]; then
      picked $p $m && { echo "skip torture $p $m ($s)"; nskip=$((nskip + 1)); }
      continue
    fi
    if [ -f "$TW/b/$m/$p.bad" ]; then
      picked $p $m && { echo "FAIL torture $p $m: $(cat "$TW/b/$m/$p.bad")"; nfail=$((nfail + 1)); }
      continue
    fi
    for v in $(variants_of $p); do
      picked $p $m $v || continue
      s=$(vskip $p $m $v)
      if [ -n "$s" ]; then echo "skip torture $p $m $v ($s)"; nskip=$((nskip + 1)); continue; fi
      bad=0; first=""; lostruns=0; k=1
      while [ $k -le "$RUNS" ]; do
        res=$(cat "$TW/r/$p.$m.$v.$k.res" 2> /dev/null || echo "no verdict (the runner failed)")
        nruns=$((nruns + 1))
        case $res in
          ok) ;;
          "ok lost") lostruns=$((lostruns + 1));;
          *) bad=$((bad + 1)); [ -n "$first" ] || first="run $k: $res";;
        esac
        k=$((k + 1))
      done
      note=""; [ $lostruns = 0 ] || note="; $lostruns with calls libprof reported not counted"
      if [ $bad = 0 ]; then echo "ok torture $p $m $v ($RUNS runs$note)"; nok=$((nok + 1))
      else echo "FAIL torture $p $m $v: $bad of $RUNS runs failed; $first"; nfail=$((nfail + 1)); fi
    done
  done
done
echo "torture: $nok ok, $nfail FAIL, $nskip skip ($nprog programs, $nruns runs, $RUNS each)"
[ $nfail = 0 ]
