# common.sh -- sourced by libprof's test scripts (run.sh, fire.sh,
# cross.sh, buildid.sh): where things are, a scratch directory that goes
# away at exit (the caller is left in it), and the helpers they share.
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/libprof
G=${GPROF:-$top/gprof}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
cd "$w"
# STATUS TEXT: an "ok" (0), "skip" (77: GNU gprof absent) or "FAIL" line,
# TEXT after $say_prefix
say() {
  case $1 in
    0) echo "ok ${say_prefix}$2";;
    77) echo "skip ${say_prefix}$2 (GNU gprof is not installed)";;
    *) echo "FAIL ${say_prefix}$2";;
  esac
}
calls() { # binary gmon function -> call count in the flat profile
  "$G" -b -p "$1" "$2" | awk -v f="$3" '$NF == f && NF >= 7 {print $4}'
}
agree() { # binary gmon...: our gprof and GNU gprof print the same report
  [ -x /usr/bin/gprof ] || return 77   # say: skip
  b=$1; shift
  "$G" -b "$b" "$@" > ours.txt 2>&1; /usr/bin/gprof -b "$b" "$@" > gnu.txt 2>&1
  cmp -s ours.txt gnu.txt
}
# objcalls.c's arcs across objects in GRAPH (arcs.py --json lines), each
# against the count the program printed (k_*: objcalls.sh, cross.sh):
# status 0 when all six are exact
objcalls_arcs() {
  ok=0
  for a in "worker_a|a_work [libca.so]|$k_a_work" "a_work [libca.so]|a_leaf [libca.so]|$k_a_leaf" \
           "worker_b|b_work [libcb.so]|$k_b_work" "b_work [libcb.so]|b_leaf [libcb.so]|$k_b_leaf" \
           "b_work [libcb.so]|a_leaf [libca.so]|$k_a_leaf_from_b" "main|a_sort [libca.so]|1"; do
    [ "$(awk -F'|' -v p="${a%%|*}" -v c="$(echo "$a" | cut -d'|' -f2)" '$1 == p && $2 == c {s += $3} END {print s + 0}' "$1")" = "${a##*|}" ] || ok=1
  done
  return $ok
}
# the objects' files of profile $1 for object $2 (the manifest's lines:
# file build-id base start end path), all of them (GNU gprof adds them up)
files() { awk -v o="/$2" 'NR > 2 && substr($6, length($6) - length(o) + 1) == o {print d "/" $1}' d="$1.objects" "$1.objects/manifest"; }
gnu_calls() { # profile object function: the calls GNU gprof (ours without it)
  f=$(files "$1" "$2"); [ -n "$f" ] || return   # prints for it in the object's files
  gg=/usr/bin/gprof; [ -x "$gg" ] || gg=$G
  $gg -b -p "$2" $f 2> /dev/null | awk -v n="$3" '$NF == n && NF == 7 {print $4}'
}
