#!/bin/sh
# Rebuilds the cross-target fixtures tests/cases/cross_* and callform_*: tests/progs/cross.c
# compiled with -pg by Debian's cross compilers for aarch64, sparc64, mips
# (32-bit big-endian) and alpha, run under qemu-user so that each target's
# glibc writes gmon.out in its own byte order and word size, then GNU gprof's
# output recorded for each option set (expect.sh).  A development step: the
# fixtures are committed and `make check` only reads them.
#
# The cross compilers conflict with gcc-multilib in Debian 12, so they are
# not installed: their .debs are fetched with `apt-get download` and
# unpacked with `dpkg -x` into $CROSS (default /opt/cross/root), e.g.
#   gcc-12-T cpp-12-T gcc-12-T-base binutils-T libgcc-12-dev-A-cross
#   libc6-dev-A-cross libc6-A-cross linux-libc-dev-A-cross
# for T/A in aarch64-linux-gnu/arm64, sparc64-linux-gnu/sparc64,
# mips-linux-gnu/mips, alpha-linux-gnu/alpha (alpha's libc is libc6.1-*).
# Targets whose compiler is missing are skipped.
set -e
cd "$(dirname "$0")"
CROSS=${CROSS:-/opt/cross/root}
[ -x /usr/bin/gprof ] || { echo "cross.sh needs GNU gprof (binutils-multiarch) in /usr/bin" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

xcc() { # triple args...
  t=$1; shift
  LD_LIBRARY_PATH=$CROSS/usr/lib/x86_64-linux-gnu "$CROSS/usr/bin/$t-gcc-12" \
    -B"$CROSS/usr/lib/gcc-cross/$t/12/" -B"$CROSS/usr/$t/lib/" -B"$CROSS/usr/bin/$t-" \
    --sysroot="$CROSS" -isystem "$CROSS/usr/$t/include" -L"$CROSS/usr/$t/lib" "$@"
}

build() { # case triple qemu flags rounds [optsets]
  name=$1 t=$2 q=$3 flags=$4 rounds=$5 sets=${6:-cross-optsets}
  if [ ! -x "$CROSS/usr/bin/$t-gcc-12" ]; then echo "skip $name: no $t-gcc-12 in $CROSS" >&2; return 0; fi
  d=cases/$name
  keep=""; [ -f $d/optsets ] && keep=$(cat $d/optsets)
  rm -rf $d; mkdir -p $d
  xcc $t $flags -fdebug-prefix-map="$(pwd)"=/gprof-tests -pg -Wl,-z,noseparate-code -Wl,-T,"$tmp/far.ld" -o $d/bin progs/cross.c
  (cd "$tmp" && rm -f gmon.out && qemu-$q -L "$CROSS/usr/$t" "$OLDPWD/$d/bin" $rounds > /dev/null \
     && mv gmon.out "$OLDPWD/$d/gmon.out")
  echo gmon.out > $d/files
  if [ -n "$keep" ]; then echo "$keep" > $d/optsets; else cp $sets $d/optsets; fi
}

# far_text goes after .rodata, past etext: outside the histogram's range
# (noseparate-code keeps it in the executable segment)
echo 'SECTIONS { far_text : { *(far_text) } } INSERT AFTER .rodata;' > "$tmp/far.ld"

build cross_aarch64    aarch64-linux-gnu aarch64 "-O2"         150000
build cross_aarch64_O0 aarch64-linux-gnu aarch64 "-O0 -g"      100000
build cross_sparc64    sparc64-linux-gnu sparc64 "-O2 -Wl,-z,max-page-size=0x2000" 20000
build cross_mips       mips-linux-gnu    mips    "-O2"         150000
build cross_mips_nopic mips-linux-gnu    mips    "-O1 -fno-pic -mno-abicalls -no-pie" 150000
build cross_alpha      alpha-linux-gnu   alpha   "-O2"         150000
# static: -c's arcs of count zero close cycles nobody calls (glibc's)
build cross_aarch64_static aarch64-linux-gnu aarch64 "-O2 -static" 20000 cross-static-optsets

# Hand-made call forms (tests/progs/calls): one function per instruction
# form, linked low (GNU's finders cut targets to 32 bits) and, for two of
# them, above 4 GiB; an empty histogram that ends at t_end.
callform() { # case source triple text-address [as-and-ld flags [ld flags]]
  name=$1 src=$2 t=$3 at=$4 en=${5:-} ldx=${6:-}
  if [ ! -x "$CROSS/usr/bin/$t-as" ]; then echo "skip $name: no $t-as in $CROSS" >&2; return 0; fi
  d=cases/$name
  keep=""; [ -f $d/optsets ] && keep=$(cat $d/optsets)
  rm -rf $d; mkdir -p $d
  LD_LIBRARY_PATH=$CROSS/usr/lib/x86_64-linux-gnu "$CROSS/usr/bin/$t-as" $en -o "$tmp/calls.o" progs/calls/$src
  LD_LIBRARY_PATH=$CROSS/usr/lib/x86_64-linux-gnu "$CROSS/usr/bin/$t-ld" ${ldx:-$en -Ttext=$at} -e _start -o $d/bin "$tmp/calls.o"
  python3 tools/nullprof.py $d/bin $d/gmon.out --hi=t_end "_start>t_exact=1"
  echo gmon.out > $d/files
  if [ -n "$keep" ]; then echo "$keep" > $d/optsets; else cp callform-optsets $d/optsets; fi
}
callform callform_aarch64      aarch64.s aarch64-linux-gnu 0x100
callform callform_aarch64_high aarch64.s aarch64-linux-gnu 0x100000100
callform callform_sparc        sparc.s   sparc64-linux-gnu 0x100
callform callform_sparc_high   sparc.s   sparc64-linux-gnu 0x100000100
callform callform_mips         mips.s    mips-linux-gnu    0x100
callform callform_alpha        alpha.s   alpha-linux-gnu   0x100
# the other byte order: GNU reads code in the object's byte order
callform callform_aarch64_be   aarch64.s aarch64-linux-gnu 0x100 -EB
callform callform_mipsel       mips.s    mips-linux-gnu    0x100 -EL
callform callform_sparc32      sparc.s   sparc64-linux-gnu 0x100 -32 "-m elf32_sparc -Ttext=0x100"
# 64-bit MIPS above 4 GiB: the JAL region is taken from the address cut to
# 32 bits, so nothing is found
callform callform_mips64_high  mips.s    mips-linux-gnu    0x120000200 "-mabi=64 -march=mips64" \
  "-m elf64btsmip --section-start=.text=0x120000200"

# Without the C library (progs/nostdlib): the program's own _start and a
# do-nothing _mcount, profiles written by nullprof.py over .text.
nostdlib() { # case triple flags first-objects [samples and arcs...]
  name=$1 t=$2 flags=$3 objs=$4; shift 4
  if [ ! -x "$CROSS/usr/bin/$t-gcc-12" ]; then echo "skip $name: no $t-gcc-12 in $CROSS" >&2; return 0; fi
  d=cases/$name
  keep=""; [ -f $d/optsets ] && keep=$(cat $d/optsets)
  rm -rf $d; mkdir -p $d
  (cd progs/nostdlib && xcc $t $flags -pg -nostdlib -static -Wl,-e,_start -o "$OLDPWD/$d/bin" $objs)
  python3 tools/nullprof.py $d/bin $d/gmon.out --hi=.text "$@"
  echo gmon.out > $d/files
  if [ -n "$keep" ]; then echo "$keep" > $d/optsets; else cat optsets cross-optsets | sort -u > $d/optsets; fi
}
# alpha: _start last, after _mcount, leaf, work, top.  Its samples: GNU
# reads the word past its symbol table for the end of the last symbol
# (here a heap pointer: the samples count; see env)
nostdlib nostdlib_alpha alpha-linux-gnu -O2 "mcount-alpha.s work.c start.c" \
  leaf+8@50 work+4@20 top@10 _start+8@7 _mcount@3 "_start>top=1" "top>work=4" "work>leaf=8" "top>_start=2"
echo MALLOC_MMAP_THRESHOLD_=0 > cases/nostdlib_alpha/env
# mips: the local leaf shares its address with the linker's _ftext, which
# names it; GNU drops the arcs into it (no function symbol at or below)
nostdlib nostdlib_mips mips-linux-gnu "-O2 -fno-pic -mno-abicalls" "work.c start.c mcount-mips.s" \
  leaf+8@50 work+4@20 top@10 _start+8@7 _mcount@3 "_start>top=1" "top>work=4" "work>leaf=8" "leaf>top=2"

# VAX: no compiler and no BFD target in the multi-target build; a VAX ELF
# from hand-assembled bytes (GNU opens it as elf32-little and says -c is
# not supported; tests/unit/vax_elf.c checks what vax.c finds in it).
d=cases/vax_calls; mkdir -p $d
python3 tools/vaxelf.py $d/bin
python3 tools/nullprof.py $d/bin $d/gmon.out --hi=t_end "_start>t_a=1"
echo gmon.out > $d/files
[ -f $d/optsets ] || cp callform-optsets $d/optsets

# An architecture without a finder: the i386 object relabelled RISC-V
# (e_machine 243); GNU says "-c not supported on architecture riscv:rv32"
# once and goes on.
d=cases/c_unsupported; mkdir -p $d
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[18:20] = (243).to_bytes(2, "little"); open(sys.argv[2], "wb").write(d)' cases/cycles_m32/bin $d/bin
cp cases/cycles_m32/gmon.out $d/gmon.out
echo gmon.out > $d/files
[ -f $d/optsets ] || printf -- '-b -c\n-b -c -q\n-b -c -p\n-b -q\n' > $d/optsets

# GNU's reports for these cases only (a failing run is recorded, not fatal)
set +e
sh expect.sh $(cd cases && ls -d cross_* callform_* nostdlib_* vax_calls c_unsupported)
