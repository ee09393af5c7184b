#!/bin/sh
# Builds the line-level cases (-l, basic blocks, -A with line counts) from
# tests/progs/lines and records GNU's output for them; gen.sh runs it, or
# run it alone.  The sources are compiled with their directory mapped to
# /gprof-tests/lines, so the listings do not depend on where the checkout
# lives (-A finds them with -I ../../progs/lines).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
src=$(pwd)/progs/lines
map="-fdebug-prefix-map=$src=/gprof-tests/lines"
run() { # case args: profile the case's bin into its gmon.out
  (cd "$tmp" && rm -f gmon.out && "$OLDPWD/cases/$1/bin" $2 >/dev/null && mv gmon.out "$OLDPWD/cases/$1/gmon.out")
  echo gmon.out > cases/$1/files
}
for c in lines lines_O2 lines_cc lines_bb lines_big lines_asm lines_alias lines_stl lines_gz lines_two lines_rand \
         lines_last_past lines_last_data lines_last_inside lines_last_fini; do rm -rf cases/$c; mkdir -p cases/$c; done
# several files, a header's static inline function, a function whose body
# comes from an #included file, #line, one program at -O0 and at -O2
(cd progs/lines && gcc -O0 -g -pg $map main.c a.c b.c -o ../../cases/lines/bin)
run lines 300000
(cd progs/lines && gcc -O2 -g -pg $map main.c a.c b.c -o ../../cases/lines_O2/bin)
run lines_O2 600000
# two functions on one line, sections of their own, blocks in both
(cd progs/lines && gcc -O2 -g -pg -ffunction-sections $map twoonline.c -o ../../cases/lines_two/bin)
run lines_two
python3 tools/bbprof.py cases/lines_two/bin cases/lines_two/gmon.out cases/lines_two/gmon.bb f+0=4 g+0=6 g+3=2 main+1=3
echo "gmon.out gmon.bb" > cases/lines_two/files
# random histograms and arcs, some past .text (etext takes calls there but
# no samples)
cp cases/lines/bin cases/lines_rand/bin
python3 tools/lineprof.py cases/lines_rand/bin cases/lines_rand/gmon.5 5
python3 tools/lineprof.py cases/lines_rand/bin cases/lines_rand/gmon.17 17
echo "gmon.5 gmon.17" > cases/lines_rand/files
# compressed debug sections
(cd progs/lines && gcc -O2 -g -gz=zlib -pg $map main.c a.c b.c -o ../../cases/lines_gz/bin)
run lines_gz 300000
# C++: methods, a template, a namespace, #line naming other files
(cd progs/lines && g++ -O0 -g -pg $map lines.cc -o ../../cases/lines_cc/bin)
run lines_cc
# -O2 C++ with the standard library inlined and a .cold part of main
(cd progs/lines && g++ -O2 -g -pg $map stl.cc -o ../../cases/lines_stl/bin)
run lines_stl
# basic-block records at known places: blocks at a line's start and inside
# it, repeated addresses (summed), more than ten in one line symbol, two
# records, blocks of a function never called
cp cases/lines/bin cases/lines_bb/bin
python3 tools/bbprof.py cases/lines/bin cases/lines/gmon.out cases/lines_bb/gmon.out \
  main+0=7 main+4=9 main+25=11 main+40=3 a_loop+0=5 a_loop+17=5 a_loop+20=9 a_loop+25=6 a_loop+33=6 \
  a_loop+40=1234567890123 twofile+0=1 twofile+9=2 twofile+34=0 \
  spread+0=1 spread+1=2 spread+2=3 spread+3=4 spread+4=5 spread+5=6 spread+6=7 spread+7=8 \
  spread+8=9 spread+9=10 spread+10=11 spread+11=12 -- main+4=100 spread+1=1000 relined+20=4 helper+3=9 etext+24=4 etext+0=1
echo gmon.out > cases/lines_bb/files
# thousands of lines: 600 generated functions over 8 files, at -O2
python3 progs/lines/genbig.py 8 600 "$tmp"
(cd "$tmp" && gcc -O2 -g -pg -fdebug-prefix-map="$tmp"=/gprof-tests/big big_*.c -o "$OLDPWD/cases/lines_big/bin")
run lines_big 400
# hand-made symbols: untyped labels after a function (calls to them belong
# to the function), a weak symbol in .data and _edata past .text (dropped
# with -l), a function without line information
(cd progs/lines && gcc -O0 -g -c $map -o "$tmp/s.o" asm_main.c)
as -o "$tmp/t.o" progs/lines/asm_tail.s
ld -o cases/lines_asm/bin "$tmp/s.o" "$tmp/t.o"
python3 tools/nullprof.py cases/lines_asm/bin cases/lines_asm/gmon.out "f2>f1=3" "f2>n2=5" "_start>n1=7" "_start>f2=1"
echo gmon.out > cases/lines_asm/files
# untyped labels in pairs at one address, with line information but no
# DWARF function: line symbols take the first of a pair in the symbol table
(cd progs/lines && gcc -O0 -g -c $map -o "$tmp/as.o" alias_main.c && as -g --debug-prefix-map "$src=/gprof-tests/lines" -o "$tmp/at.o" alias.s)
ld -o cases/lines_alias/bin "$tmp/as.o" "$tmp/at.o"
python3 tools/nullprof.py cases/lines_alias/bin cases/lines_alias/gmon.out "_start>a1=3" "_start>b1=5" "_start>c1=7"
echo gmon.out > cases/lines_alias/files
# which function symbol -l drops: the last one, when it lies at or past
# the end of .text (three NOTYPE symbols past .text; the same with a weak
# function in .data below them; the last function inside .text; the last
# in a .fini after .text)
as -o "$tmp/last.o" progs/lines/last/last.s
as -o "$tmp/data.o" progs/lines/last/data.s
as -o "$tmp/fini.o" progs/lines/last/fini.s
ld -T progs/lines/last/past.ld -o cases/lines_last_past/bin "$tmp/last.o"
ld -T progs/lines/last/data.ld -o cases/lines_last_data/bin "$tmp/last.o" "$tmp/data.o" 2> /dev/null
ld -T progs/lines/last/inside.ld -o cases/lines_last_inside/bin "$tmp/last.o"
ld -T progs/lines/last/fini.ld -o cases/lines_last_fini/bin "$tmp/fini.o"
for c in past data inside fini; do
  python3 tools/lineprof.py cases/lines_last_$c/bin cases/lines_last_$c/gmon.out 5
  echo gmon.out > cases/lines_last_$c/files
  printf '%s\n' "-b -l" "-b -l -z" "-b -l -z -q" "-b -l -z -C" "-b -l -z -p" "-b -l -z -T" "-b -z" > cases/lines_last_$c/optsets
done
# option sets: every report with -l, symspecs, -A with line counts
common='-b -l
-b -l -z
-b -l -p
-b -l -q
-b -l -L
-b -l -T
-b -l --inline-file-names
-b -l -C
-b -l -C -z
-b -l -Zmain
-b -l -m 3 -C
-b -l -A -I ../../progs/lines
-b -l -A -x -I ../../progs/lines
-b -l -A -z -I ../../progs/lines
-b -l -A -t 3 -I ../../progs/lines
-b -l -A -x -m 4 -I ../../progs/lines
-b -A -I ../../progs/lines
-b -C
-b -Zmain
-b -l -a
-b -l -c
-b -l -pspread
-b -l -qspread
-b -l -Qspread
-b -l -Pmain
-b -l -Espread
-b -l -kmain/spread
-b -l -Aa.c -I ../../progs/lines
-b -l -Jb.c -I ../../progs/lines
-b -l -r
-b -l -w 200'
for c in lines lines_O2 lines_bb; do echo "$common" > cases/$c/optsets; done
echo "$common" | sed 's/spread/_ZN1A6methodEi/g; s/a\.c/lines.cc/' > cases/lines_cc/optsets
# (its sources are not kept: -A reports them missing; no -z listings of
# the whole table, a megabyte each)
echo "$common" | sed 's/spread/f1/g; s/a\.c/big_1.c/; s|progs/lines|progs/big|; /^-b -l\( -C\)\? -z$/d' > cases/lines_big/optsets
echo "$common" | sed 's/spread/f1/g; s/main/f2/; s/a\.c/asm_main.c/' > cases/lines_asm/optsets
# (the library's headers differ between machines: no -A)
echo "$common" | grep -v -- '-A\|-J\|-b -l -z' | sed 's/spread/count/g' > cases/lines_stl/optsets
printf '%s\n' "-b -l" "-b -l -C" "-b -C" "-b -A -I ../../progs/lines" "-b -l -A -x -I ../../progs/lines" \
  "-b --inline-file-names" > cases/lines_gz/optsets
printf '%s\n' "-b -l" "-b -l -C" "-b -l -C -z" "-b -C" "-b -A -I ../../progs/lines" "-b -l -A -I ../../progs/lines" \
  "-b -l -A -x -I ../../progs/lines" "-b -l -A -x -m 0 -I ../../progs/lines" "-b -l -A -t 0 -I ../../progs/lines" > cases/lines_two/optsets
printf '%s\n' "-b -l" "-b -l -z" "-b -l -C" "-b" > cases/lines_rand/optsets
printf '%s\n' "-b -l" "-b -l -z" "-b -l -z -p" "-b -l -q" "-b -l -C -z" > cases/lines_alias/optsets
sh ./expect.sh lines lines_O2 lines_cc lines_bb lines_big lines_asm lines_alias lines_stl lines_gz lines_two lines_rand \
  lines_last_past lines_last_data lines_last_inside lines_last_fini
