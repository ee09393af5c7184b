#!/usr/bin/python3
# flame.py -- gprof's interactive flame graph (--flame) driven in headless
# Chromium (Debian's chromium, chromium-driver, python3-selenium):
#
#   flame.py OUTDIR FLAME.svg SEARCH ZOOM DIFF.svg ICICLE.svg THREADS.svg
#
# FLAME.svg: "Search" (the prompt answered SEARCH, a regular expression)
# colours exactly the frames whose name matches (counted here from the
# file's titles) and shows their share of all samples (nested matches
# once, worked out here from the frames' offsets); a click on the first
# frame named ZOOM makes it full width, its descendants in proportion,
# its ancestors full width and faded, the rest hidden; "Reset zoom" puts
# every box back where the file drew it, "Reset search" clears the
# colour.  DIFF.svg: every box red where its title says its own samples
# grew, blue where they shrank, as the browser computes the fill.  ICICLE.svg: the
# root on top.  A screenshot per view in OUTDIR.
# Prints "ok ..." / "FAIL ..." lines; "skip ... (chromium cannot start)"
# when there is no browser to drive.
import os, re, sys, xml.etree.ElementTree as ET

out, flame, term, zoom_name, diff, icicle, threads = sys.argv[1:8]
NS = '{http://www.w3.org/2000/svg}'
W, XPAD = 1200, 10
fails = 0


def say(good, what):
    global fails
    print(('ok ' if good else 'FAIL ') + what)
    if not good:
        fails += 1


def frames_of(path):
    """The file's frames: name (from the title), offset, samples, depth,
    x and width as drawn, in document order."""
    fr = []
    for g in ET.parse(path).getroot().iter(NS + 'g'):
        if 'f' not in (g.get('class') or '').split():
            continue
        t, r = g.find(NS + 'title').text, g.find(NS + 'rect')
        name = re.sub(r' \(\d+ samples?, .*$', '', t, flags=re.S)
        fr.append(dict(name=name, title=t, o=int(g.get('data-o')), n=int(g.get('data-n')),
                       d=int(g.get('data-d')), x=float(r.get('x')), w=float(r.get('width')),
                       fill=r.get('fill')))
    return fr


try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
              '--window-size=1240,900'):
        opts.add_argument(a)
    drv = '/usr/bin/chromedriver' if os.path.exists('/usr/bin/chromedriver') else 'chromedriver'
    driver = webdriver.Chrome(service=Service(drv), options=opts)
except Exception as e:  # no module, no browser, no display: nothing to test with
    why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    print(f'skip browser: flame graph (chromium cannot start: {why[:120]})')
    sys.exit(0)

JS_FRAMES = """
return Array.prototype.map.call(document.querySelectorAll('g.f'), function (g) {
  var r = g.querySelector('rect');
  return [+g.getAttribute('data-o'), +g.getAttribute('data-n'), +g.getAttribute('data-d'),
          +r.getAttribute('x'), +r.getAttribute('width'), getComputedStyle(g).display,
          g.classList.contains('hl'), g.classList.contains('anc'), getComputedStyle(r).fill];
});"""


def shot(name):
    path = os.path.join(out, name)
    driver.find_element(By.TAG_NAME, 'svg').screenshot(path)
    return path


def load(path):
    driver.get('file://' + os.path.abspath(path))
    h = int(ET.parse(path).getroot().get('height'))
    driver.set_window_size(1240, h + 140)


try:
    # ---- the flame graph: search, zoom, reset ----
    fr = frames_of(flame)
    load(flame)
    ids = {e.get_attribute('id') for e in driver.find_elements(By.CSS_SELECTOR, '[id]')}
    say({'search', 'unzoom', 'matched'} <= ids, f'flame: the page has its search, reset and share elements ({sorted(ids)[:6]})')
    say(len(driver.execute_script(JS_FRAMES)) == len(fr) > 1, f'flame: {len(fr)} frames in the page')
    # self-contained: the browser fetched nothing for it, and every
    # reference in the file is to itself (#id)
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    svgtext = open(flame).read()
    refs = [r for r in re.findall(r'(?:href|src)\s*=\s*"([^"]*)"|url\(([^)]*)\)', svgtext) for r in r if r]
    say(not fetched and all(r.startswith('#') for r in refs) and '<script' in svgtext
        and not re.search(r'<script[^>]*\b(src|href)=', svgtext),
        f'flame: one self-contained file, its script inline, nothing fetched ({fetched[:2]}), references {sorted(set(refs))}')
    shot('flame.png')

    # search through the button's prompt
    rx = re.compile(term)
    want = [f for f in fr if f['d'] > 0 and rx.search(f['name'])]
    iv = sorted(((f['o'], f['n']) for f in want), key=lambda p: (p[0], -p[1]))
    samples, end = 0, -1
    for o, n in iv:
        if o >= end:
            samples += n
            end = o + n
    total = fr[0]['n']
    driver.find_element(By.ID, 'search').click()
    alert = driver.switch_to.alert
    alert.send_keys(term)
    alert.accept()
    got = driver.execute_script(JS_FRAMES)
    hl = sum(1 for g in got if g[6])
    m = driver.find_element(By.ID, 'matched')
    text = m.text
    pct = f'{100.0 * samples / total:.2f}%'
    say(hl == len(want) and len(want) > 0,
        f'flame: search {term!r} colours {hl} frames (the titles say {len(want)})')
    say(int(m.get_attribute('data-samples')) == samples and pct in text and f'{samples} of {total}' in text,
        f'flame: search {term!r} shows {text!r} ({pct}, {samples} of {total} samples, nested matches once)')
    hlfill = {g[8] for g in got if g[6]}
    say(hlfill == {'rgb(230, 0, 230)'}, f'flame: the matches are drawn highlighted ({hlfill})')
    search_btn = driver.find_element(By.ID, 'search').text
    say(search_btn == 'Reset search', f'flame: the search button now reads {search_btn!r}')
    shot('flame-searched.png')

    # zoom: a click on the first frame named ZOOM (deepest first is not
    # wanted: one with children)
    zi = next(i for i, f in enumerate(fr) if f['name'] == zoom_name)
    z = fr[zi]
    driver.find_elements(By.CSS_SELECTOR, 'g.f')[zi].find_element(By.TAG_NAME, 'rect').click()
    got = driver.execute_script(JS_FRAMES)
    sc = (W - 2 * XPAD) / z['n']
    errs = []
    nd = na = nh = 0
    for f, g in zip(fr, got):
        shown = g[5] != 'none'
        if f['d'] >= z['d'] and f['o'] >= z['o'] and f['o'] + f['n'] <= z['o'] + z['n']:
            nd += 1
            wx, ww = XPAD + (f['o'] - z['o']) * sc, f['n'] * sc
            if not shown or abs(g[3] - wx) > 0.02 or abs(g[4] - ww) > 0.02 or g[7]:
                errs.append(f"{f['name']}: x {g[3]} w {g[4]} shown {shown}, want {wx:.2f} {ww:.2f}")
        elif f['d'] < z['d'] and f['o'] <= z['o'] and f['o'] + f['n'] >= z['o'] + z['n']:
            na += 1
            if not shown or abs(g[3] - XPAD) > 0.02 or abs(g[4] - (W - 2 * XPAD)) > 0.02 or not g[7]:
                errs.append(f"ancestor {f['name']}: x {g[3]} w {g[4]} anc {g[7]}")
        else:
            nh += 1
            if shown:
                errs.append(f"{f['name']} at depth {f['d']} still shown")
    zw = got[zi][4]
    say(abs(zw - (W - 2 * XPAD)) < 0.02 and z['w'] < W - 2 * XPAD - 1,
        f"flame: a click on {zoom_name} makes it full width ({z['w']:.2f} -> {zw:.2f})")
    say(not errs and nd > 1 and na > 0 and nh > 0,
        f'flame: zoomed, {nd - 1} descendants in proportion, {na} ancestors full width, {nh} others hidden '
        + '; '.join(errs[:3]))
    unz = driver.find_element(By.ID, 'unzoom')
    say(unz.is_displayed(), 'flame: "Reset zoom" appears when zoomed')
    zshot = shot('flame-zoomed.png')

    # reset: every box where the file drew it, the search cleared
    unz.click()
    got = driver.execute_script(JS_FRAMES)
    bad = [f['name'] for f, g in zip(fr, got)
           if g[5] == 'none' or abs(g[3] - f['x']) > 0.02 or abs(g[4] - f['w']) > 0.02 or g[7]]
    say(not bad and not unz.is_displayed(), f'flame: "Reset zoom" puts all {len(fr)} boxes back {bad[:3]}')
    driver.find_element(By.ID, 'search').click()
    got = driver.execute_script(JS_FRAMES)
    say(not any(g[6] for g in got) and driver.find_element(By.ID, 'matched').text == '',
        'flame: "Reset search" clears the colours and the share')
    # ?s= in the URL searches too
    driver.get('file://' + os.path.abspath(flame) + '?s=' + term)
    hl = sum(1 for g in driver.execute_script(JS_FRAMES) if g[6])
    say(hl == len(want), f'flame: ?s={term} in the URL colours {hl} frames')

    # ---- the differential flame graph ----
    dfr = frames_of(diff)
    load(diff)
    got = driver.execute_script(JS_FRAMES)
    wrong, red, blue = [], 0, 0
    for f, g in zip(dfr, got):
        # (coloured as flamegraph.pl does: by the change in the samples
        # of the node's own, the stacks that end in it)
        m2 = re.search(r'; in itself (\d+) before, (\d+) after', f['title'])
        if not m2:
            wrong.append(f"{f['name']}: no before/after in its title")
            continue
        delta = int(m2.group(2)) - int(m2.group(1))
        r_, g_, b_ = map(int, re.findall(r'\d+', g[8])[:3])
        if delta > 0:
            red += 1
            ok_ = r_ == 250 and b_ < 250
        elif delta < 0:
            blue += 1
            ok_ = b_ == 250 and r_ < 250
        else:
            ok_ = (r_, g_, b_) == (250, 250, 250) or 'hatch' in (f['fill'] or '')
        if not ok_:
            wrong.append(f"{f['name']} {delta:+d} drawn {g[8]}")
    say(not wrong and red > 0 and blue > 0,
        f'diff: {red} boxes red (grew), {blue} blue (shrank), each as its title says ' + '; '.join(wrong[:3]))
    dshot = shot('flame-diff.png')

    # ---- the icicle: the root on top; the threads as roots ----
    ifr = frames_of(icicle)
    load(icicle)
    ys = driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('g.f rect'),"
                               " function (r) { return +r.getAttribute('y'); });")
    say(len(ys) == len(ifr) and ys[0] == min(ys) and ys[0] < max(ys), f'icicle: the root on top (y {ys[0]} of {min(ys)}..{max(ys)})')
    shot('flame-icicle.png')
    tfr = frames_of(threads)
    load(threads)
    roots = [f['name'] for f in tfr if f['d'] == 1]
    say(len(roots) >= 2 and all(r.startswith('[thread ') for r in roots), f'threads: the roots are {roots}')
    shot('flame-threads.png')
    print(f'screenshots in {out}: flame.png flame-searched.png flame-zoomed.png flame-diff.png '
          'flame-icicle.png flame-threads.png')
except Exception as e:
    say(False, f'browser: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ""}')
finally:
    driver.quit()
sys.exit(1 if fails else 0)
