"""The arithmetic of bench/tvd.sh (its inline Python) and bench/tvdpool.py,
in one place.  A profile is {function: self time}, in seconds (gprof's
flat profile) or samples (perf); P is {kind: [profile of each round]}
with the rounds of every kind in the same order (round i of two kinds ran
side by side), "perf" the truth.
"""
import math, random, statistics

def pool(profs):
    """The sum of the profiles (an iterable), summed in the order given."""
    t = {}
    for p in profs:
        for k, v in p.items(): t[k] = t.get(k, 0) + v
    return t

def share(p):
    """{function: its share of the profile's total} ({} for an empty one)."""
    s = sum(p.values())
    return {k: v / s for k, v in p.items()} if s else {}

def tvd(a, b):
    """Total variation distance of two profiles' shares, in points (percent)."""
    a, b = share(a), share(b)
    return 50 * sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b))

def halves(profs, seed=21):
    """Mean TVD between two halves of the rounds, over random balanced splits
    drawn from SEED (each half pooled in the rounds' order); nan under two
    rounds."""
    n = len(profs)
    if n < 2: return float("nan")
    rng = random.Random(seed)
    vals = []
    for _ in range(40):
        idx = list(range(n)); rng.shuffle(idx)
        a = sorted(idx[: n // 2]); b = sorted(idx[n // 2: 2 * (n // 2)])
        vals.append(tvd(pool(profs[i] for i in a), pool(profs[i] for i in b)))
    return statistics.mean(vals)

def floor(h_x, h_perf):
    """The sampling noise expected in TVD(X, perf) of the full pools, from
    the halves' TVDs of X and of perf (tvd.sh's header says why)."""
    return math.sqrt(h_x ** 2 + h_perf ** 2) / 2

def resampled(P, x, y, n, rng):
    """The 90% interval of TVD(x, perf) - TVD(y, perf) over 400 resamplings
    (with replacement) of the first n rounds, each round's kinds kept
    together: (low, high)."""
    d = []
    for _ in range(400):
        idx = [rng.randrange(n) for _ in range(n)]
        tr = pool(P["perf"][i] for i in idx)
        d.append(tvd(pool(P[x][i] for i in idx), tr) - tvd(pool(P[y][i] for i in idx), tr))
    d.sort()
    return d[len(d) // 20], d[len(d) - 1 - len(d) // 20]
