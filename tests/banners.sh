#!/bin/sh
# banners.sh -- our own banners (-v names this program honestly, -h lists
# every option) and -d's traces (each flag the manual lists prints its own
# kind of line).  GPROF is the gprof to test.  Prints ok/FAIL lines.
cd "$(dirname "$0")"
top=$(cd .. && pwd)
: "${GPROF:=$top/gprof}"
out=${TESTS_OUT:-$top/tests/out}/banners; rm -rf "$out"; mkdir -p "$out/bin"
ln -s "$GPROF" "$out/bin/gprof"    # run as plain `gprof`: messages start with argv[0]
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; }
# Our own banners: -v names this program honestly, -h lists options.
v=$(PATH="$out/bin:$PATH" gprof -v); rc=$?
if [ $rc -eq 0 ] && echo "$v" | grep -q 'clean-room' && ! echo "$v" | grep -q 'GNU gprof (GNU Binutils'; then ok "gprof -v"; else bad "gprof -v"; fi
# -h prints the usage text an unknown option gets on stderr (GNU's), then
# our export options, and it names every option (each long one, @FILE,
# the short ones).
h=$(PATH="$out/bin:$PATH" gprof -h); rc=$?
e=$(PATH="$out/bin:$PATH" gprof --no-such-option 2>&1 | tail -n +2); erc=$?
miss=""
for w in annotated-source exec-counts flat-profile graph time all-lines brief debug function-ordering \
         file-ordering inline-file-names directory-path display-unused-functions file-format file-info \
         help line min-count no-static print-path separate-files static-call-graph sum table-length \
         traditional version width ignore-non-functions demangle no-demangle external-symbol-table @FILE \
         abcDhilLrsTvwxyz ABCeEfFJnNOpPqQRStZ "-I dirs" "-k from/to" "-m min-count" "-t table-length" \
         dot node-threshold edge-threshold max-nodes dot-full-names callgrind json pprof html objects folded flame \
         stack-times all-functions stacks-thread focus hide icicle diff-base diff-base-program diff-flat; do
  echo "$h" | grep -q -- "$w" || miss="$miss $w"
done
case "$h" in "$e"*) hs=1;; *) hs=0;; esac
if [ $rc -eq 0 ] && [ $hs = 1 ] && [ "$h" != "$e" ] && [ -z "$miss" ]; then ok "gprof -h"; else bad "gprof -h:$miss"; fi

# -d traces: each flag the manual lists prints its own kind of line.
for fl in "2 dfn:" "4 cycle" "16 tally:" "32 arcsort:" "64 records:" "128 symtab:" "512 lookup:" "1024 propagate:" "4096 symspec:"; do
  set -- $fl
  n=$(cd cases/cycles && PATH="$out/bin:$PATH" gprof -b -d$1 -qspin bin gmon.out | grep -c "^$2")
  if [ "$n" -gt 0 ]; then ok "gprof -d$1"; else bad "gprof -d$1 prints no '$2' lines"; fi
done

