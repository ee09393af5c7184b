"""bench/tvd1k.sh's rounds and arithmetic (see there)."""
import json, os, re, statistics, subprocess, sys

gprof, rounds, scale, nblk = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
progs = sys.argv[5:]
hz = os.environ.get("TVD_PERF_HZ", "1000")
args = {"mixed": ["mixed.lua", scale], "compress": [nblk]}

def run(cmd, env=None, out=None):
    e = dict(os.environ); e.update(env or {})
    if os.path.exists("gmon.out"): os.unlink("gmon.out")
    p = subprocess.Popen(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status: sys.exit("tvd1k.sh: %s failed (%d)" % (" ".join(cmd), status))
    if out: os.rename("gmon.out", out)
    return ru.ru_utime + ru.ru_stime

def flat(binary, gmon):
    r = subprocess.run([gprof, "--json=-", binary, gmon], capture_output=True, text=True, check=True).stdout
    prof = {}
    for e in json.loads(r).get("flat_profile", []):
        if e.get("self_seconds"): prof[e["display"]] = prof.get(e["display"], 0) + e["self_seconds"]
    return prof

def visible(binary, gmon):
    r = subprocess.run([gprof, "-b", "-p", "-z", binary, gmon], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in r.splitlines():
        f = line.split()
        if len(f) >= 4 and re.match(r"^[0-9.]+$", f[0]) and re.match(r"^[0-9.]+$", f[2]):
            i = 3
            while i < len(f) - 1 and re.match(r"^[0-9.]+$", f[i]): i += 1
            names.add(" ".join(f[i:]))
    return names

def owners(binary, vis):
    """symbol -> the listed function gprof charges it to (the listed one before it)"""
    r = subprocess.run(["nm", "-n", binary], capture_output=True, text=True, check=True).stdout
    h = subprocess.run(["objdump", "-h", binary], capture_output=True, text=True, check=True).stdout
    plt = [int(f[3], 16) for f in map(str.split, h.splitlines()) if len(f) > 3 and f[1] == ".plt"]
    own, cur = {}, None
    for line in r.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "TtWw": continue
        name = f[2]
        if plt and int(f[0], 16) <= plt[0] and name in vis: own["@plt"] = name
        if name in vis: cur = name
        own[name] = cur if name not in vis else name
    return own

def perf_prof(data, binary, own):
    r = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "-n",
                        "--sort", "dso,sym", "-t", ";"], capture_output=True, text=True).stdout
    prof, base = {}, os.path.basename(binary)
    for line in r.splitlines():
        f = [x.strip() for x in line.split(";")]
        if len(f) < 4 or line.startswith("#") or f[2] != base: continue
        sym = re.sub(r"\+0x[0-9a-f]+$", "", re.sub(r"^\[.\]\s*", "", f[3]))
        if re.match(r"^0x[0-9a-f]+$", sym): continue
        o = own.get("@plt", sym) if sym.endswith("@plt") else own.get(sym, sym)
        if o is None: continue
        prof[o] = prof.get(o, 0) + int(f[1])
    return prof

def pool(profs):
    t = {}
    for p in profs:
        for k, v in p.items(): t[k] = t.get(k, 0) + v
    return t

def tvd(a, b):
    sa, sb = sum(a.values()), sum(b.values())
    return 50 * sum(abs(a.get(k, 0) / sa - b.get(k, 0) / sb) for k in set(a) | set(b))

kinds = ["perfA", "perfB", "itimer", "default"]
print("| program | profile | single-run TVD median (range) | pooled TVD | samples or s a run |")
print("|---|---|---|---|---|")
for prog in progs:
    a, plain, pg = args[prog], "./%s_plain" % prog, "./%s_libprof" % prog
    files = {k: [] for k in kinds}
    for r in range(rounds):
        for k in kinds[r % 4:] + kinds[:r % 4]:
            if k.startswith("perf"):
                f = "%s.%s.%d" % (prog, k, r)
                run(["perf", "record", "-q", "-e", "cpu-clock", "-F", hz, "-o", f, plain] + a)
            else:
                f = "%s.%s.%d.gmon" % (prog, k, r)
                env = {"LIBPROF_HZ": "1000"}
                if k == "itimer": env["LIBPROF_CLOCK"] = "itimer"
                run([pg] + a, env=env, out=f)
            files[k].append(f)
        print("%s: round %d of %d" % (prog, r + 1, rounds), file=sys.stderr)
    vis = visible(pg, files["default"][0])
    own = owners(plain, vis)
    P = {k: [perf_prof(f, plain, own) for f in files[k]] for k in ("perfA", "perfB")}
    for k in ("itimer", "default"): P[k] = [flat(pg, f) for f in files[k]]
    for k, name in (("perfB", "perf vs perf (floor)"), ("itimer", "libprof itimer (before)"),
                    ("default", "libprof default clock (after)")):
        single = [tvd(P[k][i], P["perfA"][i]) for i in range(rounds)]
        tot = statistics.median(sum(p.values()) for p in P[k])
        print("| %s | %s | %.1f (%.1f-%.1f) | %.1f | %s |" % (
            prog, name, statistics.median(single), min(single), max(single),
            tvd(pool(P[k]), pool(P["perfA"])), ("%d" % tot) if k.startswith("perf") else "%.2f s" % tot))
    sys.stdout.flush()
