#!/bin/sh
# Self time against perf (issue 21): how far the flat profile's shares of
# self time are from the truth, for libprof (mcount samples charged to the
# caller, LIBPROF_OVERHEAD=charge, and dropped, the default) and for glibc's
# runtime.  The truth is perf (event cpu-clock) on the same program built
# without -pg.  Two programs: tests/libprof/interp.c and Lua 5.4 (Debian's
# source package, fetched with apt-get source; skipped with a message when
# that fails) running a benchmark script of ours (bench/tvd.lua).
#
# Each round runs, in turn (the order rotated from round to round): the
# plain build (timed), the plain build under perf record, the glibc -pg
# build, the libprof build (charge; LIBPROF_OVERHEAD=charge), the libprof
# build (drop), the libprof build (drop) under perf record, and the same
# two for a libprof build with -pg -mfentry (__fentry__ is called before
# the prologue, so no frame pointer is forced; glibc has no __fentry__).
# Profiles are pooled over the rounds:
#   p(f) = self seconds of f in gprof's flat profiles, summed over runs,
#          over the sum for all the program's functions;
#   q(f) = perf's cpu-clock samples in f, restricted to the main binary,
#          summed, over the sum.
# perf's symbols are first mapped to those gprof lists (a symbol gprof does
# not list, e.g. foo.isra.0, counts for the listed one before it, as gprof
# charges its samples; a PLT stub, e.g. memcpy@plt, for the function before
# the PLT, _init).  TVD = 1/2 sum |p - q|, in points (percent).
#
# Noise floor: h(X) = TVD between two halves of X's rounds (the mean over
# random balanced splits); a half has half the samples of the pool and the
# difference of two halves has twice the variance of one half, so the
# sampling noise expected in TVD(X, perf) of the full pools is
#   floor(X) = sqrt(h(X)^2 + h(perf)^2) / 2.
# "excess" = TVD - floor.  Also printed: perf on the -pg (libprof, drop)
# build against perf on the plain build -- what the -pg code itself
# (frame, mcount call, lost registers) moves, with perfect attribution --
# and libprof (drop) against that -- what the runtime's sampling and
# attribution add -- and the functions whose shares differ most.
#
# Overhead: CPU time (user + system) of each -pg build over the plain
# build's, medians (and least) over the rounds.
#
# Usage: bench/tvd.sh [rounds [interp-N [lua-scale]]]    (default 10 300000 1)
# TVD_PROGS: the programs, among interp, lua (bench/tvd.lua), mixed (Lua on
# bench/mixed.lua: binary trees, a sort with a Lua comparator, string
# formatting and matching, coroutines, string-keyed tables) and compress
# (tests/libprof/compress.c, four threads; TVD_COMPRESS_N blocks, default
# 96) and gawk (Debian's gawk source, or TVD_GAWK_SRC, built -O2 -g, on
# bench/work.awk: associative arrays, strings, regular expressions,
# arithmetic, asort; TVD_GAWK_N rounds, default 16); default "interp
# lua".  bench/selftime.sh runs them all.
# Env: TVD_PERF_HZ (perf's rate, default 997), TVD_LIBPROF_HZ (LIBPROF_HZ
# for the libprof runs; default: libprof's own, 100 Hz), TVD_LUA_SRC (a
# Lua 5.4 source tree to use instead of apt-get source), TVD_NO_LUA=1,
# TVD_BASE_LIB (a directory with another build's libprof.a, e.g. before a
# change: kinds bdrop and bfentry run builds linked with it, interleaved
# with the rest; not for gawk), TVD_KINDS (the kinds to run besides plain
# and perf, among glibc charge drop itimer perf_pg fentry perf_fe bdrop
# bfentry; only when named: itimer, libprof (drop) with
# LIBPROF_CLOCK=itimer, and perf_gl, perf on glibc's -pg build;
# default all), TVD_WORK (a directory kept, whose Lua builds the next
# batch reuses), TVD_SAVE (a file prefix: each program's profiles, every
# run's, written as PREFIX.PROG.json).  Besides the pooled TVDs: each run's TVD against the
# pooled perf (median, range) and, for pairs of kinds (drop - glibc,
# fentry - bfentry, ...), the difference of the pooled TVDs with the 90%
# interval of resampling the rounds.
# About 7 minutes at the defaults on 2 cores.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}; n_interp=${2:-300000}; lua_scale=${3:-1}
command -v perf >/dev/null || { echo "tvd.sh: perf is needed (apt-get install linux-perf)" >&2; exit 1; }
[ -x "$top/gprof" ] && [ -f "$top/libprof/libprof.a" ] || { echo "tvd.sh: build the tree first (./configure && make)" >&2; exit 1; }
if [ -n "$TVD_WORK" ]; then   # kept, and its Lua builds reused by the next batch
  mkdir -p "$TVD_WORK"; d=$(cd "$TVD_WORK" && pwd)
else
  d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fi
cd "$d"
lp="-L$top/libprof -lprof"
blp=${TVD_BASE_LIB:+"-L$TVD_BASE_LIB -lprof"}

want=" ${TVD_PROGS:-interp lua} "
progs=
for c in interp compress; do
  case $want in *" $c "*) ;; *) continue;; esac
  cc -O2 -g "$top/tests/libprof/$c.c" -o ${c}_plain -lpthread
  cc -O2 -g -pg "$top/tests/libprof/$c.c" -o ${c}_glibc -lpthread
  cc -O2 -g -pg "$top/tests/libprof/$c.c" -o ${c}_libprof $lp -lpthread
  cc -O2 -g -pg -mfentry "$top/tests/libprof/$c.c" -o ${c}_fentry $lp -lpthread
  if [ -n "$TVD_BASE_LIB" ]; then
    cc -O2 -g -pg "$top/tests/libprof/$c.c" -o ${c}_blibprof $blp -lpthread
    cc -O2 -g -pg -mfentry "$top/tests/libprof/$c.c" -o ${c}_bfentry $blp -lpthread
  fi
  progs="$progs $c"
done

lua=
case $want in *" lua "*|*" mixed "*) ;; *) TVD_NO_LUA=1;; esac
if [ -n "$TVD_NO_LUA" ]; then
  echo "Lua: skipped (TVD_NO_LUA)"
elif [ -n "$TVD_LUA_SRC" ]; then
  lua=$TVD_LUA_SRC
elif (mkdir luasrc && cd luasrc && apt-get source lua5.4) >luasrc.log 2>&1; then
  lua=$(ls -d "$d"/luasrc/lua5.4-*/ | head -n 1)
else
  echo "Lua: skipped: 'apt-get source lua5.4' failed (no deb-src entry? add"
  echo "  'Types: deb-src' with the URIs/Suites/Components of"
  echo "  /etc/apt/sources.list.d/debian.sources as a file there, then apt-get update):"
  tail -n 2 luasrc.log | sed 's/^/  /'
fi
if [ -n "$lua" ]; then
  # Debian's patched luaconf.h includes a generated header
  echo "#define DEB_HOST_MULTIARCH \"$(gcc -print-multiarch)\"" > lua5.4-deb-multiarch.h
  srcs=$(ls "$lua"/src/*.c | grep -v '/luac\.c$')
  # (each kind of object compiled once, linked with each runtime)
  if [ -x lua_fentry ] && { [ -z "$TVD_BASE_LIB" ] || [ -x lua_bfentry ]; }; then :; else
  rm -rf o_plain o_pg o_fe
  lo() { mkdir "$1" && (cd "$1" && for f in $srcs; do cc -O2 -g -I"$d" -DLUA_USE_LINUX $2 -c "$f" || exit 1; done); }
  lo o_plain "" & p1=$!; lo o_pg "-pg" & p2=$!; wait $p1; wait $p2
  lo o_fe "-pg -mfentry"
  cc o_plain/*.o -o lua_plain -lm -ldl
  cc -pg o_pg/*.o -o lua_glibc -lm -ldl
  cc -pg o_pg/*.o -o lua_libprof $lp -lm -ldl
  cc -pg o_fe/*.o -o lua_fentry $lp -lm -ldl
  if [ -n "$TVD_BASE_LIB" ]; then
    cc -pg o_pg/*.o -o lua_blibprof $blp -lm -ldl
    cc -pg o_fe/*.o -o lua_bfentry $blp -lm -ldl
  fi
  fi
  cp "$top/bench/tvd.lua" "$top/bench/mixed.lua" .
  case $want in *" lua "*) progs="$progs lua";; esac
  # (hard links: perf names the object by the name it was run as)
  case $want in *" mixed "*) for k in plain glibc libprof fentry ${TVD_BASE_LIB:+blibprof bfentry}; do ln -f lua_$k mixed_$k; done; progs="$progs mixed";; esac
fi

# gawk (Debian's source, or TVD_GAWK_SRC): configured once, built four
# ways (make's CFLAGS; its regex code in support/ too), running
# bench/work.awk in the C locale
case $want in *" gawk "*)
  g=${TVD_GAWK_SRC:-}
  if [ -z "$g" ] && (mkdir gawksrc && cd gawksrc && apt-get source gawk) > gawksrc.log 2>&1; then
    g=$(ls -d "$d"/gawksrc/gawk-*/ | head -n 1)
  fi
  # (cp -p: timestamps kept, or make wants to rerun automake)
  if [ -n "$g" ] && cp -rp "$g" gawk-base && (cd gawk-base && ./configure --disable-nls --disable-mpfr \
       --without-readline CFLAGS="-O2 -g" > ../gawk.log 2>&1 && make -C support >> ../gawk.log 2>&1); then
    gb() { # variant, CFLAGS, libraries before configure's
      cp -rp gawk-base gawk-$1 && (cd gawk-$1 && rm -f *.o support/*.o support/libsupport.a \
        && make -C support CFLAGS="$2" > ../gawk-$1.log 2>&1 && make gawk CFLAGS="$2" LIBS="$3 $(sed -n 's/^LIBS = //p' Makefile)" >> ../gawk-$1.log 2>&1) \
        && cp gawk-$1/gawk gawk_$1
    }
    gb plain "-O2 -g" "" & p1=$!; gb glibc "-O2 -g -pg" "" & p2=$!; wait $p1 || :; wait $p2 || :
    gb libprof "-O2 -g -pg" "$lp" & p1=$!; gb fentry "-O2 -g -pg -mfentry" "$lp" & p2=$!; wait $p1 || :; wait $p2 || :
    cp "$top/bench/work.awk" .
  fi
  if [ -x gawk_plain ] && [ -x gawk_glibc ] && [ -x gawk_libprof ] && [ -x gawk_fentry ]; then
    progs="$progs gawk"
  else
    echo "gawk: skipped (apt-get source gawk or its build failed; TVD_GAWK_SRC names a tree)"
  fi;;
esac

python3 - "$top/bench" "$top/gprof" "$rounds" "$n_interp" "$lua_scale" $progs <<'EOF'
import json, os, random, re, statistics, subprocess, sys
sys.dont_write_bytecode = True          # (no __pycache__ in bench/)
sys.path.insert(0, sys.argv[1])
from tvdlib import pool, share, tvd, halves, floor, resampled

gprof, rounds, n_interp, lua_scale = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
progs = sys.argv[6:]
perf_hz = os.environ.get("TVD_PERF_HZ", "997")
lp_env = {"LIBPROF_HZ": os.environ["TVD_LIBPROF_HZ"]} if os.environ.get("TVD_LIBPROF_HZ") else {}
args = {"interp": [n_interp], "lua": ["tvd.lua", lua_scale], "mixed": ["mixed.lua", lua_scale],
        "compress": [os.environ.get("TVD_COMPRESS_N", "96")],
        "gawk": ["-f", "work.awk", os.environ.get("TVD_GAWK_N", "16")]}

def run(cmd, env=None, out=None):
    """Run cmd; return its CPU seconds (user + system, from wait4)."""
    e = dict(os.environ); e.update(env or {})
    if os.path.exists("gmon.out"): os.unlink("gmon.out")
    p = subprocess.Popen(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status: sys.exit("tvd.sh: %s failed (%d)" % (" ".join(cmd), status))
    if out: os.rename("gmon.out", out)
    return ru.ru_utime + ru.ru_stime

def flat(binary, gmon):
    """{function: self seconds} from our gprof's flat profile, exact (--json):
    the printed report rounds to 0.01 s, which at 1 kHz drops every function
    under 5 ms a run and moves its share to the others (issue 34)."""
    r = subprocess.run([gprof, "--json=-", binary, gmon], capture_output=True, text=True, check=True).stdout
    prof = {}
    for e in json.loads(r).get("flat_profile", []):
        if e.get("self_seconds"): prof[e["display"]] = prof.get(e["display"], 0) + e["self_seconds"]
    return prof

def visible(binary, gmon):
    """The functions gprof lists for binary (-z: all of them)."""
    r = subprocess.run([gprof, "-b", "-p", "-z", binary, gmon], capture_output=True, text=True, check=True).stdout
    return set(flat_names(r))

def flat_names(text):
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and re.match(r"^[0-9.]+$", f[0]) and re.match(r"^[0-9.]+$", f[2]):
            i = 3
            while i < len(f) - 1 and re.match(r"^[0-9.]+$", f[i]): i += 1
            yield " ".join(f[i:])

def owners(binary, vis):
    """{symbol: the function gprof charges for it, or None for libprof's code}:
    in address order, a symbol gprof does not list belongs to the listed one
    before it; libprof's code (from libprof$text_begin) to none."""
    r = subprocess.run(["nm", "-n", binary], capture_output=True, text=True, check=True).stdout
    h = subprocess.run(["objdump", "-h", binary], capture_output=True, text=True, check=True).stdout
    plt = [int(f[3], 16) for f in map(str.split, h.splitlines()) if len(f) > 3 and f[1] == ".plt"]
    own, cur = {}, None
    for line in r.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "Vv":
            own[f[2]] = None            # libprof's entry points (mcount, __fentry__, ...)
        if len(f) != 3 or f[1] not in "TtWw": continue
        name = f[2]
        if plt and int(f[0], 16) <= plt[0] and name in vis:
            own["@plt"] = name          # gprof charges the PLT to the function before it
        if name in vis: cur = name
        elif name.startswith("libprof$") or name in ("mcount", "_mcount", "__fentry__"): cur = None
        own[name] = cur if name not in vis else name
    return own

def perf_prof(data, binary, own):
    """{function: samples} of perf's cpu-clock samples in binary."""
    r = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "-n",
                        "--sort", "dso,sym", "-t", ";"], capture_output=True, text=True).stdout
    prof = {}
    base = os.path.basename(binary)
    for line in r.splitlines():
        f = [x.strip() for x in line.split(";")]
        if len(f) < 4 or line.startswith("#") or f[2] != base: continue
        sym = re.sub(r"\+0x[0-9a-f]+$", "", re.sub(r"^\[.\]\s*", "", f[3]))
        if re.match(r"^0x[0-9a-f]+$", sym): continue    # no symbol: not a function
        if sym in ("mcount", "_mcount", "__fentry__"): continue      # libprof's stub
        o = own.get("@plt", sym) if sym.endswith("@plt") else own.get(sym, sym)
        if o is None: continue          # libprof's own code
        prof[o] = prof.get(o, 0) + int(f[1])
    return prof

kinds = ["plain", "perf", "glibc", "charge", "drop", "perf_pg", "fentry", "perf_fe"]
kinds += [k for k in ("itimer", "perf_gl") if k in os.environ.get("TVD_KINDS", "").split()]
if os.environ.get("TVD_BASE_LIB"): kinds += ["bdrop", "bfentry"]
if os.environ.get("TVD_KINDS"):
    kinds = [k for k in kinds if k in ("plain", "perf") or k in os.environ["TVD_KINDS"].split()]
# the flat profiles' kinds and the binary each runs
BIN = {"glibc": "glibc", "charge": "libprof", "drop": "libprof", "itimer": "libprof", "fentry": "fentry",
       "bdrop": "blibprof", "bfentry": "bfentry", "perf_pg": "libprof", "perf_fe": "fentry",
       "perf_gl": "glibc"}
GMON = [k for k in ("glibc", "charge", "drop", "itimer", "fentry", "bdrop", "bfentry") if k in kinds]
summary = []
for prog in progs:
    a = args[prog]
    if prog == "gawk": os.environ["LC_ALL"] = "C"     # (not the UTF-8 decoder's time in libc)
    b = {k: "./%s_%s" % (prog, k) for k in ("plain", "glibc", "libprof", "fentry", "blibprof", "bfentry")}
    cpu = {k: [] for k in kinds}
    files = {k: [] for k in kinds}
    for r in range(rounds):
        order = kinds[r % len(kinds):] + kinds[: r % len(kinds)]   # rotate: no kind always first
        for k in order:
            if k == "plain":
                cpu[k].append(run([b["plain"]] + a))
            elif k == "perf":
                f = "%s.perf.%d" % (prog, r)
                run(["perf", "record", "-q", "-e", "cpu-clock", "-F", perf_hz, "-o", f, b["plain"]] + a)
                files[k].append(f)
            elif k in ("perf_pg", "perf_fe", "perf_gl"):
                f = "%s.%s.%d" % (prog, k, r)
                binary = b[BIN[k]]
                run(["perf", "record", "-q", "-e", "cpu-clock", "-F", perf_hz, "-o", f, binary] + a,
                    env=dict(lp_env, LIBPROF_OVERHEAD="drop"))
                files[k].append(f)
            else:
                f = "%s.%s.%d.gmon" % (prog, k, r)
                binary = b[BIN[k]]
                env = dict(lp_env, LIBPROF_OVERHEAD="drop") if k in ("drop", "fentry", "bdrop", "bfentry") else \
                      (dict(lp_env, LIBPROF_OVERHEAD="charge") if k == "charge" else {})
                if k == "itimer": env = dict(lp_env, LIBPROF_OVERHEAD="drop", LIBPROF_CLOCK="itimer")
                cpu[k].append(run([binary] + a, env=env, out=f))
                files[k].append(f)
        if sys.stderr.isatty():
            print("%s: round %d of %d done" % (prog, r + 1, rounds), file=sys.stderr)

    vis = visible(b[BIN[GMON[0]]], files[GMON[0]][0])
    P = {"perf": [perf_prof(f, b["plain"], owners(b["plain"], vis)) for f in files["perf"]]}
    for k in ("perf_pg", "perf_fe", "perf_gl"):
        if k in kinds:
            own = owners(b[BIN[k]], vis)
            P[k] = [perf_prof(f, b[BIN[k]], own) for f in files[k]]
    for k in GMON:
        P[k] = [flat(b[BIN[k]], f) for f in files[k]]
    if os.environ.get("TVD_SAVE"):      # every run's profile, to pool batches later
        with open("%s.%s.json" % (os.environ["TVD_SAVE"], prog), "w") as o: json.dump(P, o)
    pooled = {k: pool(v) for k, v in P.items()}
    h = {k: halves(v) for k, v in P.items()}
    truth = pooled["perf"]

    print()
    print("== %s %s: %d rounds; perf at %s Hz, libprof at %s Hz" %
          (prog, " ".join(a), rounds, perf_hz, lp_env.get("LIBPROF_HZ", "its default")))
    print("   perf, plain build: %d samples in the program (h = %.1f points between halves)"
          % (sum(truth.values()), h["perf"]))
    names = {"glibc": "glibc's runtime", "charge": "libprof (charge)", "drop": "libprof (drop)",
             "fentry": "libprof -mfentry (drop)",
             "itimer": "libprof (drop), itimer", "bdrop": "base libprof (drop)", "bfentry": "base -mfentry (drop)",
             "perf_pg": "perf, -pg build", "perf_fe": "perf, -pg -mfentry build",
             "perf_gl": "perf, glibc's -pg build"}
    for k in GMON + [k for k in ("perf_pg", "perf_fe", "perf_gl") if k in kinds]:
        t = tvd(pooled[k], truth)
        fl = floor(h[k], h["perf"])
        perf = k.startswith("perf")
        tot = sum(pooled[k].values())
        print("   %-24s TVD %5.1f  floor %4.1f (h %4.1f)  excess %5.1f   [%s]"
              % (names[k], t, fl, h[k], t - fl, ("%d samples" % tot) if perf else "%.2f s" % tot))
        summary.append((prog, k, t, fl))
    for k, pk in (("drop", "perf_pg"), ("fentry", "perf_fe"), ("glibc", "perf_gl")):
        if k in P and pk in P:
            print("   %-24s TVD %5.1f  floor %4.1f against perf on the same build" %
                  (names[k], tvd(pooled[k], pooled[pk]), floor(h[k], h[pk])))
    # single runs: each round's profile against the pooled perf (median
    # and range); pairs: the pooled TVDs' difference, its 90% interval
    # from resampling the rounds (both kinds' rounds resampled together)
    print("   single runs against the pooled perf: median [least-most]:")
    for k in GMON:
        v = sorted(tvd(x, truth) for x in P[k])
        print("     %-24s %5.1f [%.1f-%.1f]" % (names[k], statistics.median(v), v[0], v[-1]))
    rng = random.Random(34)
    for x, y in (("drop", "glibc"), ("itimer", "glibc"), ("drop", "itimer"), ("fentry", "bfentry"),
                 ("drop", "bdrop"), ("fentry", "drop")):
        if x not in P or y not in P: continue
        lo, hi = resampled(P, x, y, len(P[x]), rng)
        print("   TVD %s - %s: %+.1f pooled, 90%% of resamplings in [%+.1f, %+.1f]"
              % (x, y, tvd(pooled[x], truth) - tvd(pooled[y], truth), lo, hi))
    cols = [k for k in ("perf", "perf_pg", "drop", "charge", "perf_gl", "glibc", "itimer", "perf_fe", "fentry", "bdrop", "bfentry") if k in P]
    s = {k: share(pooled[k]) for k in cols}
    ref = GMON[0] if "drop" not in s else "drop"
    keys = sorted(set().union(*s.values()), key=lambda f: -abs(s[ref].get(f, 0) - s["perf"].get(f, 0)))
    print("   largest differences, %s vs perf; shares in %%:" % ref)
    print("     %-20s" % "function" + "".join(" %7s" % c for c in cols))
    for f in keys[:10]:
        print("     %-20s" % f[:20] + "".join(" %7.1f" % (100 * s[k].get(f, 0)) for k in cols))
    tk = [k for k in ("plain", "glibc", "charge", "drop", "itimer", "fentry", "bdrop", "bfentry") if k in kinds]
    med = {k: statistics.median(cpu[k]) for k in tk}
    low = {k: min(cpu[k]) for k in tk}
    print("   CPU: plain %.2fs (median; least %.2fs); -pg over plain, median (least):" % (med["plain"], low["plain"]))
    for k in tk[1:]:
        print("     %-24s %.2fs  %.2fx (%.2fx)" % (names[k], med[k], med[k] / med["plain"], low[k] / low["plain"]))
        summary.append((prog, "cpu_" + k, med[k] / med["plain"], low[k] / low["plain"]))

print()
print("Goal (issue 21): libprof (drop) at most 10 points above its floor, and")
print("closer than glibc's runtime above its own; CPU at most 1.5x:")
nan = float("nan")
for prog in progs:
    ex = {k: t - fl for (p, k, t, fl) in summary if p == prog and not k.startswith("cpu")}
    cp = {k[4:]: t for (p, k, t, fl) in summary if p == prog and k.startswith("cpu")}
    if "drop" in ex and "glibc" in ex:
        ok = ex["drop"] <= 10 and ex["drop"] < ex["glibc"]
        print("  %-7s excess: drop %.1f, charge %.1f, glibc %.1f -> %s; CPU %.2fx -> %s" %
              (prog, ex["drop"], ex.get("charge", nan), ex["glibc"], "MET" if ok else "NOT MET",
               cp["drop"], "MET" if cp["drop"] <= 1.5 else "NOT MET"))
    if "fentry" in ex:
        print("  %-7s with -pg -mfentry: excess %.1f, CPU %.2fx; the -pg code alone (perf): %.1f, -mfentry %.1f" %
              ("", ex["fentry"], cp["fentry"], ex.get("perf_pg", nan), ex.get("perf_fe", nan)))
    for k in ("bdrop", "bfentry"):
        if k in ex:
            print("  %-7s base library, %s: excess %.1f, CPU %.2fx" % ("", k[1:], ex[k], cp[k]))
EOF
