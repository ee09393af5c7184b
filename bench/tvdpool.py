#!/usr/bin/env python3
"""Pool the profiles of several bench/tvd.sh batches (TVD_SAVE=PREFIX
writes every run's profile as PREFIX.PROG.json): TVD against perf on the
plain build, noise floor and excess over all the batches' rounds, as
tvd.sh computes them for one batch; each batch's excess (median, range);
each run's TVD against the pooled perf (median, range); and for pairs
of kinds the difference of the pooled TVDs with the 90% interval of
resampling the rounds (a batch's rounds keep their pairing).
Usage: bench/tvdpool.py FILE.json ...   (one program's batches)
"""
import json, os, random, statistics, sys
sys.dont_write_bytecode = True          # (no __pycache__ in bench/)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tvdlib import pool, tvd, halves, floor, resampled

def excess(P, k):
    t = tvd(pool(P[k]), pool(P["perf"]))
    fl = floor(halves(P[k]), halves(P["perf"]))
    return t, fl, t - fl

batches = [json.load(open(f)) for f in sys.argv[1:]]
kinds = [k for k in batches[0] if k != "perf" and all(k in b for b in batches)]
P = {k: [p for b in batches for p in b[k]] for k in ["perf"] + kinds}
truth = pool(P["perf"])
print("%d batches, %d rounds; perf: %d samples" % (len(batches), len(P["perf"]), sum(truth.values())))
print("%-8s %6s %6s %7s   %-22s %s" % ("kind", "TVD", "floor", "excess", "batches' excess", "single runs"))
for k in kinds:
    t, fl, ex = excess(P, k)
    be = sorted(excess(b, k)[2] for b in batches if len(b[k]) > 1)
    sr = sorted(tvd(p, truth) for p in P[k])
    print("%-8s %6.1f %6.1f %7.1f   %5.1f [%5.1f, %5.1f]    %5.1f [%.1f-%.1f]"
          % (k, t, fl, ex, statistics.median(be) if be else float("nan"), be[0] if be else float("nan"),
             be[-1] if be else float("nan"), statistics.median(sr), sr[0], sr[-1]))
rng = random.Random(34)
for x, y in (("drop", "glibc"), ("itimer", "glibc"), ("drop", "itimer"), ("fentry", "bfentry"), ("drop", "bdrop"),
             ("fentry", "drop"), ("bdrop", "glibc")):
    if x not in P or y not in P: continue
    lo, hi = resampled(P, x, y, len(P["perf"]), rng)
    print("TVD %s - %s: %+.1f pooled, 90%% of resamplings in [%+.1f, %+.1f]"
          % (x, y, tvd(pool(P[x]), truth) - tvd(pool(P[y]), truth), lo, hi))
