#!/bin/sh
# What moves self time in a -pg build (issue 34, part B): perf's shares
# (event cpu-clock) of the program's functions in builds that differ only
# in what mcount does, against the plain build's:
#   plain    no -pg
#   null     -pg objects, mcount a `ret` (the -pg code itself: frame, call)
#   ld4096   mcount loads and compares a slot hashed from (frompc, selfpc)
#            in a 4 KB table, as libprof's fast path does (L1-resident)
#   ldspread the 4 KB table's 128 slots spread 1,088 bytes apart (139 KB:
#            the same slots and lines on 34 pages; the stride keeps them
#            in distinct L1 sets)
#   ld131072 the same in a 128 KB table (libprof's raw part at 4,096 slots)
#   libprof  libprof.a (its stub and its sampling at 100 Hz)
# The stubs' own samples are left out (perf names them mcount), as the
# tvd.sh comparison leaves out libprof's.  Printed: TVD against plain, the
# noise (h: TVD between halves of the rounds), and the functions whose
# shares move most.  Programs: Lua 5.4 on bench/mixed.lua (Debian's source
# via apt-get source, or TVD_LUA_SRC) and tests/libprof/interp.c.
# Usage: bench/pgcost.sh [rounds [lua-scale]]   (default 4 2; ~5 min)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-4}; scale=${2:-2}
command -v perf > /dev/null || { echo "pgcost.sh: perf is needed" >&2; exit 1; }
[ -f "$top/libprof/libprof.a" ] && [ -x "$top/gprof" ] || { echo "pgcost.sh: build the tree first" >&2; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
printf '.text\n.globl mcount\n.type mcount,@function\nmcount:\n  ret\n.globl _mcount\n.set _mcount, mcount\n.section .note.GNU-stack,"",@progbits\n' > null.S
for sz in 4096 131072; do
  cat > ld$sz.S <<EOF
.text
.globl mcount
.type mcount,@function
mcount:
  mov 8(%rbp), %r10
  mov (%rsp), %r11
  shl \$4, %r10
  xor %r10, %r11
  imul \$0x61C88647, %r11, %r11
  shr \$15, %r11
  and \$$((sz / 32 - 1)), %r11
  shl \$5, %r11
  lea tab(%rip), %r10
  add %r10, %r11
  mov 8(%rbp), %r10
  cmp %r10, (%r11)
  jne 1f
  incq 16(%r11)
  ret
1: mov %r10, (%r11)
  ret
.globl _mcount
.set _mcount, mcount
.bss
.align 64
tab: .zero $sz
.section .note.GNU-stack,"",@progbits
EOF
done
sed -e 's/shl \$5, %r11/imul $1088, %r11, %r11/' -e 's/^\.align 64$/.align 4096/' \
    -e 's/^tab: \.zero 4096$/tab: .zero 139264/' ld4096.S > ldspread.S
variants="plain null ld4096 ldspread ld131072 libprof"
build() { # name, sources..., with -pg objects in dir NAME.o/
  n=$1; shift
  cc -O2 -g "$@" -o ${n}_plain -lm -ldl
  mkdir -p $n.o && (cd $n.o && for f in "$@"; do cc -O2 -g -pg -I.. -DLUA_USE_LINUX -c "$f" & done; wait)
  for v in null ld4096 ldspread ld131072; do cc $n.o/*.o $v.S -o ${n}_$v -lm -ldl; done
  cc -O2 -g -pg "$@" -o ${n}_libprof -L"$top/libprof" -lprof -lm -ldl
}
build interp "$top/tests/libprof/interp.c"
progs=interp
lua=${TVD_LUA_SRC:-}
if [ -z "$lua" ] && (mkdir luasrc && cd luasrc && apt-get source lua5.4) > luasrc.log 2>&1; then
  lua=$(ls -d "$d"/luasrc/lua5.4-*/ | head -n 1)
fi
if [ -n "$lua" ]; then
  echo "#define DEB_HOST_MULTIARCH \"$(gcc -print-multiarch)\"" > lua5.4-deb-multiarch.h
  build lua $(ls "$lua"/src/*.c | grep -v '/luac\.c$') -DLUA_USE_LINUX -I.
  progs="$progs lua"
else
  echo "Lua: skipped (apt-get source lua5.4 failed; TVD_LUA_SRC names a tree)"
fi
cp "$top/bench/mixed.lua" .
TVDLIB_DIR="$top/bench" python3 - "$top/gprof" "$rounds" "$scale" "$variants" $progs <<'EOF'
import os, random, re, statistics, subprocess, sys
gprof, rounds, scale, variants, progs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split(), sys.argv[5:]
args = {"interp": ["300000"], "lua": ["mixed.lua", scale]}
HZ = "4999"

def listed(binary):
    """The functions gprof lists for BINARY (one profiled run's file)."""
    subprocess.run([binary] + args[prog], stdout=subprocess.DEVNULL, env=dict(os.environ, LIBPROF_HZ="100"))
    r = subprocess.run([gprof, "-b", "-p", "-z", binary, "gmon.out"], capture_output=True, text=True).stdout
    os.unlink("gmon.out")
    names = set()
    for line in r.splitlines():
        f = line.split()
        if len(f) >= 4 and re.match(r"^[0-9.]+$", f[0]) and re.match(r"^[0-9.]+$", f[2]): names.add(f[-1])
    return names

def owners(binary, vis):
    """A symbol gprof does not list counts for the listed one before it."""
    r = subprocess.run(["nm", "-n", binary], capture_output=True, text=True).stdout
    own, cur = {}, None
    for line in r.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "TtWw": continue
        if f[2] in vis: cur = f[2]
        own[f[2]] = cur
    return own

def prof(data, binary, own):
    r = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "-n", "--sort", "dso,sym",
                        "-t", ";"], capture_output=True, text=True).stdout
    p = {}
    for line in r.splitlines():
        f = [x.strip() for x in line.split(";")]
        if len(f) < 4 or line.startswith("#") or f[2] != os.path.basename(binary): continue
        sym = re.sub(r"\+0x[0-9a-f]+$", "", re.sub(r"^\[.\]\s*", "", f[3]))
        if sym.startswith(("mcount", "_mcount", "libprof")) or re.match(r"^0x", sym): continue
        o = own.get(sym, sym)
        if o: p[o] = p.get(o, 0) + int(f[1])
    return p

sys.path.insert(0, os.environ["TVDLIB_DIR"])
from tvdlib import pool, share, tvd, halves   # (this script's splits: seed 7)

for prog in progs:
    vis = listed("./%s_libprof" % prog)
    res = {v: [] for v in variants}
    for r in range(rounds):
        for v in variants[r % len(variants):] + variants[:r % len(variants)]:
            b = "./%s_%s" % (prog, v)
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", HZ, "-o", "p.data", b] + args[prog],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, LIBPROF_HZ="100"))
            res[v].append(prof("p.data", b, owners(b, vis)))
            if os.path.exists("gmon.out"): os.unlink("gmon.out")
    P = {v: pool(res[v]) for v in variants}
    print("\n== %s %s: %d rounds, perf at %s Hz" % (prog, " ".join(args[prog]), rounds, HZ))
    for v in variants:
        print("   %-9s TVD against plain %5.1f   h %4.1f   [%d samples]" % (v, tvd(P[v], P["plain"]), halves(res[v], 7), sum(P[v].values())))
    s = {v: share(P[v]) for v in variants}
    fs = sorted(set().union(*map(set, P.values())), key=lambda f: -abs(s["libprof"].get(f, 0) - s["plain"].get(f, 0)))
    print("   shares in %:   " + "".join("%9s" % v for v in variants))
    for f in fs[:12]:
        print("   %-16s" % f[:16] + "".join("%9.1f" % (100 * s[v].get(f, 0)) for v in variants))
EOF
