# common.sh -- sourced by libprof's test scripts (run.sh, fire.sh,
# cross.sh, buildid.sh): where things are, a scratch directory that goes
# away at exit (the caller is left in it), and the helpers they share.
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/libprof
G=${GPROF:-$top/gprof}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
cd "$w"
# STATUS TEXT: an "ok" or "FAIL" line, TEXT after $say_prefix
say() { if [ "$1" = 0 ]; then echo "ok ${say_prefix}$2"; else echo "FAIL ${say_prefix}$2"; fi; }
calls() { # binary gmon function -> call count in the flat profile
  "$G" -b -p "$1" "$2" | awk -v f="$3" '$NF == f && NF >= 7 {print $4}'
}
agree() { # our gprof and GNU gprof print the same report
  [ -x /usr/bin/gprof ] || return 0
  "$G" -b "$1" "$2" > ours.txt 2>&1; /usr/bin/gprof -b "$1" "$2" > gnu.txt 2>&1
  cmp -s ours.txt gnu.txt
}
