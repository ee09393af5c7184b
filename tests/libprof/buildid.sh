#!/bin/sh
# gmon.out's build-id (issue 24): libprof writes the program's build-id
# in the header's spare bytes; our gprof warns when the object's differs
# and, for files without one, only when the file's histogram or all its
# arcs lie outside the object's code.  GNU gprof reads the files the same
# with the id as without.  Prints "ok ..." / "FAIL ..." lines.
. "$(dirname "$0")/common.sh"
# run as plain `gprof`, as the messages start with argv[0]
mkdir bin && ln -s "$G" bin/gprof && PATH=$w/bin:$PATH && G=gprof
id8() { # object -> the first 8 bytes of its build-id, in hex
  readelf -n "$1" | sed -n 's/.*Build ID: \(................\).*/\1/p'
}
hdr() { # profile -> its header's 12 spare bytes, in hex
  od -An -v -tx1 -j 8 -N 12 "$1" | tr -d ' \n'
}
zero_id() { # profile copy -> the same with the spare bytes zeroed
  cp "$1" "$2" && printf '\0\0\0\0\0\0\0\0\0\0\0\0' | dd of="$2" bs=1 seek=8 conv=notrunc 2> /dev/null
}
L="-L$top/libprof -lprof"

for mode in pie nopie static shared; do
  case $mode in
    pie) f="-O1"; lib=$L;; nopie) f="-O1 -no-pie"; lib=$L;; static) f="-O1 -static"; lib=$L;;
    shared) f="-O1"; lib="-L$top/libprof/shared -lprof";;
  esac
  rm -f gmon.out
  cc $f -pg "$here/buildid.c" -o a $lib && cc $f -pg -DLATER "$here/buildid.c" -o b $lib \
    && LD_LIBRARY_PATH="$top/libprof/shared" ./a || { say 1 "build-id: builds and runs ($mode)"; continue; }
  [ "$(hdr gmon.out)" = "bb424944$(id8 a)" ]
  say $? "build-id: the header holds the tag and the program's build-id ($mode)"
  "$G" -b a gmon.out > same.out 2> same.err
  [ ! -s same.err ] && grep -q ' leaf$' same.out
  say $? "build-id: the same program says nothing ($mode)"
  "$G" -b b gmon.out > other.out 2> other.err
  [ "$(cat other.err)" = "gprof: warning: gmon.out does not match b: written by another program or build (build-id $(id8 a)..., b has $(id8 b)...): the report may be wrong" ]
  say $? "build-id: another build of it warns ($mode): $(head -c 300 other.err)"
done

# what the runs above left: a PIE build's file with an id
cc -O1 -pg "$here/buildid.c" -o a $L && cc -O1 -pg -DLATER "$here/buildid.c" -o b $L && rm -f gmon.out && ./a
cp gmon.out id.gmon; zero_id id.gmon noid.gmon

# GNU gprof skips the id: the same bytes with it as without
if [ -x /usr/bin/gprof ]; then
  ok=0
  for o in "" "-b" "-b -q" "-b -p" "-b -z -c" "-i" "-s"; do
    for v in id noid; do
      # (GNU's -c reads code it does not own and now and then dies of
      # SIGSEGV on a sanitized program, id or not: run it again then)
      for k in 1 2 3 4 5; do
        rm -f gmon.sum; cp $v.gmon gmon.out
        /usr/bin/gprof $o a gmon.out > gnu.$v.out 2>&1 && break
        [ $? -lt 128 ] && break
      done
      [ -f gmon.sum ] && mv gmon.sum gnu.$v.sum
    done
    cmp -s gnu.id.out gnu.noid.out || { ok=1; echo "GNU differs with [$o]"; }
    [ "$o" != -s ] || cmp -s gnu.id.sum gnu.noid.sum || { ok=1; echo "GNU's gmon.sum differs"; }
  done
  say $ok "build-id: GNU gprof prints the same with the id as with the bytes zeroed"
fi
# and so do we on the program itself, and without the id nothing is said
ok=0
for o in "" "-b" "-b -q" "-i" "-s"; do
  for v in id noid; do
    rm -f gmon.sum; cp $v.gmon gmon.out; "$G" $o a gmon.out > ours.$v.out 2>&1
  done
  cmp -s ours.id.out ours.noid.out || { ok=1; echo "ours differs with [$o]:"; diff ours.id.out ours.noid.out | head -5; }
done
"$G" -b b noid.gmon 2> noid.err > /dev/null
[ -s noid.err ] && { ok=1; echo "said without an id:"; head -3 noid.err; }
say $ok "build-id: ours prints the same with or without the id; no id, no evidence: nothing said"

# gmon.sum (ours and GNU's) keeps the last histogram's high pc and count
# in those bytes: never read as an id
ok=0
for g in "$G" /usr/bin/gprof; do
  [ -x "$g" ] || continue
  rm -f gmon.sum; "$g" -s a id.gmon > /dev/null 2>&1
  [ "$(od -An -tx1 -j 8 -N 4 gmon.sum | tr -d ' \n')" != bb424944 ] || ok=1
  "$G" -b b gmon.sum 2>&1 > /dev/null | grep -q . && ok=1
done
say $ok "build-id: a gmon.sum is not taken for a file with an id"

# an object without a build-id: nothing to compare, nothing said
cc -O1 -pg -DLATER -Wl,--build-id=none "$here/buildid.c" -o b_noid $L
[ -z "$(id8 b_noid)" ] && ! "$G" -b b_noid id.gmon 2>&1 > /dev/null | grep -q .
say $? "build-id: an object without one says nothing"

# glibc's runtime (no id): its own program says nothing; a PIE's file
# read against a non-PIE build lies wholly outside its code and warns
rm -f gmon.out
cc -O1 -pg "$here/buildid.c" -o g && ./g && mv gmon.out glibc.gmon
cc -O1 -pg -DLATER "$here/buildid.c" -o g_later
cc -O1 -pg -no-pie "$here/buildid.c" -o g_nopie
"$G" -b g glibc.gmon > /dev/null 2> g.err
[ ! -s g.err ] && [ "$(hdr glibc.gmon)" = 000000000000000000000000 ]
say $? "build-id: glibc's runtime's file, no id, its program: nothing said"
"$G" -b g_later glibc.gmon 2>&1 > /dev/null | grep -q . && r=1 || r=0
say $r "build-id: no id and addresses inside another build's code: nothing said"
"$G" -b g_nopie glibc.gmon > /dev/null 2> gn.err
grep -q "^gprof: warning: glibc.gmon does not match g_nopie: its histogram and all its [0-9]* arcs lie outside g_nopie's code: the report may be wrong$" gn.err
say $? "build-id: no id, histogram and arcs outside the object's code: warns ($(cat gn.err))"
