#!/bin/sh
# Which property of mcount moves perf's self-time shares of a -pg build
# (issue 34, the compressor): tests/libprof/compress.c (four threads, as
# bench/tvd.sh runs it) linked, from the same -pg object, with mcount
# stubs that differ in one thing each, under perf record (cpu-clock):
#   plain    no -pg (the truth)
#   null     mcount a `ret`
#   nullL    a `ret` after an lfence
#   load     libprof's counted path (RAW_HOME_S, both compares), copied,
#            with thread-local slots, without the increment
#   loadS    load with a static table: the two thread-local loads out of
#            the chain (and $mask, add of the table's address); only when
#            named in PGSTUB_VARIANTS
#   fast     the same with its `incq` of the slot: libprof's path
#   lock     the same with `lock incq`
#   fastL    fast + lfence before the ret
#   fastM    fast + mfence before the ret
#   glibc    glibc's runtime (gcc -pg, no -lprof)
#   libprof  libprof.a (its stub and its sampling, LIBPROF_HZ=100)
# The copies keep libprof's shape: a 64-byte aligned entry, the flag
# test, the product hash masked and added from thread-local words, the
# slot's compares; a miss stores the pair (the first call of a thread
# points its words at its own 4 KB table).  The stubs' own samples are
# left out (perf names them mcount, _mcount, __mcount_internal), as
# tvd.sh leaves out libprof's.  Printed for each variant: TVD of its
# pooled shares against the plain build's, the noise (h: TVD between
# halves of the rounds, mean over random splits), the hot functions'
# shares with the spread of their per-round values; the runs' CPU; the
# median samples a run of each function (the same work every run: the
# time a stub adds to a function, or hides from it in its own samples).
# Variants run interleaved, the order rotated every round.
# Usage: bench/pgstub.sh [rounds [blocks]]   (default 10 96)
# A variant VARIANT_pN (e.g. fast_p32) is VARIANT with N bytes of code
# linked before the program's (the functions' offsets mod 64 move).
# Env: PGSTUB_VARIANTS (a subset, plain first), PGSTUB_HZ (perf, 4999),
# PGSTUB_SAVE (a file: every run's samples as JSON).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}; blocks=${2:-96}
command -v perf > /dev/null || { echo "pgstub.sh: perf is needed" >&2; exit 1; }
[ -f "$top/libprof/libprof.a" ] || { echo "pgstub.sh: build the tree first" >&2; exit 1; }
variants=${PGSTUB_VARIANTS:-"plain null nullL load fast lock fastL fastM glibc libprof"}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d"
stub() { # name, increment ("" for none), fence before ret, fence in null
  {
    printf '.section .tdata,"awT",@progbits\n.align 8\nslots: .quad empty\nmask: .quad 0\n'
    printf '.section .tbss,"awT",@nobits\n.align 64\ntab: .zero 4096\n'
    printf '.bss\n.align 64\nempty: .zero 32\n.data\ncounting: .byte 1\n.text\n.p2align 6\n'
    printf '.globl mcount\n.type mcount,@function\nmcount:\n'
    if [ "$4" = null ]; then
      printf '  %s\n  ret\n' "$3"
    else
      cat <<EOF
  cmpb \$0, counting(%rip)
  je 9f
  movq (%rsp), %r10
  movq %r10, %r11
  imulq 8(%rbp), %r11
  andq %fs:mask@tpoff, %r11
  addq %fs:slots@tpoff, %r11
  cmpq %r10, 8(%r11)
  jne 1f
  movq 8(%rbp), %r10
  cmpq %r10, (%r11)
  jne 1f
  $2
  $3
9: ret
1: movq %fs:0, %r10
  leaq tab@tpoff(%r10), %r10
  cmpq %r10, %fs:slots@tpoff
  je 2f
  movq %r10, %fs:slots@tpoff
  movq \$4064, %fs:mask@tpoff
  ret
2: movq (%rsp), %r10
  movq %r10, 8(%r11)
  movq 8(%rbp), %r10
  movq %r10, (%r11)
  movq \$1, 16(%r11)
  ret
EOF
    fi
    printf '.globl _mcount\n.set _mcount, mcount\n.section .note.GNU-stack,"",@progbits\n'
  } > $1.S
}
stub null "" "" null
stub nullL "" lfence null
stub load "" ""
stub fast "incq 16(%r11)" ""
stub lock "lock incq 16(%r11)" ""
stub fastL "incq 16(%r11)" lfence
stub fastM "incq 16(%r11)" mfence
sed -e 's/andq %fs:mask@tpoff, %r11/andq $4064, %r11/' -e 's/addq %fs:slots@tpoff, %r11/leaq tab2(%rip), %r10; addq %r10, %r11; movq (%rsp), %r10/' \
    -e 's/^counting: .byte 1$/counting: .byte 1\n.bss\n.align 64\ntab2: .zero 4096/' load.S > loadS.S
src=$top/tests/libprof/compress.c
cc -O2 -g "$src" -o compress_plain -lpthread
cc -O2 -g -pg -c "$src" -o compress.o
cc -O2 -g -pg compress.o -o compress_glibc -lpthread
cc -O2 -g -pg compress.o -o compress_libprof -L"$top/libprof" -lprof -lpthread
for v in null nullL load loadS fast lock fastL fastM; do cc compress.o $v.S -o compress_$v -lpthread; done
# VARIANT_pN: the same with N bytes of code linked before the program's,
# which moves its functions N bytes (their offsets mod 64 matter)
for v in $variants; do
  case $v in *_p*) ;; *) continue;; esac
  b=${v%_p*}; n=${v##*_p}
  printf '.text\n.fill %d,1,0xcc\n.section .note.GNU-stack,"",@progbits\n' $n > pad$n.S
  case $b in
    plain) cc -O2 -g pad$n.S "$src" -o compress_$v -lpthread;;
    glibc) cc -O2 -g -pg pad$n.S compress.o -o compress_$v -lpthread;;
    libprof) cc -O2 -g -pg pad$n.S compress.o -o compress_$v -L"$top/libprof" -lprof -lpthread;;
    *) cc pad$n.S compress.o $b.S -o compress_$v -lpthread;;
  esac
done
for v in $variants; do ./compress_$v 2 > /dev/null || { echo "pgstub.sh: compress_$v fails" >&2; exit 1; }; done
rm -f gmon.out
TVDLIB_DIR="$top/bench" python3 - "$rounds" "$blocks" "${PGSTUB_HZ:-4999}" "$variants" "${PGSTUB_SAVE:-}" <<'EOF'
import json, os, random, re, statistics, subprocess, sys, time
rounds, blocks, hz, variants, save = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5]
STUB = ("mcount", "_mcount", "__mcount_internal", "libprof")

def owners(binary):
    """A local clone (foo.isra.0, foo.part.0) counts for the symbol before it."""
    r = subprocess.run(["nm", "-n", binary], capture_output=True, text=True).stdout
    own, cur = {}, None
    for line in r.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "TtWw": continue
        if "." not in f[2]: cur = f[2]
        own[f[2]] = cur
    return own

def prof(data, binary, own):
    r = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "-n", "--sort", "dso,sym",
                        "-t", ";"], capture_output=True, text=True).stdout
    p = {}
    for line in r.splitlines():
        f = [x.strip() for x in line.split(";")]
        if len(f) < 4 or line.startswith("#"): continue
        sym = re.sub(r"\+0x[0-9a-f]+$", "", re.sub(r"^\[.\]\s*", "", f[3]))
        if sym.startswith(STUB): continue
        if f[2] != os.path.basename(binary): continue
        if re.match(r"^0x", sym): continue
        o = own.get(sym, sym)
        if o: p[o] = p.get(o, 0) + int(f[1])
    return p

sys.path.insert(0, os.environ["TVDLIB_DIR"])
from tvdlib import pool, share, tvd, halves   # (this script's splits: seed 7)

own = {v: owners("./compress_" + v) for v in variants}
res = {v: [] for v in variants}
cpu = {v: [] for v in variants}
for r in range(rounds):
    for v in variants[r % len(variants):] + variants[:r % len(variants)]:
        b = "./compress_" + v
        t0 = os.times()
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", hz, "-o", "p.data", b, blocks],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, LIBPROF_HZ="100"))
        t1 = os.times()
        cpu[v].append(t1.children_user + t1.children_system - t0.children_user - t0.children_system)
        res[v].append(prof("p.data", b, own[v]))
        if os.path.exists("gmon.out"): os.unlink("gmon.out")
if save:
    with open(save, "w") as f: json.dump({"runs": res, "cpu": cpu}, f)
P = {v: pool(res[v]) for v in variants}
S = {v: share(P[v]) for v in variants}
hot = sorted(S["plain"], key=lambda f: -S["plain"][f])[:5]
print("== compress %s: %d rounds, perf cpu-clock at %s Hz, stubs' samples left out" % (blocks, rounds, hz))
print("   shares in % (pooled; [min-max] over the rounds); TVD, h against plain; CPU s median (perf running)")
print("   %-11s %6s %5s " % ("variant", "TVD", "h") + "".join("%21s" % f[:16] for f in hot[:4]) + "   samples  cpu")
for v in variants:
    per = [share(p) for p in res[v]]
    cells = ""
    for f in hot[:4]:
        x = [100 * p.get(f, 0) for p in per]
        cells += "%7.2f [%5.1f-%5.1f]" % (100 * S[v].get(f, 0), min(x), max(x))
    print("   %-11s %6.2f %5.2f " % (v, tvd(P[v], P["plain"]), halves(res[v], 7)) + cells
          + "%9d %5.2f" % (sum(P[v].values()), statistics.median(cpu[v])))
print("   samples a run, median (every run does the same work: where time is added or hidden)")
print("   %-11s" % "variant" + "".join("%16s" % f[:16] for f in hot[:4]) + "%16s" % "all")
for v in variants:
    print("   %-11s" % v + "".join("%16d" % statistics.median(p.get(f, 0) for p in res[v]) for f in hot[:4])
          + "%16d" % statistics.median(sum(p.values()) for p in res[v]))
EOF
