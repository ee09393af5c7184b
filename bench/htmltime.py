#!/usr/bin/env python3
"""htmltime.py -- how fast gprof --html's page opens and responds in a
browser (headless Chromium: chromium, chromium-driver, python3-selenium).

  python3 bench/htmltime.py [--runs R] [--dir DIR] [synth | program | PAGE.html]

  synth    (the default) bench/genprof.py's profile of 20,000 functions and
           about 200,000 calls in big cycles (no stacks, no source)
  program  a C program of 20,000 functions (a call tree with cross calls
           and a recursion, DIR/prog.c) built -O1 -fno-inline -g -pg
           against libprof, run with LIBPROF_STACKS=64: a page with the
           flame graph and the annotated source too (builds once, in
           about a minute, cached in DIR)
  PAGE     a page already written (a real program's)

For each of R loads (default 5) of the page, in a fresh document:
  open    navigation start to the end of the page's script (the first
          view drawn, every handler in place: window.gprofReady)
  paint   navigation start to the first contentful paint
  sort    a click on the flat profile's "name" header to its rows drawn
  filter  text typed in the flat profile's filter to its rows drawn
          (the page waits 60 ms for typing to pause: included)
  click   a click on a function's name to its call-graph entry drawn
  flame   the flame graph tab to its SVG loaded (pages with stacks)
then the medians and the range.  GPROF (default ./gprof) writes the page,
its wall time printed too (medians of R runs).  The machine's load makes
the figures vary: say so with them."""
import os, shutil, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)
args = sys.argv[1:]
runs, work = 5, None
if "--runs" in args:
    i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
if "--dir" in args:
    i = args.index("--dir"); work = os.path.abspath(args[i + 1]); del args[i:i + 2]
what = args[0] if args else "synth"
if what in ("-h", "--help"):
    sys.exit(__doc__)
GPROF = os.path.abspath(os.environ.get("GPROF", os.path.join(top, "gprof")))
N, M = 20000, 200000


def gen_program(n, path):
    """N functions: f_i calls f_2i+1 and f_2i+2 (a tree 15 deep; each
    call made 7 times in 8), every third one past 1000 also a function
    further on, f_0 to f_63 a recursion guarded
    by depth; the leaves spin a little, so that time spreads over many."""
    with open(path, "w") as f:
        f.write("volatile unsigned sink;\n")
        for i in range(n):
            f.write(f"unsigned f{i}(unsigned x, unsigned d);\n")
        for i in range(n):
            f.write(f"unsigned f{i}(unsigned x, unsigned d)\n{{\n  unsigned y = x * {3 + i % 89}u + {i}u;\n")
            for c in (2 * i + 1, 2 * i + 2):
                if c < n:
                    f.write(f"  if (((x >> {c % 3}) & 7) != 0) y += f{c}(x * 2654435761u + {c}u, d + 1);\n")
            if i % 3 == 0 and i > 1000 and i * 7 + 11 < n:
                f.write(f"  if ((x & 15) == 0) y += f{i * 7 + 11}(x >> 1, d + 1);\n")
            if 0 < i < 64:
                f.write(f"  if (d < 3 && (x & 31) == 1) y += f{i // 2}(x >> 3, d + 8);\n")
            f.write(f"  for (unsigned k = 0; k < {8 + i % 23}u; k++) y = y * 33u + k;\n  sink = y;\n  return y;\n}}\n")
        f.write("int main(int argc, char **argv)\n{\n  unsigned t = 0, n = argc > 1 ? (unsigned)atoi(argv[1]) : 100;\n"
                "  for (unsigned r = 0; r < n; r++) t += f0(r * 40503u + 1, 0);\n  sink = t;\n  return 0;\n}\n")


def make_page(w):
    """the page to time, written into W (made once)"""
    page = os.path.join(w, "page.html")
    if what == "synth":
        if not os.path.exists(os.path.join(w, "gmon.out")):
            subprocess.run([sys.executable, os.path.join(here, "genprof.py"), "big", str(N), str(M), "1", w],
                           check=True, stdout=subprocess.DEVNULL)
        cmd = [GPROF, "--html=page.html", "prog", "gmon.out"]
    elif what == "program":
        if not os.path.exists(os.path.join(w, "prog")):
            src = os.path.join(w, "prog.c")
            with open(src + ".h", "w") as f:
                f.write("#include <stdlib.h>\n")
            gen_program(N, src)
            print(f"building a {N}-function -pg program ...", flush=True)
            subprocess.run(["cc", "-O1", "-fno-inline", "-g", "-pg", "-fno-omit-frame-pointer", "-include",
                            src + ".h", src, "-o", "prog", "-L" + os.path.join(top, "libprof"), "-lprof"],
                           cwd=w, check=True)
        if not os.path.exists(os.path.join(w, "gmon.out.stacks")):
            env = dict(os.environ, LIBPROF_STACKS="64", LIBPROF_HZ="1000")
            subprocess.run(["./prog", "4000"], cwd=w, env=env, check=True)
        cmd = [GPROF, "--html=page.html", "prog", "gmon.out"]
    else:
        return os.path.abspath(what), None
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=w, check=True, stdout=subprocess.DEVNULL)
        t.append(time.perf_counter() - t0)
    return page, t


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
except ImportError:
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)     # Debian's, with python3-selenium
    sys.exit("htmltime: python3-selenium is not installed (apt-get install chromium chromium-driver python3-selenium)")

w = work or os.path.join(tempfile.gettempdir(), "gprof-htmltime-" + what.replace("/", "_")[:40])
os.makedirs(w, exist_ok=True)
page, tg = make_page(w)

o = Options()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"):
    o.add_argument(a)
for b in ("chromium", "chromium-browser", "google-chrome"):
    if shutil.which(b):
        o.binary_location = shutil.which(b)
        break
d = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=o)
d.set_script_timeout(60)

# each measured in the page, from the action to the DOM it changes; the
# async ones poll every frame (4 ms) for the change
SORT = """const th = document.querySelector('#flat-head th[data-col="6"]');
  const t = performance.now(); th.click(); document.body.offsetHeight; return performance.now() - t"""
FILTER = """const done = arguments[arguments.length - 1];
  const i = document.getElementById('flat-filter'), c = document.getElementById('flat-count');
  const before = c.textContent, t = performance.now();
  i.value = arguments[0]; i.dispatchEvent(new Event('input'));
  (function poll() { if (c.textContent !== before) { document.body.offsetHeight; done(performance.now() - t); }
    else setTimeout(poll, 4); })()"""
CLICK = """const done = arguments[arguments.length - 1];
  const a = document.querySelector('#flat-body a[href^="#graph/"]');
  const want = 'Entry [' + a.getAttribute('href').split('/')[1] + ']', h = document.getElementById('cg-head');
  const t = performance.now(); a.click();
  (function poll() { if (h.textContent.startsWith(want)) { document.body.offsetHeight; done(performance.now() - t); }
    else setTimeout(poll, 4); })()"""
FLAME = """const done = arguments[arguments.length - 1];
  const b = document.querySelector('#tabs button[data-v="flame"]');
  if (!b) { done(null); return; }
  const fr = document.getElementById('flame-frame'), t = performance.now();
  fr.addEventListener('load', () => done(performance.now() - t), { once: true });
  b.click()"""
res = {k: [] for k in ("open", "paint", "sort", "filter", "click", "flame")}
try:
    for _ in range(runs):
        d.get("about:blank")
        d.get("file://" + page)
        for _ in range(400):
            if d.execute_script("return window.gprofReady !== undefined"):
                break
            time.sleep(0.05)
        res["open"].append(d.execute_script("return window.gprofReady"))
        time.sleep(0.2)
        res["paint"].append(d.execute_script(
            "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null"))
        res["sort"].append(d.execute_script(SORT))
        res["filter"].append(d.execute_async_script(FILTER, "1"))
        d.execute_async_script(FILTER, "")
        res["click"].append(d.execute_async_script(CLICK))
        res["flame"].append(d.execute_async_script(FLAME))
finally:
    d.quit()

size = os.path.getsize(page)
nfn = None
print(f"page: {page} ({size / 1e6:.1f} MB); {runs} runs each, headless Chromium")
if tg:
    print(f"  gprof --html   median {statistics.median(tg) * 1000:7.0f} ms  range {min(tg) * 1000:.0f}-{max(tg) * 1000:.0f}")
for k, v in res.items():
    v = [x for x in v if x is not None]
    if v:
        print(f"  {k:6s}         median {statistics.median(v):7.0f} ms  range {min(v):.0f}-{max(v):.0f}")
worst = max(statistics.median([x for x in v if x is not None]) for v in res.values() if any(x is not None for x in v))
print(f"  slowest median {worst:.0f} ms: {'under' if worst < 2000 else 'NOT under'} 2 s")
