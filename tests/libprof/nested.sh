#!/bin/sh
# GNU C nested functions (tests/libprof/nested.c) under -pg: every call
# of a nested function counted from its caller, whether the function was
# built for mcount or -mfentry (which pushes the static chain, %r10,
# between the return addresses: those calls were all lost before, as
# glibc's runtime loses them), with or without -fcf-protection's
# endbr64, PIE or not, static, through libprof.so, and in a -pg -mfentry
# library with LIBPROF_OBJECTS=1.  Prints "ok ..." / "FAIL ..." lines.
. "$(dirname "$0")/common.sh"
if [ "$(uname -m)" != x86_64 ]; then echo "skip nested: __fentry__ is x86-64's"; exit 0; fi
n=20000
# the callers of FUNC in gprof's call graph of BINARY GMON: "caller:calls"
callers() {
  "$G" -b -q "$1" "$2" | awk -v f="$3" '
    /^\[/ { if ($0 ~ (" " f " ")) { print p; exit } p = ""; next }
    /^---/ { p = ""; next }
    NF >= 4 && $3 ~ /\// { sub(/\/.*/, "", $3); p = p $4 ":" $3 " " }'
}
for mode in "-mfentry" "-mfentry -no-pie" "-mfentry -fcf-protection" "-mfentry -fcf-protection -no-pie" \
            "-mfentry -static" "-mfentry -fno-plt" "" "-mfentry so"; do
  case $mode in
    *so) f=${mode% so}; lib="$top/libprof/shared";;
    *) f=$mode; lib="$top/libprof";;
  esac
  cc -O1 -g -pg $f "$here/nested.c" -o nest -L"$lib" -lprof -Wl,-rpath,"$lib" 2> cc.err || { say 1 "[$mode] build: $(head -1 cc.err)"; continue; }
  rm -f gmon.out
  ./nest $n > out.txt
  c=$(callers nest gmon.out 'scale\.[0-9]*')
  [ "$c" = "apply:$n " ]
  say $? "[${mode:-mcount}] nested scale called $n times from apply: callers ${c:-none}"
done
# in a library, its calls counted in the library's own file
cc -O1 -g -pg -mfentry -shared -fPIC -DLIB "$here/nested.c" -o libnested.so 2> cc.err
cc -O1 -g -pg -DWITH_LIB "$here/nested.c" -o nestlib -L. -lnested -L"$top/libprof" -lprof -Wl,-rpath,"$w" 2>> cc.err
for lib in "$top/libprof" "$top/libprof/shared"; do
  rm -rf gmon.out gmon.out.objects
  [ "$lib" = "$top/libprof" ] && p=./nestlib || { cc -O1 -g -pg -DWITH_LIB "$here/nested.c" -o nestlib_so -L. -lnested -L"$lib" -lprof -Wl,-rpath,"$w" -Wl,-rpath,"$lib" 2>> cc.err; p=./nestlib_so; }
  LIBPROF_OBJECTS=1 $p $n > out.txt
  "$G" --objects --json=- $p gmon.out | python3 "$here/arcs.py" --json > arcs.txt
  t=$(awk -F'|' '$2 ~ /^twice\.[0-9]* \[libnested.so\]$/ {print $1 ":" $3}' arcs.txt | tr '\n' ' ')
  [ "$t" = "lib_apply [libnested.so]:$((n / 2)) " ]
  say $? "LIBPROF_OBJECTS=1 ($(basename "$lib")): the library's nested twice called $((n / 2)) times from lib_apply: ${t:-none}"
done
