#!/bin/sh
# hostile_cases.sh -- builds the hostile_* cases of tests/cases (issue 12:
# damaged and unusual inputs, each compared with GNU gprof 2.40) from the
# cycles and multi cases and tests/progs/hostile, then records GNU's
# output for them.  Run by gen.sh after the other cases; safe to run alone.
set -e
cd "$(dirname "$0")/.."
[ -x /usr/bin/gprof ] || { echo "hostile_cases.sh needs GNU gprof in /usr/bin" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
py() { python3 -c "$@"; }
mk() { # name bin-from files optsets...
  name=$1 from=$2 files=$3; shift 3
  d=cases/$name; rm -rf $d; mkdir -p $d
  cp cases/$from/bin $d/bin
  echo "$files" > $d/files
  : > $d/optsets
  for o in "$@"; do echo "$o" >> $d/optsets; done
}
G=cases/cycles/gmon.out

# BSD and 4.4BSD files without arcs: GNU prints a call graph of
# <spontaneous> entries; header size rules; short histograms
mk hostile_bsd_noarcs cycles gmon.bsd "-b" "-b -q" "-b -T" "-b -A" "-i" "-b -C"
mk hostile_44bsd_noarcs cycles gmon.bsd "-b" "-b -q" "-b -z"
py "
import struct
d = open('$G', 'rb').read(); lo, hi, n = struct.unpack_from('<QQI', d, 21)
bins = d[61:61 + 2 * n]
open('cases/hostile_bsd_noarcs/gmon.bsd', 'wb').write(struct.pack('<QQI', lo, hi, 20 + len(bins)) + bins)
open('cases/hostile_44bsd_noarcs/gmon.bsd', 'wb').write(struct.pack('<QQIII', lo, hi, 40 + len(bins), 0x51879, 100) + bytes(12) + bins)
"
mk hostile_bsd_callscan callscan gmon.bsd "-b -c -q" "-b -q" "-b -c"
py "
import struct
d = open('cases/callscan/gmon.out', 'rb').read(); lo, hi, n = struct.unpack_from('<III', d, 21)
bins = d[53:53 + 2 * n]
open('cases/hostile_bsd_callscan/gmon.bsd', 'wb').write(struct.pack('<III', lo, hi, 12 + len(bins)) + bins)
"
mk hostile_bsd_hdr cycles "h20 h24 b44_24 b44_28 bins0 bins1 bins2" "-b"
for f in h20 h24 b44_24 b44_28 bins0 bins1 bins2; do
  mk hostile_bsd_$f cycles $f "-b" "-b -O bsd"
done
rm -rf cases/hostile_bsd_hdr
py "
import struct
full = struct.pack('<QQIII', 0x1000, 0x1100, 44, 0x51879, 100) + bytes(12) + struct.pack('<HH', 3, 0)
old = struct.pack('<QQI', 0x1000, 0x1100, 28) + struct.pack('<HH', 3, 0)
w = lambda n, b: open('cases/hostile_bsd_%s/%s' % (n, n), 'wb').write(b)
w('h20', old[:20]); w('h24', old[:24]); w('b44_24', full[:24]); w('b44_28', full[:28])
w('bins0', full[:40]); w('bins1', full[:42]); w('bins2', old[:26])
"

# GNU records: a second histogram whose header is wrong and whose samples
# are missing (the header is checked first); a version read as signed;
# basic-block records cut in the count and in an entry; a dimension other
# than seconds
gnu_edit() { # case file python-expression-of-d
  py "
import struct
d = bytearray(open('$G', 'rb').read())
d = $3
open('cases/$1/$2', 'wb').write(bytes(d))"
}
mk hostile_hist_dimen cycles gmon.bad "-b" "-b -p"
gnu_edit hostile_hist_dimen gmon.bad "d + b'\0' + struct.pack('<QQII', 0x9000, 0x9100, 5000, 100) + b'minutes'.ljust(15, b'\0') + b'm' + bytes(10)"
mk hostile_hist_scale cycles gmon.bad "-b"
gnu_edit hostile_hist_scale gmon.bad "d + b'\0' + struct.pack('<QQII', 0x9000, 0x9100, 5000, 100) + b'seconds'.ljust(15, b'\0') + b's' + bytes(10)"
mk hostile_version0 cycles gmon.v0 "-b" "-i"
gnu_edit hostile_version0 gmon.v0 "d[:4] + struct.pack('<I', 0) + d[8:]"
# version 0 with basic blocks (measured byte by byte, doc/DESIGN.md): per
# record the count and a string, then per entry count, address (8 bytes
# each, little-endian on every target), two strings and 4 bytes
mk hostile_version0_blocks cycles gmon.v0 "-b" "-b -l" "-b -l -C" "-b -l -p" "-b -l -z -C"
gnu_edit hostile_version0_blocks gmon.v0 "d[:4] + struct.pack('<I', 0) + d[8:] + b'\2' + struct.pack('<I', 0) + b'lead\0' + b'\2' + struct.pack('<I', 3) + b'a.c\nb\0' + struct.pack('<QQ', 7, 0x1437) + b'x.c\0main\0' + bytes([1, 2, 3, 4]) + struct.pack('<QQ', 5, 0x1369) + b'\0\0' + bytes(4) + struct.pack('<QQ', 2**33, 0x1437) + b'\xff\0 \0' + bytes([9, 9, 9, 9])"
mk hostile_version0_be cross_mips gmon.v0 "-b" "-b -l -C" "-b -l -p"
py "
import struct
e = b'\2' + struct.pack('<I', 2) + b'\0' + struct.pack('<QQ', 9, 0x780) + b'main\0m.c\0' + bytes(4) + struct.pack('<QQ', 4, 0x9f0) + b'\0\0' + bytes(4)
open('cases/hostile_version0_be/gmon.v0', 'wb').write(b'gmon' + struct.pack('>I', 0) + bytes(12) + e)
"
mk hostile_hist_abbrev cycles gmon.bad "-b" "-b -p"
gnu_edit hostile_hist_abbrev gmon.bad "d + b'\0' + struct.pack('<QQII', 0x9000, 0x9100, 5000, 100) + b'seconds'.ljust(15, b'\0') + b'x' + bytes(10)"
mk hostile_version cycles gmon.bad "-b" "-i"
gnu_edit hostile_version gmon.bad "d[:4] + struct.pack('<I', 0xff000001) + d[8:]"
mk hostile_bb_none cycles gmon.bad "-b" "-b -p"
gnu_edit hostile_bb_none gmon.bad "d + b'\2' + struct.pack('<I', 0)"
mk hostile_bb_half cycles gmon.bad "-b"
gnu_edit hostile_bb_half gmon.bad "d + b'\2' + struct.pack('<IQ', 1, 0x1437)"
mk hostile_bb_count cycles gmon.bad "-b" "-b -s"
gnu_edit hostile_bb_count gmon.bad "d + b'\2\3\0'"
mk hostile_bb_entry cycles gmon.bad "-b" "-b -s"
gnu_edit hostile_bb_entry gmon.bad "d + b'\2' + struct.pack('<IQQQ', 3, 0x1000, 5, 0x1010) + b'\1\2'"
mk hostile_dimension cycles gmon.cyc "-b -p" "-b -p -T" "-b -q"
gnu_edit hostile_dimension gmon.cyc "d[:45] + b'cycles'.ljust(15, b'\0') + b'c' + d[61:]"
mk hostile_dimension_long cycles gmon.long "-b -p" "-b -p -T"
gnu_edit hostile_dimension_long gmon.long "d[:45] + b'abcdefghijklmno' + b'\0' + d[61:]"

# -S tables with nothing usable; -a keeps a table's static functions
mk hostile_extsyms cycles gmon.out "-b -S empty.syms" "-b -S data.syms" "-b -S ../hostile_extsyms" \
  "-b -S bin" "-b -a -S statics.syms" "-b -S weak.syms" "-b -z -S long.syms"
cp $G cases/hostile_extsyms/
: > cases/hostile_extsyms/empty.syms
nm -n cases/cycles/bin | grep ' [dDbB] ' > cases/hostile_extsyms/data.syms
nm -n cases/cycles/bin | grep ' [Tt] ' | head -30 > cases/hostile_extsyms/statics.syms
nm -n cases/cycles/bin | grep ' T ' | sed 's/ T / W /' > cases/hostile_extsyms/weak.syms
nm -n cases/cycles/bin | grep ' [Tt] ' | head -12 > cases/hostile_extsyms/long.syms
m=$(nm cases/cycles/bin | awk '$3 == "main" {print $1}'); w=$(nm cases/cycles/bin | awk '$3 == "work" {print $1}')
py "
import sys
f = open('cases/hostile_extsyms/long.syms', 'a')
f.write('$m T ' + 'm' * 1200 + '\\n')
f.write('$w T ' + 'w' * (1022 - 19) + '1369 T tail_of_a_long_line\\n')
"

# -R: a record whose rest is 1022 characters is read, 1023 is not
mk hostile_map multi gmon.out "-b -R ok.map" "-b -R long.map" "-b -R nocolon.map"
cp cases/multi/gmon.out cases/hostile_map/
py "
open('cases/hostile_map/ok.map', 'w').write('a.o:0 T main\nb.o:' + 'x' * 1013 + ' beta_run\n')
open('cases/hostile_map/long.map', 'w').write('a.o:0 T main\nb.o:' + 'x' * 1014 + ' beta_run\n')
open('cases/hostile_map/nocolon.map', 'w').write('a.o:0 T main\n' + 'b' * 5000 + '\n')
"

# -A on sources that are missing, unreadable in odd ways or damaged: the
# debug info names /nonexistent/hostile, so only -I finds them
# (the program is rebuilt and rerun only when missing or with REBUILD=1)
d=cases/hostile_anno
if [ -n "$REBUILD" ] || [ ! -f $d/bin ]; then
  rm -rf $d; mkdir -p $d
  (cd progs/hostile && gcc -O0 -g -pg -fdebug-prefix-map="$(pwd)"=/nonexistent/hostile m.c a.c b.c c.c -o "$tmp/bin")
  cp "$tmp/bin" $d/bin
  (cd "$tmp" && ./bin && mv gmon.out "$OLDPWD/$d/gmon.out")
fi
rm -rf $d/src $d/dirs $d/empty; mkdir -p $d/src $d/dirs $d/empty
echo gmon.out > $d/files
cp progs/hostile/*.c $d/src/
printf 'int fc(int x) { return x \0* 2; }\nabc\0def\n\0\nlast line without a newline' > $d/src/c.c
printf 'int fb(int x) { return x * 2; }' > $d/src/b.c
cp progs/hostile/*.c $d/dirs/; rm $d/dirs/c.c; mkdir $d/dirs/c.c; touch $d/dirs/c.c/keep
cp progs/hostile/*.c $d/empty/; : > $d/empty/a.c
echo "not a directory" > $d/notadir
cat > $d/optsets <<'O'
-b -A
-b -A -I notadir
-b -A -I src
-b -A -I dirs
-b -A -I empty
-b -A -t 0 -I src
-b -A -t -1 -I src
-b -A -z -I src
-b -A -I notadir:src
-b -p -A -I src
O

# the profile's address size is the object format's (the ELF class), not
# the architecture's: an ELF64 x86-64 program whose e_machine is one BFD
# does not know (read as elf64-little, arch unknown, 32 bits per address)
# and an x32 program (elf32-x86-64, 64 bits per address)
mk hostile_unknown_machine cycles gmon.out "-b" "-b -q -c" "-b -l" "-b -A -I ../../progs" "-b -i"
cp $G cases/hostile_unknown_machine/
py "
d = bytearray(open('cases/hostile_unknown_machine/bin', 'rb').read())
d[18:20] = b'\x99\x99'
open('cases/hostile_unknown_machine/bin', 'wb').write(d)"
d=cases/hostile_x32
rm -rf $d; mkdir -p $d
gcc -mx32 -O1 -nostdlib -no-pie -Wl,-e,_start -Wl,--build-id=none -o $d/bin progs/x32.c
python3 tools/nullprof.py $d/bin $d/gmon.out "_start>mid=1" "mid>leaf=2"
echo gmon.out > $d/files
printf '%s\n' "-b" "-b -c" "-b -i" > $d/optsets

# GNU's output for these cases (non-zero exits expected)
set +e
sh ./expect.sh $(cd cases && ls -d hostile_*)
