#!/bin/sh
# html.sh -- gprof --html in headless Chromium (tests/browser/html.py):
# sorting, filtering and navigation asserted on the page's DOM, the
# numbers against the text report, the flame graph and the objects views,
# and a 20,000-function profile opened and used in under 2 s.  Skipped
# with a message where python3-selenium, chromium or chromedriver is
# missing or Chromium cannot start.  GPROF is the gprof to test, OUT a
# scratch directory (screenshots in OUT/shots).
cd "$(dirname "$0")"
here=$(pwd)
top=$(cd ../.. && pwd)
: "${GPROF:=$top/gprof}" "${OUT:=$top/tests/out/html}"
py=
for p in python3 /usr/bin/python3; do
  if command -v $p > /dev/null && $p -c 'import selenium' 2> /dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
  echo "skip html: python3-selenium is not installed (apt-get install chromium chromium-driver python3-selenium)"
  echo "html: done"; exit 0
fi
if ! command -v chromedriver > /dev/null && [ ! -x /usr/bin/chromedriver ]; then
  echo "skip html: chromedriver is not installed (apt-get install chromium-driver)"
  echo "html: done"; exit 0
fi
lp=
[ "$(uname -m)" = x86_64 ] && [ -f "$top/libprof/libprof.a" ] && lp="--libprof $top/libprof"
# the shared big-profile generator when there is one, else bench/genprof.py's
[ -f "$top/../shared/bench/bigprof.py" ] && BIGPROF=$top/../shared/bench/bigprof.py && export BIGPROF
$py "$here/html.py" "$GPROF" "$OUT" $lp --big 20000 200000
